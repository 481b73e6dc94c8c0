"""The thread list (#thread-list): one OptionList row per thread, paged from the server.

An OptionList renders only the rows on screen, so 10,000 threads cost no widgets. When
the user nears the end of what is loaded, the list asks for the next page. It holds at
most MAX_ROWS rows (a ThreadWindow): a page added at one end drops rows at the other, and
nearing the top of the window asks for the dropped rows above again.

A row is always two lines, cut to the list's width in terminal cells (a CJK character or
an emoji takes two), so a long or wide title never wraps into a third line.

The ages ("38s", "5m") tick: every AGE_SECONDS the rows on screen whose age reads otherwise
now are drawn again (nothing is fetched; the rows off screen wait until they scroll in).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from ...models import ThreadSummary
from ...thread_window import Chunk, ThreadWindow
from ..text import one_line, relative_time

PREFETCH_ROWS = 15
AGE_SECONDS = 5.0
"""How often the ages of the rows on screen are read again."""
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
        ("  " + relative_time(thread.updated_at, now), "dim"),
        ("  " + one_line(tags, 200), "dim italic") if tags else "",
    )
    first = Content.styled(title, "bold" if waiting or thread.phase == "waiting" else "")
    row = Content.assemble(first.truncate(width, ellipsis=True), "\n", second.truncate(width, ellipsis=True))
    if found:
        row = Content.assemble(
            row, "\n", Content.styled("“" + one_line(found, 200), "$text-accent").truncate(width, ellipsis=True)
        )
    return row


class ThreadList(OptionList):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]
    MAX_ROWS = 1000
    """Rows held at most (about 5 KB each with their prompt and line caches)."""

    @dataclass
    class NeedMore(Message):
        """The user is near the end of the loaded rows."""

    @dataclass
    class NeedEarlier(Message):
        """The user is near the top of the rows, and rows above them were dropped."""

    @dataclass
    class NeedFirst(Message):
        """The user asked for the first row (home), which was dropped."""

    @dataclass
    class Chosen(Message):
        thread_id: str
        opened: bool
        """True when the user pressed enter (or clicked); False when only highlighted."""

    def __init__(self, clock: Callable[[], datetime] | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.window = ThreadWindow(self.MAX_ROWS)
        self.waiting: set[str] = set()
        self.found_lines: dict[str, str] = {}
        """thread id -> the line a text search matched (shown under the row)."""
        self._lost: str | None = None
        """The highlighted thread while its row is dropped: highlighted again when it is back."""
        self._built_width: int | None = None
        """The width the rows were cut for."""

    @property
    def threads(self) -> list[ThreadSummary]:
        """The rows held, as the options show them."""
        return self.window.threads

    @property
    def exhausted(self) -> bool:
        return self.window.exhausted

    def set_threads(self, threads: Iterable[ThreadSummary], *, exhausted: bool, end: int | None = None) -> None:
        """The server's first rows, offsets 0 to `end`; without `end`, the same rows
        rearranged by the app (a thread it created put on top)."""
        keep = self.highlighted_thread_id
        known = {t.thread_id: t.title for t in self.threads if t.title}
        threads = [_keep_title(thread, known.get(thread.thread_id, "")) for thread in threads]
        if end is None:
            self.window.replace(list(threads))
            self.window.exhausted = exhausted
        else:
            self.window.reset(list(threads), end, exhausted)
        self._lost = None
        self.clear_options()
        now = self.clock()
        self.add_options(Option(self._row(t, now), id=t.thread_id) for t in self.threads)
        if keep is not None and keep in {t.thread_id for t in self.threads}:
            self.highlighted = self.get_option_index(keep)

    def append_threads(self, threads: Iterable[ThreadSummary], *, start: int, end: int, exhausted: bool) -> bool:
        """Add the rows of server offsets `start` to `end` below; False when the rows
        no longer end at `start` (they changed while the page was fetched)."""
        change = self.window.append(list(threads), start, end, exhausted)
        if change is None:
            return False
        fresh, dropped = change
        if dropped:
            self._refill()
        else:
            now = self.clock()
            self.add_options(Option(self._row(t, now), id=t.thread_id) for t in fresh)
        return True

    def prepend_threads(self, threads: Iterable[ThreadSummary], chunk: Chunk) -> bool:
        """Put back above the rows of `chunk` (window.earlier()); False when it is no
        longer the chunk just above (the rows changed while it was fetched)."""
        if self.window.prepend(list(threads), chunk) is None:
            return False
        self._refill()
        return True

    def _refill(self) -> None:
        """Rebuild the options from `threads` after rows came or went at the ends, keeping
        the highlighted row (else the row at the top of the screen) where it was."""
        keep = self.highlighted_thread_id or self._lost
        index = self.highlighted if self.highlighted is not None else self._top_row()
        line = None if index is None else self._index_to_line.get(index)
        anchor = None if index is None or line is None else self.get_option_at_index(index).id
        offset = 0.0 if line is None else self.scroll_y - line
        now = self.clock()
        held = self._id_to_option
        options = [held.get(t.thread_id) or Option(self._row(t, now), id=t.thread_id) for t in self.threads]
        # The same row stays highlighted: no Chosen (it would open it again), no paging.
        with self.prevent(OptionList.OptionHighlighted, self.NeedMore, self.NeedEarlier):
            self.set_options(options)
            index = self._index(keep)
            self._lost = keep if index is None else None
            self.highlighted = index
            anchor_index = self._index(anchor)
            if anchor_index is not None and (line := self._index_to_line.get(anchor_index)) is not None:
                self.scroll_y = line + offset

    def on_mount(self) -> None:
        self.set_interval(AGE_SECONDS, self.refresh_ages)

    def refresh_ages(self) -> None:
        """Draw again the rows on screen whose age changed (a row is two lines or more)."""
        now = self.clock()
        for index in self._on_screen():
            row = self._row(self.threads[index], now)
            prompt = self.get_option_at_index(index).prompt
            if not isinstance(prompt, Content) or prompt.plain != row.plain:
                self.replace_option_prompt_at_index(index, row)

    def _index(self, thread_id: str | None) -> int | None:
        try:
            return self.get_option_index(thread_id) if thread_id else None
        except OptionDoesNotExist:
            return None

    def update_thread(self, thread: ThreadSummary) -> None:
        """Redraw one row in place (a status or title changed)."""
        for index, held in enumerate(self.threads):
            if held.thread_id == thread.thread_id:
                self.threads[index] = thread = _keep_title(thread, held.title)
                self.replace_option_prompt(thread.thread_id, self._row(thread, self.clock()))
                return

    def _row(self, thread: ThreadSummary, now: datetime) -> Content:
        self._built_width = width = self._row_width()
        found = self.found_lines.get(thread.thread_id, "")
        return thread_row(thread, now, width, waiting=thread.thread_id in self.waiting, found=found)

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

    def remove_thread(self, thread_id: str) -> bool:
        """Drop a thread's row; False when the list did not hold it."""
        for index, held in enumerate(self.threads):
            if held.thread_id == thread_id:
                self.window.remove(index)
                self.remove_option(thread_id)
                return True
        return False

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

    def _top_row(self) -> int | None:
        """The index of the row at the top of the screen."""
        lines = self._lines if self.option_count else []
        return lines[min(int(self.scroll_y), len(lines) - 1)][0] if lines else None

    def _on_screen(self) -> range:
        """The indexes of the rows on screen (a row is two lines or more)."""
        top = self._top_row()
        return range(0) if top is None else range(top, min(len(self.threads), top + self.size.height // 2 + 1))

    def visible_threads(self) -> list[ThreadSummary]:
        """The rows on screen."""
        return [self.threads[index] for index in self._on_screen()]

    @property
    def poll_offset(self) -> int:
        """The server offset to poll statuses from: the chunk of the row at the top of the screen."""
        return self.window.chunk_start(self._top_row() or 0)

    def _wants_more(self) -> bool:
        return not self.exhausted and bool(self.threads)

    def _wants_earlier(self) -> bool:
        return not self.window.at_top

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        if highlighted is None:
            return
        if self._wants_more() and highlighted >= self.option_count - PREFETCH_ROWS:
            self.post_message(self.NeedMore())
        if self._wants_earlier() and highlighted < PREFETCH_ROWS:
            self.post_message(self.NeedEarlier())

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        # Only towards an edge: in a window a few screens tall, both edges are near.
        if new > old and self._wants_more() and new >= self.max_scroll_y - self.size.height:
            self.post_message(self.NeedMore())
        if new < old and self._wants_earlier() and new <= self.size.height:
            self.post_message(self.NeedEarlier())

    def action_cursor_up(self) -> None:
        if self.highlighted == 0 and self._wants_earlier():
            self.post_message(self.NeedEarlier())  # rows above are coming: no wrapping to the last
        else:
            super().action_cursor_up()

    def action_cursor_down(self) -> None:
        if self.highlighted == self.option_count - 1 and self._wants_more():
            self.post_message(self.NeedMore())  # rows below are coming: no wrapping to the first
        else:
            super().action_cursor_down()

    def action_first(self) -> None:
        if self._wants_earlier():
            self.post_message(self.NeedFirst())
        else:
            super().action_first()

    def _on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is self and event.option.id:
            self.post_message(self.Chosen(event.option.id, opened=False))

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list is self and event.option.id:
            self.post_message(self.Chosen(event.option.id, opened=True))


def _keep_title(thread: ThreadSummary, known: str) -> ThreadSummary:
    """`thread` as the server lists it, keeping the title the app knows when the server gives
    none: a fresh copy's row has no values on the server yet, so no title to list."""
    if not thread.title and known:
        thread.title = known
    return thread
