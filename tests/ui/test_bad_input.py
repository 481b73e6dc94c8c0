"""The bad-input corpus (issue #7): the real app on the real LangGraph server, fed what
servers and people really send: Rich markup, ANSI/OSC escape sequences and control
characters in every place server text shows; a 1 MB message; a state nested 200 levels
deep; emoji, CJK and right-to-left text; invalid JSON in every editor; invalid thread
ids; odd filters; payloads with missing fields, nulls and extra fields; an answer sent
twice.

Every case asserts the same three things: no crash (no exception, the app still runs and
shows its screens), a clear message where the input is refused, and nothing lost (the
text typed is still there, the value on the server unchanged, or shown literally).

Threads are crafted on the server with update_state, on the demo agent ("agent") or on
tests/graphs/bad_input_graphs.py's `bi_root`, whose state is a plain dict that keeps any
key and any message exactly as sent. One app (`bench`) serves the whole module: each case
opens its own thread (found by its `suite=` tag) and starts from the main screen.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
import pytest_asyncio
from langgraph_sdk import get_client
from rich.cells import cell_len
from support.driving import make_app, notices, press_at_once, screen_lines, settle, shown_row, wait_for
from textual.strip import Strip
from textual.widgets import Input, Static, TextArea
from threadbench.thread_filter import parse_filter
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.edit_state import EditStateScreen
from threadbench.ui.screens.human_input import HumanInputScreen
from threadbench.ui.screens.new_thread import NewThreadScreen
from threadbench.ui.screens.prompt import PromptScreen
from threadbench.ui.screens.run_options import RunOptionsScreen
from threadbench.ui.text import clean
from threadbench.ui.widgets import chat_entries
from threadbench.ui.widgets.chat_entries import ChatLine, MessageEntry
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.state_tree import StateTree, TextViewScreen
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server

RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""What must never reach the terminal from data: C0 (but tab, newline), DEL, C1."""


# -- the bench: one app for the module ----------------------------------------------------------


@dataclass
class Bench:
    app: Any
    pilot: Any
    url: str
    seeded: dict[str, tuple[str, str]] = field(default_factory=dict)
    """scene name -> (thread id, suite tag), made once and shared by the cases of a scene."""
    copies: dict[str, dict] = field(default_factory=dict)

    @property
    def client(self):
        return get_client(url=self.url)

    @property
    def main(self) -> MainScreen:
        return next(s for s in self.app.screen_stack if isinstance(s, MainScreen))

    async def seed(
        self, scene: str, values: dict | None, *, graph: str = "bi_root", metadata: dict | None = None
    ) -> tuple[str, str]:
        if scene not in self.seeded:
            tag = uuid.uuid4().hex[:10]
            thread = await self.client.threads.create(graph_id=graph, metadata={**(metadata or {}), "suite": tag})
            if values is not None:
                await self.client.threads.update_state(
                    thread["thread_id"], values, as_node="noop" if graph == "bi_root" else "title"
                )
            self.seeded[scene] = (thread["thread_id"], tag)
        return self.seeded[scene]

    async def server_copy(self, thread_id: str) -> dict:
        """The thread's values and metadata as the server has them (read once per thread)."""
        if thread_id not in self.copies:
            state, thread = await asyncio.gather(
                self.client.threads.get_state(thread_id), self.client.threads.get(thread_id)
            )
            self.copies[thread_id] = {"values": state["values"], "metadata": thread["metadata"]}
        return self.copies[thread_id]

    async def search(self, text: str) -> None:
        box = self.main.query_one("#thread-search", Input)
        box.focus()
        box.value = text
        await self.pilot.pause()

    async def open(self, scene: str, values: dict | None = None, **kwargs) -> str:
        """Seed (once) and open the scene's thread; returns its id once everything shows it."""
        thread_id, tag = await self.seed(scene, values, **kwargs)
        main, pilot = self.main, self.pilot
        threads = main.query_one("#thread-list", ThreadList)
        tree = main.query_one("#state-tree", StateTree)
        if main.conversation.thread_id == thread_id and tree.state is not None and tree.state.thread_id == thread_id:
            return thread_id
        await self.search(f'suite="{tag}"')  # quoted: a tag of digits stays a string
        try:
            await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread_id], what=f"{scene} listed")
        except AssertionError as missing:
            search = main.query_one("#thread-search", Input).value
            rows = [t.thread_id for t in threads.threads][:3]
            workers = [(w.group, w.state) for w in main.workers]
            raise AssertionError(
                f"{scene} not listed: search {search!r}, rows {rows}, notices {notices(self.app)}, workers {workers}"
            ) from missing
        if main.conversation.thread_id != thread_id:
            threads.highlighted = 0
        await wait_for(
            pilot,
            lambda: tree.state is not None and tree.state.thread_id == thread_id,
            timeout=60,
            what=f"{scene} open",
        )
        await settle(pilot)
        return thread_id

    async def back_to_main(self) -> None:
        """Close whatever a case left open (a modal), so the next case starts clean."""
        for _ in range(6):
            if isinstance(self.app.screen, MainScreen):
                break
            self.app.screen.dismiss(None)
            await settle(self.pilot)
        assert isinstance(self.app.screen, MainScreen)


