"""The columns and rows a PagedTable shows: plain data, kept in the order they came.

A row is found by its key (an object's id) or its index; a column set to no width is as
wide as its widest cell so far, measured once when the row is added."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

from .table_cells import as_text


@dataclass
class Column:
    key: str
    label: Text
    width: int
    """Cells of text, without the padding either side."""
    auto: bool = False
    """As wide as its widest cell (the label included)."""


@dataclass(eq=False)
class Row:
    """One row; its identity keys its drawn lines (a row cleared and added again is new)."""

    key: str
    values: list[object]


class TableRows:
    def __init__(self) -> None:
        self.columns: list[Column] = []
        self.rows: list[Row] = []
        self.index: dict[str, int] = {}
        self._made_keys = 0

    def __len__(self) -> int:
        return len(self.rows)

    def add_column(self, label: str | Text, key: str | None, width: int | None) -> Column:
        text = label.copy() if isinstance(label, Text) else Text(label)
        key = key if key is not None else text.plain
        if any(column.key == key for column in self.columns):
            raise ValueError(f"The column key {key!r} already exists.")
        auto = width is None
        column = Column(key, text, cell_len(text.plain) if auto else max(0, width or 0), auto)
        self.columns.append(column)
        for row in self.rows:
            row.values.append(None)
        return column

    def add_row(self, values: Sequence[object], key: str | None) -> tuple[Row, bool]:
        """The row added, and whether a column grew to fit it."""
        if len(values) > len(self.columns):
            raise ValueError("More values than there are columns.")
        if key is None:
            self._made_keys += 1
            key = f"row-{self._made_keys}"
        if key in self.index:
            raise ValueError(f"The row key {key!r} already exists.")
        row = Row(key, [*values, *[None] * (len(self.columns) - len(values))])
        self.index[key] = len(self.rows)
        self.rows.append(row)
        return row, self._measure(row)

    def clear(self) -> None:
        self.rows = []
        self.index = {}
        for column in self.columns:
            if column.auto:
                column.width = cell_len(column.label.plain)

    def _measure(self, row: Row) -> bool:
        grew = False
        for column, value in zip(self.columns, row.values, strict=False):
            if column.auto:
                width = cell_len(as_text(value).plain)
                if width > column.width:
                    column.width, grew = width, True
        return grew
