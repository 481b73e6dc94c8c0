"""MessageLogScreen: a thread's message log on servers that keep one apart from the state
(10xGraph): search it, add a message without running the graph, delete one message."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...backends.base import BackendError
from ...models import ChatMessage
from ..text import clean, one_line
from ..workers import work
from .confirm import ConfirmScreen

if TYPE_CHECKING:
    from ...backends.base import KeepsMessageLog

PAGE = 100


def message_row(message: ChatMessage) -> Content:
    return Content.assemble(
        (f"{message.type:<6} ", "bold" if message.type == "human" else "dim"),
        one_line(message.text or "(no text)", 70),
        ("  " + clean(message.id[-8:]), "dim"),
    )


class MessageLogScreen(ModalScreen[bool]):
    """Dismisses with True if the log was changed."""

    BINDINGS = [
        Binding("escape", "close", "Close", id="log.close"),
        Binding("d,delete", "delete", "Delete message", id="log.delete"),
        Binding("a", "add", "Add message", id="log.add"),
        Binding("slash", "search", "Search", id="log.search"),
    ]

    def __init__(self, backend: KeepsMessageLog, thread_id: str) -> None:
        super().__init__(classes="modal")
        self.backend = backend
        self.thread_id = thread_id
        self.messages: list[ChatMessage] = []
        self.changed = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide", id="message-log-dialog"):
            yield Static(Content.styled("Message log", "bold"), classes="dialog-title")
            yield Input(placeholder="search the log (enter)", id="message-log-search")
            yield OptionList(id="message-log")
            yield Input(placeholder="a message to add without running the graph (enter)", id="message-log-add")
            yield Static(Content.styled("d delete · a add · / search · esc close", "dim"), id="message-log-keys")

    def on_mount(self) -> None:
        self.query_one("#message-log-add").display = False
        self.query_one("#message-log", OptionList).focus()
        self.load()

    @work(exclusive=True, group="log")
    async def load(self, search: str = "") -> None:
        try:
            self.messages = await self.backend.list_messages(self.thread_id, limit=PAGE, search=search or None)
        except BackendError as error:
            self.notify(f"Reading the message log failed: {error}", severity="error", markup=False)
            return
        log = self.query_one("#message-log", OptionList)
        log.clear_options()
        log.add_options(Option(message_row(m), id=m.id or None) for m in self.messages)
        if not self.messages:
            log.add_option(Option(Content.styled("no messages", "dim italic"), disabled=True))

    def action_search(self) -> None:
        self.query_one("#message-log-search", Input).focus()

    @on(Input.Submitted, "#message-log-search")
    def search_submitted(self, event: Input.Submitted) -> None:
        self.load(event.value.strip())
        self.query_one("#message-log", OptionList).focus()

    def action_add(self) -> None:
        box = self.query_one("#message-log-add", Input)
        box.display = True
        box.focus()

    @on(Input.Submitted, "#message-log-add")
    def add_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.add(event.value.strip())

    @work(group="log-write")
    async def add(self, text: str) -> None:
        try:
            await self.backend.add_messages(self.thread_id, [{"role": "user", "content": text}])
        except BackendError as error:  # the text stays in the box
            self.notify(f"Adding the message failed: {error}", severity="error", markup=False)
            return
        box = self.query_one("#message-log-add", Input)
        box.value = ""
        box.display = False
        self.changed = True
        self.notify("Message added (the graph did not run).", timeout=3)
        self.query_one("#message-log", OptionList).focus()
        self.load()

    def action_delete(self) -> None:
        log = self.query_one("#message-log", OptionList)
        if log.highlighted is None or not self.messages:
            return
        self.delete(self.messages[log.highlighted])

    @work(group="log-write")
    async def delete(self, message: ChatMessage) -> None:
        question = Content.assemble("Delete this message from the log?\n", (one_line(message.text, 60), "bold"))
        if not await self.app.push_screen_wait(ConfirmScreen(question)):
            return
        try:
            await self.backend.delete_message(self.thread_id, message.id)
        except BackendError as error:
            self.notify(f"Deleting the message failed: {error}", severity="error", markup=False)
            return
        self.changed = True
        self.notify("Message deleted.", timeout=2)
        self.load()

    def action_close(self) -> None:
        self.dismiss(self.changed)
