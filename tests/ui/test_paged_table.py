"""PagedTable keeps the renders of the rows it has when a page is appended: what it draws
must be what a plain DataTable draws after the same rows, cursor and scrolling."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable
from threadbench.ui.widgets.paged_table import PagedTable, cell


class Tables(App):
    def compose(self) -> ComposeResult:
        yield PagedTable(id="paged")
        yield DataTable(id="plain", cursor_type="row", zebra_stripes=True)


def add_page(table: DataTable, first: int) -> None:
    for n in range(first, first + 8):
        table.add_row(cell(f"item-{n}"), cell(f"value {n * 7}"), key=f"k{n}")


def drawn(table: DataTable) -> list[str]:
    return [table.render_line(y).text for y in range(table.size.height)]


async def test_appended_pages_draw_like_a_data_table() -> None:
    app = Tables()
    async with app.run_test(size=(40, 12)) as pilot:
        tables = [app.query_one("#paged", PagedTable), app.query_one("#plain", DataTable)]
        for table in tables:
            table.styles.height = 6
            for label, width in (("key", 10), ("value", 12)):
                table.add_column(label, key=label, width=width)
            add_page(table, 0)
        await pilot.pause()
        assert drawn(tables[0]) == drawn(tables[1])
        for first in (8, 16):
            for table in tables:
                table.move_cursor(row=table.row_count - 1)
            await pilot.pause()
            assert drawn(tables[0]) == drawn(tables[1])
            for table in tables:
                add_page(table, first)
            await pilot.pause()
            assert drawn(tables[0]) == drawn(tables[1])
            assert tables[0].virtual_size == tables[1].virtual_size
        for table in tables:
            table.move_cursor(row=3)
        await pilot.pause()
        assert drawn(tables[0]) == drawn(tables[1])
        assert "item-3" in "".join(drawn(tables[0]))
