"""The left pane: the search box (#thread-search), counts and sort, and the thread list."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from app.ui.widgets.safe_input import SafeInput
from app.ui.widgets.thread_list import ThreadList

SORTS = [
    ("updated_at", "desc", "updated ↓"),
    ("updated_at", "asc", "updated ↑"),
    ("created_at", "desc", "created ↓"),
    ("created_at", "asc", "created ↑"),
]


class ThreadSidebar(Vertical):
    def __init__(self, clock=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._clock = clock
        self.sort_index = 0

    def compose(self) -> ComposeResult:
        yield SafeInput(
            placeholder="/ search  status:interrupted  key=value  graph:agent  id:3f2a",
            id="thread-search",
            select_on_focus=False,
        )
        yield Static(id="thread-counts")
        yield ThreadList(clock=self._clock, id="thread-list")

    @property
    def sort(self) -> tuple[str, str, str]:
        return SORTS[self.sort_index]

    def cycle_sort(self) -> None:
        self.sort_index = (self.sort_index + 1) % len(SORTS)

    def show_counts(self, shown: int, total: int | None, note: str = "") -> None:
        """"N of M threads"; "N threads" when the total is not known."""
        last = total if total is not None else shown
        noun = "thread" if last == 1 else "threads"
        counted = f"{shown:,} of {total:,} {noun}" if total is not None else f"{shown:,} {noun}"
        parts: list = [(counted, "bold" if total else "dim")]
        parts.append(("  sort " + self.sort[2], "dim"))
        if note:
            parts.append(("  " + note, "$warning"))
        self.query_one("#thread-counts", Static).update(Content.assemble(*parts))

    def show_note(self, note: str) -> None:
        self.query_one("#thread-counts", Static).update(Content.styled(note, "dim italic"))
