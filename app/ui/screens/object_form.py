"""ObjectFormScreen: a small form for the server's objects (an assistant, a store item, a
cron): one-line fields and JSON fields. ctrl+s sends it; if the check or the server refuses,
the reason shows under the form and everything typed stays."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from ..text import plain
from ..typed_keys import after_typed_keys
from ..workers import work


@dataclass
class FormField:
    id: str
    label: str
    value: str = ""
    json: bool = False
    """A multi-line JSON box (else one line)."""
    placeholder: str = ""


Submit = Callable[[dict[str, str]], Awaitable[tuple[Any, str]]]
"""Given what was typed (field id -> text): (the result to dismiss with, "") or (None, why not)."""


class ObjectFormScreen(ModalScreen[Any]):
    BINDINGS = [
        Binding("ctrl+s", "submit", "Save", priority=True, id="objform.save"),
        Binding("escape", "cancel", "Cancel", id="objform.cancel"),
    ]

    def __init__(
        self, title: str, fields: list[FormField], submit: Submit, *, note: str = "", save: str = "Save"
    ) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.fields = fields
        self.submit = submit
        self.note = note
        self.save_label = save

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog -wide", id="object-form"):
            yield Static(Content.styled(self.title_text, "bold"), classes="dialog-title")
            if self.note:
                yield Static(plain(self.note, "dim"), classes="dialog-text")
            for field in self.fields:
                yield Label(field.label)
                if field.json:
                    box = TextArea(
                        field.value,
                        id=f"form-{field.id}",
                        classes="form-json",
                        show_line_numbers=False,
                        placeholder=field.placeholder,
                    )
                    yield box
                else:
                    yield Input(field.value, placeholder=field.placeholder, id=f"form-{field.id}")
            yield Static("", id="object-form-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.save_label} (ctrl+s)", variant="primary", id="form-save")
                yield Button("Cancel (esc)", id="form-cancel")

    def on_mount(self) -> None:
        first = next((f for f in self.fields if not f.value), self.fields[0] if self.fields else None)
        if first is not None:
            self.query_one(f"#form-{first.id}").focus()

    def values(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for field in self.fields:
            widget = self.query_one(f"#form-{field.id}")
            found[field.id] = widget.text if isinstance(widget, TextArea) else widget.value  # type: ignore[attr-defined]
        return found

    def show_error(self, text: str) -> None:
        error = self.query_one("#object-form-error", Static)
        error.update(plain(text, "$error") if text else Content(""))
        if text:  # a tall form scrolls: the reason must be in sight
            self.call_after_refresh(error.scroll_visible)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "form-save":
            self.action_submit()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @after_typed_keys
    def action_submit(self) -> None:
        self.show_error("")
        self.send(self.values())

    @work(exclusive=True, exit_on_error=False, group="object-form")
    async def send(self, values: dict[str, str]) -> None:
        result, problem = await self.submit(values)
        if problem:
            self.show_error(problem)
            return
        self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)