BENCH_SIZE = (160, 40)
"""A 38-column thread list (pane_layout.py): the longest title of the payloads shows whole."""


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def bench(server_url):
    app = make_app(server_url)
    async with app.run_test(size=BENCH_SIZE) as pilot:
        await wait_for(pilot, lambda: app.session.backend is not None and isinstance(app.screen, MainScreen))
        yield Bench(app, pilot, server_url)


@pytest_asyncio.fixture(loop_scope="session")
async def b(bench):
    """The bench, on the main screen; after the case: still alive, nothing raw on screen."""
    await bench.back_to_main()
    yield bench
    assert_alive(bench.app)
    assert_nothing_raw(bench.app)
    await bench.back_to_main()


# -- reading the screen ---------------------------------------------------------------------------


def assert_alive(app) -> None:
    assert app._exception is None, f"the app crashed: {app._exception!r}"
    assert app.return_code is None, "the app exited"
    assert any(isinstance(s, MainScreen) for s in app.screen_stack)


def assert_nothing_raw(app) -> None:
    """No control character reaches the terminal, and every row is exactly the screen wide
    (a wide character counted as narrow, or the reverse, would break that)."""
    for number, line in enumerate(screen_lines(app)):
        assert not RAW_CONTROL.search(line), f"raw control character on row {number}: {line!r}"
        assert cell_len(line) == BENCH_SIZE[0], f"row {number} is {cell_len(line)} cells: {line!r}"
    svg = app.export_screenshot()
    assert "\x1b" not in svg and "\x07" not in svg and "\x9b" not in svg


@dataclass
class InChat:
    """A part of the chat: the lines of its entry `index` (of a reply, `part` "text" is what
    it says, "call" its tool call's fold from the title on; None: all of them)."""

    chat: ChatLog
    index: int
    part: str | None = None

    def holds(self, found: tuple[int, ChatLine] | None) -> bool:
        if found is None or found[0] != self.index:
            return False
        lines = self.chat.lines_of(self.index)
        call = next(
            (n for n, line in enumerate(lines) if (line.target or "").startswith("fold:") and ":call:" in line.target),
            len(lines),
        )
        part = {"text": lines[:call], "call": lines[call:]}.get(self.part, lines)
        return any(line is found[1] for line in part)


def in_chat(main: MainScreen, message_id: str, part: str | None = None) -> InChat:
    """The chat's lines of the message `message_id`."""
    chat = main.query_one("#chat-log", ChatLog)
    index = next(n for n, e in enumerate(chat.entries) if isinstance(e, MessageEntry) and e.message.id == message_id)
    return InChat(chat, index, part)


def visible_region(app, widget):
    """What is visible of the widget's content (inside its border and padding)."""
    visible = app.screen._compositor.visible_widgets
    assert widget in visible, f"{widget!r} is not on screen"
    region, clip = visible[widget]
    return region.shrink(widget.styles.gutter).intersection(clip)


def place_rows(app, place) -> list[tuple[int, int, Strip]]:
    """The screen rows that show `place` (a widget, or a part of the chat): (y, the x its
    text starts at, what the row shows there). A chat line's gutter (the message's coloured
    edge) is left out: a person reads the text after it."""
    if not isinstance(place, InChat):
        region = visible_region(app, place)
        strips = app.screen._compositor.render_strips()
        return [(y, region.x, strips[y].crop(region.x, region.right)) for y in range(region.y, region.bottom)]
    rows = []
    for y, x, strip in place_rows(app, place.chat):
        # the chat marks the cells of a line's text with its place (Textual's offsets, for selecting)
        marks = [seg.style.meta["offset"][1] for seg in strip if seg.style and "offset" in seg.style.meta]
        line_no = marks[-1] if marks else -1
        found = place.chat.line_at(line_no) if line_no >= 0 else None
        if place.holds(found):
            gutter = found[1].gutter.cell_length
            rows.append((y, x + gutter, strip.crop(gutter, strip.cell_length)))
    return rows


def region_lines(app, place) -> list[str]:
    """The rows of the screen `place` occupies (what is visible of it), as text."""
    return [strip.text for _, _, strip in place_rows(app, place)]


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def shows(app, place, expected: str) -> bool:
    """`expected` is visible in the widget or part of the chat (wrapping and padding aside)."""
    return squeeze(expected) in squeeze("".join(region_lines(app, place)))


def links_in(app, place) -> list[str]:
    """Links and click actions in the place's rendering (data must create none)."""
    found = []
    for _, _, strip in place_rows(app, place):
        for segment in strip:
            style = segment.style
            if style is None:
                continue
            if style.link:
                found.append(f"link {style.link}")
            click = (style.meta or {}).get("@click")
            if click and "quit" in str(click):
                found.append(f"@click {click}")
    return found


async def click_text(b: Bench, place, text: str) -> None:
    """Click where `text` shows inside the widget or part of the chat."""
    for y, x, strip in place_rows(b.app, place):
        line = strip.text
        column = line.find(text)
        if column >= 0:
            await b.pilot.click(offset=(x + cell_len(line[:column]) + 1, y))
            await settle(b.pilot)
            return
    raise AssertionError(f"{text!r} is not on screen in {place!r}")


