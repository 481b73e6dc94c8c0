"""RunOptionsScreen: choose the assistant and the run options sent with the next runs.

Each option's widget has the id `option-<name>`; a name that cannot be a widget id (the
schema is the server's: "max tokens", "[b]") gets `option--<n>` (its position) instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static, Switch

from ...models import Assistant
from ...run_options import OptionField, RunOptions
from ..key_order import after_typed_keys
from ..text import clean
from ..widgets.graph_choice import GraphChoice

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def field_id(name: str, index: int) -> str:
    """The widget id of an option field: `option-<name>`, or `option--<index>` for a
    name that is not a valid identifier (a valid name never starts with "-")."""
    return f"option-{name}" if _IDENTIFIER.fullmatch(name) else f"option--{index}"


class RunOptionsScreen(ModalScreen[RunOptions | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="options.cancel"),
        Binding("ctrl+s", "save", "Apply", priority=True, id="options.save"),
    ]

    def __init__(
        self,
        options: RunOptions,
        fields: list[OptionField],
        assistants: list[Assistant],
        graphs: Sequence[str] = (),
        note: str = "",
    ) -> None:
        """`note`: why the fields are not the graph's own, when they could not be read."""
        super().__init__(classes="modal")
        self.note = note
        self.options = options
        self.fields = fields
        self.assistants = assistants
        self.graphs = list(graphs)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide", id="run-options-dialog"):
            yield Static(Content.styled("Run options", "bold"), classes="dialog-title")
            yield Label("Assistant / graph")
            yield GraphChoice(
                self.assistants,
                self.graphs,
                self.options.assistant_id,
                auto="each thread's own graph",
                id="option-assistant",
            )
            if self.note:
                yield Static(Content.styled(clean(self.note), "$text-muted"), id="run-options-note")
            with VerticalScroll(id="option-fields"):
                for index, spec in enumerate(self.fields):
                    yield from self._field(spec, self.options.values.get(spec.name), field_id(spec.name, index))
            yield Label("Send options as")
            yield Select(
                [("context (LangGraph >= 0.6, DeerFlow)", "context"), ("configurable (older servers)", "configurable")],
                value=self.options.send_as,
                allow_blank=False,
                id="option-send-as",
            )
            yield Static(id="run-options-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Apply (ctrl+s)", variant="primary", id="options-apply")
                yield Button("Cancel (esc)", id="options-cancel")

    def _field(self, spec: OptionField, value: Any, widget_id: str) -> ComposeResult:
        label = Content.assemble(
            (clean(spec.name), "bold"), ("  " + clean(spec.description), "dim") if spec.description else ""
        )
        with Horizontal(classes="option-row"):
            yield Static(label, classes="option-label")
            if spec.kind == "bool":
                yield Switch(value=bool(value), id=widget_id)
            elif spec.kind == "choice":
                yield Select(
                    [(clean(c), c) for c in spec.choices],
                    value=value if value in spec.choices else Select.NULL,
                    id=widget_id,
                )
            else:
                yield Input(
                    value="" if value is None else str(value),
                    id=widget_id,
                    type="number" if spec.kind == "number" else "text",
                )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_save() if event.button.id == "options-apply" else self.action_cancel()

    @after_typed_keys
    def action_save(self) -> None:
        values: dict[str, Any] = {}
        for index, spec in enumerate(self.fields):
            widget = self.query_one(f"#{field_id(spec.name, index)}")
            if isinstance(widget, Switch):
                if widget.value:
                    values[spec.name] = True
            elif isinstance(widget, Select):
                if widget.value is not Select.NULL:
                    values[spec.name] = widget.value
            elif isinstance(widget, Input) and widget.value.strip():
                text = widget.value.strip()
                if spec.kind == "number":
                    try:
                        values[spec.name] = int(text) if text.lstrip("-").isdigit() else float(text)
                    except ValueError:
                        self.query_one("#run-options-error", Static).update(
                            Content.styled(f"{clean(spec.name)} must be a number.", "$error")
                        )
                        return
                else:
                    values[spec.name] = text
        self.dismiss(
            RunOptions(
                assistant_id=self.query_one("#option-assistant", GraphChoice).value,
                values=values,
                send_as=self.query_one("#option-send-as", Select).value,  # type: ignore[arg-type]
            )
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
