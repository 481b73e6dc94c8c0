"""HumanInputScreen: answer what an agent asks (a question, a form, tool calls to review).

One modal for every PendingInput kind (threadbench.human_input). What it sends is only ever
what the person gave: nothing is chosen for them.

- a question: a box for the answer in words (#human-input-answer, AnswerBox), which takes
  every printable key typed anywhere in the dialog, and the numbered options
  (#human-input-options), none chosen at first: while the box is empty keys 1-9 pick one
  and send it at once, up/down (or a click) choose one. Enter sends the typed words when
  there are any, else the option chosen; with neither it sends nothing and says so. A
  question without options asks before sending an empty answer (enter again);
- DeerFlow's form: one widget per field (#human-input-field-<n>), required ones enforced;
- tool calls to review: one row per action with a decision picker, undecided at first
  (#human-input-decision-<n>: a/e/r/p/i or left/right; A approves every action), the
  arguments as JSON when editing (#human-input-args-<n>) and a message for reject/respond
  (#human-input-message-<n>). Enter sends once every action has a decision, else goes to
  the first one without;
- any other interrupt: its value as JSON and a free-text answer (JSON or text).

Enter (or ctrl+s, or #human-input-submit) sends; escape dismisses with None and leaves the
question pending, keeping what was typed as its draft (in `drafts`, by PendingInput.key)
for the next time it opens. The screen never talks to the server itself: what was
answered is checked locally (invalid JSON, a missing required field: the reason shows and
nothing is sent), then handed to the `submit` callback, an async function (pending,
response) -> None when the server accepted the answer, or the reason it refused. On None
the screen dismisses with the HumanResponse; on a reason it stays open showing it, with the
answer as typed. Without a callback the screen dismisses with the response straight away.
"""

from __future__ import annotations

import json
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, SelectionList, Static, TextArea
from textual.widgets.option_list import Option as ListOption
from textual.widgets.selection_list import Selection

