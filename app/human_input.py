"""Questions an agent asks a human, and the answers that go back (no Textual here).

`detect_pending(state)` finds what a thread is waiting for; `build_answer(pending,
response)` turns what the person said into what the server expects; `submit_answer(...)`
sends it and hands back the run's events once the server has accepted the run.

The shapes recognised (FACTS.md sections 1-3):

- "clarification": `interrupt()` with an ask_clarification-like value {question,
  clarification_type?, context?, options?, fields?}. Answered with Command(resume=answer):
  the chosen option's value, the typed text, or (with fields) a {name: value} dict.
- "hitl": LangChain v1 HumanInTheLoopMiddleware {action_requests, review_configs}.
  Answered with {"decisions": [...]}, one per action request, in order.
- "agent_inbox": the older Agent Inbox list [{action_request: {action, args}, config:
  {allow_accept, allow_edit, allow_respond, allow_ignore}, description?}]. Answered with a
  list of {type: accept|edit|response|ignore, args}, one per request, in order.
- "deerflow": DeerFlow's ClarificationMiddleware: a ToolMessage named ask_clarification
  with artifact.human_input, the run ended (no interrupt). Answered as DeerFlow's UI does:
  a new run whose human message reads `For your clarification "<question>", my answer is:
  <value>` with additional_kwargs {hide_from_ui, human_input_response}.
- "seed_clarification": the seed document's form: the graph paused (state.next ==
  ["__interrupt__"], or a static breakpoint) with the question in the last AI message's
  unanswered ask_clarification tool call. Answered by update_state with a user message,
  then a run that continues the graph.
- "generic": any other interrupt value. Answered with the JSON typed, or else the text.

When several interrupts are pending at once (parallel branches) each is answered by its
interrupt id: {"resume": {interrupt_id: value}}; the others stay pending.
"""

from __future__ import annotations

import asyncio
import json
import math
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.models import ChatMessage, RunEvent, RunRequest, ThreadQuery, ThreadState, ThreadSummary

if TYPE_CHECKING:
    from app.backends.base import Backend

PendingKind = Literal["clarification", "hitl", "agent_inbox", "deerflow", "seed_clarification", "generic"]
DecisionType = Literal["approve", "edit", "reject", "respond", "ignore"]
FieldType = Literal["text", "textarea", "number", "select", "multi_select", "checkbox", "date"]
FIELD_TYPES: tuple[str, ...] = ("text", "textarea", "number", "select", "multi_select", "checkbox", "date")

CLARIFICATION_TOOL = "ask_clarification"
SEED_INTERRUPT_NODE = "__interrupt__"

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
        return {
            "hitl": "tool approval",
            "agent_inbox": "tool approval",
            "generic": "interrupt",
        }.get(self.kind, "question")

    @property
    def is_review(self) -> bool:
        return self.kind in ("hitl", "agent_inbox")

    @property
    def is_form(self) -> bool:
        return bool(self.fields)

    @property
    def summary(self) -> str:
        """One line for lists (the inbox): the question, or what needs approval."""
        if self.question:
            return self.question
        if self.actions:
            return "run " + ", ".join(action.name for action in self.actions) + "?"
        return _short_json(self.raw)


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


# -- detection -----------------------------------------------------------------------------------


