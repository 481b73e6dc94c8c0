"""PagedTable, as the user sees it: what its lines show, the keys, the mouse, the paging,
the sideways scroll, wide characters, and 10,000 rows that cost only what is in view."""

from __future__ import annotations

import time

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.widgets import DataTable
from threadbench.ui.widgets import paged_table
from threadbench.ui.widgets.paged_table import PagedTable, cell


class TableApp(App):
    CSS = "PagedTable { height: 10; } DataTable { height: 10; }"

    def __init__(self, columns=(("key", 10), ("value", 12)), with_data_table: bool = False) -> None:
        super().__init__()
        self.columns = columns
        self.with_data_table = with_data_table
        self.messages: list[tuple[str, int, str]] = []

    def compose(self) -> ComposeResult:
        yield PagedTable(id="paged")
        if self.with_data_table:
            yield DataTable(id="plain", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        for table in self.query("#paged, #plain"):
            for label, width in self.columns:
                table.add_column(label, key=label, width=width)  # type: ignore[attr-defined]

    @property
    def table(self) -> PagedTable:
        return self.query_one("#paged", PagedTable)

    @on(PagedTable.RowHighlighted)
    def highlighted(self, event: PagedTable.RowHighlighted) -> None:
        self.messages.append(("highlighted", event.cursor_row, event.row_key))

    @on(PagedTable.RowSelected)
    def selected(self, event: PagedTable.RowSelected) -> None:
        self.messages.append(("selected", event.cursor_row, event.row_key))

    @on(PagedTable.NeedMore)
    def need_more(self, event: PagedTable.NeedMore) -> None:
        self.messages.append(("more", event.table.row_count, ""))


def add_page(table, first: int, count: int = 8) -> None:
    for n in range(first, first + count):
        table.add_row(cell(f"item-{n}"), cell(f"value {n * 7}"), key=f"k{n}")


def shown(table) -> list[str]:
    return [table.render_line(y).text for y in range(table.size.height)]


def painted(table) -> list[list[tuple[str, object]]]:
    """Each line's characters with their styles (without the cells' marks)."""
    lines = []
    for y in range(table.size.height):
        strip = table.render_line(y).discard_meta()
        lines.append([(char, segment.style) for segment in strip for char in segment.text])
    return lines


async def test_it_looks_as_a_data_table_does() -> None:
    app = TableApp(with_data_table=True)
    async with app.run_test(size=(40, 24)) as pilot:
        tables = [app.table, app.query_one("#plain", DataTable)]
        app.set_focus(None)
        for table in tables:
            add_page(table, 0, 20)
        await pilot.pause()
        assert painted(tables[0]) == painted(tables[1])
        focused = []
        for table in tables:
            table.focus()
            table.move_cursor(row=12)
            await pilot.pause()
            assert "item-12" in "".join(shown(table))
            focused.append(painted(table))
        assert focused[0] == focused[1]
        assert tables[0].scroll_y == tables[1].scroll_y


async def test_the_keys_move_the_cursor_and_enter_selects() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        table.exhausted = True
        add_page(table, 0, 30)
        table.focus()
        await pilot.pause()
        assert shown(table)[0].split() == ["key", "value"]
        assert app.messages == [("highlighted", 0, "k0")]
        await pilot.press("down", "down")
        assert table.cursor_row == 2 and table.highlighted_key == "k2"
        await pilot.press("up")
        assert table.cursor_row == 1
        await pilot.press("end")
        assert table.cursor_row == 29
        assert "item-29" in shown(table)[-1], "the last row is shown, at the bottom"
        assert shown(table)[0].split() == ["key", "value"], "the header stays"
        await pilot.press("home")
        assert table.cursor_row == 0 and "item-0" in shown(table)[1]
        await pilot.press("pagedown")
        assert table.cursor_row == 9, "a page is the 9 rows under the header"
        assert "item-9" in shown(table)[1], "the view moved a page as well"
        await pilot.press("pageup")
        assert table.cursor_row == 0 and table.scroll_y == 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.messages[-1] == ("selected", 0, "k0")
        assert ("highlighted", 29, "k29") in app.messages


async def test_a_click_moves_the_cursor_and_a_second_click_selects() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        add_page(table, 0, 8)
        await pilot.pause()
        await pilot.click(table, offset=(3, 4))  # the header, then rows 0, 1, 2: row 3
        assert table.cursor_row == 3 and app.focused is table
        await pilot.click(table, offset=(3, 4))
        await pilot.pause()
        assert app.messages[-1] == ("selected", 3, "k3")
        await pilot.click(table, offset=(3, 0))  # the header
        await pilot.click(table, offset=(3, 9))  # under the last row
        assert table.cursor_row == 3


async def test_the_hover_and_the_focus_show() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        add_page(table, 0, 8)
        app.set_focus(None)
        await pilot.pause()

        def background(y: int):
            return next(iter(table.render_line(y))).style.bgcolor

        blurred = background(1)
        await pilot.hover(table, offset=(3, 5))  # row 4
        hover = table.get_component_rich_style("datatable--hover").bgcolor
        assert background(5) == hover != background(4)
        table.focus()
        await pilot.press("down")  # a key hides the hover
        assert background(5) != hover
        assert background(2) != blurred, "the cursor's colours change with the focus"
        assert background(2) == table.get_component_rich_style("datatable--cursor").bgcolor


async def test_the_wheel_scrolls_without_moving_the_cursor() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        add_page(table, 0, 40)
        await pilot.pause()
        for _ in range(3):
            table.post_message(events.MouseScrollDown(table, 3, 3, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert table.scroll_y > 0 and table.cursor_row == 0
        assert "item-0" not in "".join(shown(table))


async def test_the_next_page_is_asked_for_near_the_end() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        add_page(table, 0, 20)
        await pilot.pause()
        await pilot.press("down")
        assert all(kind != "more" for kind, *_ in app.messages)
        table.move_cursor(row=10)  # 10 rows before the last one
        await pilot.pause()
        assert [m for m in app.messages if m[0] == "more"] == [("more", 20, "")]
        assert table.fetching
        await pilot.press("down")
        await pilot.pause()
        assert len([m for m in app.messages if m[0] == "more"]) == 1, "not again while fetching"
        add_page(table, 20, 20)
        table.fetching = False
        table.exhausted = True
        await pilot.press("end")
        await pilot.pause()
        assert len([m for m in app.messages if m[0] == "more"]) == 1, "not once the server has no more"
        assert table.row_count == 40 and "item-39" in shown(table)[-1]


async def test_a_reload_keeps_the_view_still() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        table.exhausted = True
        add_page(table, 0, 40)
        await pilot.pause()
        table.move_cursor(row=25)
        await pilot.pause()
        before = shown(table)
        table.clear()
        add_page(table, 0, 40)
        table.move_cursor(row=table.get_row_index("k25"))
        await pilot.pause()
        assert shown(table) == before
        table.clear()
        add_page(table, 100, 5)  # other rows: the cursor on the first, in view
        await pilot.pause()
        assert table.cursor_row == 0 and table.scroll_y == 0 and "item-100" in shown(table)[1]


async def test_columns_wider_than_the_view_scroll_sideways() -> None:
    app = TableApp(columns=(("name", 20), ("far", 20), ("further", 20)))
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        table.add_row("alpha", "beta", "gamma-end", key="a")
        table.focus()
        await pilot.pause()
        assert table.virtual_size.width == 66
        assert "further" not in shown(table)[0] and "gamma" not in shown(table)[1]
        for _ in range(30):
            await pilot.press("right")
        assert table.scroll_x == table.max_scroll_x > 0
        assert "further" in shown(table)[0] and "gamma-end" in shown(table)[1]
        assert "alpha" not in shown(table)[1]
        assert all(cell_len(line) == table.size.width for line in shown(table))
        await pilot.press("left")
        assert table.scroll_x < table.max_scroll_x


async def test_wide_characters_are_cut_with_an_ellipsis_in_their_column() -> None:
    app = TableApp(columns=(("name", 8), ("next", 6)))
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        table.add_row(cell("日本語のテキスト"), cell("after"), key="wide")
        table.add_row(cell("emoji 🎉🎉🎉"), "ok", key="emoji")
        table.add_row("fits", cell("a\nnew line"), key="controls")
        await pilot.pause()
        lines = shown(table)
        assert lines[1].startswith(" 日本語 …  after ")  # 8 cells: three wide ones, a blank, the ellipsis
        assert cell_len(lines[1][: lines[1].index("after")]) == 11, "the next column where it belongs"
        assert lines[2].startswith(" emoji  …  ok ")
        assert "a␊new…" in lines[3], "a cell is one line"
        assert all(cell_len(line) == table.size.width for line in lines)
        assert [str(value) for value in table.get_row("wide")] == ["日本語のテキスト", "after"]


async def test_an_auto_width_column_fits_its_widest_cell() -> None:
    app = TableApp(columns=())
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.table
        table.add_column("name")
        table.add_column("id", width=4)
        table.add_row("short", "12345678", key="a")
        table.add_row("a much longer name", "1", key="b")
        await pilot.pause()
        lines = shown(table)
        assert lines[2].startswith(" a much longer name  1 ")
        assert lines[1].startswith(" short               123… ")


async def test_an_empty_table_says_so() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        table.fetching = True
        await pilot.pause()
        assert shown(table)[1].strip() == "Loading…"
        table.fetching = False
        await pilot.pause()
        assert shown(table)[1].strip() == "Nothing here."
        assert table.highlighted_key is None
        await pilot.press("enter", "down", "end")
        assert app.messages == []
        table.add_row("one", "1", key="one")
        await pilot.pause()
        assert "Nothing here." not in "".join(shown(table))
        assert app.messages == [("highlighted", 0, "one")]


async def test_ten_thousand_rows_cost_only_the_lines_in_view(monkeypatch) -> None:
    drawn: list[int] = []
    line_strip = paged_table.line_strip

    def counting(*args, **kwargs):
        drawn.append(1)
        return line_strip(*args, **kwargs)

    monkeypatch.setattr(paged_table, "line_strip", counting)
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.table
        table.exhausted = True
        started = time.perf_counter()
        for n in range(10_000):
            table.add_row(cell(f"item-{n}"), Text(f"value {n}"), key=f"k{n}")
        added = time.perf_counter() - started
        await pilot.pause()
        assert table.virtual_size.height == 10_001
        assert added < 1.0, f"{added:.2f}s to add 10,000 rows"
        assert len(drawn) <= 2 * table.size.height, "only the lines in view are drawn"
        drawn.clear()
        table.focus()
        await pilot.press("end")
        await pilot.pause()
        assert "item-9999" in shown(table)[-1]
        assert len(drawn) <= 3 * table.size.height