# -- 1. server text shown literally: 4 payloads x 9 places ----------------------------------------

PAYLOADS = {
    "markup": "[bold]B[/] [@click=app.quit]Q[/]",
    "ansi": "\x1b[31mred\x1b[0m \x1b[2J\x1b[?1049l",
    "osc": "\x1b]52;c;aGk=\x07 \x1b]8;;http://x.y\x07L",
    "control": "a\x00b\x07c\x08d\x7fe\x9bf\x85g",
}
SHORT = {
    "markup": "[@click=app.quit]",
    "ansi": "\x1b[31mred\x1b[0m",
    "osc": "\x1b]52;c;aGk=\x07",
    "control": "a\x00b\x07c\x7fd\x9be",
}
"""For the thread list's metadata tags, which are cut at 24 characters."""


def literal_values(payload: str) -> dict:
    return {
        "title": payload,
        "messages": [
            {"type": "human", "content": payload, "id": "h1"},
            {
                "type": "ai",
                "content": payload,
                "id": "a1",
                "tool_calls": [{"name": "lookup", "args": {"q": payload}, "id": "c1"}],
            },
            {"type": "tool", "content": payload, "name": "lookup", "tool_call_id": "c1", "id": "t1"},
        ],
        payload: 1,
        "v": payload,
    }


def place_widget(main: MainScreen, place: str):
    if place in ("list-title", "metadata"):
        return main.query_one("#thread-list")
    if place == "header":
        return main.query_one("#chat-header")
    if place == "human":
        return in_chat(main, "h1")
    if place == "ai":
        return in_chat(main, "a1", "text")
    if place == "tool-args":
        return in_chat(main, "a1", "call")
    if place == "tool-result":
        return in_chat(main, "t1")
    return main.query_one("#state-tree")


def expected_text(place: str, value: str, tag: str) -> str:
    """How the place shows `value` (as the server keeps it): control characters as the
    visible symbols of threadbench.ui.text.clean, markup as typed."""
    if place == "metadata":
        return "m=" + clean(tag)
    if place == "list-title":  # the list's title is on one line: whitespace runs collapsed
        return clean(" ".join(value.split()))
    if place == "tool-args":  # shown as JSON: C0 escaped by JSON, the rest made visible
        return clean(json.dumps(value, ensure_ascii=False))
    if place == "state-value":
        return repr(clean(value))
    return clean(value)


async def open_fold(b: Bench, place: InChat, opened: bool) -> None:
    """Open (or close) the fold of `place` (a tool call, a tool's result) as a person does:
    tab to its title in the chat, enter."""
    chat = place.chat
    target = next(
        line.target for line in chat.lines_of(place.index) if place.holds((place.index, line)) and line.target
    )
    key = target.removeprefix("fold:")
    for _ in range(12):
        if (key in chat.opened) == opened:
            return
        if not chat.has_focus:
            chat.focus()
            await b.pilot.pause()
        await b.pilot.press("tab")  # (past the last fold the focus moves on, and comes back)
        if chat.cursor == target:
            await b.pilot.press("enter")
            await settle(b.pilot)
    raise AssertionError(f"tab and enter did not {'open' if opened else 'close'} {key}")


LITERAL_PLACES = [
    "list-title",
    "header",
    "metadata",
    "human",
    "ai",
    "tool-args",
    "tool-result",
    "state-key",
    "state-value",
]


@pytest.mark.parametrize("place", LITERAL_PLACES)
@pytest.mark.parametrize("kind", list(PAYLOADS))
async def test_server_text_is_shown_literally(b: Bench, kind: str, place: str) -> None:
    payload = PAYLOADS[kind]
    thread_id = await b.open(f"literal-{kind}", literal_values(payload), metadata={"m": SHORT[kind]})
    main = b.main
    server = await b.server_copy(thread_id)
    value = server["values"]["v"]  # the server keeps the payload (a NUL becomes U+FFFD there)
    assert clean(value) == clean(payload).replace("␀", "\ufffd")
    widget = place_widget(main, place)
    if place in ("tool-args", "tool-result"):
        await open_fold(b, widget, True)  # the arguments or the output in full
    expected = expected_text(place, value, server["metadata"]["m"])
    assert shows(b.app, widget, expected), f"{expected!r} not in {region_lines(b.app, widget)}"
    assert not links_in(b.app, widget)
    if kind == "markup" and place in ("list-title", "header", "human", "ai", "tool-result", "state-key"):
        await click_text(b, widget, "[@click=app.quit]")  # clicking it does nothing
        assert_alive(b.app)
    if place in ("tool-args", "tool-result"):
        await open_fold(b, widget, False)
    # The data itself is untouched: the app holds exactly what the server sent.
    state = main.conversation.thread_state
    assert state is not None and state.values == server["values"]
    assert state.messages[0].text == value


async def test_a_metadata_filter_finds_a_thread_by_an_odd_value(b: Bench) -> None:
    thread_id, tag = await b.seed("literal-markup", literal_values(PAYLOADS["markup"]), metadata={"m": SHORT["markup"]})
    threads = b.main.query_one("#thread-list", ThreadList)
    await b.search(f'suite="{tag}" "m={SHORT["markup"]}"')
    await wait_for(b.pilot, lambda: [t.thread_id for t in threads.threads] == [thread_id], what="found by m=")
    assert b.main.query_one("#thread-search", Input).value.endswith(f'"m={SHORT["markup"]}"')


