"""Pilot: the first frame is the main screen's outline while the main screen's modules load
in a thread (shell.py); the palette and ctrl+q answer meanwhile, and the keys typed are
handed to the main screen in order.

In this process the modules are imported already: the load is made slow (support/loading.py)."""

from __future__ import annotations

import asyncio

import pytest
from support.driving import TERMINAL, make_app, press_at_once, screen_lines, wait_for, wait_ready
from support.loading import slow_main_screen_load
from textual.command import CommandPalette
from threadbench.ui import shell
from threadbench.ui.shell import ShellScreen

pytestmark = pytest.mark.server

LOAD_SECONDS = 1.0


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


async def test_the_palette_opens_while_the_main_screen_loads_and_it_comes_when_closed(server_url, slow_load):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        assert isinstance(app.screen, ShellScreen)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
        await pilot.pause(LOAD_SECONDS + 0.5)  # loaded meanwhile: the palette stays
        assert isinstance(app.screen, CommandPalette)
        assert shell.main_screen_loaded()
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
