"""ConfirmScreen: a yes/no question before something that cannot be undone."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    READ_FIRST = True
    """A key typed before the question was up (a stray y behind the x that opened it) is no
    answer (typed_keys.py)."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: Content, confirm_label: str = "Delete") -> None:
        super().__init__(classes="modal")
        self.question = question
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.confirm_label} (y)", variant="error", id="confirm-yes")
                yield Button("Cancel (n)", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