# -- 2. emoji, CJK and right-to-left text -----------------------------------------------------------

WIDE_TITLES = {
    "cjk": "中文标题：关于数据分析与研究报告的详细总结以及后续的工作计划安排",
    "emoji": "Emoji 😀🎉👍 rocket 🚀 and party 🥳 with a title long enough to be cut",
    "rtl": "שלום עולם مرحبا بالعالم — a right-to-left title long enough to be cut",
}
WIDE_MESSAGES = {
    "cjk": "请总结这份报告。第一部分讨论了数据的来源，第二部分分析了结果。",
    "emoji": "Great work 👍 the deploy 🚀 went fine 🎉 — thanks 🙏",
    "rtl": "שלום, מה שלומך? مرحبا، كيف حالك؟ mixed with English",
}


@pytest.mark.parametrize("script", list(WIDE_TITLES))
async def test_a_wide_or_rtl_title_fits_its_row(b: Bench, script: str) -> None:
    title = WIDE_TITLES[script]
    thread_id = await b.open(f"title-{script}", {"title": title, "messages": []})
    threads = b.main.query_one("#thread-list", ThreadList)
    lines = shown_row(threads, thread_id).split("\n")
    assert len(lines) == 2, "the row is two lines: title, then status and tags"
    width = threads.scrollable_content_region.width
    for line in lines:
        assert cell_len(line) == width
    first = lines[0].strip()
    assert title.startswith(first.removesuffix("…")), first
    assert first.endswith("…") and cell_len(first) <= width
    header = b.main.query_one("#chat-header")
    assert shows(b.app, header, title[:10])


@pytest.mark.parametrize("script", list(WIDE_MESSAGES))
async def test_a_wide_or_rtl_message_shows_whole(b: Bench, script: str) -> None:
    text = WIDE_MESSAGES[script]
    await b.open(
        f"message-{script}",
        {
            "messages": [{"type": "human", "content": text, "id": "h"}, {"type": "ai", "content": text, "id": "a"}],
            text[:6]: text,
        },
    )
    main = b.main
    assert shows(b.app, in_chat(main, "h"), text)
    assert shows(b.app, in_chat(main, "a"), text)
    assert shows(b.app, main.query_one("#state-tree"), text[:6])
    # assert_nothing_raw (after the case) checks every row is exactly the screen's width


# -- 3. payloads with missing fields, nulls and extra fields ---------------------------------------

SHAPES: dict[str, tuple[dict, list[str]]] = {
    "content-null-tool-calls-null": (
        {
            "messages": [
                {"type": "ai", "content": None, "tool_calls": None, "id": "a"},
                {"type": "human", "content": "after the null", "id": "h", "additional_kwargs": None},
            ]
        },
        ["after the null"],
    ),
    "unknown-type-extra-keys": (
        {
            "messages": [
                {
                    "type": "mystery",
                    "content": "from a mystery sender",
                    "id": "x",
                    "extra": {"k": 1},
                    "response_metadata": None,
                }
            ]
        },
        ["from a mystery sender"],
    ),
    "messages-that-are-not-dicts": (
        {"messages": ["a bare string", None, 42, ["human", "a pair"], {"content": "no type at all"}]},
        ["a bare string", "a pair", "no type at all", "42"],
    ),
    "odd-content": (
        {
            "messages": [
                {"type": "human", "content": {"type": "text", "text": "dict content"}, "id": "h"},
                {
                    "type": "ai",
                    "content": [{"type": "image_url"}, 42, None, {"type": "text", "text": "after blocks"}, {"text": 5}],
                    "id": "a",
                },
            ]
        },
        ["dict content", "after blocks", "[image]"],
    ),
    "odd-tool-calls": (
        {
            "messages": [
                {
                    "type": "ai",
                    "content": "calling",
                    "id": "a",
                    "tool_calls": [
                        None,
                        {"name": None, "args": "{not json", "id": None},
                        {"name": "t2", "args": None},
                        {"function": {"name": "f3", "arguments": "[1,"}},
                    ],
                }
            ]
        },
        ["calling", "{not json", "t2", "f3"],
    ),
    "odd-titles-and-nulls": (
        {
            "title": {"not": "a string"},
            "messages": [{"type": "human", "content": "first words", "id": "h"}],
            "todos": None,
            "artifacts": [None, 1, {"a": 1}],
            "uploaded_files": [None, {"filename": None, "size": "big"}],
            "extra": None,
        },
        ["first words"],
    ),
    "messages-not-a-list": ({"messages": "oops, a string", "title": 42}, []),
    "tool-error-with-block-content": (
        {
            "messages": [
                {"type": "ai", "content": "", "id": "a", "tool_calls": [{"name": "run", "args": {}, "id": "c"}]},
                {
                    "type": "tool",
                    "status": "error",
                    "name": "run",
                    "tool_call_id": "c",
                    "id": "t",
                    "content": [{"type": "text", "text": "it broke"}, {"type": "weird"}],
                },
            ]
        },
        ["it broke"],
    ),
    "missing-and-duplicate-ids": (
        {
            "messages": [
                {"type": "human", "content": "same id one", "id": "dup"},
                {"type": "human", "content": "same id two", "id": "dup"},
                {"type": "ai", "content": "no id"},
                {"type": "ai", "content": "null id", "id": None},
            ]
        },
        ["same id one", "same id two", "no id", "null id"],
    ),
}


