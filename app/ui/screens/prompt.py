"""PromptScreen: ask for one line of text (rename a thread, edit a message to resend).

The value may come from a server (a title, a message): the box shows control characters
as visible symbols (SafeInput) and keeps the text itself exactly as it was.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..widgets.safe_input import SafeInput


class PromptScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="prompt.cancel")]

    def __init__(self, question: str, value: str = "", placeholder: str = "") -> None:
        super().__init__(classes="modal")
        self.question = question
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Content.styled(self.question, "bold"), classes="dialog-title")
            # the cursor at the end, nothing selected: a key typed next (a stray one after the
            # letter that opened this) adds to the text, in sight, and never replaces it
            yield SafeInput(value=self.value, placeholder=self.placeholder, id="prompt-input", select_on_focus=False)
            yield Static(Content.styled("enter to save · escape to cancel", "dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        if not value:
            self.notify("Type a name first.", severity="warning")
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)
