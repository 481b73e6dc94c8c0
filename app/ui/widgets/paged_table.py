"""PagedTable: a DataTable whose rows come from the server a page at a time.

It asks for the next page (posts NeedMore) when the cursor comes near the last row it
has, and never holds more than the pages the user scrolled through; row keys are the
objects' ids, so the owner finds the object of a highlighted row by its key.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

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

    @property
    def highlighted_key(self) -> str | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None

    def watch_cursor_coordinate(self, old_coordinate, new_coordinate) -> None:
        super().watch_cursor_coordinate(old_coordinate, new_coordinate)
        self.check_more()

    def check_more(self) -> None:
        if not self.exhausted and not self.fetching and self.row_count and self.cursor_row >= self.row_count - NEAR_END:
            self.fetching = True
            self.post_message(self.NeedMore(self))
