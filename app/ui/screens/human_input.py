"""HumanInputScreen: answer what an agent asks (a question, a form, tool calls to review).

One modal for every PendingInput kind (threadbench.human_input):

- a question with numbered options (#human-input-options: keys 1-9 pick one and send it
  at once) and a free-text answer (#human-input-answer; digits typed there stay text);
- DeerFlow's form: one widget per field (#human-input-field-<n>), required ones enforced;
- tool calls to review: one row per action with a decision picker
  (#human-input-decision-<n>: left/right or a/e/r/p/i for approve/edit/reject/respond/
  ignore), the arguments as JSON when editing (#human-input-args-<n>) and a message for
  reject/respond (#human-input-message-<n>);
- any other interrupt: its value as JSON and a free-text answer (JSON or text).

Enter (or ctrl+s, or #human-input-submit) sends; escape dismisses with None and leaves the
question pending. The screen never talks to the server itself: what was answered is
checked locally (invalid JSON, a missing required field: the reason shows and nothing is
sent), then handed to the `submit` callback, an async function (pending, response) ->
None when the server accepted the answer, or the reason it refused. On None the screen
dismisses with the HumanResponse; on a reason it stays open showing it, with the answer
as typed. Without a callback the screen dismisses with the response straight away.
"""

from __future__ import annotations

import json
from typing import Any

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, SelectionList, Static, TextArea
from textual.widgets.option_list import Option as ListOption
from textual.widgets.selection_list import Selection

from ...human_input import (
    DECISION_LABELS,
    AnswerError,
    Decision,
    DecisionType,
    FormField,
    HumanResponse,
    PendingInput,
    SubmitCallback,
    build_answer,
    option_response,
    parse_args_json,
)
from ...json_text import editable_json
from ...styles import STYLES
from ..key_order import after_typed_keys
from ..text import clean, one_line, plain, pretty_json

DECISION_KEYS = {"approve": "a", "edit": "e", "reject": "r", "respond": "p", "ignore": "i"}

KIND_STYLES = {
    "risk_confirmation": "bold $error",
    "missing_info": "bold $accent",
    "ambiguous_requirement": "bold $accent",
    "approach_choice": "bold $accent",
    "suggestion": "bold $success",
}


def kind_style(pending: PendingInput) -> str:
    if pending.is_review:
        return "bold $warning"
    return KIND_STYLES.get(pending.clarification_type, "bold $accent")


