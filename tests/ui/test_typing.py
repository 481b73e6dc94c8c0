"""Typing as fast as a terminal delivers keys: a burst of keys ending in enter sends every key
of it (tmux showed the last two letters of a message lost when enter followed them at once)."""

from __future__ import annotations

from support.driving import TERMINAL, make_app, press_at_once, tag, wait_for, wait_ready
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.new_thread import NewThreadScreen
from threadbench.ui.widgets.composer import Composer


async def test_a_burst_of_keys_ending_in_enter_sends_all_of_them(server_url: str) -> None:
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen), what="the new-thread dialog")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.thread_id, what="it open")
        thread_id = app.screen.thread_id
        composer = app.screen.query_one(Composer)
        composer.focus()
        await pilot.pause()
        said = f"where is my order {tag()['suite']}"
        press_at_once(app, *[{" ": "space"}.get(c, c) for c in said], "enter")

        def sent() -> list[str]:
            state = app.screen.thread_state
            if state is None or state.thread_id != thread_id:
                return []
            return [m.text for m in state.messages if m.type == "human"]

        await wait_for(pilot, sent, what="the message sent")
        assert sent() == [said]
        assert composer.text == ""
