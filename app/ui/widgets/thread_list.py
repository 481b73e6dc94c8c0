"""The thread list (#thread-list): a ScrollView that draws the rows of a ThreadWindow line by
line (Textual's Line API), paged from the server.

Only the lines on screen are drawn, and a row's lines are kept (by row, width and style)
until it changes, so 10,000 threads cost no widget and nothing per row. When the user nears
the end of what is loaded, the list asks for the next page. It holds at most MAX_ROWS rows
(a ThreadWindow): a page added at one end drops rows at the other, and nearing the top of
the window asks for the dropped rows above again.

A row is two lines (three with the line a text search matched), cut to the list's width in
terminal cells (a CJK character or an emoji takes two), so a long or wide title never wraps.

The ages ("38s", "5m") tick: every AGE_SECONDS the rows on screen whose age reads otherwise
now are drawn again (nothing is fetched; the rows off screen wait until they scroll in).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style
from textual.visual import Padding, Visual

from ...models import ThreadSummary
from ...thread_window import Chunk, ThreadWindow
from .thread_rows import DEFAULT_ROW_WIDTH, RowLines, age, thread_row

__all__ = ["AGE_SECONDS", "PREFETCH_ROWS", "ThreadList", "thread_row"]

PREFETCH_ROWS = 15
AGE_SECONDS = 5.0
"""How often the ages of the rows on screen are read again."""
ROW_PADDING = Spacing(0, 1, 0, 1)
"""Inside the row's colour (the highlight spans the padding)."""
DRAWN_ROWS = 256
"""Rows whose drawn lines are kept (a few screens' worth)."""


@dataclass(eq=False)
class DrawnRow:
    """A row's text as cut for a width, and its lines drawn in each style it was shown in."""

    thread: ThreadSummary
    text_width: int
    age: str
    content: Content
    strips: dict[tuple[Style, int], list[Strip]] = field(default_factory=dict)