def detect_pending(state: ThreadState, status: str | None = None) -> list[PendingInput]:
    """Everything this state is waiting for a human to answer, in the order to answer it.

    Interrupts come first (all of them, keyed by id when there are several); without any,
    the seed's form (a paused graph whose last AI message asks for clarification), then
    DeerFlow's open clarification (the run has ended and nothing is next). Pass the
    thread's `status` when known: a busy thread (a run in progress) waits for nothing yet.
    """
    if status == "busy":
        return []
    interrupts = [item for item in state.interrupts if item is not None]
    if not interrupts:
        seen: set[str] = set()
        for task in state.tasks:
            for item in task.interrupts:
                if item.id not in seen:
                    seen.add(item.id)
                    interrupts.append(item.model_copy(update={"node": item.node or task.name, "task_id": item.task_id or task.id}))
    if interrupts:
        keyed = len(interrupts) > 1
        found = []
        for item in interrupts:
            pending = pending_from_value(item.value)
            pending.thread_id = state.thread_id
            pending.interrupt_id = item.id
            pending.node = item.node
            pending.keyed = keyed and bool(item.id)
            found.append(pending)
        return found
    seed = _seed_pending(state)
    if seed is not None:
        return [seed]
    if state.next:
        return []
    request = open_deerflow_request(state.messages)
    if request is not None:
        request.thread_id = state.thread_id
        return [request]
    return []


def pending_from_value(value: Any) -> PendingInput:
    """The PendingInput for one interrupt value (clarification, HITL, Agent Inbox, generic)."""
    if isinstance(value, dict) and isinstance(value.get("action_requests"), list):
        return _hitl(value)
    if _is_agent_inbox(value):
        return _agent_inbox(value)
    if isinstance(value, dict) and isinstance(value.get("question"), str) and value["question"].strip():
        return _clarification("clarification", value, raw=value)
    if isinstance(value, str):
        return PendingInput(kind="generic", question=value, raw=value)
    return PendingInput(kind="generic", raw=value)


def _clarification(kind: PendingKind, args: dict[str, Any], *, raw: Any) -> PendingInput:
    context = args.get("context")
    return PendingInput(
        kind=kind,
        question=str(args.get("question") or ""),
        title=str(args.get("title") or ""),
        clarification_type=str(args.get("clarification_type") or ""),
        context="" if context is None else (context if isinstance(context, str) else _short_json(context, 2000)),
        options=normalize_options(args.get("options")),
        fields=normalize_fields(args.get("fields")),
        request_id=str(args.get("request_id") or ""),
        source=str(args.get("source") or ""),
        tool_call_id=str(args.get("tool_call_id") or ""),
        raw=raw,
    )


def normalize_options(raw: Any, prefix: str = "option") -> list[Option]:
    """Options as DeerFlow numbers them: strings or {id, label, value} dicts."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raw = [raw]
    if isinstance(raw, dict):
        raw = list(raw.values())
    if not isinstance(raw, list):
        return []
    options: list[Option] = []
    seen: set[str] = set()
    for index, item in enumerate(raw, 1):
        if isinstance(item, dict):
            value = item.get("value", item.get("label"))
            label = item.get("label", value)
            option_id = item.get("id") or f"{prefix}-{index}"
        else:
            value = item
            label = item
            option_id = f"{prefix}-{index}"
        label_text = label if isinstance(label, str) else json.dumps(label, ensure_ascii=False, default=str)
        if not label_text.strip() or str(option_id) in seen:
            continue
        seen.add(str(option_id))
        options.append(Option(id=str(option_id), label=label_text.strip(), value=value))
    return options


def normalize_fields(raw: Any) -> list[FormField]:
    """DeerFlow's form fields, leniently (an unknown type becomes text)."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return []
    if not isinstance(raw, list):
        return []
    fields: list[FormField] = []
    names: set[str] = set()
    for entry in raw:
        if not isinstance(entry, dict):
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip() or name.strip() in names:
            continue
        name = name.strip()
        names.add(name)
        field_type = entry.get("type") if entry.get("type") in FIELD_TYPES else "text"
        options = normalize_options(entry.get("options"), f"{name}-option") if field_type in ("select", "multi_select") else []
        if field_type in ("select", "multi_select") and not options:
            field_type = "text"
        required = entry.get("required")
        if isinstance(required, str):
            required = required.strip().lower() == "true"
        label = entry.get("label")
        placeholder = entry.get("placeholder")
        fields.append(
            FormField(
                name=name,
                label=label.strip() if isinstance(label, str) and label.strip() else name,
                type=field_type,
                required=bool(required),
                placeholder=placeholder if isinstance(placeholder, str) else "",
                options=options,
            )
        )
    return fields


