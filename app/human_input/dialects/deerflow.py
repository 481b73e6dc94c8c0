"""DeerFlow's ClarificationMiddleware: a ToolMessage named ask_clarification carrying
artifact.human_input; the run has ended (no interrupt, nothing next).

Answered as DeerFlow's UI does: a new run whose human message reads `For your clarification
"<question>", my answer is: <value>`, with additional_kwargs {hide_from_ui,
human_input_response} linking it to the request.
"""

from __future__ import annotations

import uuid
from typing import Any

from ...models import ChatMessage, ThreadState
from ..models import Answer, HumanResponse, Option, PendingInput
from .base import Dialect
from .clarification import CLARIFICATION_TOOL, answer_value, pending_from_args


def detect(state: ThreadState) -> PendingInput | None:
    """The newest open clarification, once the run has ended (nothing is next)."""
    if state.next:
        return None
    request = open_deerflow_request(state.messages)
    if request is not None:
        request.thread_id = state.thread_id
    return request


def build_answer(pending: PendingInput, response: HumanResponse) -> Answer:
    _value, text, option = answer_value(pending, response)
    return Answer(mode="message", message=deerflow_message(pending, text, option), text=text)


DIALECT = Dialect(kind="deerflow", reads="state", detect=detect, build_answer=build_answer)


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


def parse_human_input_request(value: Any) -> PendingInput | None:
    """DeerFlow's artifact.human_input payload as a PendingInput (None if it is not one)."""
    if not isinstance(value, dict) or value.get("kind") != "human_input_request":
        return None
    question = value.get("question")
    request_id = value.get("request_id")
    if not isinstance(question, str) or not question.strip() or not isinstance(request_id, str) or not request_id:
        return None
    pending = pending_from_args("deerflow", value, raw=value)
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
    # What comes before the first request answers nothing: start there (a thread of 10,000
    # messages and no request took 15 ms of each open walked the long way, 7 now)
    first = next((i for i, m in enumerate(messages) if _is_request(m)), None)
    if first is None:
        return None
    requests: dict[str, PendingInput] = {}
    order: list[str] = []
    answered: set[str] = set()
    legacy: set[str] = set()
    for message in messages[first:]:
        if _is_request(message):
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


def _is_request(message: ChatMessage) -> bool:
    return message.type == "tool" and message.name == CLARIFICATION_TOOL and not message.hidden


def _legacy_request(message: ChatMessage, messages: list[ChatMessage]) -> PendingInput:
    """An ask_clarification ToolMessage without artifact: the question from the tool call."""
    args: dict[str, Any] = {}
    for other in messages:
        for call in other.tool_calls:
            if call.id and call.id == message.tool_call_id and isinstance(call.args, dict):
                args = call.args
    if not isinstance(args.get("question"), str):
        args = {"question": message.text}
    pending = pending_from_args("deerflow", args, raw={"content": message.text, "tool_call_args": args})
    pending.structured = False
    pending.source = CLARIFICATION_TOOL
    pending.request_id = message.id or f"clarification:{message.tool_call_id}"
    return pending