class ThreadList(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    ThreadList {
        height: 1fr;
        color: $foreground;
        overflow-x: hidden;
        background: $surface;
        & > .thread-list--row-highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .thread-list--row-highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
        & > .thread-list--row-hover {
            background: $block-hover-background;
        }
    }
    """
    COMPONENT_CLASSES = {"thread-list--row-highlighted", "thread-list--row-hover"}
    ALLOW_SELECT = False
    """A drag moves nothing and selects no text (the drawn lines are kept without a selection)."""
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("down", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pageup", "page_up", "Page Up", show=False),
        Binding("pagedown", "page_down", "Page Down", show=False),
        Binding("enter", "select", "Select", show=False),
    ]
    MAX_ROWS = 1000
    """Rows held at most (only the rows drawn keep their lines)."""

    highlighted: reactive[int | None] = reactive(None, repaint=False)
    """The index of the highlighted row (the cursor), None when no row is."""

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
        self._found_lines: dict[str, str] = {}
        self._row_lines = RowLines([], ())
        self._drawn: LRUCache[str, DrawnRow] = LRUCache(DRAWN_ROWS)
        """thread id -> its row as last drawn."""
        self._hover_row: int | None = None
        self._lost: str | None = None
        """The highlighted thread while its row is dropped: highlighted again when it is back."""

    # -- the rows ------------------------------------------------------------------------------

    @property
    def threads(self) -> list[ThreadSummary]:
        """The rows held, top to bottom."""
        return self.window.threads

    @property
    def row_count(self) -> int:
        return len(self.threads)

    @property
    def exhausted(self) -> bool:
        return self.window.exhausted

    @property
    def found_lines(self) -> dict[str, str]:
        """thread id -> the line a text search matched (shown under the row)."""
        return self._found_lines

    @found_lines.setter
    def found_lines(self, found: dict[str, str]) -> None:
        self._found_lines = found
        self._drawn.clear()
        self._rows_changed()

    def set_threads(self, threads: Iterable[ThreadSummary], *, exhausted: bool, end: int | None = None) -> None:
        """The server's first rows, offsets 0 to `end`; without `end`, the same rows
        rearranged by the app (a thread it created put on top)."""
        keep = self.highlighted_thread_id
        known = {t.thread_id: t.title for t in self.threads if t.title}
        threads = [_keep_title(thread, known.get(thread.thread_id, "")) for thread in threads]
        if end is None:
            self.window.replace(threads)
            self.window.exhausted = exhausted
        else:
            self.window.reset(threads, end, exhausted)
        self._lost = None
        self._hover_row = None
        self.highlighted = None
        self._rows_changed()
        self.scroll_y = 0
        self.highlighted = self.index_of(keep)

    def append_threads(self, threads: Iterable[ThreadSummary], *, start: int, end: int, exhausted: bool) -> bool:
        """Add the rows of server offsets `start` to `end` below; False when the rows
        no longer end at `start` (they changed while the page was fetched)."""
        keep, anchor = self.highlighted_thread_id or self._lost, self._anchor()
        change = self.window.append(list(threads), start, end, exhausted)
        if change is None:
            return False
        _, dropped = change
        if dropped:
            self._refill(keep, anchor)
        else:
            self._rows_changed()
        return True

    def prepend_threads(self, threads: Iterable[ThreadSummary], chunk: Chunk) -> bool:
        """Put back above the rows of `chunk` (window.earlier()); False when it is no
        longer the chunk just above (the rows changed while it was fetched)."""
        keep, anchor = self.highlighted_thread_id or self._lost, self._anchor()
        if self.window.prepend(list(threads), chunk) is None:
            return False
        self._refill(keep, anchor)
        return True

    def _anchor(self) -> tuple[str, float] | None:
        """The highlighted row (else the row at the top of the screen), and how far the
        screen's top is below its first line: kept when rows come or go at the ends."""
        index = self.highlighted if self.highlighted is not None else self._top_row()
        if index is None:
            return None
        return self.threads[index].thread_id, self.scroll_y - self._row_lines.start(index)

    def _refill(self, keep: str | None, anchor: tuple[str, float] | None) -> None:
        """After rows came or went at the ends: highlight `keep` again and put `anchor`
        back where it was on screen."""
        self._hover_row = None
        self._rows_changed()
        # The same row stays highlighted: no Chosen (it would open it again), no paging.
        with self.prevent(self.Chosen, self.NeedMore, self.NeedEarlier):
            index = self.index_of(keep)
            self._lost = keep if index is None else None
            self.highlighted = index
            if anchor is not None and (row := self.index_of(anchor[0])) is not None:
                self.scroll_y = self._row_lines.start(row) + anchor[1]

    def update_thread(self, thread: ThreadSummary) -> None:
        """Redraw one row in place (a status or title changed)."""
        index = self.index_of(thread.thread_id)
        if index is not None:
            self.threads[index] = _keep_title(thread, self.threads[index].title)
            self._redraw_row(index)

    def mark_waiting(self, thread_id: str, waiting: bool) -> None:
        """Show (or stop showing) a thread as waiting for the user's answer."""
        (self.waiting.add if waiting else self.waiting.discard)(thread_id)
        if (index := self.index_of(thread_id)) is not None:
            self._redraw_row(index)

    def remove_thread(self, thread_id: str) -> bool:
        """Drop a thread's row; False when the list did not hold it."""
        index, keep = self.index_of(thread_id), self.highlighted_thread_id
        if index is None:
            return False
        self.window.remove(index)
        self._drawn.discard(thread_id)
        self._hover_row = None
        self._rows_changed()
        if keep == thread_id:  # the cursor was on it: the next row takes it (else the one before), and opens
            self.highlighted = None
            self.highlighted = min(index, len(self.threads) - 1) if self.threads else None
        elif (kept := self.index_of(keep)) is not None:
            with self.prevent(self.Chosen):  # the same thread, open already
                self.highlighted = kept
        return True

    def move_thread(self, thread_id: str, index: int) -> None:
        """Move a held row to `index` among the others (its place in the sort changed): the
        cursor stays on the thread it was on, and no thread opens."""
        moved = self.thread(thread_id)
        if moved is None:
            return
        rows = [thread for thread in self.threads if thread.thread_id != thread_id]
        rows.insert(index, moved)
        keep, anchor = self.highlighted_thread_id or self._lost, self._anchor()
        self.window.replace(rows)
        self._refill(keep, anchor)

    def thread(self, thread_id: str) -> ThreadSummary | None:
        index = self.index_of(thread_id)
        return None if index is None else self.threads[index]

    def index_of(self, thread_id: str | None) -> int | None:
        """The row of `thread_id`, None when the list does not hold it."""
        if thread_id:
            for index, thread in enumerate(self.threads):
                if thread.thread_id == thread_id:
                    return index
        return None

    def highlight_thread(self, thread_id: str) -> bool:
        """Move the cursor to `thread_id`'s row (which opens it); False when it is not listed."""
        index = self.index_of(thread_id)
        if index is not None:
            self.highlighted = index
        return index is not None

    @property
    def highlighted_thread_id(self) -> str | None:
        index = self.highlighted
        return self.threads[index].thread_id if index is not None and index < len(self.threads) else None

    def row_region(self, index: int) -> Region:
        """The lines row `index` takes in the whole list (scroll_y is the first on screen)."""
        lines = self._row_lines
        return Region(0, lines.start(index), self.scrollable_content_region.width, lines.height(index))

    def visible_threads(self) -> list[ThreadSummary]:
        """The rows on screen."""
        return [self.threads[index] for index in self._on_screen()]

    @property
    def poll_offset(self) -> int:
        """The server offset to poll statuses from: the chunk of the row at the top of the screen."""
        return self.window.chunk_start(self._top_row() or 0)

    def _top_row(self) -> int | None:
        """The index of the row at the top of the screen."""
        lines = self._row_lines
        return lines.row_at(min(int(self.scroll_y), lines.count - 1))

    def _on_screen(self) -> range:
        """The indexes of the rows on screen."""
        lines, top = self._row_lines, int(self.scroll_y)
        first = lines.row_at(min(top, lines.count - 1))
        if first is None:
            return range(0)
        last = lines.row_at(min(top + self.scrollable_content_region.height, lines.count) - 1)
        return range(first, (first if last is None else last) + 1)

    def _rows_changed(self) -> None:
        """The rows, or their heights, changed: lay the lines out again and draw them."""
        self._row_lines = RowLines(self.threads, self._found_lines)
        self.virtual_size = Size(0, self._row_lines.count)
        self.refresh()

    # -- drawing -------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        line = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        row = self._row_lines.row_at(line)
        if row is None:
            return Strip.blank(width, self.get_visual_style().rich_style)
        return self._row_strips(row, width)[line - self._row_lines.start(row)]

    def _row_strips(self, row: int, width: int) -> list[Strip]:
        thread = self.threads[row]
        text_width = self._text_width()
        drawn = self._drawn.get(thread.thread_id)
        if drawn is None or drawn.thread is not thread or drawn.text_width != text_width:
            now = self.clock()
            waiting, found = thread.thread_id in self.waiting, self._found_lines.get(thread.thread_id, "")
            content = thread_row(thread, now, text_width, waiting=waiting, found=found)
            drawn = DrawnRow(thread, text_width, age(thread, now), content)
            self._drawn[thread.thread_id] = drawn
        style = self._row_style(row)
        strips = drawn.strips.get((style, width))
        if strips is None:
            strips = [
                strip.extend_cell_length(width, style.rich_style)
                for strip in Visual.to_strips(self, Padding(drawn.content, ROW_PADDING), width, None, style)
            ]
            drawn.strips[style, width] = strips
        return strips

    def _row_style(self, row: int) -> Style:
        if row == self.highlighted:
            return self.get_visual_style("thread-list--row-highlighted")
        if row == self._hover_row:
            return self.get_visual_style("thread-list--row-hover")
        return self.get_visual_style()

    def _text_width(self) -> int:
        """The cells a row's text may use: the list's width, less the row's padding and the
        vertical scrollbar's room (kept whether or not the scrollbar shows yet)."""
        width = self.content_region.width - ROW_PADDING.width - self.styles.scrollbar_size_vertical
        return width if width > 0 else DEFAULT_ROW_WIDTH

    def _refresh_row(self, index: int | None) -> None:
        if index is not None and index < self._row_lines.rows:
            self.refresh_lines(self._row_lines.start(index), self._row_lines.height(index))

    def _redraw_row(self, index: int) -> None:
        """Build the row's text again (its thread, or how it shows, changed) and draw it."""
        self._drawn.discard(self.threads[index].thread_id)
        self._refresh_row(index)

    def notify_style_update(self) -> None:
        self._drawn.clear()  # a theme's colours are in the drawn lines
        self.refresh()
        super().notify_style_update()

    def on_mount(self) -> None:
        self.set_interval(AGE_SECONDS, self.refresh_ages)

    def on_show(self) -> None:
        self._scroll_to_row(self.highlighted)

    def refresh_ages(self) -> None:
        """Draw again the rows on screen whose age changed."""
        now = self.clock()
        for index in self._on_screen():
            thread = self.threads[index]
            drawn = self._drawn.get(thread.thread_id)
            if drawn is not None and drawn.age != age(thread, now):
                self._redraw_row(index)

    # -- the cursor and paging -----------------------------------------------------------------

    def validate_highlighted(self, highlighted: int | None) -> int | None:
        if highlighted is None or not self.threads:
            return None
        return min(max(highlighted, 0), len(self.threads) - 1)

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        if new is None:
            return
        self._scroll_to_row(new)
        self.post_message(self.Chosen(self.threads[new].thread_id, opened=False))
        if self._wants_more() and new >= len(self.threads) - PREFETCH_ROWS:
            self.post_message(self.NeedMore())
        if self._wants_earlier() and new < PREFETCH_ROWS:
            self.post_message(self.NeedEarlier())

    def _scroll_to_row(self, index: int | None) -> None:
        if index is None or not self.is_mounted or index >= self._row_lines.rows:
            return
        self.scroll_to_region(self.row_region(index), force=True, animate=False, immediate=True)

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        # Only towards an edge: in a window a few screens tall, both edges are near.
        if new > old and self._wants_more() and new >= self.max_scroll_y - self.size.height:
            self.post_message(self.NeedMore())
        if new < old and self._wants_earlier() and new <= self.size.height:
            self.post_message(self.NeedEarlier())

    def _wants_more(self) -> bool:
        return not self.exhausted and bool(self.threads)

    def _wants_earlier(self) -> bool:
        return not self.window.at_top

    def action_cursor_up(self) -> None:
        rows, index = len(self.threads), self.highlighted
        if index == 0 and self._wants_earlier():
            self.post_message(self.NeedEarlier())  # rows above are coming: no wrapping to the last
        elif rows:
            self.highlighted = rows - 1 if index is None else (index - 1) % rows

    def action_cursor_down(self) -> None:
        rows, index = len(self.threads), self.highlighted
        if index == rows - 1 and self._wants_more():
            self.post_message(self.NeedMore())  # rows below are coming: no wrapping to the first
        elif rows:
            self.highlighted = 0 if index is None else (index + 1) % rows

    def action_first(self) -> None:
        if self._wants_earlier():
            self.post_message(self.NeedFirst())
        else:
            self.highlighted = 0

    def action_last(self) -> None:
        self.highlighted = len(self.threads) - 1

    def action_page_up(self) -> None:
        self._move_page(-1)

    def action_page_down(self) -> None:
        self._move_page(1)

    def _move_page(self, direction: int) -> None:
        """Move the cursor a screen's height of lines up or down (to the first or last row
        when there is no cursor)."""
        if self.highlighted is None:
            self.highlighted = 0 if direction < 0 else len(self.threads) - 1
            return
        lines = self._row_lines
        line = lines.start(self.highlighted) + direction * self.scrollable_content_region.height
        self.highlighted = lines.row_at(min(max(line, 0), lines.count - 1))

    def action_select(self) -> None:
        if (thread_id := self.highlighted_thread_id) is not None:
            self.post_message(self.Chosen(thread_id, opened=True))

    # -- the mouse -----------------------------------------------------------------------------

    def _row_under(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None or offset.x >= self.scrollable_content_region.width:
            return None
        return self._row_lines.row_at(offset.y + self.scroll_offset.y)

    def on_click(self, event: events.Click) -> None:
        if (row := self._row_under(event)) is not None:
            self.highlighted = row
            self.action_select()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover(self._row_under(event))

    def on_leave(self) -> None:
        self._hover(None)

    def _hover(self, row: int | None) -> None:
        if row != self._hover_row:
            self._refresh_row(self._hover_row)
            self._hover_row = row
            self._refresh_row(row)


def _keep_title(thread: ThreadSummary, known: str) -> ThreadSummary:
    """`thread` as the server lists it, keeping the title the app knows when the server gives
    none: a fresh copy's row has no values on the server yet, so no title to list."""
    if not thread.title and known:
        thread.title = known
    return thread