@pytest.mark.parametrize("shape", list(SHAPES))
async def test_an_odd_payload_opens_and_shows_what_it_can(b: Bench, shape: str) -> None:
    values, texts = SHAPES[shape]
    await b.open(f"shape-{shape}", values)
    main = b.main
    chat = main.query_one("#chat-log")
    for text in texts:
        assert shows(b.app, chat, text), f"{text!r} missing from the chat: {region_lines(b.app, chat)}"
    if shape == "unknown-type-extra-keys":
        assert shows(b.app, chat, "message of an unknown type: from a mystery sender")
    tree = main.query_one("#state-tree", StateTree)
    shown_keys = {node.data.path[0] for node in tree.root.children if node.data and node.data.path}
    assert set(values) <= shown_keys, "every key of the state is in the tree"
    # expanding every node of the tree copes with whatever is in there
    for node in list(tree.root.children):
        if node.allow_expand:
            node.expand()
            for child in list(node.children):
                if child.allow_expand:
                    child.expand()
    await settle(b.pilot)


# -- 4. a 1 MB message; a state nested 200 levels deep --------------------------------------------


@pytest.mark.parametrize("kind", ["human", "ai", "tool"])
async def test_a_1mb_message_opens_and_nothing_is_lost(b: Bench, kind: str) -> None:
    text = ("All work and no play makes Jack a dull boy. " * 23 + "\n") * 1000  # ~1 MB
    assert len(text) > 1_000_000
    await b.open(
        f"big-{kind}",
        {
            "messages": [
                {"type": "human", "content": "before", "id": "h0"},
                {"type": kind, "content": text, "id": "big", "name": "t"},
                {"type": "human", "content": "after the big one", "id": "h1"},
            ]
        },
    )
    main = b.main
    chat = main.query_one("#chat-log")
    assert shows(b.app, chat, "after the big one"), region_lines(b.app, chat)[-3:]  # opened at its end
    big = in_chat(main, "big")
    entry = big.chat.entries[big.index]
    assert entry.message.text == text  # the whole text is kept
    if kind == "tool":  # a result shows its text when opened
        await open_fold(b, big, True)
    # nothing draws the megabyte: the chat draws its first part...
    drawn = sum(len(line.content.plain) for line in big.chat.lines_of(big.index))
    assert 0 < drawn <= chat_entries.DISPLAY_LIMIT + 500
    # ...and says how much more there is
    assert shows(b.app, big, f"more characters not shown ({len(text):,} in all)"), region_lines(b.app, big)[-4:]
    tree = main.query_one("#state-tree", StateTree)
    tree.focus()
    messages = next(n for n in tree.root.children if n.data and n.data.path == ("messages",))
    messages.expand()
    await wait_for(b.pilot, lambda: len(messages.children) == 3)
    tree.move_cursor(messages.children[1])
    await b.pilot.press("v")  # the whole message, in the state tree's viewer
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, TextViewScreen))
    assert json.loads(b.app.screen.text)["content"] == text
    await b.back_to_main()
    # the composer still takes keys
    main.query_one("#composer").focus()
    await b.pilot.press("o", "k")
    assert main.query_one("#composer").text.endswith("ok")
    main.query_one("#composer").clear()


@pytest.mark.parametrize("shape", ["lines", "one-line"])
async def test_a_1mb_value_opens_whole_in_the_viewer(b: Bench, shape: str) -> None:
    line = "All work and no play makes Jack a dull boy. " * 23
    text = (line + "\n") * 1000 if shape == "lines" else line * 1000
    await b.open(f"big-value-{shape}", {"big": text, "messages": []})
    tree = b.main.query_one("#state-tree", StateTree)
    tree.focus()
    tree.move_cursor(next(n for n in tree.root.children if n.data and n.data.path == ("big",)))
    await b.pilot.press("v")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, TextViewScreen) and b.app.screen.focused is not None)
    view = b.app.screen.query_one("#text-view", TextArea)
    assert view.text == text, "all of it"
    assert not view.soft_wrap, "a megabyte is shown unwrapped (wrapping it all at once takes seconds)"
    await b.pilot.press("end", "pagedown")
    assert_alive(b.app)


def nested(depth: int) -> dict:
    value: Any = "leaf"
    for level in reversed(range(depth)):
        value = {f"k{level}": value}
    return value


async def test_a_state_200_levels_deep_expands_lazily(b: Bench) -> None:
    await b.open("deep", {"deep": nested(200), "messages": []})
    tree = b.main.query_one("#state-tree", StateTree)
    node = next(n for n in tree.root.children if n.data and n.data.path == ("deep",))
    assert not node.children, "nothing below is built before it is opened"
    for level in range(200):
        assert node.allow_expand
        node.expand()
        for _ in range(50):  # the children are added when the tree handles NodeExpanded
            if node.children:
                break
            await asyncio.sleep(0)
        assert len(node.children) == 1
        node = node.children[0]
        assert node.data.path[-1] == f"k{level}"
    assert not node.allow_expand and "'leaf'" in node.label.plain
    tree.focus()
    tree.move_cursor(node)
    await settle(b.pilot)
    await b.pilot.press("y")  # copy the leaf, 200 levels down
    assert b.app.clipboard == '"leaf"'