def _hitl(value: dict[str, Any]) -> PendingInput:
    configs = [c for c in value.get("review_configs") or [] if isinstance(c, dict)]
    by_name = {str(c.get("action_name")): c for c in configs}
    actions = []
    for request in value["action_requests"]:
        if not isinstance(request, dict):
            request = {"name": str(request)}
        name = str(request.get("name") or request.get("action") or "")
        config = by_name.get(name, {})
        allowed = [d for d in config.get("allowed_decisions") or ["approve", "edit", "reject"] if d in ("approve", "edit", "reject")]
        schema = config.get("args_schema")
        actions.append(
            ActionRequest(
                name=name,
                args=request.get("args") if request.get("args") is not None else {},
                description=str(request.get("description") or ""),
                allowed=allowed or ["approve", "reject"],
                args_schema=schema if isinstance(schema, dict) else None,
            )
        )
    return PendingInput(kind="hitl", actions=actions, raw=value, question=_review_question(actions))


def _is_agent_inbox(value: Any) -> bool:
    items = value if isinstance(value, list) else [value]
    return bool(items) and all(isinstance(item, dict) and isinstance(item.get("action_request"), dict) for item in items)


def _agent_inbox(value: Any) -> PendingInput:
    items = value if isinstance(value, list) else [value]
    actions = []
    for item in items:
        request = item["action_request"]
        config = item.get("config") if isinstance(item.get("config"), dict) else {}
        allowed: list[DecisionType] = []
        for key, decision in (("allow_accept", "approve"), ("allow_edit", "edit"), ("allow_respond", "respond"), ("allow_ignore", "ignore")):
            if config.get(key, key in ("allow_accept", "allow_ignore")):
                allowed.append(decision)  # type: ignore[arg-type]
        actions.append(
            ActionRequest(
                name=str(request.get("action") or request.get("name") or ""),
                args=request.get("args") if request.get("args") is not None else {},
                description=str(item.get("description") or ""),
                allowed=allowed or ["ignore"],
            )
        )
    return PendingInput(kind="agent_inbox", actions=actions, raw=value, question=_review_question(actions))


def _review_question(actions: list[ActionRequest]) -> str:
    """One action: its description; several: none (each row shows its own)."""
    if len(actions) == 1:
        return actions[0].description
    return ""


def _unanswered_clarification_call(messages: list[ChatMessage]) -> tuple[ChatMessage, Any] | None:
    """The last AI message's ask_clarification tool call, if nothing has answered it since."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.type != "ai":
            continue
        for call in message.tool_calls:
            if call.name == CLARIFICATION_TOOL:
                answered = any(
                    later.type == "tool" and later.tool_call_id == call.id for later in messages[index + 1 :]
                ) or any(later.type == "human" for later in messages[index + 1 :])
                return None if answered else (message, call)
        return None
    return None


def _seed_pending(state: ThreadState) -> PendingInput | None:
    """The seed's form: paused (next == ["__interrupt__"] or a breakpoint), question in a tool call."""
    if not state.next:
        return None
    found = _unanswered_clarification_call(state.messages)
    if found is None:
        return None
    message, call = found
    args = call.args if isinstance(call.args, dict) else {}
    if not isinstance(args.get("question"), str):
        return None
    pending = _clarification("seed_clarification", args, raw=args)
    pending.thread_id = state.thread_id
    pending.tool_call_id = call.id
    pending.message_id = message.id
    pending.source = CLARIFICATION_TOOL
    pending.node = state.next[0]
    pending.as_node = None if state.next[0] == SEED_INTERRUPT_NODE else state.next[0]
    return pending


