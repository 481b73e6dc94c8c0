"""InboxScreen: every thread on the server waiting for a human, answered one after another.

The list (#inbox-list) shows each waiting thread with its question. Enter opens
HumanInputScreen for the highlighted thread; once the server accepts the answer the thread
leaves the list, its run is followed in the background (an app worker, so it survives the
inbox closing) and the thread comes back if it stops for a human again. `o` closes the
inbox and returns the highlighted thread id (the caller opens it); `r` reloads; escape
closes with None.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...backends.base import BackendError
from ...human_input import (
    HumanResponse,
    InboxItem,
    answer_submitter,
    drain,
    gather_inbox,
    pending_for_thread,
)
from ...models import ThreadSummary
from ...run_target import thread_graph
from ...styles import STYLES
from ..text import clean, one_line, plain
from ..workers import work
from .human_input import HumanInputScreen, kind_style

if TYPE_CHECKING:
    from ...backends.base import Backend


def describe_error(error: BaseException) -> str:
    if isinstance(error, BackendError):
        return error.with_hint()
    return f"{type(error).__name__}: {error}"


class InboxScreen(ModalScreen[str | None]):
    """Threads waiting for a human; dismisses with a thread id to open (`o`) or None."""

    CSS_PATH = [STYLES / "human_input.tcss"]
    BINDINGS = [
        Binding("escape", "close", "Close", id="inbox.close"),
        Binding("o", "open_thread", "Open thread", id="inbox.open"),
        Binding("r,ctrl+r", "reload", "Reload", id="inbox.reload"),
    ]

    def __init__(
        self,
        backend: Backend,
        *,
        assistant_of: Callable[[ThreadSummary], str] | None = None,
        context: dict[str, Any] | None = None,
        gather: Callable[[], Awaitable[list[InboxItem]]] | None = None,
        on_answered: Callable[[str], None] | None = None,
        drafts: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(classes="modal")
        self.backend = backend
        self.assistant_of = assistant_of or thread_graph
        """Where the answer's run goes (the thread's own graph)."""
        self.context = dict(context or {})
        self.gather = gather or (lambda: gather_inbox(backend))
        self.on_answered = on_answered
        """Called with a thread id once its answer was accepted (refresh its row, say)."""
        self.drafts = drafts if drafts is not None else {}
        """What was typed in answers left for later, shared with the conversation's dialog."""
        self.items: list[InboxItem] = []
        self.loaded = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="inbox-dialog"):
            yield Static(self._title(), id="inbox-title", classes="dialog-title")
            yield OptionList(id="inbox-list")
            yield Static(Content.styled("Looking for threads waiting for an answer…", "dim"), id="inbox-status")
            yield Static(Content.styled("enter answer · o open thread · r reload · esc close", "dim"), id="inbox-hint")

    def on_mount(self) -> None:
        self.query_one("#inbox-list", OptionList).focus()
        self.reload()

    @property
    def option_list(self) -> OptionList:
        return self.query_one("#inbox-list", OptionList)

    def _title(self) -> Content:
        count = len(self.items)
        text = "loading…" if not self.loaded else f"{count} thread{'s' if count != 1 else ''} waiting for you"
        return Content.assemble(("Inbox", "bold"), ("  ·  " + text, "dim"))

    def set_status(self, text: str, style: str = "dim") -> None:
        self.query_one("#inbox-status", Static).update(plain(text, style) if text else Content(""))

    # -- the list -------------------------------------------------------------------------------

    @work(exclusive=True, group="inbox-load")
    async def reload(self) -> None:
        try:
            items = await self.gather()
        except BackendError as error:
            self.loaded = True
            self.set_status("Could not list the waiting threads: " + describe_error(error), "$error")
            return
        self.set_items(items)
        if items:
            self.set_status("")

    def set_items(self, items: list[InboxItem]) -> None:
        self.loaded = True
        highlighted = self.option_list.highlighted
        self.items = list(items)
        rows: list[Option | None] = []
        for item in self.items:
            if rows:
                rows.append(None)  # a separator line between threads
            rows.append(self._option(item))
        self.option_list.set_options(rows)
        if self.items:
            self.option_list.highlighted = min(highlighted or 0, len(self.items) - 1)
        self.query_one("#inbox-title", Static).update(self._title())
        if not self.items:
            self.set_status("Nothing is waiting for an answer.")

    def _option(self, item: InboxItem) -> Option:
        thread, pending = item.thread, item.first
        status = thread.status if thread.status != "unknown" else ""
        where = " · ".join(clean(part) for part in (thread.graph_id or thread.assistant_id, status) if part)
        more = len(item.pending) - 1
        prompt = Content.assemble(
            (one_line(thread.display_title, 70), "bold"),
            ("  " + where if where else "", "dim"),
            "\n  ",
            (pending.kind_label, kind_style(pending)),
            "  ",
            plain(one_line(pending.summary, 80)),
            (f"  (+{more} more)" if more > 0 else "", "dim"),
        )
        return Option(prompt, id=item.thread.thread_id)

    def _item(self, thread_id: str) -> InboxItem | None:
        return next((item for item in self.items if item.thread.thread_id == thread_id), None)

    def remove_item(self, thread_id: str) -> None:
        self.set_items([item for item in self.items if item.thread.thread_id != thread_id])

    def put_item(self, item: InboxItem) -> None:
        rest = [other for other in self.items if other.thread.thread_id != item.thread.thread_id]
        self.set_items([item, *rest])

    # -- answering ------------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#inbox-list")
    def item_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        item = self._item(event.option_id or "")
        if item is not None:
            self.answer(item)

    def answer(self, item: InboxItem) -> None:
        screen = HumanInputScreen(
            item.first,
            submit=self._submitter(item),
            thread_title=item.thread.display_title,
            position=(1, len(item.pending)) if len(item.pending) > 1 else None,
            drafts=self.drafts,
        )
        self.app.push_screen(screen, callback=self._back_to_list)

    def _back_to_list(self, _answer: HumanResponse | None) -> None:
        self.option_list.focus()

    def _submitter(self, item: InboxItem):
        thread = item.thread

        def accepted(events) -> None:
            self.remove_item(thread.thread_id)
            self.set_status(f"Answered {one_line(thread.display_title, 50)}; the run continues…")
            if self.on_answered is not None:
                self.on_answered(thread.thread_id)
            # An app worker: the run is followed to its end even if the inbox closes.
            self.app.run_worker(self._follow(item, events), group="inbox-follow", exit_on_error=False)

        return answer_submitter(
            self.backend,
            thread.thread_id,
            accepted,
            assistant_id=self.assistant_of(thread),
            context=self.context,
        )

    async def _follow(self, item: InboxItem, events) -> None:
        """Read the answered run to its end; bring the thread back if it waits again."""
        title = one_line(item.thread.display_title, 50)
        try:
            outcome, detail = await drain(events)
            thread = await self.backend.get_thread(item.thread.thread_id)
            again = await pending_for_thread(self.backend, thread)
        except BackendError as error:
            if self.is_attached:
                self.set_status(f"{title}: {describe_error(error)}", "$error")
            return
        if not self.is_attached:
            return
        if again is not None:
            self.put_item(again)
            self.set_status(f"{title} is waiting for you again.")
        elif outcome == "error":
            self.set_status(f"{title}: the run failed: {detail}", "$error")
        else:
            self.set_status(f"{title}: the run finished.")

    # -- actions --------------------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def action_reload(self) -> None:
        self.set_status("Looking for threads waiting for an answer…")
        self.reload()

    def action_open_thread(self) -> None:
        option = self.option_list.highlighted_option
        if option is not None:
            self.dismiss(option.id)
