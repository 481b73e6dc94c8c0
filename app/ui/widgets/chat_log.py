"""The conversation (#chat-log): one view that draws the visible lines of the whole thread.

Every message is an entry (chat_entries.py) drawn into lines for the view's width, theme and
open folds, once, and kept (at most LINE_BUDGET lines, the least recently drawn let go);
while a reply streams only its last Markdown block is drawn again. Entries start with a
height guessed from their text; those in and near the view are drawn (and so measured)
before a frame, and where one above the view's first line turns out taller or shorter, the
view scrolls by as much, so nothing in view moves. The line at the view's top is found
through the entries' running heights (a bisection). A frame renders the lines it shows,
through an LRU of rendered strips: scrolling lays out nothing.

Lines that take a key: a fold's title (a tool call, a tool's result, reasoning) and a line
with a link; tab and shift+tab move the cursor between them, enter (or a click) opens a fold
or a link. ctrl+f finds words in the thread (find()); n and N go to the next and previous.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle

from ...models import ChatMessage, ToolCallChunk
from .chat_entries import NO_GUTTER, ChatLine, Entry, MessageEntry, Notice
from .chat_finding import FindsInThread
from .chat_selecting import LINE_EDGE, SelectsInThread, text_span
from .chat_streaming import StreamsIntoChat
from .drawn_lines import Look
from .markdown_drawing import MARKDOWN_COMPONENTS, markdown_css
from .running_heights import RunningHeights

LINE_BUDGET = 1_000
"""Drawn lines kept for entries out of view (their heights are kept whatever happens)."""
STRIPS = 300
"""Rendered lines kept."""
REPEAT_SECONDS = 0.15
"""pageup or pagedown again within this long is a held key..."""
MAX_PAGES = 8
"""...which scrolls a page more every ten repeats, up to this many a step."""


class ChatLog(StreamsIntoChat, FindsInThread, SelectsInThread, ScrollView, can_focus=True):
    COMPONENT_CLASSES = MARKDOWN_COMPONENTS | set(
        "human system edge-human edge-ai edge-other edge-error notice notice-error notice-answer"
        " fold fold-cursor tool-text match match-current banner".split()
    )
    DEFAULT_CSS = """
    ChatLog {
        scrollbar-gutter: stable;  /* the lines are drawn for the width left of the scrollbar */
        text-wrap: nowrap;
        text-overflow: clip;
        & > .human { background: $boost; }
        & > .system { color: $text-muted; }
        & > .edge-human { color: $accent; }
        & > .edge-ai { color: $success; }
        & > .edge-other { color: $panel-lighten-2; }
        & > .edge-error { color: $error; }
        & > .notice { color: $text-muted; }
        & > .notice-error { color: $error; }
        & > .notice-answer { color: $text; }
        & > .fold {
            text-style: $block-cursor-blurred-text-style;
            color: $block-cursor-blurred-foreground;
        }
        & > .fold-cursor {
            text-style: $block-cursor-text-style;
            background: $block-cursor-background;
            color: $block-cursor-foreground;
        }
        & > .tool-text { color: $text-muted; }
        & > .match { background: $warning 30%; }
        & > .match-current { background: $warning; color: $background; text-style: bold; }
        & > .banner { background: $surface; }
    }
    """ + markdown_css("ChatLog")
    BINDINGS = [
        Binding("h", "toggle_hidden", "Hidden msgs"),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "End", show=False),
        Binding("tab", "move_cursor(1)", "Next fold or link", show=False),
        Binding("shift+tab", "move_cursor(-1)", "Previous fold or link", show=False),
        Binding("enter", "activate", "Open", show=False),
        Binding("ctrl+f", "find", "Find", tooltip="Find words in this thread"),
        Binding("n", "find_next(1)", "Next match", show=False),
        Binding("N", "find_next(-1)", "Previous match", show=False),
    ]

    def __init__(self, *, inset: int = 0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.inset = inset
        """Blank cells drawn at the left of each row, as part of its line: the view's left padding
        (a drag from the padding Textual draws starts on the view's row, not the thread's line)."""
        self.entries: list[Entry] = []
        self._rows = RunningHeights()  # each entry's height, with its margin
        self._drawn: OrderedDict[int, tuple[tuple, list[ChatLine], Entry]] = OrderedDict()  # id(entry) ->
        self._drawn_lines = 0
        self._wide = 0  # the widest code line drawn (the view scrolls sideways that far)
        self._strips: LRUCache[tuple, Strip] = LRUCache(STRIPS)  # a line's text rendered
        self._edges: dict[int, Strip] = {}  # id(gutter) -> the inset and it (a handful: chat_entries.gutter_of)
        self._named: dict[str, VisualStyle] = {}  # the styles the lines name (".fold-cursor"), for the theme
        self._link_style = RichStyle()
        self._width = 0
        self._look = Look()
        self.opened: set[str] = set()
        self.show_hidden = False
        self.cursor: str | None = None  # the target of the line the cursor is on
        self.banner: Content | None = None
        self._banner_drawn: tuple[tuple[Content | None, int], list[ChatLine]] = ((None, 0), [])
        self._following = True
        self._settling = False
        self._frame_top = 0  # _top_rows as the frame being drawn began
        self._blank = 0  # blank rows above the first line: a short thread at the view's bottom
        self._ids: set[str] = set()
        self._streaming: dict[str, MessageEntry] = {}
        self._tool_chunks: dict[str, dict[int, ToolCallChunk]] = {}
        self._echo: ChatMessage | None = None
        """The message being sent, shown before the server has stored it (add_echo)."""
        self._last_page = (0.0, 0)  # when the last page key came, and how many came in a row
        self._held: int | None = None  # while a batch of events is applied: the first entry it changed

    # -- what the chat holds --------------------------------------------------------------------

    @property
    def messages(self) -> list[ChatMessage]:
        return [entry.message for entry in self.entries if isinstance(entry, MessageEntry)]

    @property
    def shows_welcome(self) -> bool:
        return any(entry.key == "welcome" for entry in self.entries)

    def text(self) -> str:
        """What every entry says (its source: a reply's Markdown), one after the other."""
        return "\n".join(entry.source for entry in self.entries if self.shown(entry))

    def _reset(self, entries: list[Entry]) -> None:
        self.entries = entries
        self._guess_all()
        self._drawn.clear()
        self._drawn_lines = self._wide = 0
        self._strips.clear()
        self._ids = {entry.key for entry in entries if isinstance(entry, MessageEntry) and entry.message.id}

    async def show_messages(self, messages: list[ChatMessage], *, notice: Content | str | None = None) -> None:
        """Show `messages` instead, from the newest; `notice` pinned above them (a past view)."""
        self._streaming.clear()
        self._tool_chunks.clear()
        self._echo = None
        self.banner = Content(notice) if isinstance(notice, str) else notice
        self._reset([MessageEntry(message) for message in messages])
        self._following = True
        self._find_again()
        self._changed()

    async def show_welcome(self, text: Content) -> None:
        """What a newcomer sees on a server with no thread yet (goes with the first message)."""
        self._remove(lambda entry: entry.key == "welcome")
        self._append(Notice("welcome", text))

    async def add_notice(self, text: Content | str, classes: str = "chat-notice") -> None:
        kind = "error" if "-error" in classes else "answer" if "-answer" in classes else ""
        content = text if isinstance(text, Content) else Content(text)
        self._append(Notice(f"notice-{time.monotonic_ns()}", content, kind))

    def _append(self, entry: Entry) -> None:
        self.entries.append(entry)
        self._rows.append()
        self._guess(len(self.entries) - 1)
        self._changed(len(self.entries) - 1)

    def _remove(self, gone: Callable[[Entry], bool]) -> None:
        kept = [not gone(entry) for entry in self.entries]
        if not all(kept):
            self.entries = [entry for entry, keep in zip(self.entries, kept, strict=True) if keep]
            self._rows.keep(kept)
            self._changed()

    # -- heights ----------------------------------------------------------------------------------

    def shown(self, entry: Entry) -> bool:
        return self.show_hidden or not entry.hidden

    def _guess_all(self) -> None:
        width = self._width or 80
        hidden = [not self.shown(entry) for entry in self.entries]
        guesses = [0 if gone else entry.estimate(width) for entry, gone in zip(self.entries, hidden, strict=True)]
        self._rows.reset(guesses, hidden)

    def _guess(self, index: int) -> None:
        entry = self.entries[index]
        shown = self.shown(entry)
        self._rows.set(index, entry.estimate(self._width or 80) if shown else 0, known=not shown)

    def _changed(self, index: int = 0) -> None:
        """Entry `index` changed (or those after it moved): it is measured again, the running
        heights from it counted again, and the view drawn."""
        if index < len(self.entries):
            self._rows.known[index] = False
        self._rows.moved(index)
        if self._held is not None:  # (a batch of events: drawn once at its end)
            self._held = min(self._held, index)
            return
        self._settle()
        self.refresh()

    def _measure(self, index: int) -> int:
        """Draw entry `index` (if it is not drawn yet); its height changed by how much."""
        entry = self.entries[index]
        return self._rows.set(index, entry.margin + len(self.lines_of(index)) if self.shown(entry) else 0, known=True)

    def lines_of(self, index: int) -> list[ChatLine]:
        """Entry `index` drawn for the view (cached)."""
        entry = self.entries[index]
        folds = frozenset(key for key in entry.folds() if key in self.opened) if self.opened else frozenset()
        signature = (self._width, self._look, folds, entry.version, entry.key)
        held = self._drawn.get(id(entry))
        if held is not None and held[0] == signature:
            self._drawn.move_to_end(id(entry))
            return held[1]
        if held is not None:
            self._drawn_lines -= len(held[1])
        lines = entry.lines(max(4, self._width), self._look, folds)
        for line in lines:
            if line.wide:
                self._wide = max(self._wide, line.gutter.cell_length + line.content.cell_length)
        self._drawn[id(entry)] = (signature, lines, entry)
        self._drawn_lines += len(lines)
        while self._drawn_lines > LINE_BUDGET and len(self._drawn) > 1:
            _, (_, dropped, owner) = self._drawn.popitem(last=False)
            self._drawn_lines -= len(dropped)
            owner.forget()
        return lines

    @property
    def _view_width(self) -> int:
        """The width lines are drawn for: left of the vertical scrollbar, whose room is kept
        whether it shows or not (the stable gutter), so a thread that grows past the view's
        height is not drawn again narrower."""
        return self.scrollable_content_region.width - self.inset

    @property
    def _banner_rows(self) -> int:
        return len(self._banner_lines())

    def _banner_lines(self) -> list[ChatLine]:
        """The past view's notice, wrapped to the view (drawn above the scrolled lines)."""
        (banner, width), lines = self._banner_drawn
        if banner is not self.banner or width != max(1, self._width):
            width = max(1, self._width)
            wrapped = self.banner.wrap(width) if self.banner is not None else []
            self._banner_drawn = ((self.banner, width), [ChatLine(line, NO_GUTTER) for line in wrapped])
        return self._banner_drawn[1]

    @property
    def _top_rows(self) -> int:
        """Rows of the view, scrolled to its top, above the first line: the banner, then the
        blank rows of a thread shorter than the view (_update_size)."""
        return self._banner_rows + self._blank

    @property
    def _first_line(self) -> int:
        """The line at the view's top (under the banner)."""
        return round(self.scroll_y) - self._blank

    def _settle(self) -> None:
        """Draw the entries in and near the view; where one above the view's top changed
        height, scroll by as much, so that nothing in view moves (or, following the end,
        stay at the end)."""
        self._sync_width()
        if self._settling or not self.entries or not self.size.height:
            self._update_size()
            return
        self._settling = True
        try:
            height = self.size.height
            if self._following:  # the newest entries that fill two heights of the view
                covered, index = 0, len(self.entries) - 1
                while index >= 0 and covered < 2 * height:
                    if not self._rows.known[index]:
                        self._measure(index)
                    covered += self._rows.heights[index]
                    index -= 1
                self._update_size()
                self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True, force=True)
                return
            top = self._first_line
            anchor = self._rows.at(top)
            offset = top - self._rows.tops[anchor]
            index = anchor
            y, end = self._rows.tops[index], top + height
            while index < len(self.entries) and y < end:
                if not self._rows.known[index]:
                    self._measure(index)
                y += self._rows.heights[index]
                index += 1
            self._update_size()
            wanted = self._rows.tops[anchor] + min(offset, max(0, self._rows.heights[anchor] - 1)) + self._blank
            if wanted != round(self.scroll_y):
                self.scroll_to(y=wanted, animate=False, immediate=True, force=True)
        finally:
            self._settling = False

    def _update_size(self) -> None:
        """Size the scrolled space: the banner, the lines, and above them the blank rows that
        put a thread shorter than the view at its bottom, as a chat is read.

        The blank rows are drawn, not scrolled: a short thread's space is no taller than its
        lines, so a view a row shorter (the run status grew) shows no scrollbar for a frame.
        A new size set the usual way lays the whole screen out (the scrollbars may come or
        go). While the space stays as wide and on the same side of the view's height, as when
        a reply grows, it is set without one and only the scrollbar is told: a layout of every
        widget for each token batch was most of a streaming frame."""
        total, room = self._rows.total, max(1, self.size.height - self._banner_rows)
        blank = max(0, room - total)
        if blank != self._blank:
            self._blank = blank
            self.refresh()  # (the lines move down or up the view)
        width = self._wide + self.inset if self._wide > self._width else 0  # (sideways: code wider than the view)
        size = Size(width, total + self._banner_rows)
        old, view = self.virtual_size, self.size.height
        if size == old:
            return
        if size.width == old.width and (size.height > view) == (old.height > view):
            self.set_reactive(ChatLog.virtual_size, size)
            self.vertical_scrollbar.window_virtual_size = size.height
        else:
            self.virtual_size = size

    def on_resize(self, event: events.Resize) -> None:
        self._settle()

    def _sync_width(self) -> None:
        """Lines are drawn for the view's width: a new width draws them again (and guesses
        the heights of those out of view again)."""
        width = self._view_width
        if width != self._width:
            self._width = width
            self._strips.clear()
            self._guess_all()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._edges.clear()
        self._named.clear()
        self._link_style = self.link_style
        look = Look(light=not self.app.current_theme.dark, ansi=self.app.native_ansi_color)
        self._strips.clear()
        if look != self._look:
            self._look = look
            self._changed()

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if not self._settling:
            self._following = new >= self.max_scroll_y
            self._settle()

    def watch_show_horizontal_scrollbar(self, shown: bool) -> None:
        """The sideways scrollbar came (a code line wider than the view) or went: the view is
        a row shorter or taller, and a view that follows the end stays at it (no resize says so)."""
        if self._following:
            self._settle()

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """The scrollbar came after the view was scrolled (a thread opened at its end): its
        thumb is put where the view is."""
        if shown:
            self.vertical_scrollbar.position = self.scroll_y

    # -- drawing ----------------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        if self._view_width != self._width:  # (resized, and no resize event yet)
            self._settle()
        self._frame_top = self._top_rows
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        banner = self._banner_lines()
        if y < len(banner):  # (a drag from it starts at the first line under it)
            strip = self._line_strip(banner[y], -1, self._width, ".banner")
            return strip.apply_offsets(LINE_EDGE, max(0, self._first_line))
        line_no = round(self.scroll_y) + y - self._frame_top
        found = self.line_at(line_no)
        if found is None:  # (a margin, or the blank rows above a short thread: the first line's edge)
            blank = Strip.join([self._edge(NO_GUTTER), Strip.blank(self._width, self.visual_style.rich_style)])
            return blank.apply_offsets(LINE_EDGE, max(0, line_no))
        return self._line_strip(found[1], line_no, self._width)

    def line_at(self, line_no: int) -> tuple[int, ChatLine] | None:
        """The entry and the drawn line at content line `line_no` (None: a margin, or none)."""
        if not self.entries or line_no < 0:
            return None
        index = self._rows.at(line_no)
        entry = self.entries[index]
        row = line_no - self._rows.tops[index] - entry.margin
        if row < 0 or not self.shown(entry):
            return None
        lines = self.lines_of(index)
        if row >= len(lines):
            return None
        return index, lines[row]

    def _line_strip(self, line: ChatLine, line_no: int, width: int, fill: str = "") -> Strip:
        """A line rendered: the inset, its gutter, then its text, each cell marked with where it
        is in the thread, for a selection (the inset and the gutter: LINE_EDGE). Kept by the line
        and where it is: as a reply streams, the lines above it only move up the view."""
        scroll_x = round(self.scroll_x) if line.wide else 0
        selection = self.text_selection
        span = selection.get_span(line_no) if selection is not None and line_no >= 0 else None
        marks = self._marks(line, line_no) if self._query else ()
        cursor = line.target is not None and line.target == self.cursor and self.has_focus
        key = (line, line_no, width, scroll_x, cursor, marks)
        if span is None and (kept := self._strips.get(key)) is not None:
            return kept
        content = line.content.stylize(".fold-cursor", 0, len(line.content)) if cursor else line.content
        for start, end, current in marks:
            content = content.stylize(".match-current" if current else ".match", start, end)
        if span is not None:  # (by character, as the screen counts a selection's offsets)
            lit = VisualStyle.from_styles(self.screen.get_component_styles("screen--selection"))
            content = content.expand_tabs(8).stylize(lit, *text_span(span))
        fill = fill or line.fill
        base = self.get_visual_style(fill.lstrip(".")) if fill else self.visual_style  # (over the view's own)
        room = max(0, width - line.gutter.cell_length)
        text = self._strip_of(content, base).crop_extend(scroll_x, scroll_x + room, base.rich_style)
        edge = self._edge(line.gutter)
        if line_no >= 0:
            text, edge = text.apply_offsets(scroll_x, line_no), edge.apply_offsets(LINE_EDGE, line_no)
        strip = Strip.join([edge, text]).crop(0, self.inset + width)
        if span is None:
            self._strips[key] = strip
        return strip

    def _edge(self, gutter: Content) -> Strip:
        """The inset, then `gutter` (kept by the object: Content compares by its text alone)."""
        edge = self._edges.get(id(gutter))
        if edge is None:
            inset = Strip.blank(self.inset, self.visual_style.rich_style) if self.inset else Strip([])
            edge = self._edges[id(gutter)] = Strip.join([inset, self._strip_of(gutter, self.visual_style)])
        return edge

    def _strip_of(self, content: Content, style: VisualStyle) -> Strip:
        """`content` as one line over `style`: what Visual.to_strips gives a line that is not
        wrapped, at a third of its cost (a streaming frame draws a dozen new lines)."""
        if not content:
            return Strip([])
        if "\t" in content.plain:
            content = content.expand_tabs(8)
        segments = []
        for text, text_style in content.render(style, "", self._style_named):
            rich = text_style.rich_style
            if rich.meta.get("@click"):  # (a link: drawn as Textual draws one)
                rich += self._link_style
            segments.append(Segment(text, rich))
        return Strip(segments, content.cell_length)

    def _style_named(self, name: str | VisualStyle) -> VisualStyle:
        if isinstance(name, VisualStyle):
            return name
        style = self._named.get(name)
        if style is None:
            style = self.get_visual_style(name[1:], partial=True) if name.startswith(".") else VisualStyle.parse(name)
            self._named[name] = style
        return style

    # -- keys and the mouse -----------------------------------------------------------------------

    def scroll_to(self, x: float | None = None, y: float | None = None, *, animate: bool = True, **kwargs: Any) -> None:
        """Never animated: each step of an animation settles the view, whose own scroll (at the end,
        following it) stopped the animation, and Textual's animator failed removing it (KeyError)."""
        super().scroll_to(x, y, animate=False, **kwargs)

    def action_scroll_home(self) -> None:
        self._following = False
        self.scroll_to(y=self._blank, animate=False, immediate=True, force=True)

    def action_scroll_end(self) -> None:
        self._following = True
        self._settle()
        self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True, force=True)

    def action_page_up(self) -> None:
        self.scroll_to(y=max(self._blank, self.scroll_y - self._page()), animate=False, immediate=True, force=True)

    def action_page_down(self) -> None:
        self.scroll_to(y=self.scroll_y + self._page(), animate=False, immediate=True, force=True)

    def _page(self) -> int:
        """A page: the view's height; more while the key is held (it comes again at once)."""
        now = time.monotonic()
        last, repeats = self._last_page
        repeats = repeats + 1 if now - last < REPEAT_SECONDS else 0
        self._last_page = (now, repeats)
        return max(1, self.size.height - self._banner_rows - 1) * min(MAX_PAGES, 1 + repeats // 10)

    def action_toggle_hidden(self) -> None:
        self.show_hidden = not self.show_hidden
        for index in range(len(self.entries)):
            if self.entries[index].hidden:
                self._guess(index)
        self._changed()
        self.notify("Showing hidden messages" if self.show_hidden else "Hiding hidden messages", timeout=2)

    def _targets(self, start: int, step: int):
        """(line number, target) of the lines that take a key, from content line `start` on."""
        index = self._rows.at(max(0, start))
        while 0 <= index < len(self.entries):
            if self.shown(self.entries[index]):
                lines = self.lines_of(index)
                top = self._rows.tops[index] + self.entries[index].margin
                rows = range(len(lines)) if step > 0 else range(len(lines) - 1, -1, -1)
                for row in rows:
                    if lines[row].target is not None and (top + row - start) * step > 0:
                        yield top + row, lines[row].target
            index += step

    def action_move_cursor(self, step: int) -> None:
        """tab / shift+tab: the cursor to the next or previous fold or link (from the view's
        edge when it is not in view); past the last one, the focus moves on."""
        here = self._cursor_line()
        if here is None:
            here = self._first_line - 1 if step > 0 else self._first_line + self.size.height
        found = next(iter(self._targets(here, step)), None)
        if found is None:
            self.cursor = None
            self.refresh()
            self.screen.focus_next() if step > 0 else self.screen.focus_previous()
            return
        self._cursor_at, self.cursor = found
        self._show_line(self._cursor_at)
        self.refresh()

    _cursor_at: int | None = None  # the line tab put the cursor on (not the same link's first line)

    def _cursor_line(self) -> int | None:
        if self.cursor is None:
            return None
        view = range(self._first_line, self._first_line + self.size.height)
        for line_no in [self._cursor_at, *view] if self._cursor_at in view else view:
            found = self.line_at(line_no)
            if found is not None and found[1].target == self.cursor:
                return line_no
        return None

    def _show_line(self, line_no: int) -> None:
        top, height = self._first_line, self.size.height - self._banner_rows
        if line_no < top or line_no >= top + height:
            self._following = False
            self.scroll_to(y=max(0, line_no - height // 3) + self._blank, animate=False, immediate=True, force=True)

    def action_activate(self) -> None:
        if self._cursor_line() is not None and self.cursor is not None:
            self._act_on(self.cursor)

    def _act_on(self, target: str) -> None:
        kind, _, value = target.partition(":")
        if kind == "link":
            self.app.open_url(value)
            return
        self.opened.symmetric_difference_update({value})
        index = next((i for i, entry in enumerate(self.entries) if value.startswith(entry.key + ":")), 0)
        self._changed(index)

    async def action_link(self, href: str) -> None:
        """A link in the chat was clicked."""
        self.app.open_url(href)

    def on_click(self, event: events.Click) -> None:
        if self.text_selection is not None:  # (a drag that selected text ends: nothing under its end is clicked)
            event.prevent_default().stop()
            return
        line_no = round(self.scroll_y) + event.y - self._top_rows
        found = self.line_at(line_no) if event.y >= self._banner_rows else None
        if found is not None and found[1].target is not None and found[1].target.startswith("fold:"):
            event.stop()
            self.cursor = found[1].target
            self._act_on(found[1].target)
