"""Checking what a person typed before anything is sent: edited tool arguments against
their JSON schema, a generic interrupt's JSON, a form's values. Problems raise AnswerError."""

from __future__ import annotations

import json
import math
from datetime import date
from typing import Any

from ..json_text import JsonProblem, parse_json_object
from .models import AnswerError, FormField

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _type_ok(value: Any, expected: str) -> bool:
    if expected in ("integer", "number") and isinstance(value, bool):
        return False
    if expected == "integer" and isinstance(value, float):
        return value.is_integer()
    kinds = _JSON_TYPES.get(expected)
    return True if kinds is None else isinstance(value, kinds)


def validate_args(args: Any, schema: dict[str, Any] | None, path: str = "args") -> list[str]:
    """Problems of `args` against a JSON schema: type, required, properties, enum, items.

    A minimal check, enough to catch a mistyped edit before it is sent; an empty list
    means nothing was found wrong.
    """
    if not schema or not isinstance(schema, dict):
        return []
    problems: list[str] = []
    expected = schema.get("type")
    if expected is not None:
        types = expected if isinstance(expected, list) else [expected]
        if not any(_type_ok(args, str(t)) for t in types):
            problems.append(f"{path}: expected {' or '.join(map(str, types))}, got {_json_type(args)}")
            return problems
    if "enum" in schema and isinstance(schema["enum"], list) and args not in schema["enum"]:
        problems.append(f"{path}: must be one of {', '.join(json.dumps(v) for v in schema['enum'])}")
    if isinstance(args, dict):
        for key in schema.get("required") or []:
            if key not in args:
                problems.append(f"{path}: missing required key {key!r}")
        declared = schema.get("properties")
        properties: dict[str, Any] = declared if isinstance(declared, dict) else {}
        for key, sub in properties.items():
            if key in args and isinstance(sub, dict):
                problems += validate_args(args[key], sub, f"{path}.{key}")
        if schema.get("additionalProperties") is False:
            for key in args:
                if key not in properties:
                    problems.append(f"{path}: unexpected key {key!r}")
    if isinstance(args, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(args):
            problems += validate_args(item, schema["items"], f"{path}[{index}]")
    return problems


def _json_type(value: Any) -> str:
    """The JSON type of a value, by the table above (a bool first: True is an int in Python)."""
    if isinstance(value, bool):
        return "boolean"
    return next((name for name, kinds in _JSON_TYPES.items() if isinstance(value, kinds)), type(value).__name__)


def parse_args_json(text: str, name: str = "") -> dict[str, Any]:
    """Edited tool arguments typed as JSON; raises AnswerError with the line and column."""
    where = f" for {name}" if name else ""
    try:
        return parse_json_object(text, f"the arguments{where}", '{"path": "notes.md"}')
    except JsonProblem as problem:
        raise AnswerError(str(problem)) from None


def parse_generic(text: str) -> Any:
    """A generic interrupt's answer: the JSON value typed, or else the text itself."""
    stripped = text.strip()
    if not stripped:
        raise AnswerError('Type an answer: JSON (like {"ok": true} or null) or plain text.')
    try:
        return json.loads(stripped)
    except ValueError:
        return stripped


def _number(text: str) -> int | float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def validate_form(fields: list[FormField], values: dict[str, Any]) -> dict[str, Any]:
    """Clean a form's raw values ({name: str | bool | list}); raises AnswerError listing problems.

    Empty optional fields are left out; checkboxes are always kept (an explicit no).
    Numbers become int or float, dates must be YYYY-MM-DD, select values must be options.
    """
    record: dict[str, Any] = {}
    problems: list[str] = []
    for field in fields:
        raw = values.get(field.name)
        if field.type == "checkbox":
            record[field.name] = bool(raw)
            if field.required and not raw:
                problems.append(f"{field.title}: must be checked")
            continue
        if field.type == "multi_select":
            if isinstance(raw, (list, tuple)):
                chosen = [str(v) for v in (raw or []) if str(v).strip()]
            else:
                chosen = [str(raw)] if raw else []
            known = {str(o.value) for o in field.options}
            bad = [v for v in chosen if v not in known]
            if bad:
                problems.append(f"{field.title}: not an option: {', '.join(bad)}")
            elif chosen:
                record[field.name] = chosen
            elif field.required:
                problems.append(f"{field.title}: pick at least one")
            continue
        text = "" if raw is None else str(raw).strip()
        if not text:
            if field.required:
                problems.append(f"{field.title}: required")
            continue
        if field.type == "number":
            try:
                record[field.name] = _number(text)
            except ValueError:
                problems.append(f"{field.title}: not a number ({text})")
        elif field.type == "date":
            try:
                record[field.name] = date.fromisoformat(text).isoformat()
            except ValueError:
                problems.append(f"{field.title}: not a date (use YYYY-MM-DD)")
        elif field.type == "select":
            if text not in {str(o.value) for o in field.options}:
                problems.append(f"{field.title}: not an option ({text})")
            else:
                record[field.name] = text
        else:
            record[field.name] = text if field.type == "text" else str(raw)
    if problems:
        raise AnswerError("Check the form: " + "; ".join(problems) + ".")
    return record