async def test_a_state_200_levels_deep_can_be_viewed_copied_and_edited(b: Bench) -> None:
    thread_id = await b.open("deep-edit", {"deep": nested(200), "messages": []})
    tree = b.main.query_one("#state-tree", StateTree)
    tree.focus()
    tree.move_cursor(next(n for n in tree.root.children if n.data and n.data.path == ("deep",)))
    await b.pilot.press("v")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, TextViewScreen))
    assert json.loads(b.app.screen.text) == nested(200)
    await b.pilot.press("escape")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, MainScreen))
    await b.pilot.press("e")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, EditStateScreen))
    before = (await b.client.threads.get_state(thread_id))["checkpoint"]["checkpoint_id"]
    await b.pilot.press("ctrl+s")  # sent back unchanged
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, MainScreen), what="edit sent")
    state = await b.client.threads.get_state(thread_id)
    assert state["checkpoint"]["checkpoint_id"] != before
    assert state["values"]["deep"] == nested(200)


# -- 5. invalid JSON in every editor, invalid ids, the run options' number field -------------------


async def open_new_thread_dialog(b: Bench) -> NewThreadScreen:
    b.main.query_one("#thread-list").focus()
    await b.pilot.press("n")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, NewThreadScreen) and b.app.screen.focused is not None)
    return b.app.screen


BAD_METADATA = {
    "trailing-comma": ('{\n  "a": 1,\n}', "Not valid JSON"),
    "not-an-object": ("[1, 2, 3]", "must be a JSON object"),
    "markup-not-json": ("[bold]x[/] [@click=app.quit]q[/]", "Not valid JSON"),
    "single-quotes": ("{'a': 1}", "Not valid JSON"),
}


@pytest.mark.parametrize("case", list(BAD_METADATA))
async def test_invalid_metadata_is_refused_and_kept(b: Bench, case: str) -> None:
    text, why = BAD_METADATA[case]
    count = len(b.main.query_one("#thread-list", ThreadList).threads)
    screen = await open_new_thread_dialog(b)
    screen.query_one("#new-thread-metadata", TextArea).load_text(text)
    await b.pilot.press("ctrl+s")
    await settle(b.pilot)
    assert b.app.screen is screen, "refused locally: the dialog stays"
    error = str(screen.query_one("#new-thread-error", Static).visual)
    assert why in error
    assert screen.query_one("#new-thread-metadata", TextArea).text == text
    assert len(b.main.query_one("#thread-list", ThreadList).threads) == count


BAD_IDS = {
    "words": "not-a-uuid",
    "markup": "[bold]x[/] [@click=app.quit]",
    "escape": "\x1b[31m1234\x1b]52;c;aGk=\x07",
    "almost-a-uuid": "00000000-0000-0000-0000-00000000000g",
    "path": "../../etc/passwd",
}


@pytest.mark.parametrize("case", list(BAD_IDS))
async def test_an_invalid_thread_id_is_refused_and_kept(b: Bench, case: str) -> None:
    text = BAD_IDS[case]
    screen = await open_new_thread_dialog(b)
    id_box = screen.query_one("#new-thread-id", Input)
    id_box.value = text
    await b.pilot.press("ctrl+s")
    await settle(b.pilot)
    assert b.app.screen is screen
    error = str(screen.query_one("#new-thread-error", Static).visual)
    assert "is not a UUID" in error and clean(text) in error
    assert id_box.value == text
    assert shows(b.app, id_box, clean(text)[:20])


async def test_a_thread_id_already_in_use_is_refused_by_the_server_with_a_message(b: Bench) -> None:
    thread_id, _ = await b.seed("id-in-use", {"messages": []})
    screen = await open_new_thread_dialog(b)
    screen.query_one("#new-thread-id", Input).value = thread_id
    await b.pilot.press("ctrl+s")
    await wait_for(b.pilot, lambda: "already exists" in screen.error_text, what="refusal")
    assert b.app.screen is screen and screen.query_one("#new-thread-id", Input).value == thread_id


BAD_STATE_JSON = {
    "missing-comma": ('{\n  "title": "x"\n  "b": 1\n}', "Not valid JSON", (2, 2)),
    "not-an-object": ('"just a string"', "must be a JSON object", (0, 0)),
    "markup": ("[bold]{[/]", "Not valid JSON", (0, 1)),
    "empty": ("   ", "Nothing to send", None),
}


@pytest.mark.parametrize("case", list(BAD_STATE_JSON))
async def test_invalid_json_in_the_state_editor_is_refused_and_kept(b: Bench, case: str) -> None:
    text, why, cursor = BAD_STATE_JSON[case]
    thread_id = await b.open("state-editor", {"title": "edit me", "messages": []})
    before = (await b.client.threads.get_state(thread_id))["checkpoint"]["checkpoint_id"]
    b.main.query_one("#thread-list").focus()  # e here edits all the values
    await b.pilot.press("e")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, EditStateScreen))
    screen = b.app.screen
    screen.editor.load_text(text)
    await b.pilot.press("ctrl+s")
    await settle(b.pilot)
    assert b.app.screen is screen
    assert why in screen.error_text
    assert screen.editor.text == text
    if cursor is not None:
        assert screen.editor.cursor_location == cursor
    after = (await b.client.threads.get_state(thread_id))["checkpoint"]["checkpoint_id"]
    assert after == before, "nothing was sent"


