"""The checkpoint timeline as rows (pure; no Textual).

History arrives newest first, a page at a time (`get_history(limit, before)`). Because a
checkpoint is always older than its children, by the time a checkpoint is loaded all its
children are loaded too: children counts (branch points) are exact for every loaded row,
and appending an older page never changes the rows already built, except to fill in the
writers of rows whose parent has just arrived.

What a row says, judged from real LangGraph 1.x payloads:
- `metadata.writes` is gone in LangGraph 1.x: the node(s) that wrote a "loop" checkpoint
  are the ones its parent was about to run (the parent's `next`).
- source is input | loop | update. A checkpoint is shown as "fork" when it is a later child
  of a branch point (its parent has an older child too: known once that child's page is
  loaded), or when it was written at an explicit checkpoint: update_state(checkpoint_id=X)
  and runs started with checkpoint_id=X record metadata.checkpoint_id == X, and their
  first checkpoint's parent is X.

Human turns: a checkpoint starts a human turn when the messages it adds to its parent's
include a human message (judged from the checkpoint data, whatever the nodes are called:
DeerFlow's middleware steps have names of their own). `TimelineModel.turn_index` finds the
next one either way for the `{` and `}` keys.

Lanes: rows carry a small `git log --graph`-style drawing (one column per open branch) so a
branch is visible in a narrow pane.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .models import ThreadState

START = "__start__"
MAX_LANES = 4
"""Columns of the lane drawing; further branches share the last column."""


@dataclass(slots=True)
class TimelineRow:
    checkpoint: ThreadState
    index: int
    lanes: str = ""
    """The lane drawing for this row, e.g. "● │" (each lane is two characters)."""
    source: str = ""
    """input | loop | update | fork (or whatever the server said)."""
    writers: list[str] = field(default_factory=list)
    children: int = 0
    fork: bool = False

    @property
    def checkpoint_id(self) -> str:
        return self.checkpoint.checkpoint_id

    @property
    def parent_id(self) -> str:
        return self.checkpoint.parent_checkpoint_id

    @property
    def step(self) -> int | None:
        return self.checkpoint.step

    @property
    def created_at(self) -> datetime | None:
        return self.checkpoint.created_at

    @property
    def message_count(self) -> int:
        raw = self.checkpoint.values.get(self.checkpoint.messages_key)
        return len(raw) if isinstance(raw, list) else len(self.checkpoint.messages)

    @property
    def branch_point(self) -> bool:
        return self.children > 1

    @property
    def next(self) -> list[str]:
        return self.checkpoint.next


def writers_of(checkpoint: ThreadState, parent: ThreadState | None) -> list[str]:
    """The node(s) that wrote `checkpoint`: metadata.writes if the server sends it, else the
    parent's `next` for a loop step (an input checkpoint holds the input not yet applied:
    nothing wrote it; "__start__" then writes it into the channels)."""
    written = checkpoint.writers
    if written:
        return written
    if parent is not None and (checkpoint.source == "loop" or (not checkpoint.source and checkpoint.next != [START])):
        return list(parent.next)  # (no source: DeerFlow's Gateway drops it; an input checkpoint runs __start__ next)
    return []


def _messages_of(checkpoint: ThreadState) -> list[Any]:
    """The messages of `checkpoint`: the raw dicts where the values keep them, else the models."""
    raw = checkpoint.values.get(checkpoint.messages_key)
    return raw if isinstance(raw, list) else checkpoint.messages


def _key(message: object) -> tuple[str, str]:
    """(id, type) of a raw message dict or a ChatMessage."""
    if isinstance(message, dict):
        return str(message.get("id") or ""), str(message.get("type") or message.get("role") or "")
    return str(getattr(message, "id", "") or ""), str(getattr(message, "type", "") or "")


def new_message_types(checkpoint: ThreadState, parent: ThreadState | None) -> list[str]:
    """The types of the messages `checkpoint` holds that `parent` does not (all of them
    without a parent). Usually the parent's messages are a prefix: only the tail is read,
    so a step costs the messages it added, not the thread's length."""
    mine = _messages_of(checkpoint)
    if parent is None:
        return [_key(m)[1] for m in mine]
    theirs = _messages_of(parent)
    count = len(theirs)
    if len(mine) >= count and (not count or _key(mine[count - 1]) == _key(theirs[count - 1])):
        return [_key(m)[1] for m in mine[count:]]
    known = {ident for ident, _ in map(_key, theirs) if ident}
    return [kind for ident, kind in map(_key, mine) if ident and ident not in known]


