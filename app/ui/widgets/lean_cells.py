"""A one-line DataTable cell drawn without Rich's layout machinery.

DataTable draws every cell through `Styled(Padding(cell))` and `Console.render_lines`, layers
of generators for what, in a one-line row, is the cell's text cut to the column, a space each
side and two styles laid over it. That was 60% of painting a page of rows (0.15 ms a cell; a
page of 45 rows and 4 columns took 35-70 ms to paint, 21 ms with this).

`lean_cell_lines` gives the same characters in the same styles for the cells it takes (a Text
on one line, in a one-line row, justified by default) and None for the rest, which DataTable
then draws as it always did. tests/unit/test_lean_cells.py holds the two side by side.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.widgets import DataTable


def lean_cell_lines(
    table: DataTable,
    row_index: int,
    column_index: int,
    base_style: Style,
    width: int,
    cursor: bool,
    hover: bool,
) -> list[list[Segment]] | None:
    """The cell's one line of segments, or None where DataTable's own drawing is needed."""
    if row_index < 0 or column_index < 0 or table.fixed_rows or table.fixed_columns:
        return None  # headers, labels and fixed cells have styles of their own
    row = table.rows.get(table._row_locations.get_key(row_index))  # type: ignore[arg-type]
    if row is None or row.height != 1:
        return None
    cell = table._get_row_renderables(row_index).cells[column_index]
    if not isinstance(cell, Text) or cell.justify not in (None, "default") or _needs_layout(cell.plain):
        return None
    padding = table.cell_padding
    inner = max(0, width - 2 * padding)
    if cell_len(cell.plain) > inner:
        cell = cell.copy()
        cell.truncate(inner)
    component_style, post_style = table._get_styles_to_render_cell(
        False,
        False,
        False,
        hover,
        cursor,
        table.show_cursor,
        table._show_hover_cursor,
        table.cursor_foreground_priority == "css",
        table.cursor_background_priority == "css",
    )
    pre_style = base_style + Style.from_meta({"row": row_index, "column": column_index}) + component_style
    console = table.app.console
    if cell.spans:
        segments = list(cell.render(console, end=""))
    else:  # (Text.render leaves a text without spans unstyled: Rich styles it as a span)
        segments = [Segment(cell.plain, console.get_style(cell.style) if cell.style else None)]
    text = Segment.adjust_line_length(segments, inner, pad=True)
    pad = [Segment(" " * padding)] if padding else []
    return [list(Segment.apply_style([*pad, *text, *pad], pre_style, post_style))]


def _needs_layout(plain: str) -> bool:
    """Text that Rich splits or expands (new lines, tabs) is left to it."""
    return "\n" in plain or "\t" in plain or "\r" in plain
