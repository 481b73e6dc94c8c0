"""PickGraphScreen: the server runs several graphs and nothing says which one a run is for.

Dismisses with the chosen assistant or graph id, or None (escape: nothing is sent; the
message stays in the composer).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ..text import clean
from ..widgets.safe_input import SafeInput


class PickGraphScreen(ModalScreen[str | None]):
    READ_FIRST = True
    """It comes unasked (on send): no key typed before it opened reaches it (app.py)."""
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="pick_graph.cancel")]

    def __init__(self, graphs: list[str], reason: str = "") -> None:
        super().__init__(classes="modal")
        self.graphs = graphs
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="pick-graph-dialog"):
            yield Static(Content.styled("Which graph should this run on?", "bold"), classes="dialog-title")
            if self.reason:
                yield Static(Content(clean(self.reason)), classes="dialog-text")
            if self.graphs:
                yield OptionList(*(Option(Content(clean(g)), id=g) for g in self.graphs), id="pick-graph-list")
            yield SafeInput(
                placeholder="or type an assistant id or graph name, then enter"
                if self.graphs
                else "the assistant id or graph name, then enter",
                id="pick-graph-typed",
            )
            yield Static(Content.styled("enter picks · esc keeps your message unsent", "dim"), classes="dialog-text")

    def on_mount(self) -> None:
        self.query_one("#pick-graph-list" if self.graphs else "#pick-graph-typed").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)