def _knows_messages(checkpoint: ThreadState) -> bool:
    return isinstance(checkpoint.values.get(checkpoint.messages_key), list) or bool(checkpoint.messages)


def starts_human_turn(checkpoint: ThreadState, parent: ThreadState | None) -> bool:
    """True when the messages `checkpoint` adds to `parent` include a human one. Where the
    server keeps no messages in past checkpoints (DeerFlow's Gateway), a turn starts where a
    run's input was applied: the parent was about to run `__start__`."""
    if parent is not None and not (_knows_messages(checkpoint) and _knows_messages(parent)):
        return parent.next == [START]
    return "human" in new_message_types(checkpoint, parent)


NEED_OLDER = -1
"""turn_index's answer when the next older turn lies beyond the loaded checkpoints."""


class TimelineModel:
    """Rows for the checkpoints loaded so far, extended a page at a time."""

    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self.rows: list[TimelineRow] = []
        self.by_id: dict[str, int] = {}
        self.children: dict[str, list[str]] = {}
        self._turns: dict[int, bool] = {}
        """Row index -> starts a human turn (only rows whose parent was known)."""
        self._lanes: list[str | None] = []
        """For each open lane, the checkpoint id it waits for (a parent not yet drawn)."""
        self.exhausted = False

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def checkpoints(self) -> list[ThreadState]:
        return [row.checkpoint for row in self.rows]

    @property
    def oldest_id(self) -> str:
        return self.rows[-1].checkpoint_id if self.rows else ""

    def get(self, checkpoint_id: str) -> TimelineRow | None:
        index = self.by_id.get(checkpoint_id)
        return self.rows[index] if index is not None else None

    def parent_of(self, checkpoint: ThreadState) -> ThreadState | None:
        row = self.get(checkpoint.parent_checkpoint_id) if checkpoint.parent_checkpoint_id else None
        return row.checkpoint if row is not None else None

    def reset(self) -> None:
        self._clear()

    def human_turn(self, index: int) -> bool | None:
        """Does row `index` start a human turn? None while its parent is not loaded yet."""
        known = self._turns.get(index)
        if known is not None:
            return known
        row = self.rows[index]
        parent = self.parent_of(row.checkpoint)
        if parent is None and row.parent_id and not self.exhausted:
            return None
        answer = self._turns[index] = starts_human_turn(row.checkpoint, parent)
        return answer

    def turn_index(self, start: int, older: bool) -> int | None:
        """The row of the nearest human turn older (or newer) than row `start`; None if
        there is none; NEED_OLDER when older checkpoints must be loaded to know."""
        if older:
            for index in range(start + 1, len(self.rows)):
                found = self.human_turn(index)
                if found is None:
                    return NEED_OLDER
                if found:
                    return index
            return None if self.exhausted else NEED_OLDER
        for index in range(min(start, len(self.rows)) - 1, -1, -1):
            if self.human_turn(index):
                return index
        return None

    def append(self, page: list[ThreadState]) -> list[int]:
        """Add an older page (newest first). Returns the indices of earlier rows whose
        writers are now known (their parent arrived with this page)."""
        fresh = [c for c in page if c.checkpoint_id and c.checkpoint_id not in self.by_id]
        seen: set[str] = set()
        page_ids = []
        for checkpoint in fresh:
            if checkpoint.checkpoint_id in seen:
                continue
            seen.add(checkpoint.checkpoint_id)
            page_ids.append(checkpoint)
        for checkpoint in page_ids:
            if checkpoint.parent_checkpoint_id:
                self.children.setdefault(checkpoint.parent_checkpoint_id, []).append(checkpoint.checkpoint_id)
        start = len(self.rows)
        for checkpoint in page_ids:
            index = len(self.rows)
            self.by_id[checkpoint.checkpoint_id] = index
            self.rows.append(TimelineRow(checkpoint=checkpoint, index=index))
        # Children of the new rows are all loaded (they are newer): finish each new row.
        for row in self.rows[start:]:
            self._finish(row)
        # Earlier rows whose parent arrived learn their writers; rows whose older sibling
        # arrived (a branch point's first child) are now known to be forks.
        updated = []
        for index in range(start):
            row = self.rows[index]
            before = (row.writers, row.fork)
            if row.parent_id in seen:
                row.writers = writers_of(row.checkpoint, self.rows[self.by_id[row.parent_id]].checkpoint)
            self._classify(row)
            if (row.writers, row.fork) != before:
                updated.append(index)
        return updated

    def _finish(self, row: TimelineRow) -> None:
        checkpoint = row.checkpoint
        kids = self.children.get(row.checkpoint_id, [])
        row.children = len(kids)
        self._classify(row)
        parent = self.parent_of(checkpoint)
        row.writers = writers_of(checkpoint, parent)
        row.lanes = self._draw(row)

    def _classify(self, row: TimelineRow) -> None:
        checkpoint = row.checkpoint
        parent_id = row.parent_id
        siblings = self.children.get(parent_id, []) if parent_id else []
        # Siblings are listed newest first; the oldest child is the original line.
        later_child = len(siblings) > 1 and siblings[-1] != row.checkpoint_id
        explicit = (
            checkpoint.source in ("update", "input")
            and bool(parent_id)
            and str(checkpoint.metadata.get("checkpoint_id") or "") == parent_id
        )
        row.fork = later_child or explicit
        # (DeerFlow's Gateway sends no source: a checkpoint about to run __start__ holds a run's input)
        source = checkpoint.source or ("input" if checkpoint.next == [START] else "")
        row.source = "fork" if row.fork else source

    def _draw(self, row: TimelineRow) -> str:
        """git-log-style lanes: ● this checkpoint, │ another open branch, ┘ a branch joining."""
        lanes = self._lanes
        ident = row.checkpoint_id
        waiting = [i for i, want in enumerate(lanes) if want == ident]
        if waiting:
            column = waiting[0]
        else:
            # A new branch head (or the first row): reuse a free lane or open one.
            column = lanes.index(None) if None in lanes else len(lanes)
            if column == len(lanes):
                lanes.append(None)
        joins = set(waiting[1:])
        cells = []
        last = max([column, *joins, *(i for i, want in enumerate(lanes) if want is not None)], default=0)
        for i in range(last + 1):
            if i == column:
                cells.append("◆" if row.branch_point else "●")
            elif i in joins:
                cells.append("┘")
            elif i < len(lanes) and lanes[i] is not None:
                cells.append("│")
            else:
                cells.append(" ")
        # Joining lanes are drawn with a connector from the checkpoint's column.
        text = ""
        for i, cell in enumerate(cells):
            text += cell
            if i < len(cells) - 1:
                joined = any(j > i for j in joins) and i >= column
                text += "─" if joined else " "
        lanes[column] = row.parent_id or None
        for i in joins:
            lanes[i] = None
        while lanes and lanes[-1] is None:
            lanes.pop()
        if len(text) > MAX_LANES * 2 - 1:
            text = text[: MAX_LANES * 2 - 2] + "…"
        return text


