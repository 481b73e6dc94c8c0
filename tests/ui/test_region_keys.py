"""Pilot: the main screen's keys belong to its regions (the sidebar, the conversation, the
inspector) and act wherever the focus is on the screen, as a person presses them; a key the
config file's [keymap] rebinds moves with its id; a region's check_action hides its key."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from langgraph_sdk import get_client
from support.driving import FIXED_NOW, TERMINAL, make_app, notices, open_tagged, screen_text, tag, wait_for
from threadbench.config import Settings
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.regions.conversation import Conversation
from threadbench.ui.regions.inspector import Inspector
from threadbench.ui.screens.help import HelpScreen
from threadbench.ui.screens.new_thread import NewThreadScreen
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server


async def two_turns(url: str) -> tuple[dict[str, str], str]:
    metadata = tag()
    client = get_client(url=url)
    thread = await client.threads.create(metadata=metadata)
    for text in ("hello", "tell me more"):
        await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": text}]})
    return metadata, thread["thread_id"]


async def open_with_history(pilot, metadata: dict[str, str], thread_id: str) -> Inspector:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, MainScreen) and pilot.app.session.backend is not None)
    await open_tagged(pilot, metadata, thread_id)
    inspector = pilot.app.screen.query_one(Inspector)
    await wait_for(
        pilot,
        lambda: len(inspector.timeline.checkpoints) > 3 and inspector.timeline.checkpoints[0].thread_id == thread_id,
        what="the thread's history",
    )
    return inspector


def footer_keys(app) -> dict[str, str]:
    """Description -> key, as the footer shows them."""
    return {str(key.description): str(key.key_display or key.key) for key in app.screen.query("FooterKey")}


async def test_a_region_key_acts_with_the_focus_in_another_region(server_url):
    metadata, thread_id = await two_turns(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        inspector = await open_with_history(pilot, metadata, thread_id)
        screen = app.screen
        assert isinstance(screen, MainScreen)

        # the inspector's keys, typed in the thread list (the sidebar)
        screen.sidebar.thread_list.focus()
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: "past view" in screen_text(app), what="[ shows the past view")
        assert inspector.is_past_view and inspector.active == "tab-timeline"
        assert screen.sidebar.thread_list.has_focus  # the focus stays where it was
        await pilot.press("g")
        await wait_for(pilot, lambda: "● live" in screen_text(app), what="g back to the live head")
        assert not inspector.is_past_view

        # the conversation's keys, typed in the inspector's timeline
        inspector.timeline.focus()
        await pilot.pause()
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: "No run in progress." in notices(app), what="ctrl+g answers from the timeline")
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(screen.focused, Composer), what="i goes to the composer")

        # the sidebar's keys: ctrl+n from the composer (n is typed there), n from the timeline
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen), what="ctrl+n from the composer")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        inspector.timeline.focus()
        await pilot.pause()
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen), what="n from the timeline")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)


async def test_a_region_key_rebound_in_the_keymap_acts_on_its_new_key_only(server_url):
    metadata, thread_id = await two_turns(server_url)
    settings = Settings(
        url=server_url,
        data_dir=Path(tempfile.mkdtemp(prefix="tb-keys-")),
        run_options={"assistant_id": "agent"},
        keymap={"main.older": "f7", "main.cancel": "f6"},
    )
    app = ThreadbenchApp(settings, backend_kind="langgraph", clock=lambda: FIXED_NOW, monotonic=lambda: 0.0)
    async with app.run_test(size=TERMINAL) as pilot:
        inspector = await open_with_history(pilot, metadata, thread_id)
        screen = app.screen
        screen.sidebar.thread_list.focus()
        await wait_for(pilot, lambda: footer_keys(app).get("Back in time") == "f7", what="the footer shows f7")
        assert footer_keys(app).get("Cancel run") == "f6"
        await pilot.press("left_square_bracket")  # no longer the inspector's key
        await pilot.pause()
        assert not inspector.is_past_view
        await pilot.press("f7")
        await wait_for(pilot, lambda: inspector.is_past_view, what="f7 steps back")
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert "No run in progress." not in notices(app)
        await pilot.press("f6")
        await wait_for(pilot, lambda: "No run in progress." in notices(app), what="f6 cancels")

        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        by_id = {row.binding_id: row for row in app.screen.rows}
        assert by_id["main.older"].keys == ["f7"] and by_id["main.cancel"].keys == ["f6"]


async def test_a_region_check_action_disables_and_hides_its_key(server_url, monkeypatch):
    """What a region's check_action says of its action is what the screen's binding does."""

    def no_cancel(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "cancel_run"

    monkeypatch.setattr(Conversation, "check_action", no_cancel)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.session.backend is not None)
        app.screen.sidebar.thread_list.focus()
        await wait_for(pilot, lambda: "Inbox" in footer_keys(app), what="the thread list's keys")
        assert "Cancel run" not in footer_keys(app)
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert "No run in progress." not in notices(app)
        await pilot.press("o")  # the conversation's other keys still act
        await wait_for(pilot, lambda: type(app.screen).__name__ == "RunOptionsScreen", what="o opens the options")
