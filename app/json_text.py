"""JSON typed by a person (metadata, state values, tool arguments, config): parsed with a
message that says where the mistake is, and values shown for editing. No Textual here."""

from __future__ import annotations

import json
from typing import Any


class JsonProblem(ValueError):
    """Typed JSON that cannot be sent; `line` and `column` are 1-based (0: no position)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def parse_json(text: str, what: str) -> Any:
    """`text` as JSON; raises JsonProblem naming `what` ("the metadata") and the place."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        message = f"Not valid JSON in {what}: {error.msg} at line {error.lineno}, column {error.colno}."
        lines = text.splitlines()
        line = lines[error.lineno - 1] if error.lineno - 1 < len(lines) else ""
        if error.lineno > 1 and not line[: error.colno - 1].strip():
            # The parser stops at the next token: the mistake is often where the line before ends.
            message += " Check the end of the line before (a missing comma?)."
        raise JsonProblem(message, error.lineno, error.colno) from None


def parse_json_object(text: str, what: str, example: str) -> dict[str, Any]:
    """`text` as a JSON object; `example` shows one ('{"project": "demo"}') when it is not."""
    value = parse_json(text, what)
    if not isinstance(value, dict):
        raise JsonProblem(f"{what[:1].upper()}{what[1:]} must be a JSON object, like {example}.", 1, 1)
    return value


def editable_json(value: Any) -> str:
    """`value` as indented JSON to edit: non-ASCII kept as it is, and every control
    character a JSON escape (json.dumps leaves DEL and C1 controls raw, and a TextArea
    would send those to the terminal). The escapes decode to the same characters."""
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return "".join(f"\\u{ord(ch):04x}" if 0x7F <= ord(ch) <= 0x9F else ch for ch in text)
