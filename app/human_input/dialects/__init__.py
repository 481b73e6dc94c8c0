"""The interrupt dialects: each module recognises one way an agent asks (`detect`) and
builds the answer its server expects (`build_answer`). DIALECTS is the one list of them.

A new dialect is one module with a `DIALECT` record, listed once in DIALECTS below; what the
screens need to know of it (is_review, label, value_answer) is in the PendingInput it detects.
"""

from __future__ import annotations

from typing import Any

from ...models import ThreadState
from ..models import Answer, HumanResponse, PendingInput
from . import agent_inbox, clarification, deerflow, generic, hitl, seed
from .base import Dialect

DIALECTS: tuple[Dialect, ...] = (
    # Interrupt values, asked in this order; generic takes any value, so it stays last.
    hitl.DIALECT,
    agent_inbox.DIALECT,
    clarification.DIALECT,
    generic.DIALECT,
    # Without any interrupt, the thread's state, in this order.
    seed.DIALECT,
    deerflow.DIALECT,
)

_BY_KIND = {dialect.kind: dialect for dialect in DIALECTS}


def pending_from_value(value: Any) -> PendingInput:
    """The PendingInput for one interrupt value (clarification, HITL, Agent Inbox, generic)."""
    found = (dialect.detect(value) for dialect in DIALECTS if dialect.reads == "interrupt")
    return next(pending for pending in found if pending is not None)


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
                    interrupts.append(
                        item.model_copy(update={"node": item.node or task.name, "task_id": item.task_id or task.id})
                    )
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
    for dialect in DIALECTS:
        if dialect.reads == "state":
            detected = dialect.detect(state)
            if detected is not None:
                return [detected]
    return []


def build_answer(pending: PendingInput, response: HumanResponse) -> Answer:
    """What to send for `response`; raises AnswerError when it cannot be sent as it is."""
    return _BY_KIND[pending.kind].build_answer(pending, response)
