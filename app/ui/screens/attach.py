"""AttachScreen (#attach-dialog): the path of a file to send with the next message, typed
with completion (the name the folder holds is suggested as you type; tab or → takes it),
checked against the server's limits (shown before anything is sent). A file it refuses is
said in the dialog, and what was typed stays."""

from __future__ import annotations

import asyncio

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import Suggester, SuggestionReady
from textual.widgets import Input, Static

from ...artifacts import size_text
from ...models import UploadLimits
from ...uploads import Attachment, attachment_for, complete_path, limits_text
from ..text import clean, plain
from ..widgets.safe_input import SafeInput


class PathSuggester(Suggester):
    """The file system's names, as the path is typed (read again each time: no cache)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return await asyncio.to_thread(complete_path, value)


class PathInput(SafeInput):
    """tab takes the suggested completion (where there is one; else it moves the focus on)."""

    BINDINGS = [Binding("tab", "complete", "Complete the path", show=False, id="attach.complete")]

    suggested = ""
    """The completion shown for the value as it is ("" for none)."""

    def on_suggestion_ready(self, event: SuggestionReady) -> None:
        if event.value == self.value:
            self.suggested = event.suggestion

    def on_input_changed(self) -> None:
        self.suggested = ""

    def action_complete(self) -> None:
        if self.suggested and self.suggested != self.value:
            self.value = self.suggested
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()


class AttachScreen(ModalScreen[Attachment | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="attach.cancel")]

    def __init__(self, attached: list[Attachment], limits: UploadLimits | None, typed: str = "") -> None:
        super().__init__(classes="modal")
        self.attached = attached
        self.limits = limits
        self.typed = typed

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide", id="attach-dialog"):
            yield Static(Content.styled("Attach a file to the next message", "bold"), classes="dialog-title")
            yield Static(Content.styled(limits_text(self.limits), "$text-muted"), id="attach-limits")
            if self.attached:
                names = ", ".join(f"{item.name} ({size_text(item.size)})" for item in self.attached)
                yield Static(Content.assemble(("attached: ", "dim"), clean(names)), id="attach-attached")
            yield PathInput(
                value=self.typed,
                placeholder="path of the file, e.g. ~/notes.txt",
                suggester=PathSuggester(),
                id="attach-path",
            )
            yield Static(id="attach-error", classes="dialog-error")
            yield Static(Content.styled("tab completes · enter attaches · escape cancels", "dim"))

    def on_mount(self) -> None:
        self.query_one("#attach-error").display = False
        path = self.query_one("#attach-path", PathInput)
        path.focus()
        path.cursor_position = len(path.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        found = attachment_for(event.value, self.attached, self.limits)
        if isinstance(found, str):
            error = self.query_one("#attach-error", Static)
            error.update(plain(found))
            error.display = True
            return
        self.dismiss(found)

    def action_cancel(self) -> None:
        self.dismiss(None)