def build_rows(checkpoints: list[ThreadState]) -> list[TimelineRow]:
    """Rows for one list of checkpoints (newest first)."""
    model = TimelineModel()
    model.append(checkpoints)
    return model.rows


def _has_message(checkpoint: ThreadState, message_id: str) -> bool:
    raw = checkpoint.values.get(checkpoint.messages_key)
    if isinstance(raw, list):
        return any(isinstance(m, dict) and m.get("id") == message_id for m in raw)
    return any(m.id == message_id for m in checkpoint.messages)


def fork_point_for_message(
    checkpoints: list[ThreadState], message_id: str, head_id: str | None = None
) -> ThreadState | None:
    """For "edit and resend": the checkpoint just before `message_id` was sent, on the head's
    line (or `head_id`'s): the newest ancestor that does not hold it, skipping the input
    checkpoint that holds it as a pending write. Run the edited message from there (a run
    with checkpoint_id=<it> and the new input): the server forks, as make_history.py does.

    Walks parent links through the loaded checkpoints; None when the walk leaves them
    (load older pages and ask again) or the head does not hold the message."""
    by_id = {c.checkpoint_id: c for c in checkpoints}
    current = by_id.get(head_id) if head_id else (checkpoints[0] if checkpoints else None)
    if current is None or not _has_message(current, message_id):
        return None
    while current is not None and _has_message(current, message_id):
        current = by_id.get(current.parent_checkpoint_id) if current.parent_checkpoint_id else None
    if current is not None and current.source == "input" and current.parent_checkpoint_id:
        # An input checkpoint still holds the original message as a pending write: fork
        # from the checkpoint before it (the first message has none: fork from the input).
        current = by_id.get(current.parent_checkpoint_id)
    return current
