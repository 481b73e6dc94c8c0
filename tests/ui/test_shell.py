"""Pilot: the first frame is the main screen's outline while the main screen's modules load
in a thread (shell.py); the palette and ctrl+q answer meanwhile, and the keys typed are
handed to the main screen in order.

In this process the modules are imported already: the load is held until the test lets it go
(support/loading.py)."""

from __future__ import annotations

import asyncio

import pytest
from support.driving import TERMINAL, make_app, press_at_once, screen_lines, wait_for, wait_ready, working
from support.waiting import eventually, until
from textual.command import CommandInput, CommandList, CommandPalette, Hit, Hits, Provider
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.shell import ShellScreen, main_screen_loaded

pytestmark = pytest.mark.server


def shows(app, text: str) -> bool:
    return text in "\n".join(screen_lines(app))


def palette_over_main_holds(app, query: str) -> bool:
    """(A screen is on the stack before it is composed: the palette may have no field yet.)"""
    screen = app.screen
    if not (isinstance(screen, CommandPalette) and isinstance(app.screen_stack[-2], MainScreen)):
        return False
    fields = screen.query(CommandInput)
    return bool(fields) and fields.first().value == query


async def palette_typed(pilot, query: str, until: str) -> None:
    """ctrl+p at first sight, then `query` typed in the palette, until the screen shows `until`."""
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CommandPalette), what="the palette")
    await pilot.press(*query)
    await wait_for(pilot, lambda: shows(pilot.app, until), what=repr(until))


async def test_keys_typed_while_the_main_screen_loads_reach_the_composer(server_url, held_load):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        assert isinstance(app.screen, ShellScreen)
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "connecting to" in shown and "http://127.0.0.1" in shown and "^q Quit" in shown
        press_at_once(app, *"hello")
        await pilot.pause()
        assert isinstance(app.screen, ShellScreen)  # still loading: the keys are held
        held_load.let_go()
        await wait_ready(pilot)
        composer = app.screen.conversation.composer
        await wait_for(pilot, lambda: composer.text == "hello", what="the held keys typed")


async def test_the_palette_opens_while_the_main_screen_loads_and_finds_the_apps_commands_once_loaded(
    server_url, held_load
):
    """Opened over the outline (ctrl+p typed ahead) it has only Textual's commands; when the
    main screen is up the palette is over it, with what was typed, and finds the app's commands."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await palette_typed(pilot, "new", until="No matches found")
        held_load.let_go()
        await wait_for(pilot, lambda: palette_over_main_holds(app, "new"), what="the palette over the main screen")
        await wait_for(pilot, lambda: shows(app, "New thread"), what="the app's command")
        await pilot.press("t")  # typing goes on in the palette
        assert palette_over_main_holds(app, "newt")
        await pilot.press("escape")
        await wait_ready(pilot)
        assert not any(isinstance(screen, ShellScreen) for screen in app.screen_stack)


@pytest.mark.parametrize("stage", ["before the load ends", "as the main screen comes", "as the palette is handed over"])
async def test_keys_typed_as_the_palette_is_handed_over_keep_their_order(server_url, held_load, stage):
    """A key typed as soon as the app has handled the one before, the load let go at `stage`:
    each key lands in the palette, in order, whichever palette had it (the one over the
    outline, the keys held while it is opened again, the one over the main screen)."""
    app = make_app(server_url)
    text = "abcdefghijklmnop"
    half = len(text) // 2
    async with app.run_test(size=TERMINAL) as pilot:
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
        first = app.screen
        if stage == "as the main screen comes":
            held_load.let_go()
        for n, character in enumerate(text):
            if n == half and stage == "as the palette is handed over":
                held_load.let_go()
                # the first palette closed, to be opened again over the main screen: the rest are held
                # (looked at each turn of the event loop: the hand-over takes a few)
                await until(lambda: app.screen is not first, lambda: asyncio.sleep(0), 30, "the hand-over")
                press_at_once(app, *text[half:])
                break
            press_at_once(app, character)
            await pilot.pause()
        held_load.let_go()
        await wait_for(pilot, lambda: palette_over_main_holds(app, text), what="the palette over the main screen")


async def test_keys_typed_right_behind_ctrl_p_are_the_palettes(server_url, held_load):
    """ctrl+p and a word typed at once, before the palette is up: the word is its query (a
    dialog the app opens on its own takes no key typed before it)."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        press_at_once(app, "ctrl+p", *"thread")
        await pilot.pause()  # every key handled while the main screen loads
        held_load.let_go()
        await wait_for(pilot, lambda: palette_over_main_holds(app, "thread"), what="the palette over the main screen")