def args_text(args: Any) -> str:
    """Tool arguments for reading: one line when short, else indented."""
    try:
        line = json.dumps(args, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return clean(repr(args))
    return clean(line) if len(line) <= 80 else pretty_json(args)


class DecisionPicker(Widget, can_focus=True):
    """A one-line choice between the decisions allowed for one tool call."""

    DEFAULT_CSS = """
    DecisionPicker { height: 1; width: auto; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("right", "move(1)", "Next", show=False),
    ]

    value: reactive[DecisionType] = reactive("approve")

    class Changed(Message):
        def __init__(self, picker: DecisionPicker, value: DecisionType) -> None:
            super().__init__()
            self.picker = picker
            self.value = value

        @property
        def control(self) -> DecisionPicker:
            return self.picker

    def __init__(self, allowed: list[DecisionType], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.allowed: list[DecisionType] = list(allowed) or ["approve"]
        self.set_reactive(DecisionPicker.value, "approve" if "approve" in self.allowed else self.allowed[0])

    def render(self) -> Content:
        parts: list[Content] = []
        for decision in self.allowed:
            label = f" {DECISION_LABELS[decision]} ({DECISION_KEYS[decision]}) "
            if decision == self.value:
                style = "bold reverse $accent" if self.has_focus else "bold reverse"
            else:
                style = "dim"
            parts.append(Content.styled(label, style))
        return Content(" ").join(parts)

    def watch_value(self, value: DecisionType) -> None:
        self.post_message(self.Changed(self, value))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        index = self.allowed.index(self.value) if self.value in self.allowed else 0
        self.value = self.allowed[(index + step) % len(self.allowed)]

    def on_key(self, event: events.Key) -> None:
        for decision, key in DECISION_KEYS.items():
            if event.character == key and decision in self.allowed:
                event.stop()
                event.prevent_default()
                self.value = decision
                return

    def on_click(self, event: events.Click) -> None:
        x = 0
        for decision in self.allowed:
            width = len(f" {DECISION_LABELS[decision]} ({DECISION_KEYS[decision]}) ") + 1
            if event.x < x + width:
                self.value = decision
                return
            x += width


class HumanInputScreen(ModalScreen[HumanResponse | None]):
    """Ask the person; dismisses with the accepted HumanResponse, or None (escape: later)."""

    CSS_PATH = [STYLES / "human_input.tcss"]
    READ_FIRST = True
    """What it asks is read before a key answers it: no key typed before it opened reaches it (app.py)."""
    BINDINGS = [
        Binding("escape", "later", "Later", id="human_input.later"),
        Binding("ctrl+s", "submit", "Send", priority=True, id="human_input.send"),
        Binding("enter", "submit", "Send", show=False, id="human_input.enter"),
        *(Binding(str(n), f"pick({n})", f"Option {n}", show=False) for n in range(1, 10)),
    ]

    def __init__(
        self,
        pending: PendingInput,
        *,
        submit: SubmitCallback | None = None,
        thread_title: str = "",
        position: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(classes="modal")
        self.pending = pending
        self.submit_callback = submit
        self.thread_title = thread_title
        self.position = position
        """(n, of): shown as "1 of 2" when a thread waits for several answers."""
        self.sending = False
        self.mode = (
            "review"
            if pending.is_review
            else "generic"
            if pending.value_answer
            else "form"
            if pending.is_form
            else "answer"
        )
        """What the body holds: "review" rows, a "form", a "generic" value, or an "answer"
        (options and free text)."""

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        pending = self.pending
        with Vertical(classes="dialog -wide", id="human-input-dialog"):
            yield Static(self._header(), id="human-input-title", classes="dialog-title")
            with VerticalScroll(id="human-input-body"):
                if pending.context:
                    yield Static(plain(pending.context, "italic"), id="human-input-context")
                if pending.question:
                    yield Static(plain(pending.question, "bold"), id="human-input-question")
                if self.mode == "review":
                    yield from self._compose_review()
                elif self.mode == "generic":
                    if not isinstance(pending.raw, str):
                        yield Static(plain(pretty_json(pending.raw)), id="human-input-value")
                    yield Input(placeholder='JSON (like {"ok": true} or 42) or plain text', id="human-input-answer")
                elif self.mode == "form":
                    yield from self._compose_form(pending.fields)
                else:
                    if pending.options:
                        yield OptionList(*self._options(), id="human-input-options")
                    yield Input(
                        placeholder="…or type your own answer" if pending.options else "Your answer",
                        id="human-input-answer",
                    )
            yield Static(id="human-input-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Static(self._hint(), id="human-input-hint")
                yield Button("Send", variant="primary", id="human-input-submit")
                yield Button("Later (esc)", id="human-input-later")

    def _header(self) -> Content:
        pending = self.pending
        if pending.is_review:
            count = len(pending.actions)
            title = "Approve a tool call" if count == 1 else f"Approve {count} tool calls"
        else:
            title = "The agent is waiting" if pending.value_answer else "The agent asks"
        parts: list[Content | tuple[str, str] | str] = [(title, "bold")]
        if pending.clarification_type:
            parts.append(("  " + pending.kind_label, kind_style(pending)))
        if self.position and self.position[1] > 1:
            parts.append((f"  ({self.position[0]} of {self.position[1]})", "dim"))
        if self.thread_title:
            parts.append(("  ·  " + one_line(self.thread_title, 50), "dim"))
        return Content.assemble(*parts)

    def _hint(self) -> Content:
        pending = self.pending
        if self.mode == "review":
            text = "←/→ decide · tab next · ctrl+s send"
        elif self.mode == "form":
            text = "tab next field · ctrl+s send"
        elif self.mode == "answer" and pending.options:
            text = f"1-{min(9, len(pending.options))} pick · enter send"
        else:
            text = "enter send"
        return Content.styled(text, "dim")

    def _options(self) -> list[ListOption]:
        options = []
        for number, option in enumerate(self.pending.options, 1):
            key = f"{number} " if number <= 9 else "  "
            prompt = Content.assemble((key, "bold $accent"), plain(option.label))
            options.append(ListOption(prompt, id=option.id))
        return options

    def _compose_form(self, fields: list[FormField]) -> ComposeResult:
        for index, field in enumerate(fields):
            widget_id = f"human-input-field-{index}"
            title = plain(one_line(field.title, 40)) + (
                Content.styled(" *", "bold $error") if field.required else Content("")
            )
            placeholder = clean(field.placeholder)
            with Horizontal(classes=f"human-input-row -{field.type}"):
                yield Label(title, classes="human-input-label")
                if field.type == "checkbox":
                    yield Checkbox(
                        Content.styled(placeholder or "yes", "dim"),
                        id=widget_id,
                        classes="human-input-field",
                        compact=True,
                    )
                elif field.type == "textarea":
                    area = TextArea(id=widget_id, classes="human-input-field -textarea", show_line_numbers=False)
                    if placeholder:
                        area.placeholder = placeholder
                    yield area
                elif field.type == "select":
                    yield Select(
                        [(plain(o.label), str(o.value)) for o in field.options],
                        prompt="Choose…",
                        id=widget_id,
                        classes="human-input-field",
                        compact=True,
                    )
                elif field.type == "multi_select":
                    yield SelectionList(
                        *(Selection(plain(o.label), str(o.value)) for o in field.options),
                        id=widget_id,
                        classes="human-input-field -multi",
                        compact=True,
                    )
                else:
                    hint = {"number": "a number", "date": "YYYY-MM-DD"}.get(field.type, "")
                    yield Input(
                        placeholder=placeholder or hint, id=widget_id, classes="human-input-field", compact=True
                    )

    def _compose_review(self) -> ComposeResult:
        many = len(self.pending.actions) > 1
        for index, action in enumerate(self.pending.actions):
            with Vertical(classes="human-input-action", id=f"human-input-action-{index}"):
                head = Content.assemble(
                    (f"{index + 1}. " if many else "", "bold"),
                    (clean(action.name), "bold $accent"),
                    (
                        "  " + one_line(action.description, 80)
                        if action.description and action.description != self.pending.question
                        else "",
                        "dim",
                    ),
                )
                yield Static(head, classes="human-input-action-title")
                yield Static(
                    plain(args_text(action.args)), classes="human-input-args-view", id=f"human-input-args-view-{index}"
                )
                yield DecisionPicker(action.allowed, id=f"human-input-decision-{index}")
                editor = TextArea(
                    editable_json(action.args),
                    language="json",
                    id=f"human-input-args-{index}",
                    classes="human-input-args -hidden",
                    show_line_numbers=False,
                )
                yield editor
                yield Input(id=f"human-input-message-{index}", classes="human-input-message -hidden")

    def on_mount(self) -> None:
        if self.mode == "review":
            first = self.query(DecisionPicker).first() if self.query(DecisionPicker) else None
            (first or self.query_one("#human-input-submit", Button)).focus()
        elif self.mode == "form":
            self.query(".human-input-field").first().focus()
        elif self.pending.options:
            options = self.query_one("#human-input-options", OptionList)
            options.highlighted = 0
            options.focus()
        else:
            self.query_one("#human-input-answer", Input).focus()

    # -- review rows ----------------------------------------------------------------------------

    @on(DecisionPicker.Changed)
    def decision_changed(self, event: DecisionPicker.Changed) -> None:
        index = int((event.picker.id or "0").rsplit("-", 1)[1])
        editor = self.query_one(f"#human-input-args-{index}", TextArea)
        message = self.query_one(f"#human-input-message-{index}", Input)
        view = self.query_one(f"#human-input-args-view-{index}", Static)
        editing = event.value == "edit"
        editor.set_class(not editing, "-hidden")
        view.set_class(editing, "-hidden")
        wants_message = event.value in ("reject", "respond")
        message.set_class(not wants_message, "-hidden")
        message.placeholder = (
            "the response to send instead" if event.value == "respond" else "why (optional, the agent reads it)"
        )
        self.show_error("")

    # -- answering ------------------------------------------------------------------------------

    def collect(self) -> HumanResponse:
        """What the person answered, as typed; raises AnswerError for what cannot be read."""
        pending = self.pending
        if self.mode == "review":
            decisions = []
            for index, action in enumerate(pending.actions):
                kind = self.query_one(f"#human-input-decision-{index}", DecisionPicker).value
                message = self.query_one(f"#human-input-message-{index}", Input).value
                args = None
                if kind == "edit":
                    args = parse_args_json(self.query_one(f"#human-input-args-{index}", TextArea).text, action.name)
                decisions.append(
                    Decision(type=kind, args=args, message=message if kind in ("reject", "respond") else "")
                )
            return HumanResponse(decisions=decisions)
        if self.mode == "form":
            return HumanResponse(form=self._form_values())
        text = self.query_one("#human-input-answer", Input).value
        if not text.strip() and self.mode == "answer" and pending.options:
            highlighted = self.query_one("#human-input-options", OptionList).highlighted
            if highlighted is not None:
                return option_response(pending, highlighted + 1)
        return HumanResponse(text=text)

    def _form_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for index, field in enumerate(self.pending.fields):
            widget = self.query_one(f"#human-input-field-{index}")
            if isinstance(widget, Checkbox):
                values[field.name] = widget.value
            elif isinstance(widget, SelectionList):
                values[field.name] = list(widget.selected)
            elif isinstance(widget, Select):
                values[field.name] = "" if widget.value is Select.NULL else widget.value
            elif isinstance(widget, TextArea):
                values[field.name] = widget.text
            elif isinstance(widget, Input):
                values[field.name] = widget.value
        return values

    def show_error(self, text: str) -> None:
        self.query_one("#human-input-error", Static).update(plain(text) if text else Content(""))

    @after_typed_keys
    def action_submit(self) -> None:
        try:
            response = self.collect()
        except AnswerError as error:
            self.show_error(str(error))
            return
        self.send(response)

    def action_pick(self, number: int) -> None:
        pending = self.pending
        if self.mode != "answer" or not pending.options:
            return
        try:
            response = option_response(pending, number)
        except AnswerError as error:
            self.show_error(str(error))
            return
        self.query_one("#human-input-options", OptionList).highlighted = number - 1
        self.send(response)

    @on(OptionList.OptionSelected, "#human-input-options")
    def option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.send(option_response(self.pending, event.option_index + 1))

    @on(Input.Submitted)
    def input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#human-input-submit")
    def submit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#human-input-later")
    def later_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_later()

    def action_later(self) -> None:
        if not self.sending:
            self.dismiss(None)

    def send(self, response: HumanResponse) -> None:
        """Check the answer locally, then hand it to the submit callback (or dismiss with it)."""
        if self.sending:
            return
        try:
            build_answer(self.pending, response)
        except AnswerError as error:
            self.show_error(str(error))
            return
        self.show_error("")
        if self.submit_callback is None:
            self.dismiss(response)
            return
        self._send(response)

    @work(exclusive=True, group="human-input-send")
    async def _send(self, response: HumanResponse) -> None:
        assert self.submit_callback is not None
        button = self.query_one("#human-input-submit", Button)
        self.sending = True
        button.disabled = True
        button.label = "Sending…"
        try:
            refusal = await self.submit_callback(self.pending, response)
        except Exception as error:  # noqa: BLE001 - a failing callback is a refusal to show
            refusal = f"{type(error).__name__}: {error}"
        finally:
            self.sending = False
            button.disabled = False
            button.label = "Send"
        if refusal:
            self.show_error(refusal)
            return
        self.dismiss(response)
