"""Typing: a key -> its character painted, in the app and in a bare Textual app.

Every key the app reads is handed to the focused widget only once the key before it has
climbed to the app (app/ui/key_order.py: KeysInOrder), and the composer saves drafts and
resizes itself as it fills; this prices that against a bare Textual app (one TextArea, one
Input) in the same process and run, typed the same way.

    composer     a sentence typed into the composer (the focus at start), one key at a time
                 at a fast typist's pace (a key every PACE seconds): each key -> its
                 character in the composer's text and the screen painted.
    dialog       the same into the store's query box (the store opened with S).
    bare         the same keys into a bare Textual app's TextArea and Input.

No server is seeded: the embedded demo server only has to answer the app's start.

--smoke: "a, b?" (a letter, a comma, a space, a question mark: each kind of key) instead of 63 keys.
"""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.widgets import Input, TextArea

from bench.common import (
    TERMINAL,
    cli,
    emit,
    make_app,
    median,
    ms,
    now,
    painted,
    press,
    running,
    settle,
    sized,
    verdict,
    wait_until,
)

SENTENCE = "where did the second run of last night spend its time, and why?"
SMOKE_SENTENCE = "a, b?"
PACE = 0.06
KEY_NAMES = {" ": "space", ",": "comma", "?": "question_mark"}


class Bare(App[None]):
    def compose(self) -> ComposeResult:
        yield TextArea(id="area")
        yield Input(id="field")


async def type_into(app, widget, read, sentence: str) -> list[float]:
    """ms from each key to its character read back and the screen painted. The cursor does
    not blink: its next blink's paint would be taken for the key's, up to 0.5 s late."""
    widget.cursor_blink = False
    took = []
    for index, char in enumerate(sentence):
        start = now()
        press(app, KEY_NAMES.get(char, char), char)
        await wait_until(lambda index=index: read().endswith(sentence[: index + 1]), what=f"key {index}")
        took.append(ms(await painted(app) - start))
        await asyncio.sleep(PACE)
    return took


async def warmed(app) -> None:
    """A key typed and taken back: a bare TextArea's first key took 0.9 s (what it builds
    once), which the app's composer has done by the time a person types."""
    for key in ("x", "backspace"):
        press(app, key, "x" if key == "x" else None)
        await settle(app, 0.2)


async def bare_typing(sentence: str) -> tuple[list[float], list[float]]:
    app = Bare()
    async with running(app):
        area, field = app.query_one(TextArea), app.query_one(Input)
        area.focus()
        await warmed(app)
        in_area = await type_into(app, area, lambda: area.text, sentence)
        field.focus()
        await warmed(app)
        in_field = await type_into(app, field, lambda: field.value, sentence)
    return in_area, in_field


async def app_typing(url: str, sentence: str) -> tuple[list[float], list[float]]:
    from threadbench.ui.screens.store import StoreScreen

    app = make_app(url)
    async with running(app, TERMINAL):
        await wait_until(
            lambda: app.session.backend is not None and app.screen.sidebar.thread_list is not None, what="main screen"
        )
        screen, composer = app.screen, app.screen.query_one("#composer")
        # the start settles first: on a server with threads the newest opens and the list takes
        # the focus (keys typed before then would go to the list); then the user tabs back
        await wait_until(
            lambda: screen.conversation.thread_state is not None or screen.conversation.chat.shows_welcome,
            what="the newest thread open, or the welcome",
        )
        await settle(app, 0.5)
        composer.focus()
        await wait_until(lambda: app.focused is composer, what="the composer focused")
        await settle(app, 0.5)
        in_composer = await type_into(app, composer, lambda: composer.text, sentence)
        press(app, "escape")
        await wait_until(lambda: app.focused is not composer, what="the composer left")
        press(app, "S")
        await wait_until(lambda: isinstance(app.screen, StoreScreen) and app.screen.is_mounted, what="the store open")
        query = app.screen.query_one("#store-query", Input)
        tree = app.screen.query_one("#store-tree")
        await wait_until(lambda: app.focused is tree, what="the store opened (its namespaces focused)")
        press(app, "slash")  # (as a person does; focused before the screen's opening, it took the focus back)
        await wait_until(lambda: app.focused is query, what="the store's search focused")
        await settle(app, 0.5)
        in_dialog = await type_into(app, query, lambda: query.value, sentence)
        press(app, "escape")
        await wait_until(lambda: not isinstance(app.screen, StoreScreen), what="the store closed")
    return in_composer, in_dialog


def typed(name: str, took: list[float], bare: list[float], where: str, sentence: str):
    worst = took.index(max(took))
    return verdict(
        name,
        max(took),
        50.0,
        baseline=max(bare),
        baseline_name="bare Textual",
        note=f"median {median(took):.0f} ms over {len(took)} keys, the worst the {ordinal(worst + 1)} "
        f"({sentence[worst]!r}); {where}: median {median(bare):.0f}, worst {max(bare):.0f} "
        f"(the {ordinal(bare.index(max(bare)) + 1)} key)",
    )


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


async def main(args) -> list:
    import tests.support.driving  # noqa: F401  (wait_until's, imported by its first call: 0.9 s inside a measure)

    sentence = sized(args, full=SENTENCE, quick=SENTENCE, smoke=SMOKE_SENTENCE)
    bare_area, bare_field = await bare_typing(sentence)
    in_composer, in_dialog = await app_typing(args.url, sentence)
    return [
        typed("typing: key to character painted, composer", in_composer, bare_area, "a bare TextArea", sentence),
        typed("typing: key to character painted, dialog field", in_dialog, bare_field, "a bare Input", sentence),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
