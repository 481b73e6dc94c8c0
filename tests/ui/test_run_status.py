"""The run status keeps to one row where it can, running or not: the rate, then the event
count, then the time, go when the row is too narrow (a question asked left "· 7" on one row and "events ·
12/s" on the next); what the status says stays."""

from __future__ import annotations

from textual.app import App, ComposeResult
from threadbench.ui.widgets.run_status import RunStatus


class StatusApp(App[None]):
    CSS = "RunStatus { width: 66; height: auto; }"

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def compose(self) -> ComposeResult:
        yield RunStatus()


async def test_a_run_waiting_for_an_answer_keeps_to_one_row() -> None:
    app = StatusApp()
    async with app.run_test() as pilot:
        status = app.query_one(RunStatus)
        status.begin()
        status.count(7)
        app.now = 0.6
        status.end("waiting", "waiting for your answer (enter or a to answer)")
        await pilot.pause()
        text = str(status.visual)
        assert status.size.height == 1, text
        assert "waiting for your answer (enter or a to answer)" in text and "0.6s" in text
        assert "/s" not in text


async def test_a_wide_row_shows_the_count_and_the_rate() -> None:
    app = StatusApp()
    async with app.run_test() as pilot:
        status = app.query_one(RunStatus)
        status.begin()
        status.count(7)
        app.now = 0.5
        status.end("idle")
        await pilot.pause()
        assert "7 events · 14/s" in str(status.visual)


class NarrowApp(StatusApp):
    CSS = "RunStatus { width: 58; height: auto; }"


async def test_a_narrower_row_lets_the_time_go_before_it_wraps() -> None:
    """At 58 cells the question's words and "· 0.6s" do not fit on one row: the time goes (it
    wrapped alone onto a second row beside the server's address)."""
    app = NarrowApp()
    async with app.run_test() as pilot:
        status = app.query_one(RunStatus)
        status.begin()
        app.now = 0.6
        status.end("waiting", "waiting for your answer (enter or a to answer)")
        await pilot.pause()
        text = str(status.visual)
        assert status.size.height == 1, text
        assert "waiting for your answer (enter or a to answer)" in text and "0.6s" not in text
