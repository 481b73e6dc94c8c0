"""The seed document's form: the graph paused (state.next == ["__interrupt__"], or a static
breakpoint) with the question in the last AI message's unanswered ask_clarification tool call.

Answered by update_state with a human message (written as the paused node), then a run with
no input that continues the graph.
"""

from __future__ import annotations

import uuid
from typing import Any

from ...models import ChatMessage, ThreadState
from ..models import Answer, HumanResponse, PendingInput
from .base import Dialect
from .clarification import CLARIFICATION_TOOL, answer_value, pending_from_args

SEED_INTERRUPT_NODE = "__interrupt__"


def detect(state: ThreadState) -> PendingInput | None:
    """A paused graph whose last AI message asks for clarification, unanswered since."""
    if not state.next:
        return None
    found = _unanswered_clarification_call(state.messages)
    if found is None:
        return None
    message, call = found
    args = call.args if isinstance(call.args, dict) else {}
    if not isinstance(args.get("question"), str):
        return None
    pending = pending_from_args("seed_clarification", args, raw=args)
    pending.thread_id = state.thread_id
    pending.tool_call_id = call.id
    pending.message_id = message.id
    pending.source = CLARIFICATION_TOOL
    pending.node = state.next[0]
    pending.as_node = None if state.next[0] == SEED_INTERRUPT_NODE else state.next[0]
    return pending


def build_answer(pending: PendingInput, response: HumanResponse) -> Answer:
    _value, text, _option = answer_value(pending, response)
    message_id = f"answer-{pending.tool_call_id}" if pending.tool_call_id else str(uuid.uuid4())
    return Answer(
        mode="update_then_run",
        message={"type": "human", "content": text, "id": message_id},
        as_node=pending.as_node,
        text=text,
    )


DIALECT = Dialect(kind="seed_clarification", reads="state", detect=detect, build_answer=build_answer)


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
