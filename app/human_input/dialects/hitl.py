"""LangChain v1 HumanInTheLoopMiddleware: an interrupt value {action_requests, review_configs}.

Answered with Command(resume={"decisions": [...]}), one decision per action request, in order:
approve, edit (with the edited arguments) or reject (with an optional message).
"""

from __future__ import annotations

from typing import Any

from ..models import ActionRequest, Answer, Decision, HumanResponse, PendingInput
from .base import Dialect, resume
from .review import checked_decisions, decisions_text, review_question


def detect(value: Any) -> PendingInput | None:
    """A dict whose `action_requests` is a list."""
    if not (isinstance(value, dict) and isinstance(value.get("action_requests"), list)):
        return None
    configs = [c for c in value.get("review_configs") or [] if isinstance(c, dict)]
    by_name = {str(c.get("action_name")): c for c in configs}
    actions = []
    for request in value["action_requests"]:
        if not isinstance(request, dict):
            request = {"name": str(request)}
        name = str(request.get("name") or request.get("action") or "")
        config = by_name.get(name, {})
        decisions = ("approve", "edit", "reject")
        allowed = [d for d in config.get("allowed_decisions") or list(decisions) if d in decisions]
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
    return PendingInput(
        kind="hitl", label="tool approval", actions=actions, raw=value, question=review_question(actions)
    )


def build_answer(pending: PendingInput, response: HumanResponse) -> Answer:
    shaped = checked_decisions(pending, response.decisions, _shape)
    return resume(pending, {"decisions": shaped}, decisions_text(pending, response.decisions))


DIALECT = Dialect(kind="hitl", reads="interrupt", detect=detect, build_answer=build_answer)


def _shape(decision: Decision, action: ActionRequest) -> dict[str, Any]:
    if decision.type == "approve":
        return {"type": "approve"}
    if decision.type == "edit":
        return {"type": "edit", "edited_action": {"name": action.name, "args": decision.args}}
    shaped: dict[str, Any] = {"type": "reject"}
    message = decision.message.strip()
    if message:
        shaped["message"] = message
    return shaped