def parse_human_input_request(value: Any) -> PendingInput | None:
    """DeerFlow's artifact.human_input payload as a PendingInput (None if it is not one)."""
    if not isinstance(value, dict) or value.get("kind") != "human_input_request":
        return None
    question = value.get("question")
    request_id = value.get("request_id")
    if not isinstance(question, str) or not question.strip() or not isinstance(request_id, str) or not request_id:
        return None
    pending = _clarification("deerflow", value, raw=value)
    pending.source = str(value.get("source") or CLARIFICATION_TOOL)
    return pending


def response_of(message: ChatMessage) -> dict[str, Any] | None:
    """additional_kwargs.human_input_response of a human message, when well formed."""
    if message.type != "human":
        return None
    response = message.additional_kwargs.get("human_input_response")
    if (
        isinstance(response, dict)
        and response.get("kind") == "human_input_response"
        and isinstance(response.get("request_id"), str)
        and response.get("request_id")
    ):
        return response
    return None


def open_deerflow_request(messages: list[ChatMessage]) -> PendingInput | None:
    """The newest DeerFlow clarification not yet answered, as DeerFlow's UI derives it.

    Requests are visible ToolMessages named ask_clarification (artifact.human_input; an
    older plain one counts too). A human message carrying human_input_response answers
    its request; a visible human message without one answers the newest open request.
    """
    requests: dict[str, PendingInput] = {}
    order: list[str] = []
    answered: set[str] = set()
    legacy: set[str] = set()
    for message in messages:
        if message.type == "tool" and message.name == CLARIFICATION_TOOL and not message.hidden:
            artifact = message.artifact if isinstance(message.artifact, dict) else {}
            request = parse_human_input_request(artifact.get("human_input"))
            if request is None:
                request = _legacy_request(message, messages)
                legacy.add(request.request_id)
            request.message_id = message.id
            request.tool_call_id = request.tool_call_id or message.tool_call_id
            if request.request_id not in requests:
                order.append(request.request_id)
            requests[request.request_id] = request
            continue
        response = response_of(message)
        if response is not None and response["request_id"] in requests and response["request_id"] not in answered:
            answered.add(response["request_id"])
            continue
        if message.type == "ai" and legacy:
            # A plain ask_clarification result the agent went on from was a tool's
            # answer (an interrupt() inside the tool), not a question left open.
            answered.update(legacy)
            legacy.clear()
        if message.type == "human" and not message.hidden and response is None:
            latest = next((rid for rid in reversed(order) if rid not in answered), None)
            if latest is not None:
                answered.add(latest)
    latest = next((rid for rid in reversed(order) if rid not in answered), None)
    return requests[latest] if latest is not None else None


def _legacy_request(message: ChatMessage, messages: list[ChatMessage]) -> PendingInput:
    """An ask_clarification ToolMessage without artifact: the question from the tool call."""
    args: dict[str, Any] = {}
    for other in messages:
        for call in other.tool_calls:
            if call.id and call.id == message.tool_call_id and isinstance(call.args, dict):
                args = call.args
    if not isinstance(args.get("question"), str):
        args = {"question": message.text}
    pending = _clarification("deerflow", args, raw={"content": message.text, "tool_call_args": args})
    pending.structured = False
    pending.source = CLARIFICATION_TOOL
    pending.request_id = message.id or f"clarification:{message.tool_call_id}"
    return pending


# -- validation ----------------------------------------------------------------------------------

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _type_ok(value: Any, expected: str) -> bool:
    if expected in ("integer", "number") and isinstance(value, bool):
        return False
    if expected == "integer" and isinstance(value, float):
        return value.is_integer()
    kinds = _JSON_TYPES.get(expected)
    return True if kinds is None else isinstance(value, kinds)


