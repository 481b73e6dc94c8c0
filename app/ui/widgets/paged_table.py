"""PagedTable: a table whose rows come from the server a page at a time, drawn line by line.

It asks for the next page (posts NeedMore) when the cursor comes near the last row it has;
row keys are the objects' ids, so the owner finds the object of a highlighted row by its key.

A ScrollView of its own (Textual's Line API): a fixed header line, then one line a row, each
drawn only when it is in view and kept (by row, width, cursor and hover) until the styles
change, so a page appended draws none of the rows above it again and 10,000 rows cost only
their list entries. It looks as Textual's DataTable does (its component classes, zebra
stripes, a row cursor, hover), and adds an ellipsis where a cell is cut and a line saying
so when there are no rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .table_cells import cell, line_strip
from .table_rows import Row, TableRows

__all__ = ["NEAR_END", "PagedTable", "cell"]

NEAR_END = 10
"""Rows before the last at which the next page is asked for (it is there before the cursor is)."""
KEPT_LINES = 400
"""Drawn lines kept: a few screens of them (each frame draws only what is in view)."""
HEADER = -1
"""The row index of the header line."""
HEADER_LINES = 1


class RowMessage(Message):
    """A row of a PagedTable, by index and key."""

    def __init__(self, table: PagedTable, cursor_row: int, row_key: str) -> None:
        super().__init__()
        self.table = table
        self.cursor_row = cursor_row
        self.row_key = row_key

    @property
    def control(self) -> PagedTable:
        return self.table


class PagedTable(ScrollView, can_focus=True):
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "datatable--header",
        "datatable--header-hover",
        "datatable--even-row",
        "datatable--odd-row",
        "datatable--cursor",
        "datatable--hover",
        "paged-table--empty",
    }
    # DataTable's look, so the tables look as they always have.
    DEFAULT_CSS = """
    PagedTable {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;
        &:focus {
            background-tint: $foreground 5%;
            & > .datatable--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .datatable--header {
                background-tint: $foreground 5%;
            }
        }
        &:dark {
            & > .datatable--even-row {
                background: $surface-darken-1 40%;
            }
        }
        & > .datatable--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .datatable--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .datatable--odd-row {
        }
        & > .datatable--even-row {
            background: $surface-lighten-1 50%;
        }
        & > .datatable--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .datatable--header-hover {
            background: $accent 30%;
        }
        & > .datatable--hover {
            background: $block-hover-background;
        }
        & > .paged-table--empty {
            color: $text-muted;
        }
    }
    """
    BINDINGS = [
        Binding("enter", "select_cursor", "Select", show=False, tooltip="Choose the row (a version: put it in use)"),
        Binding("up", "cursor_up", "Cursor up", show=False, tooltip="The row above"),
        Binding(
            "down", "cursor_down", "Cursor down", show=False, tooltip="The row below (near the end: the next page)"
        ),
        Binding("pageup", "page_up", "Page up", show=False, tooltip="A page up"),
        Binding("pagedown", "page_down", "Page down", show=False, tooltip="A page down"),
        Binding("home,ctrl+home", "cursor_first", "First row", show=False, tooltip="The first row"),
        Binding("end,ctrl+end", "cursor_last", "Last row", show=False, tooltip="The last row fetched"),
        Binding("left", "scroll_left", "Scroll left", show=False, tooltip="Scroll left (columns wider than the table)"),
        Binding("right", "scroll_right", "Scroll right", show=False, tooltip="Scroll right"),
    ]

    cursor_row: reactive[int] = reactive(0, repaint=False)
    """The highlighted row's index (0 in an empty table)."""
    zebra_stripes: reactive[bool] = reactive(True)
    show_cursor: reactive[bool] = reactive(True)

    @dataclass
    class NeedMore(Message):
        """The cursor is near the last row and the server may have more."""

        table: PagedTable

        @property
        def control(self) -> PagedTable:
            return self.table

    class RowHighlighted(RowMessage):
        """The cursor moved to a row (or a first row came under it)."""

    class RowSelected(RowMessage):
        """Enter on the cursor's row, or a click on it."""

    def __init__(
        self,
        *,
        empty_text: str = "Nothing here.",
        loading_text: str = "Loading…",
        zebra_stripes: bool = True,
        cell_padding: int = 1,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.set_reactive(PagedTable.zebra_stripes, zebra_stripes)
        self.empty_text = empty_text
        """Said under the header when there are no rows."""
        self.loading_text = loading_text
        """Said instead while the first rows are being fetched."""
        self.cell_padding = cell_padding
        self.exhausted = False
        """The server has no rows after these."""
        self.served = 0
        """Rows the server listed since the last clear, repeats included: the next page's
        offset (a page read by offset repeats rows when new ones came in at the top meanwhile:
        the screens skip those, and an offset counted from the rows shown would repeat them)."""
        self._fetching = False
        self._table = TableRows()
        self._drawn: LRUCache[tuple[object, ...], Strip] = LRUCache(KEPT_LINES)
        self._look: object = None
        self._hover_row: int | None = None
        self._hover_shown = False
        """The mouse moved over the table since the last key (a key hides the hover)."""
        self._size_due = False
        self._cursor_due = False
        """Cleared: the cursor is shown once the rows are back (a reload keeps the view still)."""

    # -- what the screens read -----------------------------------------------------------------

    @property
    def fetching(self) -> bool:
        """A page is being fetched (no NeedMore is posted meanwhile)."""
        return self._fetching

    @fetching.setter
    def fetching(self, fetching: bool) -> None:
        if fetching != self._fetching:
            self._fetching = fetching
            if not self._table.rows:
                self._refresh_row(0)  # (the empty line says which)

    @property
    def row_count(self) -> int:
        return len(self._table)

    @property
    def highlighted_key(self) -> str | None:
        """The key of the row under the cursor, or None when there are no rows."""
        rows = self._table.rows
        return rows[self.cursor_row].key if rows else None

    def get_row(self, key: str) -> list[object]:
        """The values of the row with `key` (KeyError when there is none)."""
        return list(self._table.rows[self._table.index[key]].values)

    def get_row_at(self, index: int) -> list[object]:
        return list(self._table.rows[index].values)

    def get_row_index(self, key: str) -> int:
        """The index of the row with `key` (KeyError when there is none)."""
        return self._table.index[key]

    # -- filling -------------------------------------------------------------------------------

    def add_column(self, label: str | Text, *, width: int | None = None, key: str | None = None) -> str:
        """A column `width` cells wide (its cells cut with an ellipsis), or as wide as its
        widest cell when `width` is None. Returns its key (the label by default)."""
        column = self._table.add_column(label, key, width)
        self._drawing_changed()
        return column.key

    def add_row(self, *values: object, key: str | None = None) -> str:
        """A row below the others (a Text for a styled cell: `cell`); returns its key."""
        row, grew = self._table.add_row(values, key)
        if grew:
            self._drawing_changed()
        else:
            self._refresh_row(len(self._table) - 1)
        self._size_later()
        if len(self._table) == 1 and self.show_cursor:  # (a row under the cursor at last)
            self.post_message(self.RowHighlighted(self, 0, row.key))
        return row.key

    def add_rows(self, rows: Iterable[Sequence[object]]) -> list[str]:
        """Rows below the others, with keys made for them."""
        return [self.add_row(*values) for values in rows]

    def clear(self) -> None:
        """No rows (the columns stay), the cursor on the first row. The view stays where it
        is until rows are added again: rows reloaded with the cursor put back on its row do
        not move."""
        self._table.clear()
        self.served = 0
        self._drawn.clear()
        self._hover_row = None
        self.set_reactive(PagedTable.cursor_row, 0)
        self._cursor_due = True
        self._size_later()
        self.refresh()

    def move_cursor(self, *, row: int) -> None:
        """The cursor to `row` (clamped to the rows there are), scrolled into view."""
        self.cursor_row = row
        self.check_more()

    def check_more(self) -> None:
        """Ask for the next page when the cursor is near the last row."""
        if not self.exhausted and not self.fetching and self.row_count and self.cursor_row >= self.row_count - NEAR_END:
            self.fetching = True
            self.post_message(self.NeedMore(self))

    # -- the cursor ------------------------------------------------------------------------------

    def validate_cursor_row(self, row: int) -> int:
        return max(0, min(row, len(self._table) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        self._scroll_to_cursor()
        if new < len(self._table) and self.show_cursor:
            self.post_message(self.RowHighlighted(self, new, self._table.rows[new].key))
        self.check_more()

    def action_cursor_up(self) -> None:
        self._show_hover(False)
        self.cursor_row -= 1

    def action_cursor_down(self) -> None:
        self._show_hover(False)
        self.cursor_row += 1

    def action_cursor_first(self) -> None:
        self._show_hover(False)
        self.cursor_row = 0

    def action_cursor_last(self) -> None:
        self._show_hover(False)
        self.cursor_row = len(self._table) - 1

    def action_page_down(self) -> None:
        """A page further, the cursor as far (the rows in view move up a whole page)."""
        self._show_hover(False)
        room = self._room()
        self._sync_size()
        self.scroll_to(y=self.scroll_y + room, animate=False, force=True)
        self.cursor_row += room

    def action_page_up(self) -> None:
        self._show_hover(False)
        room = self._room()
        self.scroll_to(y=self.scroll_y - room, animate=False, force=True)
        self.cursor_row -= room

    def action_select_cursor(self) -> None:
        self._show_hover(False)
        if self.show_cursor and self._table.rows:
            self.post_message(self.RowSelected(self, self.cursor_row, self._table.rows[self.cursor_row].key))

    def _room(self) -> int:
        """Rows in view (the header stays at the top)."""
        return max(1, self.scrollable_content_region.height - HEADER_LINES)

    def _scroll_to_cursor(self) -> None:
        if not self.scrollable_content_region.height:  # (not laid out yet)
            self.call_after_refresh(self._scroll_to_cursor)
            return
        self._sync_size()
        row, room, top = self.cursor_row, self._room(), round(self.scroll_y)
        if row < top:
            self.scroll_to(y=row, animate=False, force=True)
        elif row >= top + room:
            self.scroll_to(y=row - room + 1, animate=False, force=True)

    # -- the mouse -------------------------------------------------------------------------------

    def _row_under(self, event: events.MouseEvent) -> int | None:
        """The row index under the mouse (HEADER on the header), or None (below the rows)."""
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        if offset.y < HEADER_LINES:
            return HEADER
        index = round(self.scroll_y) + offset.y - HEADER_LINES
        return index if index < len(self._table) else None

    def on_click(self, event: events.Click) -> None:
        self._show_hover(True)
        index = self._row_under(event)
        if index is None or index == HEADER or not self.show_cursor:
            return
        event.stop()
        if index == self.cursor_row:  # (a second click, or a click on the cursor's row)
            self.action_select_cursor()
        else:
            self.cursor_row = index

    def on_mouse_move(self, event: events.MouseMove) -> None:
        index = self._row_under(event)
        if index != self._hover_row:
            old, self._hover_row = self._hover_row, index
            if old is not None:
                self._refresh_row(old)
            if index is not None:
                self._refresh_row(index)
        self._show_hover(True)

    def on_leave(self, event: events.Leave) -> None:
        self._show_hover(False)

    def _show_hover(self, shown: bool) -> None:
        if shown != self._hover_shown:
            self._hover_shown = shown
            if self._hover_row is not None:
                self._refresh_row(self._hover_row)

    # -- the size of what scrolls ----------------------------------------------------------------

    def _size_later(self) -> None:
        """The scrolled size once the rows being added are all there (not once a row)."""
        if not self._size_due:
            self._size_due = True
            self.call_later(self._sync_size)

    def _sync_size(self) -> None:
        """Set the scrolled size. A new size lays the whole screen out (and repaints every
        table of the dialog): when the table, taller than its fixed height already, only
        grows longer (a page appended), only the scrollbar is told."""
        self._size_due = False
        table = self._table
        width = sum(column.width + 2 * self.cell_padding for column in table.columns)
        size = Size(width, HEADER_LINES + (len(table) or 1))  # (no rows: a line says so)
        old, view = self.virtual_size, self.scrollable_content_region.height
        height = self.styles.height
        fixed = height is not None and not height.is_auto
        if size == old:
            pass
        elif fixed and view and size.width == old.width and view < old.height < size.height:
            self.set_reactive(PagedTable.virtual_size, size)
            self.vertical_scrollbar.window_virtual_size = size.height
            self.refresh()
        else:
            self.virtual_size = size
        if self._cursor_due:
            self._cursor_due = False
            self._scroll_to_cursor()

    # -- drawing ---------------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn.clear()

    def _drawing_changed(self) -> None:
        """Columns added or widened: every line is drawn again."""
        self._drawn.clear()
        self._size_later()
        self.refresh()

    def _refresh_row(self, index: int) -> None:
        if index == HEADER:
            self.refresh(Region(0, 0, self.size.width, HEADER_LINES))
            return
        y = HEADER_LINES + index - round(self.scroll_y)
        if 0 <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def render_lines(self, crop: Region) -> list[Strip]:
        self._look = self.get_pseudo_class_state()  # (focus, hover: the component styles)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        if y < HEADER_LINES:
            line = self._row_line(HEADER, width)
        else:
            index = scroll_y + y - HEADER_LINES
            if index < len(self._table):
                line = self._row_line(index, width)
            elif index == 0:
                line = self._empty_line(width)
            else:
                return Strip.blank(width, self.rich_style)
        return line.crop_extend(scroll_x, scroll_x + width, self.rich_style)

    def _row_line(self, index: int, width: int) -> Strip:
        """The whole line of a row (HEADER: the header), as wide as the table or the view."""
        row: Row | None = self._table.rows[index] if index != HEADER else None
        cursor = index == self.cursor_row and index != HEADER and self.show_cursor
        hover = index == self._hover_row and self._hover_shown and self.show_cursor
        key = (row, index, cursor, hover, width, self.zebra_stripes, self._look)
        line = self._drawn.get(key)
        if line is None:
            columns = self._table.columns
            values: list[object] = [column.label for column in columns] if row is None else row.values
            line = line_strip(
                values,
                [column.width for column in columns],
                self.cell_padding,
                self._line_styles(index, cursor, hover),
                width,
                self.app.console,
                index,
            )
            self._drawn[key] = line
        return line

    def _line_styles(self, index: int, cursor: bool, hover: bool) -> tuple[Style, Style, Style]:
        """The row's style (the header's, a zebra stripe's), what the cursor or the hover lays
        over it, and their colours, which win over a cell's own."""
        style = self.get_component_rich_style
        if index == HEADER:
            row = style("datatable--header")
        elif self.zebra_stripes:
            row = style("datatable--odd-row" if index % 2 else "datatable--even-row")
        else:
            row = self.rich_style
        over = Style()
        if hover:
            over += style("datatable--hover")
            if index == HEADER:
                over += style("datatable--header-hover")
        if cursor:
            over += style("datatable--cursor")
        colours = Style.from_color(over.color) + Style.from_color(bgcolor=over.bgcolor)
        return row, over, colours

    def _empty_line(self, width: int) -> Strip:
        text = self.loading_text if self.fetching else self.empty_text
        style = self.get_component_rich_style("paged-table--empty")
        inner = max(0, width - 2 * self.cell_padding)
        return line_strip([text], [inner], self.cell_padding, (style, Style(), Style()), width, self.app.console)
