"""RunOptionsScreen: choose the assistant and the run options sent with the next runs.

Each option's widget has the id `option-<name>`; a name that cannot be a widget id (the
schema is the server's: "max tokens", "[b]") gets `option--<n>` (its position) instead.

With DeerFlow's options, `#option-mode` offers its modes (flash, thinking, pro, ultra), each
setting the switches and the effort as DeerFlow's UI does; with the server's models (DeerFlow's
Gateway), `model_name` is a list of them by display name, the chosen one's description below
(`#model-description`), and a model without thinking greys the thinking switch out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static, Switch

from ...models import Assistant, ServerModel
from ...run_options import MODE_LABELS, MODES, OptionField, RunOptions, mode_of
from ..text import clean
from ..typed_keys import after_typed_keys
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
        models: Sequence[ServerModel] = (),
    ) -> None:
        """`note`: why the fields are not the graph's own, when they could not be read;
        `models`: the server's models, when it names them."""
        super().__init__(classes="modal")
        self.note = note
        self.options = options
        self.fields = fields
        self.assistants = assistants
        self.graphs = list(graphs)
        self.models = list(models)
        names = {spec.name for spec in fields}
        self.has_modes = all(key in names for key in MODES["ultra"])

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
                fields = list(enumerate(self.fields))
                if self.models:  # the server's models first, then the mode their thinking allows
                    fields.sort(key=lambda pair: pair[1].name != "model_name")
                    yield from self._fields(fields[:1])
                    fields = fields[1:]
                if self.has_modes:
                    with Horizontal(classes="option-row"):
                        yield Static(
                            Content.assemble(("mode", "bold"), ("  DeerFlow's: sets the options below", "dim")),
                            classes="option-label",
                        )
                        yield Select(
                            [(label, name) for name, label in MODE_LABELS.items()],
                            value=mode_of(self.options.values) or Select.NULL,
                            prompt="none",
                            id="option-mode",
                        )
                yield from self._fields(fields)
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

    def _fields(self, fields: list[tuple[int, OptionField]]) -> ComposeResult:
        for index, spec in fields:
            yield from self._field(spec, self.options.values.get(spec.name), field_id(spec.name, index))

    def _field(self, spec: OptionField, value: Any, widget_id: str) -> ComposeResult:
        label = Content.assemble(
            (clean(spec.name), "bold"), ("  " + clean(spec.description), "dim") if spec.description else ""
        )
        with Horizontal(classes="option-row"):
            yield Static(label, classes="option-label")
            if spec.name == "model_name" and self.models:
                names = [model.name for model in self.models]
                yield Select(
                    [(clean(model.label), model.name) for model in self.models],
                    value=value if value in names else Select.NULL,
                    prompt="the server's default",
                    id=widget_id,
                )
            elif spec.kind == "bool":
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
        if spec.name == "model_name" and self.models:
            yield Static(id="model-description", classes="option-note")

    def on_mount(self) -> None:
        self._show_model()

    def _option(self, name: str) -> Any:
        """The widget of the option `name`, None if the dialog has none."""
        for index, spec in enumerate(self.fields):
            if spec.name == name:
                return self.query_one(f"#{field_id(name, index)}")
        return None

    def _model(self) -> ServerModel | None:
        """The chosen model (the server's default is its first)."""
        chosen = self._option("model_name")
        if not self.models or not isinstance(chosen, Select):
            return None
        return next((m for m in self.models if m.name == chosen.value), self.models[0])

    @on(Select.Changed, "#option-model_name")
    def _show_model(self) -> None:
        """The chosen model's description; the thinking switch greyed out if it cannot think
        (and DeerFlow's mode flash: its UI runs such a model so)."""
        model = self._model()
        if model is None:
            return
        thinking = self._option("thinking_enabled")
        words = clean(model.description) or "no description"
        if not model.supports_thinking:
            words += " · this model does not think"
        self.query_one("#model-description", Static).update(Content.styled(words, "$text-muted"))
        if isinstance(thinking, Switch):
            thinking.disabled = not model.supports_thinking
            if thinking.disabled:
                thinking.value = False
                if self.has_modes and self.query_one("#option-mode", Select).value not in (Select.NULL, "flash"):
                    self.query_one("#option-mode", Select).value = "flash"

    @on(Select.Changed, "#option-mode")
    def _set_mode(self, event: Select.Changed) -> None:
        """The mode's options, as DeerFlow's UI sets them (a model without thinking: flash)."""
        if event.value is Select.NULL:
            return
        thinking = self._option("thinking_enabled")
        if event.value != "flash" and isinstance(thinking, Switch) and thinking.disabled:
            self.query_one("#option-mode", Select).value = "flash"
            return
        for name, value in MODES[str(event.value)].items():
            widget = self._option(name)
            if isinstance(widget, (Switch, Select)):
                widget.value = value

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
