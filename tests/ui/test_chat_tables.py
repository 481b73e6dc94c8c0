"""Markdown tables in the chat: one widget each (markdown_table.py), streamed or opened."""

from __future__ import annotations

import pytest
from langgraph_sdk import get_client
from support.driving import (
    TERMINAL,
    make_app,
    open_tagged,
    screen_lines,
    send_in_new_thread,
    tag,
    wait_for,
    wait_ready,
)
from textual.app import App, ComposeResult
from textual.content import Content
from textual.selection import Selection
from textual.widgets._markdown import MarkdownTableCellContents
from threadbench.ui.widgets.markdown_blocks import ChatMarkdown
from threadbench.ui.widgets.markdown_table import ChatTable, TableGrid, TableVisual


def table(headers: list[str], rows: list[list[str]]) -> TableVisual:
    return TableVisual([Content(h) for h in headers], [[Content(c) for c in row] for row in rows])


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
    lines = [line.plain for line in grid.lines(30)]
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
    assert {len(line.plain) for line in grid.lines(40)} == {len(grid.lines(40)[0].plain)}


class OneTable(App[None]):
    def compose(self) -> ComposeResult:
        yield ChatMarkdown("| name | what |\n|---|---|\n| alpha | `code` and **bold** |\n")


async def test_a_table_is_drawn_by_one_widget_and_its_text_can_be_selected():
    app = OneTable()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        grid = app.query_one(TableGrid)
        assert not app.query(MarkdownTableCellContents)
        assert [line.rstrip() for line in screen_lines(app)[:5]] == [
            "  ┌───────┬───────────────┐",
            "  │ name  │ what          │",
            "  ├───────┼───────────────┤",
            "  │ alpha │ code and bold │",
            "  └───────┴───────────────┘",
        ]
        app.screen.selections = {grid: Selection(None, None)}
        assert "│ alpha │ code and bold" in (app.screen.get_selected_text() or "")


@pytest.mark.server
async def test_a_streamed_table_is_one_widget_and_the_same_table_when_the_thread_is_opened_again(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await send_in_new_thread(pilot, "rich 1500")
        screen = app.screen
        await wait_for(pilot, lambda: not screen.run_in_progress and screen.chat.query(ChatTable), timeout=60)
        thread_id = screen.thread_id
        chat = screen.chat
        streamed = [grid.visual for grid in chat.query(TableGrid)]
        assert streamed, "the rich reply has tables"
        assert not chat.query(MarkdownTableCellContents), "no widget per cell"
        for grid in chat.query(ChatTable):
            assert len(grid.children) == 1
        shown = [grid for grid in chat.query(TableGrid) if grid.region and chat.region.contains_region(grid.region)]
        if shown:  # a table wholly in view is on screen, header and all
            header = shown[0].visual.headers[0].plain
            assert any(header in line and "│" in line for line in screen_lines(app))
    metadata = tag()
    await get_client(url=server_url).threads.update(thread_id, metadata=metadata)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        chat = app.screen.chat
        await wait_for(pilot, lambda: chat.query(TableGrid), what="the reply's last blocks, built")
        # the reply's last blocks are built when it opens, and the streamed reply keeps them too
        opened = [(grid.visual.headers, grid.visual.rows) for grid in chat.query(TableGrid)]
        assert opened == [(v.headers, v.rows) for v in streamed[-len(opened) :]]
