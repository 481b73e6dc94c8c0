"""What every dialect module provides, and the resume answer most of them send."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..models import Answer, HumanResponse, PendingInput, PendingKind


@dataclass(frozen=True)
class Dialect:
    """One way an agent asks a human, as the registry (dialects/__init__.py) lists it.

    `reads` says what `detect` is given: "interrupt" dialects get one interrupt value,
    "state" dialects get the whole ThreadState (they are asked only when no interrupt is
    pending). `detect` returns None when the payload is not in this dialect.
    """

    kind: PendingKind
    reads: Literal["interrupt", "state"]
    detect: Callable[[Any], PendingInput | None]
    build_answer: Callable[[PendingInput, HumanResponse], Answer]


def resume(pending: PendingInput, value: Any, text: str) -> Answer:
    """Command(resume=value), keyed by interrupt id when several interrupts are pending."""
    keyed = {pending.interrupt_id: value} if pending.keyed and pending.interrupt_id else value
    return Answer(mode="resume", resume=value, command={"resume": keyed}, text=text)
