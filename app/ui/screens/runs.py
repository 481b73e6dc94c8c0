"""RunsScreen (R): every run of the open thread (#runs-table): status, assistant, start,
end, duration, multitask strategy and stream modes; the highlighted run's input, options,
metadata and error beside it. c cancels a pending or running run (interrupt or rollback,
asked first), j joins a running one (its stream goes to the chat), a runs one again with the
same input and options, r reloads; the list refreshes itself while a run is not over.

Dismisses with a RunsChoice (join / again) for the conversation to stream, or None.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ...backends.base import BackendError, ListsRuns, lacks
from ...object_input import seconds_text
from ...server_objects import RunInfo
from ..text import clean, plain, pretty_json, relative_time
from ..widgets.paged_table import PagedTable, cell
from ..workers import work
from .cancel_run import CancelRunScreen
from .confirm import ConfirmScreen
from .objects_base import ObjectsScreen

if TYPE_CHECKING:
    from ...backends.base import Backend

PAGE = 50
REFRESH_SECONDS = 1.0
STATUS_STYLE = {
    "success": "green",
    "error": "red",
    "timeout": "red",
    "interrupted": "yellow",
    "running": "cyan",
    "pending": "cyan",
}


def short_id(assistant_id: str) -> str:
    """A UUID's first 8 characters; a name (the Gateway's `lead_agent`) in full."""
    try:
        uuid.UUID(assistant_id)
    except ValueError:
        return assistant_id
    return assistant_id[:8]


@dataclass
class RunsChoice:
    action: str
    """"join" (follow the running run) or "again" (a new run with its input and options)."""
    run: RunInfo


class RunsScreen(ObjectsScreen[RunsChoice | None]):
    BINDINGS = [
        Binding("escape", "close", "Close", id="runs.close"),
        Binding("c", "cancel_run", "Cancel run", id="runs.cancel", tooltip="Cancel the run (interrupt or rollback)"),
        Binding("j", "join", "Join", id="runs.join", tooltip="Join the running run: its stream goes to the chat"),
        Binding("a", "again", "Run again", id="runs.again", tooltip="Run again with the same input and options"),
        Binding("r", "reload", "Reload", id="runs.reload"),
    ]
    HINTS = (
        ("cancel_run", "c cancel"),
        ("join", "j join"),
        ("again", "a run again"),
        ("reload", "r reload"),
        ("close", "esc close"),
    )

    def __init__(self, backend: Backend, thread_id: str, title: str = "") -> None:
        super().__init__(backend)
        self.thread_id = thread_id
        self.thread_title = title or thread_id
        self.runs: dict[str, RunInfo] = {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog objects-dialog", id="runs-dialog"):
            yield Static(self.title_line("Runs", self.thread_title), classes="dialog-title", id="runs-title")
            yield Static("", classes="objects-lacking")
            with Vertical(classes="objects-body"):
                yield PagedTable(id="runs-table")
                with VerticalScroll(classes="objects-detail", id="run-details-scroll"):
                    yield Static("", id="run-details")
            yield Static("Loading the runs…", classes="objects-status")
            yield Static(self.hint_line(), classes="objects-hint")

    @property
    def table(self) -> PagedTable:
        return self.query_one("#runs-table", PagedTable)

    def on_mount(self) -> None:
        self.query_one(".objects-lacking").display = False
        table = self.table
        table.fetching = True
        for label, key, width in (
            ("status", "status", 11),
            ("assistant", "assistant", 12),
            ("started", "started", 7),
            ("ended", "ended", 7),
            ("took", "took", 7),
            ("strategy", "strategy", 9),
            ("stream modes", "modes", 18),
            ("run id", "id", 36),
        ):
            table.add_column(label, key=key, width=width)
        why = lacks(self.backend, ListsRuns, "list a thread's runs")
        if why:
            self.explain_lack(why)
            self.set_status("")
            return
        table.focus()
        self.load()
        self.set_interval(REFRESH_SECONDS, self.refresh_moving)

    # -- loading -----------------------------------------------------------------------------------

    @work(exclusive=True, exit_on_error=False, group="runs-load")
    async def load(self, more: bool = False) -> None:
        assert isinstance(self.backend, ListsRuns)
        table = self.table
        table.fetching = True
        offset = table.served if more else 0
        limit = PAGE if more else max(PAGE, table.served)
        try:
            runs = await self.backend.list_runs(self.thread_id, limit=limit, offset=offset)
        except BackendError as error:
            table.fetching = False
            self.failed("Listing the runs", error)
            return
        if not self.is_attached:  # closed while the server answered
            return
        if not more:
            self.runs = {}
        table.exhausted = len(runs) < limit
        self.show_runs(runs, replace=not more)
        table.fetching = False
        count = len(self.runs)
        self.set_status(
            f"{count} run{'s' if count != 1 else ''}" + ("" if table.exhausted else " (more below)"), count=True
        )

    def show_runs(self, runs: list[RunInfo], replace: bool) -> None:
        table = self.table
        keep = table.highlighted_key
        if replace:
            table.clear()
        now = self.clock_now()
        table.served += len(runs)
        for run in runs:
            if run.run_id in self.runs:
                continue
            self.runs[run.run_id] = run
            table.add_row(
                cell(run.status or "?", STATUS_STYLE.get(run.status, "")),
                cell(run.graph_id or short_id(run.assistant_id)),
                relative_time(run.created_at, now),
                relative_time(run.ended_at, now) if run.ended_at else "",
                seconds_text(run.duration),
                cell(run.multitask_strategy),
                cell(", ".join(run.stream_modes)),
                cell(run.run_id),
                key=run.run_id,
            )
        if keep is not None and keep in self.runs:
            table.move_cursor(row=table.get_row_index(keep))
        self.show_details()

    def refresh_moving(self) -> None:
        """Reload while a run is not over (it moves from pending to running to its end)."""
        if any(run.active for run in self.runs.values()) and not self.table.fetching:
            self.load()

    @on(PagedTable.NeedMore, "#runs-table")
    def more(self) -> None:
        self.load(more=True)

    @on(PagedTable.RowHighlighted, "#runs-table")
    def highlighted(self) -> None:
        self.show_details()

    def highlighted_run(self) -> RunInfo | None:
        key = self.table.highlighted_key
        return self.runs.get(key) if key else None

    def show_details(self) -> None:
        run = self.highlighted_run()
        if run is not None and run.status == "error" and not run.error:
            self.fill_error(run)
        details = self.query_one("#run-details", Static)
        if run is None:
            self.show_detail(details, Content.styled("No runs on this thread yet.", "dim"))
            return
        self.show_detail(
            details,
            Content.assemble(
                ("run ", "dim"),
                (clean(run.run_id), "bold"),
                ("\n", ""),
                plain(pretty_json(run.details())),
            ),
        )

    @work(exclusive=True, exit_on_error=False, group="runs-error")
    async def fill_error(self, run: RunInfo) -> None:
        """A failed run's error, asked for when it is highlighted (the list has none)."""
        assert isinstance(self.backend, ListsRuns)
        try:
            found = await self.backend.get_run(self.thread_id, run.run_id)
        except BackendError:
            return
        if not self.is_attached or not found.error:
            return
        run.error = found.error
        if self.highlighted_run() is run:
            self.show_details()

    # -- actions -----------------------------------------------------------------------------------

    def action_reload(self) -> None:
        if not lacks(self.backend, ListsRuns, ""):
            self.load()

    def action_join(self) -> None:
        run = self.highlighted_run()
        if run is None:
            return
        if run.status != "running":
            self.set_status(f"Only a running run can be joined; this one is {run.status}.", "$warning")
            return
        self.dismiss(RunsChoice("join", run))

    def action_again(self) -> None:
        run = self.highlighted_run()
        if run is None:
            return
        if run.active:
            self.set_status("This run is not over yet: join it (j), or cancel it (c) first.", "$warning")
            return
        question = Content.assemble(
            "Run again with the same input and options?\n",
            ("A new run on this thread: its replies join the conversation.", "dim"),
        )
        self.app.push_screen(ConfirmScreen(question, "Run again"), callback=lambda yes: self._run_again(run, yes))

    def _run_again(self, run: RunInfo, confirmed: bool | None) -> None:
        """`a` runs the graph: asked first, so a stray a changes nothing."""
        if confirmed:
            self.dismiss(RunsChoice("again", run))

    def action_cancel_run(self) -> None:
        run = self.highlighted_run()
        if run is None:
            return
        if not run.active:
            self.set_status(f"This run is over ({run.status}): there is nothing to cancel.", "$warning")
            return
        self.cancel(run)

    @work(exit_on_error=False, group="runs-cancel")
    async def cancel(self, run: RunInfo) -> None:
        action = await self.app.push_screen_wait(CancelRunScreen())
        if action is None:
            return
        try:
            await self.backend.cancel_run(self.thread_id, run.run_id, action)
        except BackendError as error:
            self.failed("Cancelling the run", error)
            return
        if not self.is_attached:  # closed while the server answered
            return
        self.set_status(f"Run {run.run_id} cancelled ({action}).")
        self.load()
