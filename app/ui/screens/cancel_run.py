"""CancelRunScreen: stop the run, keeping what it did (interrupt) or undoing it (rollback)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class CancelRunScreen(ModalScreen[str | None]):
    """Dismisses with "interrupt", "rollback", or None to let the run go on."""

    READ_FIRST = True
    """A key typed before the question was up (a stray r behind ctrl+g: a rollback deletes the
    run's checkpoints) is no answer (typed_keys.py)."""

    BINDINGS = [
        Binding("i", "choose('interrupt')", "Interrupt", id="cancel.interrupt"),
        Binding("r", "choose('rollback')", "Rollback", id="cancel.rollback"),
        Binding("escape,n", "choose(None)", "Keep running", id="cancel.keep"),
    ]

    def __init__(self) -> None:
        super().__init__(classes="modal")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide"):
            yield Static(Content.styled("Cancel the run?", "bold"), classes="dialog-title")
            yield Static(
                Content.assemble(
                    ("interrupt", "bold"),
                    ": stop now and keep what the run has done so far\n",
                    ("rollback", "bold"),
                    ": stop and undo the run, as if it never started",
                ),
                classes="dialog-text",
            )
            with Horizontal(classes="dialog-buttons"):
                yield Button("Interrupt (i)", variant="warning", id="cancel-interrupt")
                yield Button("Rollback (r)", variant="error", id="cancel-rollback")
                yield Button("Keep running (esc)", id="cancel-keep")

    def on_mount(self) -> None:
        self.query_one("#cancel-interrupt", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        choice = {"cancel-interrupt": "interrupt", "cancel-rollback": "rollback"}.get(event.button.id or "")
        self.dismiss(choice)

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)