async def test_the_state_editor_shows_control_characters_escaped_and_round_trips_them(b: Bench) -> None:
    values = {"v": PAYLOADS["control"], PAYLOADS["ansi"]: PAYLOADS["osc"], "messages": []}
    thread_id = await b.open("state-editor-control", values)
    kept = (await b.server_copy(thread_id))["values"]  # (the server turns a NUL into U+FFFD)
    b.main.query_one("#thread-list").focus()
    await b.pilot.press("e")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, EditStateScreen))
    await settle(b.pilot)
    assert not RAW_CONTROL.search(b.app.screen.editor.text), "every control character is a JSON escape"
    assert_nothing_raw(b.app)
    await b.pilot.press("ctrl+s")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, MainScreen), what="sent")
    state = await b.client.threads.get_state(thread_id)
    assert state["values"] == kept, "every character came back as it was"


async def test_a_rename_prompt_shows_control_characters_and_keeps_the_title(b: Bench) -> None:
    title = "Title \x1b[31mred\x1b[0m \x9b and [bold]markup[/]"
    thread_id = await b.open("rename-control", {"title": title, "messages": []}, graph="agent")
    b.main.query_one("#thread-list").focus()
    await b.pilot.press("r")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, PromptScreen))
    await settle(b.pilot)
    box = b.app.screen.query_one(Input)
    assert box.value == title
    assert_nothing_raw(b.app)
    assert shows(b.app, box, "␛[31mred␛[0m")
    await b.pilot.press("end", *" again", "enter")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, MainScreen))
    await wait_for(
        b.pilot,
        lambda: b.main.query_one("#thread-list", ThreadList).thread(thread_id).title.endswith("again"),
        what="renamed",
    )
    state = await b.client.threads.get_state(thread_id)
    assert state["values"]["title"] == title + " again"


async def hitl_thread(b: Bench, scene: str) -> str:
    """A demo-agent thread waiting for approval of delete_file (approve / edit / reject)."""
    if scene not in b.seeded:
        tag = uuid.uuid4().hex[:10]
        thread = await b.client.threads.create(graph_id="agent", metadata={"suite": tag})
        await b.client.runs.wait(
            thread["thread_id"],
            "agent",
            input={"messages": [{"type": "human", "content": "please delete the old file"}]},
        )
        b.seeded[scene] = (thread["thread_id"], tag)
    return b.seeded[scene][0]


async def open_question(b: Bench, scene: str) -> HumanInputScreen:
    await b.open(scene)
    if not isinstance(b.app.screen, HumanInputScreen):
        b.main.query_one("#thread-list").focus()
        await b.pilot.press("a")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, HumanInputScreen) and b.app.screen.focused is not None)
    return b.app.screen


BAD_ARGS = {
    "trailing-comma": '{"path": "/tmp/x",}',
    "markup": "[bold]{[/] [@click=app.quit]",
    "not-an-object": "[1, 2]",
}


@pytest.mark.parametrize("case", list(BAD_ARGS))
async def test_invalid_json_in_the_approval_args_editor_is_refused_and_kept(b: Bench, case: str) -> None:
    text = BAD_ARGS[case]
    thread_id = await hitl_thread(b, "hitl")
    runs = len(await b.client.runs.list(thread_id))
    screen = await open_question(b, "hitl")
    assert screen.mode == "review"
    picker = screen.query_one("#human-input-decision-0")
    picker.value = "edit"
    await settle(b.pilot)
    editor = screen.query_one("#human-input-args-0", TextArea)
    editor.load_text(text)
    await b.pilot.press("ctrl+s")
    await settle(b.pilot)
    assert b.app.screen is screen, "refused locally"
    error = str(screen.query_one("#human-input-error", Static).visual)
    assert error and ("JSON" in error or "object" in error), error
    assert editor.text == text
    assert len(await b.client.runs.list(thread_id)) == runs, "nothing was sent"


async def use_bi_root_options(b: Bench) -> RunOptionsScreen:
    b.app.session.run_options.assistant_id = "bi_root"
    b.main.query_one("#thread-list").focus()
    await b.pilot.press("o")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, RunOptionsScreen) and b.app.screen.query(Input))
    return b.app.screen


@pytest.mark.parametrize("typed", ["1e", "-", "1.2.3", "12abc"])
async def test_a_bad_number_in_the_run_options_is_refused_and_kept(b: Bench, typed: str) -> None:
    saved = b.app.session.run_options
    try:
        screen = await use_bi_root_options(b)
        box = screen.query_one("#option-max_tokens", Input)
        box.value = typed
        await b.pilot.press("ctrl+s")
        await settle(b.pilot)
        assert b.app.screen is screen
        assert "max_tokens must be a number" in str(screen.query_one("#run-options-error", Static).visual)
        assert box.value == typed
    finally:
        await b.back_to_main()
        b.app.session.run_options = saved


