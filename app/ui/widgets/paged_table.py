"""PagedTable: a DataTable whose rows come from the server a page at a time.

It asks for the next page (posts NeedMore) when the cursor comes near the last row it
has, and never holds more than the pages the user scrolled through; row keys are the
objects' ids, so the owner finds the object of a highlighted row by its key.

A page is appended below the rows already drawn, so it keeps their renders: DataTable keys
every cached cell and line by a count that each add_row bumps, and so drew every visible
row again, cell by cell through Rich, for each page (most of a page's 100 ms). Its columns
have fixed widths, so a new row is not measured either. A one-line cell is drawn by
`lean_cell_lines`, a third of the time Rich takes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text, TextType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import CellType, RowKey

from .lean_cells import lean_cell_lines

NEAR_END = 10
"""Rows before the last at which the next page is asked for (it is there before the cursor is)."""


def cell(text: str, style: str = "") -> Text:
    """A cell that shows server text literally (DataTable reads a str as markup)."""
    return Text(text.translate(_CONTROL), style=style, no_wrap=True)


_CONTROL = {code: 0x2400 + code for code in range(0x20)}


class PagedTable(DataTable):
    @dataclass
    class NeedMore(Message):
        """The cursor is near the last row and the server may have more."""

        table: PagedTable

        @property
        def control(self) -> PagedTable:
            return self.table

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("cursor_type", "row")
        kwargs.setdefault("zebra_stripes", True)
        super().__init__(*args, **kwargs)
        self.exhausted = False
        """The server has no rows after these."""
        self.fetching = False
        self._plain_rows = True
        """Every row one line high, without a label (rows appended keep the others' renders)."""
        # DataTable keeps 1,000 painted lines and rows and 10,000 cells, but keys lines and rows
        # by the cursor's place, so only a screen or two of them is ever drawn again; the rest
        # is for the full garbage collection to walk (a fifth of the app's objects after 550
        # rows paged). Four screens of lines, and the cells of 200 rows, are kept.
        self._line_cache = LRUCache(200)
        self._row_render_cache = LRUCache(200)
        self._cell_render_cache = LRUCache(1000)

    @property
    def highlighted_key(self) -> str | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None

    def add_row(
        self,
        *cells: CellType,
        height: int | None = 1,
        key: str | None = None,
        label: TextType | None = None,
    ) -> RowKey:
        if height != 1 or label is not None:  # a row that may change how the others are drawn
            self._plain_rows = False
        if not self._plain_rows or self._auto_width:
            return super().add_row(*cells, height=height, key=key, label=label)
        count = self._update_count
        row_key = super().add_row(*cells, key=key)
        # Appended below the others, one line high, in fixed-width columns: every row drawn
        # before is drawn the same, so its cached renders stay; only the row offsets change.
        self._update_count = count
        self._offset_cache.clear()
        return row_key

    def _render_cell(self, row_index, column_index, base_style, width, cursor=False, hover=False):
        if row_index < 0 or column_index < 0:  # the header and the labels
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        key = (
            self._row_locations.get_key(row_index),
            self._column_locations.get_key(column_index),
            base_style,
            cursor,
            hover,
            self._show_hover_cursor,
            self._update_count,
            self._pseudo_class_state,
        )  # DataTable's own cache key for the cell
        lines = self._cell_render_cache.get(key)
        if lines is None:
            lines = lean_cell_lines(self, row_index, column_index, base_style, width, cursor, hover)
            if lines is None:
                return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
            self._cell_render_cache[key] = lines
        return lines

    @property
    def _auto_width(self) -> bool:
        """A column as wide as its widest cell: a new row may widen it, and so redraw the others."""
        return any(column.auto_width for column in self.columns.values())

    def _update_dimensions(self, new_rows) -> None:
        if not self._plain_rows or self._auto_width:
            super()._update_dimensions(new_rows)
            return
        # Fixed widths: measuring the new cells (what DataTable does) changes nothing.
        width = sum(column.get_render_width(self) for column in self.columns.values())
        size = Size(width, self._total_row_height + (self.header_height if self.show_header else 0))
        if size == self.virtual_size:
            return
        if (
            size.width == self.virtual_size.width
            and self.show_vertical_scrollbar
            and size.height > self.container_size.height
            and self.styles.height is not None
            and not self.styles.height.is_auto
        ):
            # Longer, in a box whose size is set and whose scrollbar shows already: nothing
            # moves on the screen but the scrollbar (setting virtual_size lays out the whole
            # screen and repaints every widget of the dialog).
            self.set_reactive(PagedTable.virtual_size, size)
            self._scroll_update(size)
            return
        self.virtual_size = size

    def watch_cursor_coordinate(self, old_coordinate, new_coordinate) -> None:
        super().watch_cursor_coordinate(old_coordinate, new_coordinate)
        self.check_more()

    def check_more(self) -> None:
        if not self.exhausted and not self.fetching and self.row_count and self.cursor_row >= self.row_count - NEAR_END:
            self.fetching = True
            self.post_message(self.NeedMore(self))
