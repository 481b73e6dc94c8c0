"""Typing as fast as a terminal delivers keys: a burst of keys ending in enter sends every key
of it (tmux showed the last two letters of a message lost when enter followed them at once),
and a burst with tabs in it fills each field in turn (tmux showed them all in the first)."""

from __future__ import annotations

import uuid

from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, new_thread, press_at_once, tag, wait_for, wait_ready
from threadbench.ui.screens.object_form import ObjectFormScreen
from threadbench.ui.screens.store import StoreScreen


async def test_a_burst_of_keys_ending_in_enter_sends_all_of_them(server_url: str) -> None:
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        composer = await new_thread(pilot)
        thread_id = app.screen.conversation.thread_id
        await pilot.pause()
        said = f"where is my order {tag()['suite']}"
        press_at_once(app, *[{" ": "space"}.get(c, c) for c in said], "enter")

        def sent() -> list[str]:
            state = app.screen.conversation.thread_state
            if state is None or state.thread_id != thread_id:
                return []
            return [m.text for m in state.messages if m.type == "human"]

        await wait_for(pilot, sent, what="the message sent")
        assert sent() == [said]
        assert composer.text == ""


async def test_a_burst_of_keys_with_tabs_fills_each_field_in_turn(server_url: str) -> None:
    """The keys after a tab go to the next field, however fast they come (the app handed them
    to the field it had focused when they arrived: every letter landed in the first field)."""
    root = f"burst{uuid.uuid4().hex[:8]}"
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        app.screen.query_one("#thread-list").focus()
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, StoreScreen), what="the store")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ObjectFormScreen), what="the put form")
        form = app.screen
        await wait_for(pilot, lambda: app.focused is form.query_one("#form-namespace"), what="the namespace focused")
        press_at_once(app, *f"{root}/x", "tab", "k", "1", "tab", "{", "}", "ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, StoreScreen), what="the item put")
    item = await get_client(url=server_url).store.get_item([root, "x"], "k1")
    assert item is not None and item["value"] == {}
