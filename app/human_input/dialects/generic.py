"""Any other interrupt value (the fallback, asked last): a string is shown as the question,
anything else as JSON. Answered with the JSON typed, or else the text."""

from __future__ import annotations

import json
from typing import Any

from ..models import Answer, HumanResponse, PendingInput
from ..validation import parse_generic
from .base import Dialect, resume


def detect(value: Any) -> PendingInput:
    """Every value is a generic interrupt."""
    if isinstance(value, str):
        return PendingInput(kind="generic", label="interrupt", value_answer=True, question=value, raw=value)
    return PendingInput(kind="generic", label="interrupt", value_answer=True, raw=value)


def build_answer(pending: PendingInput, response: HumanResponse) -> Answer:
    value = response.value if response.value is not None else parse_generic(response.text)
    return resume(pending, value, value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))


DIALECT = Dialect(kind="generic", reads="interrupt", detect=detect, build_answer=build_answer)
