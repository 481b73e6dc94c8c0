"""Questions an agent asks a human, and the answers that go back (no Textual here).

The package: `models` (the types), `dialects/` (one module per way of asking, each with
`detect` and `build_answer`, listed once in dialects/__init__.py), `validation` (checking
typed answers and form values), `sending` (the server I/O) and `inbox` (threads waiting).

`detect_pending(state)` finds what a thread is waiting for; `build_answer(pending,
response)` turns what the person said into what the server expects; `submit_answer(...)`
sends it and hands back the run's events once the server has accepted the run.

The shapes recognised, one module each in dialects/:
"clarification" (interrupt() with an ask_clarification-like value), "hitl" (LangChain v1
HumanInTheLoopMiddleware), "agent_inbox" (the older Agent Inbox list), "deerflow"
(DeerFlow's ask_clarification ToolMessage, answered by a new run), "seed_clarification"
(the seed's paused graph, answered by update_state then a run) and "generic" (any other
interrupt value).

When several interrupts are pending at once (parallel branches) each is answered by its
interrupt id: {"resume": {interrupt_id: value}}; the others stay pending.
"""

from .dialects import DIALECTS, build_answer, detect_pending, pending_from_value
from .dialects.clarification import (
    CLARIFICATION_TOOL,
    form_submission_text,
    normalize_fields,
    normalize_options,
    option_response,
)
from .dialects.deerflow import (
    deerflow_message,
    open_deerflow_request,
    parse_human_input_request,
    response_of,
)
from .dialects.seed import SEED_INTERRUPT_NODE
from .inbox import gather_inbox, pending_for_thread
from .models import (
    CLARIFICATION_KINDS,
    DECISION_LABELS,
    FIELD_TYPES,
    ActionRequest,
    Answer,
    AnswerError,
    Decision,
    DecisionType,
    FieldType,
    FormField,
    HumanResponse,
    InboxItem,
    Option,
    PendingInput,
    PendingKind,
)
from .sending import SubmitCallback, answer_submitter, drain, refusal_text, submit_answer
from .validation import parse_args_json, parse_generic, validate_args, validate_form

__all__ = [
    "CLARIFICATION_KINDS",
    "CLARIFICATION_TOOL",
    "DECISION_LABELS",
    "DIALECTS",
    "FIELD_TYPES",
    "SEED_INTERRUPT_NODE",
    "ActionRequest",
    "Answer",
    "AnswerError",
    "Decision",
    "DecisionType",
    "FieldType",
    "FormField",
    "HumanResponse",
    "InboxItem",
    "Option",
    "PendingInput",
    "PendingKind",
    "SubmitCallback",
    "answer_submitter",
    "build_answer",
    "deerflow_message",
    "detect_pending",
    "drain",
    "form_submission_text",
    "gather_inbox",
    "normalize_fields",
    "normalize_options",
    "open_deerflow_request",
    "option_response",
    "parse_args_json",
    "parse_generic",
    "parse_human_input_request",
    "pending_for_thread",
    "pending_from_value",
    "refusal_text",
    "response_of",
    "submit_answer",
    "validate_args",
    "validate_form",
]
