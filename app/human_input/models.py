"""The types of human input: what an agent asks, what the person says, what goes back.

No dialect logic here: each interrupt dialect (threadbench.human_input.dialects) fills a
PendingInput and turns a HumanResponse into an Answer.
"""

from __future__ import annotations

import json
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel, ConfigDict, Field

from ..models import ChatMessage, RunRequest, ThreadSummary

PendingKind = str
"""The name of the dialect that recognised a request (dialects/: its DIALECT.kind)."""
DecisionType = Literal["approve", "edit", "reject", "respond", "ignore"]
FieldType = Literal["text", "textarea", "number", "select", "multi_select", "checkbox", "date"]
FIELD_TYPES: tuple[FieldType, ...] = ("text", "textarea", "number", "select", "multi_select", "checkbox", "date")


def is_field_type(value: object) -> TypeGuard[FieldType]:
    """Whether `value` names one of the form field types."""
    return value in FIELD_TYPES


CLARIFICATION_KINDS = {
    "missing_info": "missing info",
    "ambiguous_requirement": "ambiguous requirement",
    "approach_choice": "approach choice",
    "risk_confirmation": "risk confirmation",
    "suggestion": "suggestion",
}

DECISION_LABELS = {
    "approve": "Approve",
    "edit": "Edit",
    "reject": "Reject",
    "respond": "Respond",
    "ignore": "Ignore",
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class AnswerError(ValueError):
    """The answer cannot be sent as it is (checked locally, before anything is sent)."""


# -- what the agent asks -------------------------------------------------------------------------


class Option(_Model):
    id: str
    label: str
    value: Any = None


class FormField(_Model):
    """One field of DeerFlow's form (input_mode "form")."""

    name: str
    label: str = ""
    type: FieldType = "text"
    required: bool = False
    placeholder: str = ""
    options: list[Option] = Field(default_factory=list)

    @property
    def title(self) -> str:
        return self.label or self.name


class ActionRequest(_Model):
    """One tool call waiting for review (HITL middleware or Agent Inbox)."""

    name: str
    args: Any = Field(default_factory=dict)
    description: str = ""
    allowed: list[DecisionType] = Field(default_factory=list)
    """The decisions the reviewer may make, in display order."""
    args_schema: dict[str, Any] | None = None


class PendingInput(_Model):
    """Something a thread is waiting for a human to answer: one type for every kind."""

    kind: PendingKind
    label: str = "question"
    """What kind of request it is, in words, when no clarification type says more ("tool approval")."""
    value_answer: bool = False
    """Answered with any value (JSON or text), not a reply to a question: an interrupt no dialect knows."""
    thread_id: str = ""
    interrupt_id: str = ""
    node: str = ""
    keyed: bool = False
    """Several interrupts are pending: the resume value is keyed by interrupt id."""
    question: str = ""
    title: str = ""
    clarification_type: str = ""
    context: str = ""
    options: list[Option] = Field(default_factory=list)
    fields: list[FormField] = Field(default_factory=list)
    actions: list[ActionRequest] = Field(default_factory=list)
    raw: Any = None
    """The interrupt value or the DeerFlow human_input payload, as the server sent it."""
    request_id: str = ""
    source: str = ""
    tool_call_id: str = ""
    message_id: str = ""
    structured: bool = True
    """DeerFlow: the request carries artifact.human_input (False: an older plain ToolMessage)."""
    as_node: str | None = None
    """Seed form: the node the answer is written as (the paused node), None to let the server pick."""

    @property
    def kind_label(self) -> str:
        """The clarification type in words ("missing info"), or the kind of request."""
        if self.clarification_type:
            return CLARIFICATION_KINDS.get(self.clarification_type, self.clarification_type.replace("_", " "))
        return self.label

    @property
    def is_review(self) -> bool:
        """Tool calls to approve, edit or reject (HumanInTheLoopMiddleware, Agent Inbox)."""
        return bool(self.actions)

    @property
    def is_form(self) -> bool:
        return bool(self.fields)

    @property
    def key(self) -> str:
        """What tells this request apart from any other (a draft of its answer, a question
        new since a run began)."""
        ident = self.interrupt_id or self.request_id or self.message_id
        return "\x1f".join((self.thread_id, self.kind, ident, self.question, str(len(self.actions))))

    @property
    def summary(self) -> str:
        """One line for lists (the inbox): the question, or what needs approval."""
        if self.question:
            return self.question
        if self.actions:
            return "run " + ", ".join(action.name for action in self.actions) + "?"
        return short_json(self.raw)


class Decision(_Model):
    """A reviewer's decision on one action request."""

    type: DecisionType
    args: Any = None
    """For "edit": the edited arguments (a JSON object)."""
    message: str = ""
    """For "reject": the reason; for "respond": the response sent instead of running the tool."""


class HumanResponse(_Model):
    """What the person said, before it is shaped for the server.

    Clarifications: `option_id` (a chosen option), or `text`, or `form` ({field name: value}).
    Reviews: `decisions`, one per action. Generic interrupts: `value` (already parsed), or
    `text` (sent as JSON when it parses as JSON, else as the text).
    """

    text: str = ""
    option_id: str = ""
    empty_confirmed: bool = False
    """The person confirmed an empty answer to a free-form question (else one is refused)."""
    form: dict[str, Any] | None = None
    decisions: list[Decision] = Field(default_factory=list)
    value: Any = None


class Answer(_Model):
    """What to send to answer a PendingInput.

    - mode "resume": a run with command {"resume": resume_value} (keyed by interrupt id when
      several are pending; see `command`).
    - mode "message": a new run whose input is `message` (DeerFlow).
    - mode "update_then_run": update_state(values={"messages": [message]}, as_node), then a
      run with no input that continues the graph (the seed's form).
    """

    mode: Literal["resume", "message", "update_then_run"]
    resume: Any = None
    command: dict[str, Any] | None = None
    message: dict[str, Any] | None = None
    as_node: str | None = None
    text: str = ""
    """The answer in words, for notices and logs."""

    @property
    def update_values(self) -> dict[str, Any] | None:
        return {"messages": [self.message]} if self.mode == "update_then_run" and self.message else None

    def run_request(
        self,
        assistant_id: str = "",
        context: dict[str, Any] | None = None,
        configurable: dict[str, Any] | None = None,
    ) -> RunRequest:
        return RunRequest(
            assistant_id=assistant_id,
            input={"messages": [self.message]} if self.mode == "message" and self.message else None,
            command=self.command if self.mode == "resume" else None,
            context=dict(context or {}),
            configurable=dict(configurable or {}),
            multitask_strategy="reject",
        )

    def echo(self) -> ChatMessage | None:
        """The human message this answer adds to the thread, as the chat shows it."""
        if not self.message:
            return None
        kwargs = self.message.get("additional_kwargs") or {}
        return ChatMessage(
            id=str(self.message.get("id") or ""),
            type="human",
            text=str(self.message.get("content") or ""),
            hidden=bool(kwargs.get("hide_from_ui")),
            additional_kwargs=dict(kwargs),
        )


class InboxItem(_Model):
    """A thread waiting for a human, with what it waits for (first: the one to answer now)."""

    thread: ThreadSummary
    pending: list[PendingInput]

    @property
    def first(self) -> PendingInput:
        return self.pending[0]


def short_json(value: Any, limit: int = 120) -> str:
    """`value` as JSON on one line, cut to `limit` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