async def test_the_theme_picker_opened_while_loading_stays_until_closed(server_url, held_load):
    """Another palette (Textual's theme picker) is not the one the app opens again: it stays
    over the outline, and the main screen comes when it is closed."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await palette_typed(pilot, "theme", until="Change the current theme")
        await pilot.press("enter")
        await wait_for(pilot, lambda: shows(app, "Search for themes"), what="the theme picker")
        picker = app.screen
        held_load.let_go()
        await wait_for(pilot, lambda: not working(app, "start"), what="the main screen loaded")
        await pilot.pause()  # (what the loaded main screen asked of the app done)
        assert app.screen is picker and isinstance(app.screen_stack[-2], ShellScreen)
        await pilot.press("escape")
        await wait_ready(pilot)
        assert not any(isinstance(screen, ShellScreen) for screen in app.screen_stack)


async def test_ctrl_q_quits_while_the_main_screen_loads(server_url, held_load):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        assert isinstance(app.screen, ShellScreen)
        await wait_for(pilot, held_load.started.is_set, what="the load under way")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, what="the app stopped")
    held_load.let_go()  # the load ends after the app: nothing is shown, nothing fails
    await eventually(lambda: held_load.finished.is_set() and main_screen_loaded(), 30, "the load to end")
    assert app.main_screen is None


async def test_a_long_sentence_typed_while_loading_then_the_palette_each_get_their_keys(server_url, held_load):
    """The sentence goes to the composer, all of it, before the palette opens again over the
    main screen: its keys are handed on while the palette's are held."""
    sentence = "a sentence typed while the app is still loading"
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        press_at_once(app, *sentence)
        await pilot.pause()
        press_at_once(app, "ctrl+p", *"new")
        await pilot.pause()
        held_load.let_go()
        await wait_for(pilot, lambda: palette_over_main_holds(app, "new"), what="the palette over the main screen")
        assert app.screen_stack[-2].conversation.composer.text == sentence


async def test_a_palette_handed_over_while_its_search_runs_has_it_stopped_first(server_url, held_load, monkeypatch):
    """The palette over the outline closed for the main screen while a provider still searches:
    its search is stopped before its list is taken down. (Textual stops a closing screen's workers
    only after its widgets are gone: a search ending in between filled a list no longer there,
    NoMatches, once in a CI run. Here a provider holds its search, so the search is sure to run.)"""
    go_on = asyncio.Event()
    searching: list[bool] = []
    first = None

    def on_unmount(command_list: CommandList) -> None:
        """At a list's Unmount: is a search of the first palette still on?"""
        palette = command_list.screen
        if palette is first:
            searching.append(any(w.node is palette and not w.is_cancelled for w in palette.workers))

    class HeldProvider(Provider):
        async def search(self, query: str) -> Hits:
            await go_on.wait()
            yield Hit(1, query, lambda: None)

    monkeypatch.setattr(ShellScreen, "COMMANDS", {HeldProvider})
    monkeypatch.setattr(CommandList, "on_unmount", on_unmount, raising=False)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await pilot.press("ctrl+p", "x")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
        first = app.screen
        held_load.let_go()
        await wait_for(pilot, lambda: palette_over_main_holds(app, "x"), what="the palette over the main screen")
        go_on.set()
        await pilot.press("y")
        await wait_for(pilot, lambda: palette_over_main_holds(app, "xy"), what="typing on in the palette")
    assert searching == [False]
