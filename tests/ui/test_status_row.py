"""The status row under the chat: the run status beside the connection indicator. A long
address or recording name takes at most half the row, cut with an ellipsis; the run status
keeps the rest (it was squeezed into a column of letters at 120 columns in a replay)."""

from __future__ import annotations

from support.driving import screen_lines
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static
from threadbench.styles import STYLES
from threadbench.ui.widgets.run_status import RunStatus

LONG_NAME = "◉ rec ● recording a-very-long-recording-name-of-a-run.jsonl"


class StatusRow(App[None]):
    CSS_PATH = [STYLES / "app.tcss"]
    CSS = "#status-row { width: 40; }"

    def compose(self) -> ComposeResult:
        with Horizontal(id="status-row"):
            yield RunStatus(id="run-status")
            yield Static(LONG_NAME, id="connection")


async def test_a_long_connection_name_leaves_the_run_status_half_the_row():
    app = StatusRow()
    async with app.run_test(size=(60, 10)) as pilot:
        status = app.query_one(RunStatus)
        status.show("idle", "")
        await pilot.pause()
        row, connection = app.query_one("#status-row"), app.query_one("#connection")
        assert status.region.width >= row.region.width // 2 and connection.region.height == 1
        first = screen_lines(app)[0]
        assert first.startswith(" idle") and first.rstrip().endswith("…"), first
