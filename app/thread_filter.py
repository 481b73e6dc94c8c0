"""The thread search box's little language.

    status:interrupted  key=value  graph:agent  id:3f2a  free text words  "words said"

Structured parts go to the server (status, metadata, graph); an id prefix and free text
are matched here, against each page the server returns (title and id). Quotes group words,
as in a shell; quoted words on their own are searched for inside the conversations (the local
full-text index, search_index.py), whose threads the server is then asked for by id. A quoted
metadata value is always a string (`tag="123"`). An unquoted number is looked for as a number
(`n=123`), and as the text "123" when no thread has the number: a tag of digits is as often a
string (an id, a ticket number), and the server's filter is exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from .models import ThreadQuery, ThreadSummary

STATUSES = ("idle", "busy", "interrupted", "error")


@dataclass
class ThreadFilter:
    status: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    graph_id: str = ""
    id_prefix: str = ""
    words: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    """Quoted words, looked for in what the threads say (the full-text index)."""
    ids: list[str] | None = None
    """The threads whose conversations hold the phrases (set once the index has answered)."""
    problems: list[str] = field(default_factory=list)
    numbers: tuple[str, ...] = ()
    """Metadata keys whose value was typed as an unquoted number (it may be a string)."""
    as_text: bool = False
    """The fallback: those values are now strings (the number found nothing)."""

    @property
    def is_local(self) -> bool:
        """True when some rows the server returns may be filtered out here."""
        return bool(self.id_prefix or self.words)

    @property
    def is_empty(self) -> bool:
        return not (self.status or self.metadata or self.graph_id or self.id_prefix or self.words or self.phrases)

    def admits(self, thread: ThreadSummary) -> bool:
        """The server's search would list `thread` too, and so would the local filters."""
        if self.status and thread.status != self.status:
            return False
        if self.graph_id and thread.graph_id != self.graph_id:
            return False
        for key, value in self.metadata.items():
            held = thread.metadata.get(key)
            if held != value and not (key in self.numbers and held == str(value)):
                return False
        if self.phrases and (self.ids is None or thread.thread_id not in self.ids):
            return False
        return self.matches(thread)

    def numbers_as_text(self) -> ThreadFilter | None:
        """The same filter with each unquoted number as its text (`n=123` as `n="123"`),
        or None when there is no such number."""
        if not self.numbers or self.as_text:
            return None
        metadata = {key: str(value) if key in self.numbers else value for key, value in self.metadata.items()}
        return replace(self, metadata=metadata, as_text=True, problems=[])

    def query(self, sort_by: str, sort_order: str, limit: int, offset: int) -> ThreadQuery:
        return ThreadQuery(
            status=self.status,  # type: ignore[arg-type]
            metadata=self.metadata,
            graph_id=self.graph_id,
            sort_by=sort_by,  # type: ignore[arg-type]
            sort_order=sort_order,  # type: ignore[arg-type]
            limit=limit,
            offset=offset,
            ids=self.ids or [],
        )

    def matches(self, thread: ThreadSummary) -> bool:
        if self.id_prefix and not thread.thread_id.startswith(self.id_prefix):
            return False
        haystack = f"{thread.title} {thread.thread_id}".casefold()
        return all(word in haystack for word in self.words)


_INTEGER = re.compile(r"0|-?[1-9][0-9]{0,15}")  # "-0" and "007" stay text: str(int(x)) == x
_LITERALS = {"true": True, "false": False, "null": None}


def _value(text: str) -> Any:
    """`n=3` filters on the number 3, `ok=true` on a boolean, anything else on the string
    as typed (so an id like 12e45 is not read as a float)."""
    if text in _LITERALS:
        return _LITERALS[text]
    if _INTEGER.fullmatch(text):
        return int(text)
    return text


def split_words(text: str) -> list[tuple[str, str]]:
    """(word, raw) pairs, split like a shell does: quotes group words and are dropped from
    `word`; `raw` keeps them. An unbalanced quote runs to the end of the text."""
    words: list[tuple[str, str]] = []
    word: list[str] = []
    raw: list[str] = []
    quote, started = "", False
    for char in text:
        if quote:
            if char == quote:
                quote = ""
            else:
                word.append(char)
            raw.append(char)
        elif char in "\"'":
            quote, started = char, True
            raw.append(char)
        elif char.isspace():
            if started:
                words.append(("".join(word), "".join(raw)))
                word, raw, started = [], [], False
        else:
            word.append(char)
            raw.append(char)
            started = True
    if started:
        words.append(("".join(word), "".join(raw)))
    return words


def parse_filter(text: str) -> ThreadFilter:
    result = ThreadFilter()
    for token, raw in split_words(text):
        key, sep, value = token.partition(":")
        if sep and key in ("status", "graph", "id") and value:
            if key == "status":
                if value in STATUSES:
                    result.status = value
                else:
                    result.problems.append(f"unknown status {value!r} (use {', '.join(STATUSES)})")
            elif key == "graph":
                result.graph_id = value
            else:
                result.id_prefix = value.lower()
            continue
        key, sep, value = token.partition("=")
        if sep and key:
            quoted = raw.partition("=")[2][:1] in ("'", '"')
            result.metadata[key] = value if quoted else _value(value)
            numbers = tuple(k for k in result.numbers if k != key)
            is_number = isinstance(result.metadata[key], int) and not isinstance(result.metadata[key], bool)
            result.numbers = (*numbers, key) if is_number else numbers
            continue
        if raw[:1] in ("'", '"') and token.strip():
            result.phrases.append(token.strip())
        else:
            result.words.append(token.casefold())
    return result
