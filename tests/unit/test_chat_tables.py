"""Markdown tables in the chat, drawn as a grid of lines (markdown_table.py)."""

from __future__ import annotations

from textual.content import Content
from threadbench.ui.widgets.markdown_table import TableDrawing


def table(headers: list[str], rows: list[list[str]]) -> TableDrawing:
    return TableDrawing([Content(h) for h in headers], [[Content(c) for c in row] for row in rows])


def test_columns_take_their_natural_width_and_the_widest_give_way_first():
    grid = table(["id", "kind", "notes"], [["1", "short", "x" * 60], ["2", "a bit longer", "y"]])
    assert grid.widths(200) == [2, 12, 60]  # room for all: as wide as their longest cell
    frame = 3 + 1 + 2 * 3  # the lines, and a blank each side of every cell
    assert grid.widths(40 + frame) == [2, 12, 26]  # the notes give way; the short ones stay whole
    assert grid.widths(20 + frame) == [2, 9, 9]  # then the two widest share what is left
    assert grid.widths(1) == [1, 1, 1]  # never below one cell
    url = table(["link", "what"], [["https://example.com/a/long/path", "words " * 10]])
    assert url.widths(40 + 3 + 4) == [31, 9]  # no word is broken while the longest words fit


def test_a_narrow_table_wraps_its_cells_and_keeps_the_grid_straight():
    grid = table(["name", "what"], [["alpha", "a cell long enough to wrap over a few lines"]])
    lines = [line.plain for line in grid.draw(30)]
    assert lines[0] == "┌───────┬────────────────────┐"
    assert lines[1] == "│ name  │ what               │"
    assert lines[3] == "│ alpha │ a cell long enough │"
    assert lines[-1].startswith("└") and lines[-1].endswith("┘")
    assert {len(line) for line in lines} == {30}
    wrapped = " ".join(line[10:-2] for line in lines[3:-1])
    assert wrapped.split() == "a cell long enough to wrap over a few lines".split()


def test_rows_shorter_than_the_header_get_blank_cells():
    grid = table(["a", "b", "c"], [["1"], ["1", "2", "3", "4"]])
    assert grid.columns == 4
    assert {len(line.plain) for line in grid.draw(40)} == {len(grid.draw(40)[0].plain)}