async def test_a_context_key_that_is_no_identifier_gets_a_field(b: Bench) -> None:
    saved = b.app.session.run_options
    try:
        screen = await use_bi_root_options(b)
        assert any("odd key [b]" in str(w.visual) for w in screen.query(".option-label"))
        odd = next(
            w
            for w in screen.query(Input)
            if w.id not in ("option-max_tokens", "option-temperature", "option-model_name", "option-assistant-typed")
        )
        odd.value = "[bold]v[/]"
        await b.pilot.press("ctrl+s")
        await wait_for(b.pilot, lambda: isinstance(b.app.screen, MainScreen))
        assert b.app.session.run_options.values["odd key [b]"] == "[bold]v[/]"
        assert "max_tokens" not in b.app.session.run_options.values  # left empty: not sent
        await settle(b.pilot)
        assert shows(b.app, b.main.query_one("#run-options"), "odd key [b]=[bold]v[/]")
    finally:
        b.app.session.run_options = saved
        b.main.conversation.show_run_options()


# -- 6. odd characters in the search box -----------------------------------------------------------

ODD_FILTERS = {
    "unbalanced-quote": '"unbalanced',
    "empty-status": "status:",
    "unknown-status": "status:bogus",
    "no-key": "=value",
    "empty-value": "key=",
    "markup": "[bold]x[/] [@click=app.quit]",
    "escape": "\x1b[31m\x1b]52;c;aGk=\x07",
    "nul-in-metadata": "suite=\x00",
    "huge-number": "n=99999999999999999999",
    "wide": "😀 中文 שלום",
    "very-long": "a" * 3000,
    "colons": "x:y:z id:[/]",
}


@pytest.mark.parametrize("case", list(ODD_FILTERS))
async def test_an_odd_filter_is_kept_and_searched(b: Bench, case: str) -> None:
    text = f'suite="{uuid.uuid4().hex[:10]}" {ODD_FILTERS[case]}'  # (no other thread matches)
    main = b.main
    counts = main.query_one("#thread-counts", Static)
    counts.update("")
    await b.search(text)
    await wait_for(
        b.pilot,
        lambda: str(counts.visual) and not any(w.group == "threads" and not w.is_finished for w in main.workers),
        what=f"the list for {text[:20]!r}",
    )
    await settle(b.pilot)
    # quoted words are looked for inside the conversations: none says them here
    assert ("no conversation says" if case == "unbalanced-quote" else "thread") in str(counts.visual)
    box = b.main.query_one("#thread-search", Input)
    assert box.value == text, "the filter stays as typed"
    if case == "unknown-status":
        assert any("unknown status 'bogus'" in n for n in notices(b.app))
    assert_nothing_raw(b.app)


def test_a_quoted_metadata_value_stays_a_string() -> None:
    """A tag made of digits (uuid4().hex[:10] is, about once in a hundred) can be searched:
    quoted, it is the string; unquoted, a plain integer is a number."""
    assert parse_filter("suite=\"9121562868\" n=3 k='007'").metadata == {"suite": "9121562868", "n": 3, "k": "007"}
    assert parse_filter("suite=9121562868").metadata == {"suite": 9121562868}
    assert parse_filter('"m=[@click=app.quit]" "two words"').metadata == {"m": "[@click=app.quit]"}
    assert parse_filter('"two words" "unbalanced').phrases == ["two words", "unbalanced"]


# -- 7. an answer submitted twice ------------------------------------------------------------------


async def test_an_answer_submitted_twice_resumes_once(b: Bench) -> None:
    scene = "clarify-twice"
    if scene not in b.seeded:
        tag = uuid.uuid4().hex[:10]
        thread = await b.client.threads.create(graph_id="agent", metadata={"suite": tag})
        await b.client.runs.wait(
            thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": "please clarify"}]}
        )
        b.seeded[scene] = (thread["thread_id"], tag)
    thread_id = b.seeded[scene][0]
    assert len(await b.client.runs.list(thread_id)) == 1
    await b.open(scene)
    await b.back_to_main()
    b.main.query_one("#thread-list").focus()
    await b.pilot.press("a")
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, HumanInputScreen) and b.app.screen.focused is not None)
    screen = b.app.screen
    assert screen.mode == "answer" and screen.pending.options
    screen.query_one("#human-input-answer", Input).focus()
    screen.query_one("#human-input-answer", Input).value = "my answer"
    press_at_once(b.app, "enter", "enter")  # as a terminal delivers keys typed fast
    await wait_for(b.pilot, lambda: isinstance(b.app.screen, MainScreen), what="answered")
    press_at_once(b.app, "enter", "enter")  # and a moment later, on the main screen
    await wait_for(b.pilot, lambda: b.main.query_one("#run-status").state == "idle", timeout=30, what="the run ends")
    await settle(b.pilot)
    runs = await b.client.runs.list(thread_id)
    assert len(runs) == 2, f"exactly one resume run: {[r['status'] for r in runs]}"
    state = await b.client.threads.get_state(thread_id)
    assert not state["next"]
    assert "my answer" in json.dumps(state["values"]["messages"])
    await b.back_to_main()
