"""What the thread list draws: a row's text (`thread_row`) and where each row's lines are
(`RowLines`). No Textual widget here, so both are cheap to test on their own.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection
from datetime import datetime
from itertools import accumulate

from textual.content import Content

from ...models import ThreadSummary
from ..text import one_line, relative_time

DEFAULT_ROW_WIDTH = 35
"""Cells a row may use before the list has been laid out (the sidebar's usual width)."""
BADGES = {
    "idle": ("○ idle", "dim"),
    "busy": ("● busy", "bold $warning"),
    "waiting": ("? waiting", "bold $accent"),
    "paused": ("‖ paused", "$accent"),
    "error": ("✗ error", "bold $error"),
    "unknown": ("· ?", "dim"),
}
ROW_LINES = 2
"""A row's lines: the title, then the status, age and tags."""


def thread_row(
    thread: ThreadSummary, now: datetime, width: int = DEFAULT_ROW_WIDTH, waiting: bool = False, found: str = ""
) -> Content:
    """Two lines, each at most `width` cells: the title; then the status badge, the
    relative time and metadata tags; and `found`, the line a text search matched, as a third.

    `waiting` marks a thread whose agent asked a question the user left unanswered (a
    DeerFlow clarification leaves the thread idle, so its status does not say so)."""
    badge, style = BADGES.get("waiting" if waiting else thread.phase, BADGES["unknown"])
    title = one_line(thread.title, 200) if thread.title else thread.thread_id
    tags = " ".join(
        one_line(f"{key}={value}", 24)
        for key, value in thread.metadata.items()
        if key not in ("graph_id", "assistant_id", "created_by") and not key.startswith("_")
    )
    second = Content.assemble(
        (badge, style),
        ("  " + age(thread, now), "dim"),
        ("  " + one_line(tags, 200), "dim italic") if tags else "",
    )
    first = Content.styled(title, "bold" if waiting or thread.phase == "waiting" else "")
    row = Content.assemble(first.truncate(width, ellipsis=True), "\n", second.truncate(width, ellipsis=True))
    if found:
        row = Content.assemble(
            row, "\n", Content.styled("“" + one_line(found, 200), "$text-accent").truncate(width, ellipsis=True)
        )
    return row


def age(thread: ThreadSummary, now: datetime) -> str:
    """The row's age ("38s", "5m"): what changes as time passes."""
    return relative_time(thread.updated_at, now)


class RowLines:
    """Which lines of the list each row takes: rows are two lines, three for those with a
    found line. Without found lines nothing is stored per row (10,000 rows cost nothing)."""

    def __init__(self, threads: list[ThreadSummary], found: Collection[str]) -> None:
        self.rows = len(threads)
        self._starts: list[int] | None = None
        """The first line of each row and, last, the line count; None when all rows are two lines."""
        if found:
            heights = (ROW_LINES + (t.thread_id in found) for t in threads)
            self._starts = [0, *accumulate(heights)]

    @property
    def count(self) -> int:
        """Lines in all."""
        return self._starts[-1] if self._starts is not None else self.rows * ROW_LINES

    def start(self, row: int) -> int:
        return self._starts[row] if self._starts is not None else row * ROW_LINES

    def height(self, row: int) -> int:
        return self.start(row + 1) - self.start(row)

    def row_at(self, line: int) -> int | None:
        """The row drawn on `line`, None below the last row."""
        if not 0 <= line < self.count:
            return None
        if self._starts is None:
            return line // ROW_LINES
        return bisect_right(self._starts, line) - 1
