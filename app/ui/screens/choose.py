"""ChooseScreen: one choice from a short list (enter picks, escape cancels)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..text import clean


class ChooseScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="choose.cancel")]

    def __init__(self, title: str, text: str, choices: list[tuple[str, str, str]]) -> None:
        """`choices`: (value, label, detail) each; dismissed with the value picked, or None."""
        super().__init__(classes="modal")
        self.title_text = title
        self.text = text
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="choose-dialog"):
            yield Static(Content.styled(clean(self.title_text), "bold"), classes="dialog-title")
            if self.text:
                yield Static(Content(clean(self.text)), classes="dialog-text")
            options = [
                Option(Content.assemble((clean(label), "bold"), "  ", (clean(detail), "$text-muted")), id=value)
                for value, label, detail in self.choices
            ]
            yield OptionList(*options, id="choose-list")
            yield Static(Content.styled("enter: choose · esc: cancel", "$text-muted"), classes="dialog-text")

    def on_mount(self) -> None:
        self.query_one("#choose-list", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
