"""Typing as fast as a terminal delivers keys: a burst of keys ending in enter sends every key
of it (tmux showed the last two letters of a message lost when enter followed them at once)."""

from __future__ import annotations

from support.driving import TERMINAL, make_app, press_at_once, tag, wait_for, wait_ready
from threadbench.ui.widgets.composer import Composer


async def test_a_burst_of_keys_ending_in_enter_sends_all_of_them(server_url: str) -> None:
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        composer = app.screen.query_one(Composer)
        composer.focus()
        await pilot.pause()
        said = f"where is my order {tag()['suite']}"
        press_at_once(app, *[{" ": "space"}.get(c, c) for c in said], "enter")
        await wait_for(pilot, lambda: app.screen.thread_state is not None, what="the new thread")
        await wait_for(
            pilot,
            lambda: any(m.type == "human" for m in app.screen.thread_state.messages),
            what="the message sent",
        )
        sent = [m.text for m in app.screen.thread_state.messages if m.type == "human"]
        assert sent == [said]
        assert composer.text == ""
