"""Pilot: the keys typed right behind the key that opens a dialog are the dialog's, in order,
whether it opens at once (n in the crons screen) or after a read (n, the new-thread dialog,
lists the assistants first). A dialog to be read first (the agent's question) takes none typed
before it opened: tests/ui/test_any_server.py."""

from __future__ import annotations

import pytest
from support.driving import TERMINAL, make_app, press_at_once, wait_for, wait_ready
from support.waiting import Held
from textual.widgets import Input
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.crons import CronsScreen
from threadbench.ui.screens.new_thread import NewThreadScreen
from threadbench.ui.screens.object_form import ObjectFormScreen

pytestmark = pytest.mark.server


async def test_keys_typed_behind_n_wait_for_the_new_thread_dialog(server_url):
    """Before, "my-thread" reached the thread list as its one-letter commands while the dialog
    read the assistants."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        read = app.session.backend.list_assistants = Held(app.session.backend.list_assistants)
        app.screen.sidebar.thread_list.focus()
        await pilot.pause()
        press_at_once(app, "n", *"my-thread")
        await wait_for(pilot, lambda: read.asked, what="the dialog's read")
        await pilot.pause()  # every key handled while the read waits for the server
        read.let_through()
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen), what="the dialog")
        field = app.screen.query_one("#new-thread-id", Input)
        await wait_for(pilot, lambda: field.value == "my-thread", what="every key typed, in the field")
        assert isinstance(app.screen_stack[-2], MainScreen) and len(app.screen_stack) == 3


async def test_keys_typed_as_the_dialog_opens_come_after_the_keys_held(server_url):
    """Keys typed while the held ones are handed to the dialog queue behind them."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        read = app.session.backend.list_assistants = Held(app.session.backend.list_assistants)
        app.screen.sidebar.thread_list.focus()
        await pilot.pause()
        press_at_once(app, "n", *"abc")
        await wait_for(pilot, lambda: read.asked, what="the dialog's read")
        await pilot.pause()  # every key handled while the read waits for the server
        read.let_through()
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen), what="the dialog")
        press_at_once(app, *"def")
        field = app.screen.query_one("#new-thread-id", Input)
        await wait_for(pilot, lambda: field.value == "abcdef", what="both bursts, in order")


async def test_keys_typed_behind_n_in_the_crons_screen_are_the_forms(server_url):
    """A dialog opened at once dropped them: they were typed before it opened."""
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        app.screen.sidebar.thread_list.focus()
        await pilot.press("C")
        await wait_for(pilot, lambda: isinstance(app.screen, CronsScreen), what="the crons")
        await pilot.pause()
        press_at_once(app, "n", "0", "space", "9")
        await wait_for(pilot, lambda: isinstance(app.screen, ObjectFormScreen), what="the form")
        field = app.screen.query_one("#form-schedule", Input)
        await wait_for(pilot, lambda: field.value == "0 9", what="the keys in the schedule")
