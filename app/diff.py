"""What changed between two checkpoints: keys, messages, todos (pure; no Textual).

`diff_states(old, new)` compares two ThreadStates (usually a checkpoint and its parent, or
two checkpoints the user marked) and returns a `StateDiff`: top-level keys added, removed
and changed with short before/after summaries; messages added, removed and edited, matched
by id; todos matched by content with their status transitions; and `next`. `StateDiff.lines()`
flattens it into renderer-agnostic `DiffLine`s that any widget (or a test) can show.

Everything is linear in the size of the states: messages are matched through a dict of
ids, never by comparing every pair, so a diff of two 2,000-message checkpoints takes a few
milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from .models import ChatMessage, ThreadState

ChangeKind = Literal["added", "removed", "changed"]
LineKind = Literal["section", "added", "removed", "changed", "info"]

PREVIEW = 48


@dataclass(frozen=True, slots=True)
class KeyChange:
    key: str
    kind: ChangeKind
    before: str = ""
    """A short summary of the old value ("" when the key was added)."""
    after: str = ""
    detail: str = ""
    """What changed inside a list or dict, when that says more than before/after."""


@dataclass(frozen=True, slots=True)
class MessageChange:
    kind: ChangeKind
    id: str
    type: str
    preview: str
    """The message's text on one line, shortened."""
    index: int = -1
    """Its position in the new list (the old one for a removed message)."""
    name: str = ""


@dataclass(frozen=True, slots=True)
class TodoChange:
    kind: ChangeKind
    content: str
    before: str = ""
    """The old status ("" when the todo is new)."""
    after: str = ""


@dataclass(frozen=True, slots=True)
class DiffLine:
    """One line of a diff, independent of how it is drawn."""

    kind: LineKind
    label: str
    before: str = ""
    after: str = ""
    detail: str = ""


@dataclass(slots=True)
class StateDiff:
    old_checkpoint_id: str = ""
    new_checkpoint_id: str = ""
    old_step: int | None = None
    new_step: int | None = None
    keys: list[KeyChange] = field(default_factory=list)
    messages: list[MessageChange] = field(default_factory=list)
    todos: list[TodoChange] = field(default_factory=list)
    next_before: list[str] = field(default_factory=list)
    next_after: list[str] = field(default_factory=list)
    message_count_before: int = 0
    message_count_after: int = 0

    @property
    def messages_added(self) -> list[MessageChange]:
        return [m for m in self.messages if m.kind == "added"]

    @property
    def messages_removed(self) -> list[MessageChange]:
        return [m for m in self.messages if m.kind == "removed"]

    @property
    def messages_changed(self) -> list[MessageChange]:
        return [m for m in self.messages if m.kind == "changed"]

    @property
    def next_changed(self) -> bool:
        return self.next_before != self.next_after

    @property
    def empty(self) -> bool:
        return not (self.keys or self.messages or self.todos or self.next_changed)

    def summary(self) -> str:
        """One line: "+2 messages · 1 todo · 3 keys"."""
        parts = []
        added, removed = len(self.messages_added), len(self.messages_removed)
        changed = len(self.messages) - added - removed
        if added:
            parts.append(f"+{added} message{'s' * (added != 1)}")
        if removed:
            parts.append(f"-{removed} message{'s' * (removed != 1)}")
        if changed:
            parts.append(f"~{changed} message{'s' * (changed != 1)}")
        if self.todos:
            parts.append(f"{len(self.todos)} todo{'s' * (len(self.todos) != 1)}")
        if self.keys:
            parts.append(f"{len(self.keys)} key{'s' * (len(self.keys) != 1)}")
        if self.next_changed:
            parts.append("next changed")  # (the section under it is titled "next")
        return " · ".join(parts) or "no changes"

    def lines(self, max_messages: int = 200) -> Iterator[DiffLine]:
        """The diff as flat lines: sections, then one line per change."""
        if self.keys:
            yield DiffLine("section", "keys")
            for change in self.keys:
                yield DiffLine(change.kind, change.key, change.before, change.after, change.detail)
        if self.messages:
            yield DiffLine(
                "section",
                "messages",
                detail=f"{self.message_count_before} → {self.message_count_after}",
            )
            for number, message in enumerate(self.messages):
                if number == max_messages:
                    yield DiffLine("info", f"… {len(self.messages) - max_messages} more message changes")
                    break
                label = message.type + (f" {message.name}" if message.name else "")
                yield DiffLine(message.kind, label, after=message.preview, detail=f"#{message.index}")
        if self.todos:
            yield DiffLine("section", "todos")
            for todo in self.todos:
                yield DiffLine(todo.kind, todo.content, todo.before, todo.after)
        if self.next_changed:
            yield DiffLine("section", "next")
            yield DiffLine("changed", "nodes to run", _list_text(self.next_before), _list_text(self.next_after))
        if self.empty:
            yield DiffLine("info", "no changes")


