"""CronsScreen (C): the server's crons (#crons-table): schedule, next run, what it runs
(a thread, or a new thread each time for an assistant), enabled. n creates one for the
open thread or for an assistant, with a schedule and an input (JSON); d deletes one (asked
first). A schedule the server refuses is said under the form, and what was typed stays.
Where a server has no crons, the screen says so."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ...backends.base import BackendError, HasCrons, lacks
from ...object_input import TypedWrong, parse_json_object
from ...server_objects import CronJob
from ..text import clean, plain, pretty_json, relative_time
from ..widgets.paged_table import PagedTable, cell
from ..workers import work
from .object_form import FormField, ObjectFormScreen
from .objects_base import ObjectsScreen

if TYPE_CHECKING:
    from ...backends.base import Backend

PAGE = 50


class CronsScreen(ObjectsScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close", id="crons.close"),
        Binding("n", "create", "New", id="crons.new", tooltip="New cron (a schedule and an input)"),
        Binding("d,delete", "delete", "Delete", id="crons.delete", tooltip="Delete the cron"),
        Binding("r", "reload", "Reload", id="crons.reload"),
    ]
    HINTS = (("create", "n new"), ("delete", "d delete"), ("reload", "r reload"), ("close", "esc close"))

    def __init__(self, backend: Backend, *, thread_id: str | None = None, assistant_id: str = "") -> None:
        super().__init__(backend)
        self.thread_id = thread_id
        self.assistant_id = assistant_id
        self.crons: dict[str, CronJob] = {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog objects-dialog", id="crons-dialog"):
            yield Static(self.title_line("Crons"), classes="dialog-title")
            yield Static("", classes="objects-lacking")
            with Vertical(classes="objects-body"):
                yield PagedTable(id="crons-table")
                with VerticalScroll(classes="objects-detail", id="cron-details-scroll"):
                    yield Static("", id="cron-details")
            yield Static("Loading the crons…", classes="objects-status")
            yield Static(self.hint_line(), classes="objects-hint")

    @property
    def table(self) -> PagedTable:
        return self.query_one("#crons-table", PagedTable)

    @property
    def scheduler(self) -> HasCrons:
        assert isinstance(self.backend, HasCrons)
        return self.backend

    def on_mount(self) -> None:
        self.query_one(".objects-lacking").display = False
        for label, width in (("schedule", 16), ("next run", 9), ("runs on", 46), ("enabled", 7), ("cron id", 36)):
            self.table.add_column(label, key=label, width=width)
        why = lacks(self.backend, HasCrons, "run anything on a schedule (it has no crons)")
        if why:
            self.explain_lack(why)
            self.set_status("")
            return
        self.table.focus()
        self.load()

    @work(exclusive=True, exit_on_error=False, group="crons-load")
    async def load(self, more: bool = False) -> None:
        table = self.table
        table.fetching = True
        offset = table.served if more else 0
        try:
            found = await self.scheduler.list_crons(limit=PAGE, offset=offset)
        except BackendError as error:
            table.fetching = False
            if not more and self.server_lacks(error, "crons"):
                return
            self.failed("Listing the crons", error)
            return
        if not self.is_attached:  # closed while the server answered
            return
        keep = table.highlighted_key
        if not more:
            table.clear()
            self.crons = {}
        table.exhausted = len(found) < PAGE
        table.served += len(found)
        now = self.clock_now()
        for cron in found:
            if cron.cron_id in self.crons:
                continue
            self.crons[cron.cron_id] = cron
            target = f"thread {cron.thread_id}" if cron.thread_id else f"assistant {cron.assistant_id}"
            nxt = cron.next_run_date
            table.add_row(
                cell(cron.schedule),
                ("in " + relative_time(now, nxt)) if nxt is not None and nxt > now else relative_time(nxt, now),
                cell(target),
                "yes" if cron.enabled else "no",
                cell(cron.cron_id),
                key=cron.cron_id,
            )
        table.fetching = False
        if keep in self.crons:
            table.move_cursor(row=table.get_row_index(keep))
        count = len(self.crons)
        self.set_status(f"{count} cron{'s' if count != 1 else ''}" if count else "No crons: n makes one.", count=True)
        self.show_details()

    @on(PagedTable.NeedMore, "#crons-table")
    def more(self) -> None:
        self.load(more=True)

    @on(PagedTable.RowHighlighted, "#crons-table")
    def highlighted(self) -> None:
        self.show_details()

    def highlighted_cron(self) -> CronJob | None:
        key = self.table.highlighted_key
        return self.crons.get(key) if key else None

    def show_details(self) -> None:
        cron = self.highlighted_cron()
        details = self.query_one("#cron-details", Static)
        if cron is None:
            self.show_detail(details, Content(""))
            return
        body = {"assistant_id": cron.assistant_id, "thread_id": cron.thread_id, "input": cron.input}
        self.show_detail(details, Content.assemble((clean(cron.schedule), "bold"), "\n", plain(pretty_json(body))))

    def action_create(self) -> None:
        if lacks(self.backend, HasCrons, ""):
            return
        fields = [
            FormField("schedule", "Schedule (cron: minute hour day month weekday)", placeholder="0 9 * * 1-5"),
            FormField(
                "thread",
                "Thread (empty: a new thread each time)",
                self.thread_id or "",
            ),
            FormField("assistant", "Assistant or graph", self.assistant_id),
            FormField("input", "Input (JSON)", '{"messages": [{"role": "user", "content": ""}]}', json=True),
        ]

        async def make(values: dict[str, str]) -> CronJob:
            schedule = " ".join(values["schedule"].split())
            assistant = values["assistant"].strip()
            if not schedule:
                raise TypedWrong("Type a schedule, like 0 9 * * 1-5 (9:00 on weekdays).")
            if not assistant:
                raise TypedWrong("Type the assistant or graph the cron runs.")
            payload = parse_json_object(values["input"], "input", empty={})
            return await self.scheduler.create_cron(
                schedule, assistant_id=assistant, thread_id=values["thread"].strip() or None, input=payload
            )

        form = ObjectFormScreen("New cron", fields, self.form_submit(make), save="Create")
        self.app.push_screen(form, callback=self._made)

    def _made(self, cron: CronJob | None) -> None:
        if cron is not None:
            self.load()
            self.set_status(f"Made cron {cron.cron_id} ({cron.schedule}).")

    def action_delete(self) -> None:
        cron = self.highlighted_cron()
        if cron is not None:
            self.delete(cron)

    @work(exit_on_error=False, group="crons-edit")
    async def delete(self, cron: CronJob) -> None:
        question = Content.assemble("Delete the cron ", (clean(cron.schedule), "bold"), f" ({cron.cron_id})?")
        if await self.confirmed(question, partial(self.scheduler.delete_cron, cron.cron_id), "Deleting the cron"):
            self.load()

    def action_reload(self) -> None:
        if not lacks(self.backend, HasCrons, ""):
            self.load()
