"""The older Agent Inbox interrupt: a list (or one) of {action_request: {action, args},
config: {allow_accept, allow_edit, allow_respond, allow_ignore}, description?}.

Answered with Command(resume=[...]): one {type: accept|edit|response|ignore, args} per
request, in order.
"""

from __future__ import annotations

from typing import Any

from ..models import ActionRequest, Answer, Decision, DecisionType, HumanResponse, PendingInput
from .base import Dialect, resume
from .review import checked_decisions, decisions_text, review_question

_ALLOW: tuple[tuple[str, DecisionType], ...] = (
    ("allow_accept", "approve"),
    ("allow_edit", "edit"),
    ("allow_respond", "respond"),
    ("allow_ignore", "ignore"),
)
"""Each config flag and the decision it allows; accept and ignore are allowed unless turned off."""


def detect(value: Any) -> PendingInput | None:
    """A non-empty list (or a single item) of dicts, each with an `action_request` dict."""
    items = value if isinstance(value, list) else [value]
    if not (items and all(isinstance(item, dict) and isinstance(item.get("action_request"), dict) for item in items)):
        return None
    actions = []
    for item in items:
        request = item["action_request"]
        config = item.get("config") if isinstance(item.get("config"), dict) else {}
        allowed: list[DecisionType] = []
        for key, decision in _ALLOW:
            if config.get(key, key in ("allow_accept", "allow_ignore")):
                allowed.append(decision)
        actions.append(
            ActionRequest(
                name=str(request.get("action") or request.get("name") or ""),
                args=request.get("args") if request.get("args") is not None else {},
                description=str(item.get("description") or ""),
                allowed=allowed or ["ignore"],
            )
        )
    return PendingInput(
        kind="agent_inbox", label="tool approval", actions=actions, raw=value, question=review_question(actions)
    )


def build_answer(pending: PendingInput, response: HumanResponse) -> Answer:
    shaped = checked_decisions(pending, response.decisions, _shape)
    return resume(pending, shaped, decisions_text(pending, response.decisions))


DIALECT = Dialect(kind="agent_inbox", reads="interrupt", detect=detect, build_answer=build_answer)


def _shape(decision: Decision, action: ActionRequest) -> dict[str, Any]:
    if decision.type == "approve":
        return {"type": "accept", "args": None}
    if decision.type == "edit":
        return {"type": "edit", "args": {"action": action.name, "args": decision.args}}
    if decision.type == "respond":
        return {"type": "response", "args": decision.message.strip()}
    return {"type": "ignore", "args": None}