# -- summaries ---------------------------------------------------------------------------------


def _one_line(text: str, limit: int = PREVIEW) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _list_text(items: list[str]) -> str:
    return "[" + ", ".join(items) + "]" if items else "[]"


def summarize(value: Any, limit: int = PREVIEW) -> str:
    """A short, type-aware summary: 'text…', list[3], dict{2}, 42, null."""
    if isinstance(value, str):
        return repr(_one_line(value, limit))
    if isinstance(value, dict):
        return f"dict{{{len(value)}}}"
    if isinstance(value, (list, tuple)):
        return f"list[{len(value)}]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return _one_line(str(value), limit)


def _detail(old: Any, new: Any) -> str:
    """What changed inside a container, when it can be said briefly."""
    if isinstance(old, dict) and isinstance(new, dict):
        added = [k for k in new if k not in old]
        removed = [k for k in old if k not in new]
        changed = [k for k in new if k in old and new[k] != old[k]]
        parts = []
        for sign, keys in (("+", added), ("-", removed), ("~", changed)):
            if keys:
                names = ", ".join(str(k) for k in keys[:3]) + (", …" if len(keys) > 3 else "")
                parts.append(f"{sign}{names}")
        return " ".join(parts)
    if isinstance(old, list) and isinstance(new, list):
        if len(new) > len(old) and new[: len(old)] == old:
            return f"+{len(new) - len(old)} appended"
        if len(new) < len(old) and old[: len(new)] == new:
            return f"-{len(old) - len(new)} from the end"
        same = sum(1 for a, b in zip(old, new, strict=False) if a == b)
        return f"{min(len(old), len(new)) - same} of {min(len(old), len(new))} items differ" + (
            f", {len(new) - len(old):+d} items" if len(new) != len(old) else ""
        )
    return ""


# -- messages ----------------------------------------------------------------------------------


def _message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                if isinstance(block.get("text"), str):
                    parts.append(block["text"])
                else:
                    parts.append(f"[{block.get('type', 'block')}]")
        text = " ".join(parts)
    else:
        text = "" if content is None else str(content)
    if not text.strip():
        calls = message.get("tool_calls") or []
        names = [str(call.get("name", "")) for call in calls if isinstance(call, dict)]
        if names:
            text = "→ " + ", ".join(names)
    return text


def _raw_messages(state: ThreadState) -> list[dict[str, Any]]:
    raw = state.values.get(state.messages_key)
    if isinstance(raw, list) and all(isinstance(m, dict) for m in raw):
        return raw
    return [_chat_dict(m) for m in state.messages]


def _chat_dict(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.id,
        "type": message.type,
        "content": message.text,
        "name": message.name,
        "tool_calls": [call.model_dump() for call in message.tool_calls],
        "tool_call_id": message.tool_call_id,
        "status": message.status,
    }


def _message_key(message: dict[str, Any], index: int) -> str:
    ident = message.get("id")
    return str(ident) if ident else f"#{index}"


def _message_change(kind: ChangeKind, message: dict[str, Any], index: int) -> MessageChange:
    return MessageChange(
        kind=kind,
        id=str(message.get("id") or ""),
        type=str(message.get("type") or message.get("role") or "?"),
        preview=_one_line(_message_text(message)),
        index=index,
        name=str(message.get("name") or "") if message.get("type") == "tool" else "",
    )