def validate_args(args: Any, schema: dict[str, Any] | None, path: str = "args") -> list[str]:
    """Problems of `args` against a JSON schema: type, required, properties, enum, items.

    A minimal check, enough to catch a mistyped edit before it is sent; an empty list
    means nothing was found wrong.
    """
    if not schema or not isinstance(schema, dict):
        return []
    problems: list[str] = []
    expected = schema.get("type")
    if expected is not None:
        types = expected if isinstance(expected, list) else [expected]
        if not any(_type_ok(args, str(t)) for t in types):
            problems.append(f"{path}: expected {' or '.join(map(str, types))}, got {_json_type(args)}")
            return problems
    if "enum" in schema and isinstance(schema["enum"], list) and args not in schema["enum"]:
        problems.append(f"{path}: must be one of {', '.join(json.dumps(v) for v in schema['enum'])}")
    if isinstance(args, dict):
        for key in schema.get("required") or []:
            if key not in args:
                problems.append(f"{path}: missing required key {key!r}")
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        for key, sub in properties.items():
            if key in args and isinstance(sub, dict):
                problems += validate_args(args[key], sub, f"{path}.{key}")
        if schema.get("additionalProperties") is False:
            for key in args:
                if key not in properties:
                    problems.append(f"{path}: unexpected key {key!r}")
    if isinstance(args, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(args):
            problems += validate_args(item, schema["items"], f"{path}[{index}]")
    return problems


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def parse_args_json(text: str, name: str = "") -> dict[str, Any]:
    """Edited tool arguments typed as JSON; raises AnswerError with the line and column."""
    where = f" for {name}" if name else ""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise AnswerError(f"The arguments{where} are not valid JSON: {error.msg} (line {error.lineno}, column {error.colno}).") from None
    if not isinstance(value, dict):
        raise AnswerError(f"The arguments{where} must be a JSON object, like {{\"path\": \"notes.md\"}}.")
    return value


def parse_generic(text: str) -> Any:
    """A generic interrupt's answer: the JSON value typed, or else the text itself."""
    stripped = text.strip()
    if not stripped:
        raise AnswerError("Type an answer: JSON (like {\"ok\": true} or null) or plain text.")
    try:
        return json.loads(stripped)
    except ValueError:
        return stripped


def _number(text: str) -> int | float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def validate_form(fields: list[FormField], values: dict[str, Any]) -> dict[str, Any]:
    """Clean a form's raw values ({name: str | bool | list}); raises AnswerError listing problems.

    Empty optional fields are left out; checkboxes are always kept (an explicit no).
    Numbers become int or float, dates must be YYYY-MM-DD, select values must be options.
    """
    record: dict[str, Any] = {}
    problems: list[str] = []
    for field in fields:
        raw = values.get(field.name)
        if field.type == "checkbox":
            record[field.name] = bool(raw)
            if field.required and not raw:
                problems.append(f"{field.title}: must be checked")
            continue
        if field.type == "multi_select":
            chosen = [str(v) for v in (raw or []) if str(v).strip()] if isinstance(raw, (list, tuple)) else ([str(raw)] if raw else [])
            known = {str(o.value) for o in field.options}
            bad = [v for v in chosen if v not in known]
            if bad:
                problems.append(f"{field.title}: not an option: {', '.join(bad)}")
            elif chosen:
                record[field.name] = chosen
            elif field.required:
                problems.append(f"{field.title}: pick at least one")
            continue
        text = "" if raw is None else str(raw).strip()
        if not text:
            if field.required:
                problems.append(f"{field.title}: required")
            continue
        if field.type == "number":
            try:
                record[field.name] = _number(text)
            except ValueError:
                problems.append(f"{field.title}: not a number ({text})")
        elif field.type == "date":
            try:
                record[field.name] = date.fromisoformat(text).isoformat()
            except ValueError:
                problems.append(f"{field.title}: not a date (use YYYY-MM-DD)")
        elif field.type == "select":
            if text not in {str(o.value) for o in field.options}:
                problems.append(f"{field.title}: not an option ({text})")
            else:
                record[field.name] = text
        else:
            record[field.name] = text if field.type == "text" else str(raw)
    if problems:
        raise AnswerError("Check the form: " + "; ".join(problems) + ".")
    return record


def _format_form_value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def form_submission_text(fields: list[FormField], record: dict[str, Any]) -> str:
    """DeerFlow's form answer: "Label: value; ..." then the record as compact JSON."""
    summary = "; ".join(f"{f.title}: {_format_form_value(record[f.name])}" for f in fields if f.name in record)
    ordered = {f.name: record[f.name] for f in fields if f.name in record}
    return f"{summary} [values: {json.dumps(ordered, ensure_ascii=False, separators=(',', ':'))}]"


# -- building answers ----------------------------------------------------------------------------


def build_answer(pending: PendingInput, response: HumanResponse) -> Answer:
    """What to send for `response`; raises AnswerError when it cannot be sent as it is."""
    if pending.kind in ("hitl", "agent_inbox"):
        value = _review_resume(pending, response.decisions)
        names = ", ".join(f"{d.type} {a.name}" for d, a in zip(response.decisions, pending.actions))
        return _resume(pending, value, names)
    if pending.kind == "generic":
        value = response.value if response.value is not None else parse_generic(response.text)
        return _resume(pending, value, value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    value, text, option = _clarification_value(pending, response)
    if pending.kind == "clarification":
        return _resume(pending, value, text)
    if pending.kind == "deerflow":
        return Answer(mode="message", message=deerflow_message(pending, text, option), text=text)
    # seed_clarification: the user's answer as a message written into the paused graph.
    message_id = f"answer-{pending.tool_call_id}" if pending.tool_call_id else str(uuid.uuid4())
    return Answer(
        mode="update_then_run",
        message={"type": "human", "content": text, "id": message_id},
        as_node=pending.as_node,
        text=text,
    )


def _resume(pending: PendingInput, value: Any, text: str) -> Answer:
    resume = {pending.interrupt_id: value} if pending.keyed and pending.interrupt_id else value
    return Answer(mode="resume", resume=value, command={"resume": resume}, text=text)


def _clarification_value(pending: PendingInput, response: HumanResponse) -> tuple[Any, str, Option | None]:
    """(value to resume with, the answer as text, the option chosen) for a clarification."""
    if response.option_id:
        option = next((o for o in pending.options if o.id == response.option_id), None)
        if option is None:
            raise AnswerError(f"There is no option {response.option_id!r}.")
        text = option.value if isinstance(option.value, str) else json.dumps(option.value, ensure_ascii=False)
        return option.value, text, option
    if pending.fields and response.form is not None:
        record = validate_form(pending.fields, response.form)
        if not record:
            raise AnswerError("Fill in at least one field.")
        text = form_submission_text(pending.fields, record)
        return (record if pending.kind == "clarification" else text), text, None
    text = response.text.strip()
    if not text:
        raise AnswerError("Type an answer" + (" or pick an option (1-9)." if pending.options else "."))
    return text, text, None


def option_response(pending: PendingInput, number: int) -> HumanResponse:
    """The response picking option `number` (1-based); raises AnswerError when there is none."""
    if not 1 <= number <= len(pending.options):
        raise AnswerError(f"There is no option {number}.")
    return HumanResponse(option_id=pending.options[number - 1].id)


def deerflow_message(pending: PendingInput, value: str, option: Option | None = None) -> dict[str, Any]:
    """The human message DeerFlow's UI sends to answer a clarification."""
    value = value.strip()
    message: dict[str, Any] = {
        "type": "human",
        "id": str(uuid.uuid4()),
        "content": f'For your clarification "{pending.question}", my answer is: {value}',
    }
    if pending.structured:
        response: dict[str, Any] = {
            "version": 1,
            "kind": "human_input_response",
            "source": pending.source or CLARIFICATION_TOOL,
            "request_id": pending.request_id,
            "response_kind": "option" if option is not None else "text",
        }
        if option is not None:
            response["option_id"] = option.id
        response["value"] = value
        message["additional_kwargs"] = {"hide_from_ui": True, "human_input_response": response}
    return message


def _review_resume(pending: PendingInput, decisions: list[Decision]) -> Any:
    if len(decisions) != len(pending.actions):
        raise AnswerError(f"Decide on every action: {len(pending.actions)} needed, {len(decisions)} given.")
    problems: list[str] = []
    shaped: list[dict[str, Any]] = []
    for number, (decision, action) in enumerate(zip(decisions, pending.actions), 1):
        label = f"{number}. {action.name}" if len(pending.actions) > 1 else action.name
        if decision.type not in action.allowed:
            problems.append(f"{label}: {decision.type} is not allowed (allowed: {', '.join(action.allowed)})")
            continue
        if decision.type == "edit":
            if not isinstance(decision.args, dict):
                problems.append(f"{label}: the edited arguments must be a JSON object")
                continue
            problems += [f"{label}: {p}" for p in validate_args(decision.args, action.args_schema)]
        if decision.type == "respond" and not decision.message.strip():
            problems.append(f"{label}: type the response to send")
        shaped.append(_shape_decision(pending.kind, decision, action))
    if problems:
        raise AnswerError("; ".join(problems) + ".")
    return {"decisions": shaped} if pending.kind == "hitl" else shaped


def _shape_decision(kind: str, decision: Decision, action: ActionRequest) -> dict[str, Any]:
    message = decision.message.strip()
    if kind == "hitl":
        if decision.type == "approve":
            return {"type": "approve"}
        if decision.type == "edit":
            return {"type": "edit", "edited_action": {"name": action.name, "args": decision.args}}
        shaped: dict[str, Any] = {"type": "reject"}
        if message:
            shaped["message"] = message
        return shaped
    if decision.type == "approve":
        return {"type": "accept", "args": None}
    if decision.type == "edit":
        return {"type": "edit", "args": {"action": action.name, "args": decision.args}}
    if decision.type == "respond":
        return {"type": "response", "args": message}
    return {"type": "ignore", "args": None}


# -- sending -------------------------------------------------------------------------------------


async def submit_answer(
    backend: "Backend",
    thread_id: str,
    pending: PendingInput,
    response: HumanResponse | Answer,
    *,
    assistant_id: str = "",
    context: dict[str, Any] | None = None,
) -> AsyncIterator[RunEvent]:
    """Send the answer; returns the run's events once the server has accepted the run.

    Raises AnswerError (nothing sent) or BackendError (the server refused: the update, or
    the run before its first event). The returned iterator yields every event, the first
    included, so it can go straight to MainScreen.stream_into_chat.
    """
    answer = response if isinstance(response, Answer) else build_answer(pending, response)
    if answer.mode == "update_then_run":
        await backend.update_state(thread_id, answer.update_values, as_node=answer.as_node)
    events = backend.stream_run(thread_id, answer.run_request(assistant_id, context)).__aiter__()
    try:
        first = await events.__anext__()
    except StopAsyncIteration:
        return _replay(None, events)
    return _replay(first, events)


async def _replay(first: RunEvent | None, rest: AsyncIterator[RunEvent]) -> AsyncIterator[RunEvent]:
    if first is not None:
        yield first
    async for event in rest:
        yield event


async def drain(events: AsyncIterator[RunEvent]) -> tuple[str, str]:
    """Read a run to its end: ("idle" | "waiting" | "error", detail)."""
    outcome, detail = "idle", ""
    async for event in events:
        if event.kind == "interrupt":
            outcome, detail = "waiting", "the agent is waiting for an answer"
        elif event.kind == "error":
            outcome, detail = "error", event.text or "the run failed"
    return outcome, detail


# -- the inbox -----------------------------------------------------------------------------------


async def pending_for_thread(backend: "Backend", thread: ThreadSummary) -> InboxItem | None:
    """The thread as an inbox item, or None when it waits for nothing.

    An interrupted thread whose summary carries its interrupts needs no further request;
    any other thread's state is fetched (the seed's form and DeerFlow's live in messages).
    """
    interrupts = list(getattr(thread, "interrupts", None) or [])
    if interrupts and thread.status == "interrupted":
        state = ThreadState(thread_id=thread.thread_id, interrupts=interrupts)
    else:
        state = await backend.get_state(thread.thread_id)
    if not state.thread_id:
        state.thread_id = thread.thread_id
    pending = detect_pending(state, thread.status)
    for item in pending:
        item.thread_id = thread.thread_id
    return InboxItem(thread=thread, pending=pending) if pending else None


async def gather_inbox(
    backend: "Backend", *, recent: int = 50, limit: int = 500, concurrency: int = 8
) -> list[InboxItem]:
    """Every thread on the server waiting for a human, most recently updated first.

    The interrupted threads (threads.search(status="interrupted"), paged, at most `limit`)
    plus DeerFlow-style open clarifications among the `recent` most recently updated idle
    threads. A server without a status filter has its `recent` newest threads checked.
    """
    candidates: dict[str, ThreadSummary] = {}
    if backend.capabilities.status_filter:
        offset = 0
        while offset < limit:
            page = await backend.search_threads(ThreadQuery(status="interrupted", limit=100, offset=offset))
            for thread in page:
                candidates.setdefault(thread.thread_id, thread)
            offset += len(page)
            if len(page) < 100:
                break
        idle = await backend.search_threads(ThreadQuery(status="idle", limit=recent))
    else:
        idle = await backend.search_threads(ThreadQuery(limit=recent))
    for thread in idle:
        candidates.setdefault(thread.thread_id, thread)
    gate = asyncio.Semaphore(concurrency)

    async def check(thread: ThreadSummary) -> InboxItem | None:
        async with gate:
            try:
                return await pending_for_thread(backend, thread)
            except Exception as error:  # noqa: BLE001 - one broken thread must not hide the rest
                from app.backends.base import BackendError

                if isinstance(error, BackendError):
                    return None
                raise

    found = await asyncio.gather(*(check(t) for t in candidates.values()))
    items = [item for item in found if item is not None]
    items.sort(key=lambda item: (item.thread.updated_at is None, -(item.thread.updated_at.timestamp() if item.thread.updated_at else 0)))
    return items


SubmitCallback = Callable[[PendingInput, HumanResponse], Awaitable["str | None"]]
"""Sends an answer; returns None when the server accepted it, else the reason it refused."""


def refusal_text(error: BaseException) -> str:
    """Why an answer was not sent, for the modal to show (AnswerError or a server refusal)."""
    from app.backends.base import BackendError

    if isinstance(error, AnswerError):
        return str(error)
    if isinstance(error, BackendError):
        return "The server refused the answer: " + error.with_hint("\n")
    return f"The answer could not be sent: {type(error).__name__}: {error}"


def answer_submitter(
    backend: "Backend",
    thread_id: str,
    on_accepted: Callable[[AsyncIterator[RunEvent]], object],
    *,
    assistant_id: str = "",
    context: dict[str, Any] | None = None,
) -> SubmitCallback:
    """The submit callback for HumanInputScreen on one thread.

    It sends the answer (submit_answer); once the server has accepted the run it calls
    `on_accepted(events)` with the run's events (all of them, the first included: stream
    them into the chat) and returns None, so the modal closes. If the server refuses, it
    returns the reason and the modal stays open with the answer as typed.
    """
    from app.backends.base import BackendError

    async def submit(pending: PendingInput, response: HumanResponse) -> str | None:
        try:
            events = await submit_answer(
                backend, thread_id, pending, response, assistant_id=assistant_id, context=context
            )
        except (AnswerError, BackendError) as error:
            return refusal_text(error)
        on_accepted(events)
        return None

    return submit


def _short_json(value: Any, limit: int = 120) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
