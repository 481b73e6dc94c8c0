"""The main screen at the sizes people open it at: 80x24 (a fresh terminal, a split tmux pane),
120x40 and 200x50. A thread open, a question asked, the timeline, the help: at each size the
chat keeps its columns (40 at 80, 60 at 120) and the side panes give way (pane_layout.py)."""

from __future__ import annotations

import pytest
from support.driving import make_snapshot_app, settle, wait_for
from test_snapshots_main import TOOLS_THREAD, open_past_thread, open_thread
from test_snapshots_main import seeded as seeded  # (the module's fixture, used here too)
from threadbench.human_input import pending_from_value
from threadbench.ui.screens.help import HelpScreen
from threadbench.ui.screens.human_input import HumanInputScreen

pytestmark = pytest.mark.server

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40"), pytest.param((200, 50), id="200x50")]

QUESTION = {
    "question": "Which kind of report would help you most?",
    "options": ["A short summary", "A detailed report", "A bullet list"],
}


@pytest.mark.parametrize("size", SIZES)
def test_a_thread_open(seeded, snap_compare, size):
    async def run_before(pilot):
        await open_thread(pilot, TOOLS_THREAD)
        pilot.app.screen.conversation.composer.focus()
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_a_question_asked(seeded, snap_compare, size):
    async def run_before(pilot):
        await open_thread(pilot, TOOLS_THREAD)
        dialog = HumanInputScreen(pending_from_value(QUESTION), thread_title="Penguin research report")
        pilot.app.push_screen(dialog)
        await wait_for(pilot, lambda: pilot.app.screen is dialog and dialog.focused is not None, what="the question")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_the_timeline(seeded, snap_compare, size):
    """The timeline's tab, focused: beside the chat at 200, over it where it does not fit."""

    async def run_before(pilot):
        await open_past_thread(pilot)
        screen = pilot.app.screen
        screen.inspector.active = "tab-timeline"
        screen.inspector.timeline.focus()
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_the_help(seeded, snap_compare, size):
    async def run_before(pilot):
        await open_thread(pilot, TOOLS_THREAD)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), what="the help")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=size, run_before=run_before)