def diff_messages(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[MessageChange]:
    """Messages added, edited (same id, other content) and removed, matched by id in O(n)."""
    if old is new:
        return []
    aligned = _aligned(old, new)
    if aligned is not None:
        return aligned
    before = {_message_key(m, i): (i, m) for i, m in enumerate(old)}
    seen: set[str] = set()
    changes: list[MessageChange] = []
    removed: list[MessageChange] = []
    for index, message in enumerate(new):
        key = _message_key(message, index)
        seen.add(key)
        found = before.get(key)
        if found is None:
            changes.append(_message_change("added", message, index))
        elif found[1] is not message and found[1] != message:
            changes.append(_message_change("changed", message, index))
    if len(seen) != len(before) or any(key not in seen for key in before):
        for key, (index, message) in before.items():
            if key not in seen:
                removed.append(_message_change("removed", message, index))
    return removed + changes


def _aligned(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[MessageChange] | None:
    """The usual step: `new` holds `old`'s messages in place (same ids, some maybe edited) and
    appends new ones. Compared pairwise, without a dict of every id; None when it is not
    that case (diff_messages then matches by id)."""
    count = len(old)
    if len(new) < count:
        return None
    ids = set()
    for a, b in zip(old, new, strict=False):
        ident = a.get("id")
        if not ident or b.get("id") != ident:
            return None
        ids.add(ident)
    if len(ids) != count or any(not m.get("id") or m.get("id") in ids for m in new[count:]):
        return None
    pairs = enumerate(zip(old, new, strict=False))
    changes = [_message_change("changed", b, index) for index, (a, b) in pairs if a is not b and a != b]
    return changes + [_message_change("added", m, index) for index, m in enumerate(new[count:], count)]


# -- todos -------------------------------------------------------------------------------------


def _todo_items(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, list):
        return []
    items = []
    for todo in value:
        if isinstance(todo, dict):
            items.append((str(todo.get("content", "")), str(todo.get("status", ""))))
        else:
            items.append((str(todo), ""))
    return items


def diff_todos(old: Any, new: Any) -> list[TodoChange]:
    """Todos matched by content: added, removed, or a status transition."""
    before = dict(_todo_items(old))
    after_items = _todo_items(new)
    after = dict(after_items)
    changes = [
        TodoChange("removed", content, status, "") for content, status in _todo_items(old) if content not in after
    ]
    for content, status in after_items:
        if content not in before:
            changes.append(TodoChange("added", content, "", status))
        elif before[content] != status:
            changes.append(TodoChange("changed", content, before[content], status))
    return changes


# -- states ------------------------------------------------------------------------------------


def diff_values(old: dict[str, Any], new: dict[str, Any], skip: tuple[str, ...]) -> list[KeyChange]:
    """What changed key by key, but for the lists of `skip` (compared item by item, in their
    own sections: the messages, the todos)."""
    changes: list[KeyChange] = []
    for key, value in new.items():
        if key not in old:
            changes.append(KeyChange(str(key), "added", after=summarize(value)))
        elif key in skip and isinstance(value, list) and isinstance(old[key], list):
            continue
        elif old[key] is not value and old[key] != value:
            changes.append(
                KeyChange(str(key), "changed", summarize(old[key]), summarize(value), _detail(old[key], value))
            )
    for key, value in old.items():
        if key not in new:
            changes.append(KeyChange(str(key), "removed", before=summarize(value)))
    return changes


def diff_states(old: ThreadState | None, new: ThreadState) -> StateDiff:
    """What `new` changed against `old` (None: everything in `new` is new)."""
    old_values = old.values if old is not None else {}
    old_messages = _raw_messages(old) if old is not None else []
    new_messages = _raw_messages(new)
    diff = StateDiff(
        old_checkpoint_id=old.checkpoint_id if old is not None else "",
        new_checkpoint_id=new.checkpoint_id,
        old_step=old.step if old is not None else None,
        new_step=new.step,
        keys=diff_values(old_values, new.values, (new.messages_key, "todos")),
        messages=diff_messages(old_messages, new_messages),
        todos=diff_todos(old_values.get("todos"), new.values.get("todos")),
        next_before=list(old.next) if old is not None else [],
        next_after=list(new.next),
        message_count_before=len(old_messages),
        message_count_after=len(new_messages),
    )
    return diff
