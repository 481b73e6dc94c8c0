"""Turning server text into safe, short, displayable strings.

Server text is data: it never goes through markup parsing (widgets get `Content` or
plain strings) and terminal control characters are replaced by visible symbols, so an
ANSI or OSC escape in a message shows literally instead of driving the terminal.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from textual.content import Content

# C0 controls (except tab and newline), DEL and C1 controls -> visible symbols.
_CONTROL = {code: 0x2400 + code for code in range(0x20) if code not in (0x09, 0x0A)}
_CONTROL[0x7F] = 0x2421
_CONTROL.update({code: 0xFFFD for code in range(0x80, 0xA0)})


def clean(text: str) -> str:
    """Replace terminal control characters with visible stand-ins."""
    return text.translate(_CONTROL)


def pasted(text: str) -> str:
    """A paste as text: its line ends newlines, its other control characters their stand-ins
    (a paste never drives the terminal, and what is sent is what was shown)."""
    return clean(text.replace("\r\n", "\n").replace("\r", "\n"))


def one_line(text: str, limit: int = 80) -> str:
    line = " ".join(clean(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def plain(text: str, style: str = "") -> Content:
    """Content that shows `text` literally (no markup is parsed)."""
    return Content.styled(clean(text), style) if style else Content(clean(text))


def pretty_json(value: Any) -> str:
    try:
        return clean(json.dumps(value, indent=2, ensure_ascii=False, default=str))
    except (TypeError, ValueError):
        return clean(repr(value))


def relative_time(moment: datetime | None, now: datetime) -> str:
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    seconds = max(0, int((now - moment).total_seconds()))
    for size, unit in ((86400 * 365, "y"), (86400 * 30, "mo"), (86400, "d"), (3600, "h"), (60, "m")):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s" if seconds >= 5 else "now"