from ...human_input import (
    AnswerError,
    Decision,
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
from ..text import clean, one_line, plain, pretty_json
from ..typed_keys import after_typed_keys
from ..widgets.answer_box import AnswerBox
from ..widgets.decision_picker import DECISION_KEYS, DecisionPicker
from ..workers import work
from .answer_draft import draft_of, restore_draft

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


class HumanInputScreen(ModalScreen[HumanResponse | None]):
    """Ask the person; dismisses with the accepted HumanResponse, or None (escape: later)."""

    CSS_PATH = [STYLES / "human_input.tcss"]
    READ_FIRST = True
    """What it asks is read before a key answers it: no key typed before it opened reaches it (app.py)."""
    BINDINGS = [
        Binding("escape", "later", "Later", id="human_input.later"),
        Binding("ctrl+s", "submit", "Send", priority=True, id="human_input.send"),
        Binding("enter", "submit", "Send", show=False, id="human_input.enter"),
        Binding("A", "approve_all", "Approve all", show=False, id="human_input.approve_all"),
        Binding("down", "move_option(1)", "Next option", show=False),
        Binding("up", "move_option(-1)", "Previous option", show=False),
        *(Binding(str(n), f"pick({n})", f"Option {n}", show=False) for n in range(1, 10)),
    ]

    def __init__(
        self,
        pending: PendingInput,
        *,
        submit: SubmitCallback | None = None,
        thread_title: str = "",
        position: tuple[int, int] | None = None,
        drafts: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(classes="modal")
        self.pending = pending
        self.submit_callback = submit
        self.thread_title = thread_title
        self.position = position
        """(n, of): shown as "1 of 2" when a thread waits for several answers."""
        self.drafts = drafts if drafts is not None else {}
        """What was typed in answers left for later, by PendingInput.key (shared by the caller)."""
        self.sending = False
        self.empty_asked = False
        """Enter was pressed on an empty answer to a free-form question: the next enter sends it."""
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
                    yield AnswerBox(placeholder='JSON (like {"ok": true} or 42) or plain text', id="human-input-answer")
                elif self.mode == "form":
                    yield from self._compose_form(pending.fields)
                else:
                    if pending.options:
                        options = OptionList(*self._options(), id="human-input-options")
                        options.can_focus = False  # the focus stays in the answer box: up/down move here
                        options.highlighted = None  # (OptionList highlights its first option itself)
                        yield options
                    yield AnswerBox(
                        options=len(pending.options),
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
            allowed = {d for action in pending.actions for d in action.allowed} or {"approve"}
            keys = "/".join(key for decision, key in DECISION_KEYS.items() if decision in allowed)
            text = f"{keys} or ←/→ decide · A approve all · enter send"
        elif self.mode == "form":
            text = "tab next field · ctrl+s send"
        elif self.mode == "answer" and pending.options:
            text = f"1-{self.option_keys} pick · ↑/↓ choose · or type · enter send"
        else:
            text = "enter send"
        return Content.styled(text, "dim")

    @property
    def option_keys(self) -> int:
        """The options a digit picks (1 to this)."""
        return min(9, len(self.pending.options))

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
        draft = self.drafts.get(self.pending.key)
        if draft:
            restore_draft(self, draft)
        if self.mode == "review":
            first = self.query(DecisionPicker).first() if self.query(DecisionPicker) else None
            (first or self.query_one("#human-input-submit", Button)).focus()
        elif self.mode == "form":
            self.query(".human-input-field").first().focus()
        else:
            self.answer_box.focus()

    @property
    def answer_box(self) -> AnswerBox:
        return self.query_one("#human-input-answer", AnswerBox)

    @property
    def option_list(self) -> OptionList | None:
        found = self.query("#human-input-options")
        return found.first(OptionList) if found else None

    # -- typing anywhere goes to the answer -------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """A printable key that no widget took (the focus on a button, or not yet in the box
        as the dialog opens) goes to the answer box, or picks an option while it is empty."""
        if self.mode not in ("answer", "generic") or not event.is_printable or event.character is None:
            return
        event.stop()
        event.prevent_default()
        box = self.answer_box
        if box.picks(event.character):
            self.action_pick(int(event.character))
            return
        box.focus()
        box.insert_text_at_cursor(event.character)

    @on(AnswerBox.Picked)
    def digit_picked(self, event: AnswerBox.Picked) -> None:
        event.stop()
        self.action_pick(event.number)

    @on(Input.Changed, "#human-input-answer")
    def answer_typed(self, event: Input.Changed) -> None:
        self.empty_asked = False
        options = self.option_list
        if event.value and options is not None and options.highlighted is not None:
            options.highlighted = None  # the answer is the words now
        self.show_error("")

    def action_move_option(self, step: int) -> None:
        options = self.option_list
        if options is None or self.mode != "answer":
            return
        if step > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()
        if self.answer_box.value.strip() and options.highlighted is not None:
            number = options.highlighted + 1
            self.show_error(f"Enter sends your words: clear them to send option {number}, or press {number}.")

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

    def action_approve_all(self) -> None:
        if self.mode != "review":
            return
        for picker in self.query(DecisionPicker):
            picker.decide("approve")

    def undecided(self) -> list[int]:
        return [
            index
            for index in range(len(self.pending.actions))
            if self.query_one(f"#human-input-decision-{index}", DecisionPicker).value is None
        ]

    # -- answering ------------------------------------------------------------------------------

    def collect(self) -> HumanResponse:
        """What the person answered, as typed; raises AnswerError for what cannot be read."""
        pending = self.pending
        if self.mode == "review":
            decisions = []
            for index, action in enumerate(pending.actions):
                kind = self.query_one(f"#human-input-decision-{index}", DecisionPicker).value or "approve"
                message = self.query_one(f"#human-input-message-{index}", Input).value
                args = None
                if kind == "edit":
                    args = parse_args_json(self.query_one(f"#human-input-args-{index}", TextArea).text, action.name)
                decisions.append(
                    Decision(type=kind, args=args, message=message if kind in ("reject", "respond") else "")
                )
            return HumanResponse(decisions=decisions)
        if self.mode == "form":
            return HumanResponse(form=self.form_values())
        text = self.answer_box.value
        if not text.strip() and self.mode == "answer":
            options = self.option_list
            if options is not None and options.highlighted is not None:
                return option_response(pending, options.highlighted + 1)
            if not pending.options and self.empty_asked:
                return HumanResponse(text=text, empty_confirmed=True)
        return HumanResponse(text=text)

    def form_values(self) -> dict[str, Any]:
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
        if self.mode == "review" and (undecided := self.undecided()):
            self._ask_for_decision(undecided)
            return
        if self.mode == "answer" and not self.pending.options and not self.answer_box.value.strip():
            if not self.empty_asked:
                self.empty_asked = True
                self.show_error("The answer is empty: press enter again to send it empty, or type your answer.")
                return
        try:
            response = self.collect()
        except AnswerError as error:
            self.show_error(str(error))
            return
        self.send(response)

    def _ask_for_decision(self, undecided: list[int]) -> None:
        index = undecided[0]
        picker = self.query_one(f"#human-input-decision-{index}", DecisionPicker)
        picker.focus()
        picker.scroll_visible()
        action = self.pending.actions[index]
        keys = " · ".join(f"{DECISION_KEYS[d]} {d}" for d in picker.allowed)
        count = len(self.pending.actions)
        which = f"{clean(action.name)} ({index + 1} of {count})" if count > 1 else clean(action.name)
        others = f"; {len(undecided)} without a decision" if len(undecided) > 1 else ""
        self.show_error(f"Nothing sent: decide {which} first ({keys} · A approve all){others}.")

    def action_pick(self, number: int) -> None:
        pending = self.pending
        if self.mode != "answer" or not pending.options or self.answer_box.value:
            return
        try:
            response = option_response(pending, number)
        except AnswerError as error:
            self.show_error(str(error))
            return
        options = self.option_list
        if options is not None:
            options.highlighted = number - 1
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
        if self.sending:
            return
        draft = draft_of(self)
        if draft:
            self.drafts[self.pending.key] = draft
        else:
            self.drafts.pop(self.pending.key, None)
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
            self._sent(response)
            return
        self._send(response)

    def _sent(self, response: HumanResponse) -> None:
        self.drafts.pop(self.pending.key, None)
        self.dismiss(response)

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
        self._sent(response)
