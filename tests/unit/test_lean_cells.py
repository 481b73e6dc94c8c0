"""The lean cell drawing gives what DataTable's own drawing gives, character by character."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable
from threadbench.ui.widgets.lean_cells import lean_cell_lines
from threadbench.ui.widgets.paged_table import PagedTable, cell

CELLS = [
    cell("plain"),
    cell("styled", style="bold #ff0000 on #002200"),
    Text.assemble(("bo", "bold"), ("ld", "italic underline"), " tail"),
    cell("a value far longer than its column is wide, cut at the edge"),
    cell("日本語のテキストが切れる"),  # wide characters cut at an odd width
    cell("emoji 🎉 in the middle 🎉🎉🎉🎉"),
    cell(""),
    "a str cell",
    "[bold]markup[/bold] in a str",
    42,
    1.5,
    None,
    Text("an ellipsis where it is cut, long enough", overflow="ellipsis"),
    Text("right", justify="right"),  # left to DataTable
    Text("two\nlines"),  # left to DataTable
    Text("a\ttab"),  # left to DataTable
]
WIDTHS = [7, 12, 30]


class TableApp(App):
    def compose(self) -> ComposeResult:
        yield PagedTable(id="t")


def characters(lines) -> list[tuple[str, object]]:
    return [(character, segment.style) for segment in lines[0] for character in segment.text]


@pytest.mark.parametrize("width", WIDTHS)
async def test_each_kind_of_cell_is_drawn_as_datatable_draws_it(width):
    app = TableApp()
    async with app.run_test(size=(120, 30)):
        table = app.query_one(PagedTable)
        table.add_column("a", width=width, key="a")
        table.add_column("b", width=width, key="b")
        for index, value in enumerate(CELLS):
            table.add_row(value, cell(f"row {index}"), key=f"r{index}")
        table._pseudo_class_state = table.get_pseudo_class_state()
        taken = 0
        for row_index in range(len(CELLS)):
            row_style = table._get_row_style(row_index, table.rich_style)  # zebra stripes
            for cursor in (False, True):
                for hover in (False, True):
                    lean = lean_cell_lines(table, row_index, 0, row_style, width, cursor, hover)
                    own = DataTable._render_cell(table, row_index, 0, row_style, width, cursor, hover)
                    if lean is None:
                        continue
                    taken += 1
                    assert characters(lean) == characters(own), (CELLS[row_index], cursor, hover)
        assert taken == 4 * (len(CELLS) - 3)  # all but the three left to DataTable


async def test_a_table_of_lean_cells_paints_the_same_lines():
    app = TableApp()
    async with app.run_test(size=(100, 24)) as pilot:
        table = app.query_one(PagedTable)
        for key, width in (("key", 10), ("value", 40), ("when", 12)):
            table.add_column(key, width=width, key=key)
        for index in range(40):
            table.add_row(cell(f"item-{index:03d}"), cell(f'{{"n": {index}, "名前": "値"}}'), "3 min ago")
        table.focus()
        table.move_cursor(row=3)
        await pilot.pause()

        def painted() -> list[list[tuple[str, object]]]:
            for cache in (table._line_cache, table._row_render_cache, table._cell_render_cache):
                cache.clear()
            return [characters([list(table.render_line(y))]) for y in range(table.size.height)]

        lean = painted()
        table._render_cell = lambda *args, **kwargs: DataTable._render_cell(table, *args, **kwargs)
        assert lean == painted()
