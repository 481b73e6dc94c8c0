"""Pilot: the first frame is the main screen's outline while the main screen's modules load
in a thread (shell.py); the palette and ctrl+q answer meanwhile, and the keys typed are
handed to the main screen in order.

In this process the modules are imported already: the load is made slow (support/loading.py)."""

from __future__ import annotations

import asyncio

import pytest
from support.driving import TERMINAL, make_app, press_at_once, screen_lines, wait_for, wait_ready
from support.loading import slow_main_screen_load
from textual.command import CommandInput, CommandPalette
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.shell import ShellScreen

pytestmark = pytest.mark.server

LOAD_SECONDS = 1.0


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


@pytest.fixture
def slow_load(tmp_path, monkeypatch):
    slow_main_screen_load(tmp_path, monkeypatch, LOAD_SECONDS)


async def test_keys_typed_while_the_main_screen_loads_reach_the_composer(server_url, slow_load):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        assert isinstance(app.screen, ShellScreen)
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "connecting to" in shown and "http://127.0.0.1" in shown and "^q Quit" in shown
        press_at_once(app, *"hello")
        await pilot.pause()
        assert isinstance(app.screen, ShellScreen)  # still loading: the keys are held
        await wait_ready(pilot)
        composer = app.screen.composer
        await wait_for(pilot, lambda: composer.text == "hello", what="the held keys typed")


async def test_the_palette_opens_while_the_main_screen_loads_and_finds_the_apps_commands_once_loaded(
    server_url, slow_load
):
    """Opened over the outline (ctrl+p typed ahead) it has only Textual's commands; when the
    main screen is up the palette is over it, with what was typed, and finds the app's commands."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await palette_typed(pilot, "new", until="No matches found")
        await wait_for(pilot, lambda: palette_over_main_holds(app, "new"), what="the palette over the main screen")
        await wait_for(pilot, lambda: shows(app, "New thread"), what="the app's command")
        await pilot.press("t")  # typing goes on in the palette
        assert palette_over_main_holds(app, "newt")
        await pilot.press("escape")
        await wait_ready(pilot)
        assert not any(isinstance(screen, ShellScreen) for screen in app.screen_stack)


@pytest.mark.parametrize("after", [0.9, 1.0, 1.1])
async def test_keys_typed_as_the_palette_is_handed_over_keep_their_order(server_url, slow_load, after):
    """Typed a key every 20 ms from about when the main screen comes (the load takes
    LOAD_SECONDS): each key lands in the palette, in order, whichever palette had it."""
    app = make_app(server_url)
    text = "abcdefghijklmnop"
    async with app.run_test(size=TERMINAL) as pilot:
        await pilot.press("ctrl+p")
        await asyncio.sleep(after)
        for character in text:
            press_at_once(app, character)
            await asyncio.sleep(0.02)
        await wait_for(pilot, lambda: palette_over_main_holds(app, text), what="the palette over the main screen")


async def test_keys_typed_right_behind_ctrl_p_are_the_palettes(server_url, slow_load):
    """ctrl+p and a word typed at once, before the palette is up: the word is its query (a
    dialog the app opens on its own takes no key typed before it)."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        press_at_once(app, "ctrl+p", *"thread")
        await wait_for(pilot, lambda: palette_over_main_holds(app, "thread"), what="the palette over the main screen")


async def test_the_theme_picker_opened_while_loading_stays_until_closed(server_url, slow_load):
    """Another palette (Textual's theme picker) is not the one the app opens again: it stays
    over the outline, and the main screen comes when it is closed."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await palette_typed(pilot, "theme", until="Change the current theme")
        await pilot.press("enter")
        await wait_for(pilot, lambda: shows(app, "Search for themes"), what="the theme picker")
        picker = app.screen
        await pilot.pause(LOAD_SECONDS + 0.5)
        assert app.screen is picker and isinstance(app.screen_stack[-2], ShellScreen)
        await pilot.press("escape")
        await wait_ready(pilot)
        assert not any(isinstance(screen, ShellScreen) for screen in app.screen_stack)


async def test_ctrl_q_quits_while_the_main_screen_loads(server_url, slow_load):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        assert isinstance(app.screen, ShellScreen)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, what="the app stopped")
    await asyncio.sleep(LOAD_SECONDS)  # the load ends after the app: nothing is shown, nothing fails
    assert app.main_screen is None


async def test_a_long_sentence_typed_while_loading_then_the_palette_each_get_their_keys(server_url, slow_load):
    """The sentence goes to the composer, all of it, before the palette opens again over the
    main screen: its keys are handed on while the palette's are held."""
    sentence = "a sentence typed while the app is still loading"
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        press_at_once(app, *sentence)
        await pilot.pause()
        press_at_once(app, "ctrl+p", *"new")
        await wait_for(pilot, lambda: palette_over_main_holds(app, "new"), what="the palette over the main screen")
        assert app.screen_stack[-2].composer.text == sentence
