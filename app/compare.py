"""Two conversations side by side, aligned turn by turn (pure; no Textual).

`align(left, right)` splits each list of messages into turns (a turn starts at each human
message; what comes before the first one is turn 0) and pairs the turns, then the messages
inside each pair: first by id (a message both sides hold under one id), then by content
(type, text, tool calls). Each row is `equal`, `changed` (the same place, other content),
`left` (only on the left) or `right` (only on the right). Hidden messages are left out, as
the chat leaves them out.

`word_marks(a, b)` says which words of two texts differ, for marking a changed pair.
`parse_option_set` / `option_set_text` read and write one fan-out run-option set as
`key=value` words.

Everything is linear in the messages but the pairing of one turn's messages (difflib over
that turn), so a long thread aligns in milliseconds.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Literal

from .models import ChatMessage, ThreadState
from .run_options import OptionField

RowKind = Literal["equal", "changed", "left", "right"]
MAX_WORDS = 3000
"""Texts longer than this are not marked word by word (difflib is quadratic)."""
MIN_SHARED = 0.4
"""Two texts that share less than this (difflib's ratio) are not marked word by word."""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison: a thread at a checkpoint ("" checkpoint id: its head)."""

    thread_id: str
    checkpoint_id: str
    label: str
    """What a person reads: the thread's title and the step."""
    state: ThreadState
    head: bool = False
    """The thread's head when it was picked (not a past checkpoint)."""


def side_label(title: str, thread_id: str, state: ThreadState, head: bool) -> str:
    name = title or thread_id[:8]
    step = f"step {state.step}" if state.step is not None else "no step"
    return f"{name} · {'head, ' if head else ''}{step}"


@dataclass(slots=True)
class Row:
    kind: RowKind
    left: ChatMessage | None = None
    right: ChatMessage | None = None


@dataclass(slots=True)
class Turn:
    number: int
    """0: the messages before the first human one; then 1, 2, … on the left's count (the
    right's for a turn only the right has)."""
    rows: list[Row] = field(default_factory=list)

    @property
    def kind(self) -> RowKind:
        kinds = {row.kind for row in self.rows}
        if kinds <= {"equal"}:
            return "equal"
        if kinds == {"left"}:
            return "left"
        if kinds == {"right"}:
            return "right"
        return "changed"


@dataclass(slots=True)
class Alignment:
    turns: list[Turn]

    def counts(self) -> dict[RowKind, int]:
        counts: dict[RowKind, int] = {"equal": 0, "changed": 0, "left": 0, "right": 0}
        for turn in self.turns:
            for row in turn.rows:
                counts[row.kind] += 1
        return counts

    def summary(self) -> str:
        """ "4 turns · 6 equal · 2 changed · 1 only left · 3 only right" """
        counts = self.counts()
        parts = [f"{len(self.turns)} turn{'s' * (len(self.turns) != 1)}"]
        for kind, word in (("equal", "equal"), ("changed", "changed"), ("left", "only left"), ("right", "only right")):
            if counts[kind]:  # type: ignore[index]
                parts.append(f"{counts[kind]} {word}")  # type: ignore[index]
        return " · ".join(parts)

    @property
    def same(self) -> bool:
        return all(turn.kind == "equal" for turn in self.turns)


def split_turns(messages: list[ChatMessage]) -> list[list[ChatMessage]]:
    """Turns: a new one at each human message (hidden messages left out)."""
    turns: list[list[ChatMessage]] = [[]]
    for message in messages:
        if message.hidden:
            continue
        if message.type == "human" and turns[-1]:
            turns.append([])
        turns[-1].append(message)
    return [turn for turn in turns if turn]


def _content(message: ChatMessage) -> tuple[Any, ...]:
    calls = tuple((call.name, json.dumps(call.args, sort_keys=True, default=str)) for call in message.tool_calls)
    return message.type, message.text.strip(), calls, message.name if message.type == "tool" else ""


def _turn_key(turn: list[ChatMessage]) -> tuple[Any, ...]:
    first = turn[0]
    return (first.type, first.text.strip()) if first.type == "human" else ("preamble",)


def _pair_messages(left: list[ChatMessage], right: list[ChatMessage]) -> list[Row]:
    shared_ids = {m.id for m in left if m.id} & {m.id for m in right if m.id}

    def key(message: ChatMessage) -> tuple[Any, ...]:
        return ("id", message.id) if message.id in shared_ids else ("content", *_content(message))

    rows: list[Row] = []
    matcher = SequenceMatcher(None, [key(m) for m in left], [key(m) for m in right], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for a, b in zip(left[i1:i2], right[j1:j2], strict=True):
                rows.append(Row("equal" if _content(a) == _content(b) else "changed", a, b))
            continue
        rows += _pair_from_the_end(left[i1:i2], right[j1:j2])
    return rows


def _pair_from_the_end(olds: list[ChatMessage], news: list[ChatMessage]) -> list[Row]:
    """Messages that differ, paired from the end of the block: the replies that end a turn face
    each other, and the steps one side took more (tool calls and their results) come before."""
    olds, news = olds[::-1], news[::-1]
    rows: list[Row] = []
    while olds and news:
        a, b = olds[0], news[0]
        if a.type == b.type:
            rows.append(Row("equal" if _content(a) == _content(b) else "changed", a, b))
            olds, news = olds[1:], news[1:]
        elif any(m.type == b.type for m in olds[1:]):
            rows.append(Row("left", a, None))
            olds = olds[1:]
        else:
            rows.append(Row("right", None, b))
            news = news[1:]
    rows += [Row("left", a, None) for a in olds]
    rows += [Row("right", None, b) for b in news]
    return rows[::-1]


def align(left: list[ChatMessage], right: list[ChatMessage]) -> Alignment:
    """The two conversations turn by turn (see the module's docstring)."""
    left_turns, right_turns = split_turns(left), split_turns(right)
    matcher = SequenceMatcher(
        None, [_turn_key(t) for t in left_turns], [_turn_key(t) for t in right_turns], autojunk=False
    )
    turns: list[Turn] = []
    number = 0

    def add(a: list[ChatMessage] | None, b: list[ChatMessage] | None) -> None:
        nonlocal number
        starts_human = (a or b or [ChatMessage()])[0].type == "human"
        number = number + 1 if starts_human else number
        turns.append(Turn(number, _pair_messages(a or [], b or [])))

    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        olds, news = left_turns[i1:i2], right_turns[j1:j2]
        if tag in ("equal", "replace"):
            for a, b in zip(olds, news, strict=False):  # an edited question: the same place, changed
                add(a, b)
            olds, news = olds[len(news) :], news[len(olds) :]
        for a in olds:
            add(a, None)
        for b in news:
            add(None, b)
    return Alignment(turns)


# -- marking the words that differ ----------------------------------------------------------

_WORDS = re.compile(r"\S+|\s+")


def word_marks(a: str, b: str) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """Each text as pieces (text, differs): the words the other side does not have are marked
    (none when the texts are long, or share too little for the marks to help)."""
    left, right = _WORDS.findall(a), _WORDS.findall(b)
    if len(left) > MAX_WORDS or len(right) > MAX_WORDS:
        return [(a, False)], [(b, False)]
    matcher = SequenceMatcher(None, left, right, autojunk=False)
    if matcher.ratio() < MIN_SHARED:  # two different texts: marking every word says nothing
        return [(a, False)], [(b, False)]
    marked_left: list[tuple[str, bool]] = []
    marked_right: list[tuple[str, bool]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        differs = tag != "equal"
        if i2 > i1:
            _append(marked_left, "".join(left[i1:i2]), differs)
        if j2 > j1:
            _append(marked_right, "".join(right[j1:j2]), differs)
    return marked_left, marked_right


def _append(pieces: list[tuple[str, bool]], text: str, differs: bool) -> None:
    if pieces and pieces[-1][1] == differs:
        pieces[-1] = (pieces[-1][0] + text, differs)
    else:
        pieces.append((text, differs))


# -- fan-out option sets ---------------------------------------------------------------------


class OptionSetError(ValueError):
    """A run-option set that cannot be read; the message says which word and why."""


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "on", "yes"):
        return True
    if lowered in ("false", "off", "no"):
        return False
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d*", text):
        return float(text)
    return text


def parse_option_set(text: str) -> dict[str, Any]:
    """`model_name=gpt-5 reasoning_effort=high thinking_enabled` -> a dict (a bare name is
    true; values may be quoted). Raises OptionSetError saying which word is wrong."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise OptionSetError(f"cannot read {text!r}: {error}") from None
    values: dict[str, Any] = {}
    for word in words:
        name, sep, raw = word.partition("=")
        name = name.strip()
        if not name or not re.fullmatch(r"[A-Za-z_][\w.-]*", name):
            raise OptionSetError(f"{word!r} is not name=value (a name is letters, digits and _)")
        values[name] = _value(raw) if sep else True
    return values


def option_set_text(values: dict[str, Any]) -> str:
    """The words parse_option_set reads back to `values`."""
    words = []
    for name, value in values.items():
        if value is True:
            words.append(name)
        elif value is False:
            words.append(f"{name}=false")
        else:
            text = str(value)
            words.append(f"{name}={shlex.quote(text) if text != shlex.quote(text) else text}")
    return " ".join(words)


def option_set_problem(values: dict[str, Any], fields: list[OptionField]) -> str:
    """What is wrong with `values` for the option fields the graph declares ("" if nothing):
    a flag that is not true or false, a choice not among its choices, a number that is not
    one. Names the fields do not know are the graph's business and pass."""
    known = {field.name: field for field in fields}
    for name, value in values.items():
        field = known.get(name)
        if field is None:
            continue
        if field.kind == "bool" and not isinstance(value, bool):
            return f"{name} is true or false, not {value!r}"
        if field.kind == "choice" and field.choices and str(value) not in field.choices:
            return f"{name} is one of {', '.join(field.choices)}, not {value!r}"
        if field.kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
            return f"{name} is a number, not {value!r}"
    return ""
