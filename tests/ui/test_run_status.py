"""The run status is one row at every width (issue: "waiting for your / answer (enter or a /
to answer)" wrapped at 120 columns, a letter a row at 80): its parts go by priority (the rate,
the count, the tokens, the node, the time), then what it says is cut with "…"; the state
stays. The whole text is in `full_text` (the help screen shows it) and the tooltip."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from threadbench.ui.widgets.run_status import RunStatus

QUESTION = "for your answer (enter or a to answer)"


class StatusApp(App[None]):
    CSS = "RunStatus { width: 1fr; height: auto; }"

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def compose(self) -> ComposeResult:
        yield RunStatus()


def running(status: RunStatus, app: StatusApp) -> None:
    status.begin("streaming the reply")
    status.count(7, node="research_subgraph")
    app.now = 0.5


def waiting(status: RunStatus, app: StatusApp) -> None:
    status.begin()
    status.count(7)
    app.now = 0.5
    status.show_usage("tokens 121 (120 in · 1 out)")
    status.end("waiting", QUESTION)


@pytest.mark.parametrize("width", [4, 9, 16, 30, 44, 60, 80, 120])
@pytest.mark.parametrize("state", [running, waiting])
async def test_one_row_at_every_width(state, width: int) -> None:
    app = StatusApp()
    async with app.run_test(size=(width, 6)) as pilot:
        status = app.query_one(RunStatus)
        state(status, app)
        status.refresh()
        await pilot.pause()
        shown = status.fitted(width)
        assert shown.cell_length <= width, shown.plain
        assert status.size.height == 1
        word = status.state
        assert shown.plain.strip().startswith(word[: max(1, width - 2)]) or "…" in shown.plain


async def test_the_parts_go_by_priority() -> None:
    app = StatusApp()
    async with app.run_test(size=(120, 6)):
        status = app.query_one(RunStatus)
        waiting(status, app)
        whole = status.fitted(200).plain
        assert whole == f" waiting {QUESTION} ·  0.5s · 7 events · 14/s · tokens 121 (120 in · 1 out)"
        assert "/s" not in status.fitted(len(whole) - 1).plain  # the rate first
        assert "events" not in status.fitted(len(whole) - 8).plain  # then the count
        assert status.fitted(60).plain == f" waiting {QUESTION} ·  0.5s"  # then the tokens
        assert status.fitted(52).plain == f" waiting {QUESTION} "  # then the time
        cut = status.fitted(30).plain
        assert cut.startswith(" waiting for your") and cut.endswith("…") and len(cut) == 30  # then cut
        assert status.full_text == whole.strip()
        assert status.tooltip == status.full_text


async def test_running_shows_the_node_until_the_row_is_narrow() -> None:
    app = StatusApp()
    async with app.run_test(size=(120, 6)):
        status = app.query_one(RunStatus)
        running(status, app)
        status.count(0)
        app.now = 0.5
        status._tick()
        assert status.fitted(120).plain.startswith(" running node research_subgraph streaming the reply ·  0.5s")
        assert "node" not in status.fitted(46).plain
        assert status.fitted(46).plain.startswith(" running streaming the reply")


async def test_a_detail_that_starts_with_the_state_says_it_once() -> None:
    """The first frame said "starting starting embedded server…"."""
    app = StatusApp()
    async with app.run_test(size=(80, 6)):
        status = app.query_one(RunStatus)
        status.show("starting", "starting the embedded server…")
        assert status.fitted(80).plain == " starting the embedded server… "


async def test_another_thread_shows_nothing_of_the_last_ones_run() -> None:
    """A new empty thread showed "idle · 1.1s · 127 events · 118/s" of the thread before."""
    app = StatusApp()
    async with app.run_test(size=(120, 6)):
        status = app.query_one(RunStatus)
        waiting(status, app)
        status.reset()
        assert status.fitted(120).plain == " idle "
