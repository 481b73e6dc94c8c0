"""Clarifications: `interrupt()` with an ask_clarification-like value.

The value is {question, clarification_type?, context?, options?, fields?, title?}. It is
answered with Command(resume=answer): the chosen option's value, the typed text, or (with
fields) a {name: value} dict. The reading of options and fields, and the answer's value and
text, are shared with the two other clarification dialects (deerflow, seed).
"""

from __future__ import annotations

import json
from typing import Any

from ..models import (
    Answer,
    AnswerError,
    FieldType,
    FormField,
    HumanResponse,
    Option,
    PendingInput,
    PendingKind,
    is_field_type,
    short_json,
)
from ..validation import validate_form
from .base import Dialect, resume

CLARIFICATION_TOOL = "ask_clarification"


def detect(value: Any) -> PendingInput | None:
    """A dict with a non-blank string `question`."""
    if isinstance(value, dict) and isinstance(value.get("question"), str) and value["question"].strip():
        return pending_from_args("clarification", value, raw=value)
    return None


def build_answer(pending: PendingInput, response: HumanResponse) -> Answer:
    value, text, _option = answer_value(pending, response)
    return resume(pending, value, text)


DIALECT = Dialect(kind="clarification", reads="interrupt", detect=detect, build_answer=build_answer)


def pending_from_args(kind: PendingKind, args: dict[str, Any], *, raw: Any) -> PendingInput:
    """A PendingInput of `kind` from ask_clarification's arguments (or a payload shaped like them)."""
    context = args.get("context")
    return PendingInput(
        kind=kind,
        question=str(args.get("question") or ""),
        title=str(args.get("title") or ""),
        clarification_type=str(args.get("clarification_type") or ""),
        context="" if context is None else (context if isinstance(context, str) else short_json(context, 2000)),
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
        raw_type = entry.get("type")
        field_type: FieldType = raw_type if is_field_type(raw_type) else "text"
        choosing = field_type in ("select", "multi_select")
        options = normalize_options(entry.get("options"), f"{name}-option") if choosing else []
        if choosing and not options:
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


def answer_value(pending: PendingInput, response: HumanResponse) -> tuple[Any, str, Option | None]:
    """(value to resume with, the answer as text, the option chosen) for any clarification."""
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
        return record, text, None
    text = response.text.strip()
    if not text:
        if pending.options:
            raise AnswerError(f"Nothing sent: pick an option (1-{min(9, len(pending.options))}) or type your answer.")
        if not response.empty_confirmed:
            raise AnswerError("Type an answer (or confirm an empty one).")
    return text, text, None


def option_response(pending: PendingInput, number: int) -> HumanResponse:
    """The response picking option `number` (1-based); raises AnswerError when there is none."""
    if not 1 <= number <= len(pending.options):
        raise AnswerError(f"There is no option {number}.")
    return HumanResponse(option_id=pending.options[number - 1].id)


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
