"""What the two tool-review dialects (hitl, agent_inbox) share: the question shown, and
checking the reviewer's decisions before each dialect shapes them for its server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..models import ActionRequest, AnswerError, Decision, PendingInput
from ..validation import validate_args

Shape = Callable[[Decision, ActionRequest], dict[str, Any]]
"""One decision as the server expects it."""


def review_question(actions: list[ActionRequest]) -> str:
    """One action: its description; several: none (each row shows its own)."""
    if len(actions) == 1:
        return actions[0].description
    return ""


def checked_decisions(pending: PendingInput, decisions: list[Decision], shape: Shape) -> list[dict[str, Any]]:
    """The decisions shaped by `shape`, one per action in order; raises AnswerError listing problems."""
    if len(decisions) != len(pending.actions):
        raise AnswerError(f"Decide on every action: {len(pending.actions)} needed, {len(decisions)} given.")
    problems: list[str] = []
    shaped: list[dict[str, Any]] = []
    for number, (decision, action) in enumerate(zip(decisions, pending.actions, strict=True), 1):
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
        shaped.append(shape(decision, action))
    if problems:
        raise AnswerError("; ".join(problems) + ".")
    return shaped


def decisions_text(pending: PendingInput, decisions: list[Decision]) -> str:
    """The decisions in words ("approve write_file, reject rm"), for notices and logs."""
    return ", ".join(f"{d.type} {a.name}" for d, a in zip(decisions, pending.actions, strict=False))
