"""The thread list (#thread-list): one OptionList row per thread, paged from the server.

An OptionList renders only the rows on screen, so 10,000 threads cost no widgets. When
the user nears the end of what is loaded, the list asks for the next page.

A row is always two lines, cut to the list's width in terminal cells (a CJK character or
an emoji takes two), so a long or wide title never wraps into a third line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from app.models import ThreadSummary
from app.ui.text import clean, one_line, relative_time

PREFETCH_ROWS = 15
DEFAULT_ROW_WIDTH = 35
"""Cells a row may use before the list has been laid out (the sidebar's usual width)."""
BADGES = {
    "idle": ("○ idle", "dim"),
    "busy": ("● busy", "bold $warning"),
    "interrupted": ("? waiting", "bold $accent"),
    "error": ("✗ error", "bold $error"),
    "unknown": ("· ?", "dim"),
}


def thread_row(thread: ThreadSummary, now: datetime, width: int = DEFAULT_ROW_WIDTH, waiting: bool = False) -> Content:
    """Two lines, each at most `width` cells: the title; then the status badge, the
    relative time and metadata tags.

    `waiting` marks a thread whose agent asked a question the user left unanswered (a
    DeerFlow clarification leaves the thread idle, so its status does not say so)."""
    badge, style = BADGES.get("interrupted" if waiting else thread.status, BADGES["unknown"])
    title = one_line(thread.title, 200) if thread.title else thread.thread_id
    tags = " ".join(
        one_line(f"{key}={value}", 24)
        for key, value in thread.metadata.items()
        if key not in ("graph_id", "assistant_id", "created_by") and not key.startswith("_")
    )
    second = Content.assemble(
        (badge, style),
        ("  " + relative_time(thread.updated_at, now), "dim"),
        ("  " + one_line(tags, 200), "dim italic") if tags else "",
    )
    first = Content.styled(title, "bold" if thread.status == "interrupted" else "")
    return Content.assemble(first.truncate(width, ellipsis=True), "\n", second.truncate(width, ellipsis=True))


class ThreadList(OptionList):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    @dataclass
    class NeedMore(Message):
        """The user is near the end of the loaded rows."""

    @dataclass
    class Chosen(Message):
        thread_id: str
        opened: bool
        """True when the user pressed enter (or clicked); False when only highlighted."""

    def __init__(self, clock: Callable[[], datetime] | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.threads: list[ThreadSummary] = []
        self.exhausted = False
        self.waiting: set[str] = set()
        self._built_width: int | None = None
        """The width the rows were cut for."""

    def set_threads(self, threads: Iterable[ThreadSummary], *, exhausted: bool) -> None:
        keep = self.highlighted_thread_id
        self.threads = list(threads)
        self.exhausted = exhausted
        self.clear_options()
        now = self.clock()
        self.add_options(Option(self._row(t, now), id=t.thread_id) for t in self.threads)
        if keep is not None and keep in {t.thread_id for t in self.threads}:
            self.highlighted = self.get_option_index(keep)

    def append_threads(self, threads: Iterable[ThreadSummary], *, exhausted: bool) -> None:
        now = self.clock()
        known = {t.thread_id for t in self.threads}
        fresh = [t for t in threads if t.thread_id not in known]
        self.threads.extend(fresh)
        self.exhausted = exhausted
        self.add_options(Option(self._row(t, now), id=t.thread_id) for t in fresh)

    def update_thread(self, thread: ThreadSummary) -> None:
        """Redraw one row in place (a status or title changed)."""
        for index, held in enumerate(self.threads):
            if held.thread_id == thread.thread_id:
                self.threads[index] = thread
                self.replace_option_prompt(thread.thread_id, self._row(thread, self.clock()))
                return

    def _row(self, thread: ThreadSummary, now: datetime) -> Content:
        self._built_width = width = self._row_width()
        return thread_row(thread, now, width, waiting=thread.thread_id in self.waiting)

    def _row_width(self) -> int:
        """The cells a row may use: the list's width, less its option padding and the
        vertical scrollbar's room (kept whether or not the scrollbar shows yet)."""
        width = self.content_region.width - self._get_left_gutter_width()
        width -= self.get_component_styles("option-list--option").padding.width
        width -= self.styles.scrollbar_size_vertical
        return width if width > 0 else DEFAULT_ROW_WIDTH

    def on_resize(self) -> None:
        """Cut the rows again for the new width (rows are built for the width they have)."""
        if self.threads and self._row_width() != self._built_width:
            now = self.clock()
            for index, thread in enumerate(self.threads):
                self.get_option_at_index(index)._set_prompt(self._row(thread, now))
            self._clear_caches()

    def mark_waiting(self, thread_id: str, waiting: bool) -> None:
        """Show (or stop showing) a thread as waiting for the user's answer."""
        (self.waiting.add if waiting else self.waiting.discard)(thread_id)
        if (thread := self.thread(thread_id)) is not None:
            self.update_thread(thread)

    def remove_thread(self, thread_id: str) -> None:
        for index, held in enumerate(self.threads):
            if held.thread_id == thread_id:
                del self.threads[index]
                self.remove_option(thread_id)
                return

    @property
    def highlighted_thread_id(self) -> str | None:
        if self.highlighted is None or not self.threads:
            return None
        try:
            return self.get_option_at_index(self.highlighted).id
        except Exception:
            return None

    def thread(self, thread_id: str) -> ThreadSummary | None:
        return next((t for t in self.threads if t.thread_id == thread_id), None)

    def _wants_more(self) -> bool:
        return not self.exhausted and bool(self.threads)

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        if highlighted is None:
            return
        if self._wants_more() and highlighted >= self.option_count - PREFETCH_ROWS:
            self.post_message(self.NeedMore())

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if self._wants_more() and new >= self.max_scroll_y - self.size.height:
            self.post_message(self.NeedMore())

    def _on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is self and event.option.id:
            self.post_message(self.Chosen(event.option.id, opened=False))

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list is self and event.option.id:
            self.post_message(self.Chosen(event.option.id, opened=True))
