"""The Pilot's timeout names the widget whose message loop is stuck, and where (support/stuck.py)."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult
from textual.pilot import WaitForScreenTimeout
from textual.widgets import Static


class Stuck(Static):
    release: asyncio.Event
    waiting: asyncio.Event

    async def wait_forever(self) -> None:
        self.waiting.set()
        await self.release.wait()


class StuckApp(App):
    def compose(self) -> ComposeResult:
        yield Static("fine")
        yield Stuck("stuck", id="the-stuck-one")


async def test_a_timed_out_wait_names_the_stuck_widget_and_its_stack() -> None:
    app = StuckApp()
    async with app.run_test() as pilot:
        stuck = app.query_one(Stuck)
        stuck.release, stuck.waiting = asyncio.Event(), asyncio.Event()
        stuck.call_later(stuck.wait_forever)
        await asyncio.wait_for(stuck.waiting.wait(), 10)  # its message loop is stuck from here
        with pytest.raises(WaitForScreenTimeout) as raised:
            await pilot._wait_for_screen(timeout=0.3)
        stuck.release.set()  # (else the app waits for it as it closes)
        message = str(raised.value)
        assert "the-stuck-one" in message
        assert "wait_forever" in message
        assert "fine" not in message.split("Stuck:", 1)[1]
