"""Pilot tests of the thread list on its own (no server): keys, the mouse, paging both ways,
the ticking ages, wide titles and 10,000 rows. They read what the list draws."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import threadbench.ui.widgets.thread_list as thread_list_module
from rich.cells import cell_len
from support.driving import shown_row, until
from textual import events
from textual.app import App, ComposeResult
from threadbench.models import ThreadSummary
from threadbench.ui.widgets.thread_list import ThreadList

START = datetime(2026, 1, 1, tzinfo=UTC)
SIZE = (40, 12)
"""A list 40 cells wide and 12 lines tall: six rows on screen."""


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class ListApp(App):
    def __init__(self) -> None:
        super().__init__()
        self.clock = Clock()
        self.chosen: list[tuple[str, bool]] = []
        self.asked: list[str] = []

    def compose(self) -> ComposeResult:
        yield ThreadList(clock=self.clock, id="thread-list")

    def on_thread_list_chosen(self, message: ThreadList.Chosen) -> None:
        self.chosen.append((message.thread_id, message.opened))

    def on_thread_list_need_more(self) -> None:
        self.asked.append("more")

    def on_thread_list_need_earlier(self) -> None:
        self.asked.append("earlier")

    def on_thread_list_need_first(self) -> None:
        self.asked.append("first")


def rows(count: int, start: int = 0, **fields) -> list[ThreadSummary]:
    return [
        ThreadSummary(thread_id=f"t{n}", title=f"Thread {n}", status="idle", updated_at=START, **fields)
        for n in range(start, start + count)
    ]


def drawn(threads: ThreadList) -> list[str]:
    """The list's lines on screen, as text."""
    return [threads.render_line(y).text for y in range(threads.scrollable_content_region.height)]


async def started(pilot, count: int, *, exhausted: bool = True) -> ThreadList:
    threads = pilot.app.query_one(ThreadList)
    threads.set_threads(rows(count), exhausted=exhausted, end=count)
    threads.focus()
    await pilot.pause()
    return threads


async def test_keys_move_the_cursor_and_enter_opens():
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 20)
        assert threads.highlighted is None
        await pilot.press("down")
        assert threads.highlighted == 0
        await pilot.press("j", "j", "k")
        assert threads.highlighted_thread_id == "t1"
        await pilot.press("end")
        assert threads.highlighted == 19
        assert drawn(threads)[-2].strip() == "Thread 19"  # scrolled to it
        await pilot.press("down")
        assert threads.highlighted == 0, "the last row wraps to the first when there are no more"
        await pilot.press("up")
        assert threads.highlighted == 19
        await pilot.press("home")
        assert threads.highlighted == 0 and threads.scroll_y == 0
        await pilot.press("pagedown")
        assert threads.highlighted == 6, "a page is the screen's 12 lines: six rows"
        await pilot.press("pagedown", "pageup")
        assert threads.highlighted == 6
        app.chosen.clear()
        await pilot.press("enter")
        await pilot.pause()
        assert app.chosen == [("t6", True)]
        await pilot.press("j")
        await pilot.pause()
        assert app.chosen[-1] == ("t7", False), "moving the cursor shows the row (not opened)"


async def test_the_highlighted_row_is_drawn_in_the_cursor_colours_across_the_width():
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 3)
        threads.highlighted = 1
        await pilot.pause()
        width = threads.scrollable_content_region.width
        cursor = threads.render_line(2)
        other = threads.render_line(0)
        assert cursor.cell_length == width and other.cell_length == width
        backgrounds = {segment.style.bgcolor for segment in cursor if segment.style}
        assert len(backgrounds) == 1, "one colour from edge to edge, padding included"
        assert backgrounds != {segment.style.bgcolor for segment in other if segment.style}


async def test_a_click_opens_the_row_and_the_wheel_scrolls():
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 20)
        await pilot.click(ThreadList, offset=(5, 5))  # the second line of the third row
        await pilot.pause()
        assert threads.highlighted == 2
        assert app.chosen[-2:] == [("t2", False), ("t2", True)]
        assert threads.scroll_y == 0
        for _ in range(3):
            threads.post_message(events.MouseScrollDown(threads, 5, 5, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert threads.scroll_y > 0
        assert threads.highlighted == 2, "the wheel scrolls; the cursor stays"
        assert threads.visible_threads()[0].thread_id != "t0"
        assert "Thread 0" not in drawn(threads)[0]


async def test_near_the_end_the_list_asks_for_more_and_a_page_lands_below():
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 30, exhausted=False)
        threads.highlighted = 0
        await pilot.pause()
        assert "more" not in app.asked
        threads.highlighted = 30 - thread_list_module.PREFETCH_ROWS
        await pilot.pause()
        assert "more" in app.asked
        app.asked.clear()
        await pilot.press("end")
        await pilot.pause()
        app.asked.clear()
        await pilot.press("down")
        await pilot.pause()
        assert app.asked == ["more"] and threads.highlighted == 29, "no wrapping while rows are coming"
        assert threads.append_threads(rows(10, 30), start=30, end=40, exhausted=True)
        await pilot.pause()
        assert threads.row_count == 40 and threads.highlighted == 29
        await pilot.press("down")
        assert threads.highlighted_thread_id == "t30"
        assert not threads.append_threads(rows(10, 50), start=50, end=60, exhausted=True), "not where the rows end"


async def test_scrolling_down_asks_for_more():
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 30, exhausted=False)
        threads.scroll_to(y=threads.max_scroll_y - 2, animate=False, immediate=True)
        await pilot.pause()
        assert "more" in app.asked


async def test_a_full_window_drops_rows_and_fetches_them_again_without_moving_the_screen(monkeypatch):
    monkeypatch.setattr(ThreadList, "MAX_ROWS", 30)
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 20, exhausted=False)
        assert threads.append_threads(rows(10, 20), start=20, end=30, exhausted=False)
        threads.highlight_thread("t25")
        await pilot.pause()

        def where() -> tuple:
            return threads.highlighted_thread_id, threads.row_region(threads.highlighted).y - threads.scroll_y

        before, shown, chosen = where(), drawn(threads), len(app.chosen)
        assert threads.append_threads(rows(10, 30), start=30, end=40, exhausted=False)
        await pilot.pause()
        assert threads.threads[0].thread_id == "t20" and not threads.window.at_top, "the first page went"
        assert where() == before and drawn(threads) == shown, "the screen does not move"
        assert len(app.chosen) == chosen, "the row that stays highlighted is not opened again"

        threads.highlighted = 0
        await pilot.pause()
        assert "earlier" in app.asked
        app.asked.clear()
        await pilot.press("up")
        assert app.asked == ["earlier"] and threads.highlighted == 0, "no wrapping while rows are coming"
        await pilot.press("home")
        assert app.asked == ["earlier", "first"], "home asks for the first rows, which were dropped"

        before, shown = where(), drawn(threads)
        chunk = threads.window.earlier()
        assert chunk is not None and threads.prepend_threads(rows(20), chunk)
        await pilot.pause()
        assert threads.window.at_top and [threads.threads[0].thread_id, threads.threads[-1].thread_id] == ["t0", "t29"]
        assert where() == before == ("t20", before[1]) and drawn(threads) == shown
        assert not threads.prepend_threads(rows(20), chunk), "not the chunk above any more"

        # a highlighted row that is dropped is highlighted again when it comes back
        threads.highlight_thread("t5")
        assert threads.append_threads(rows(10, 30), start=30, end=40, exhausted=True)
        assert threads.highlighted is None
        chunk = threads.window.earlier()
        assert chunk is not None and threads.prepend_threads(rows(20), chunk)
        assert threads.highlighted_thread_id == "t5"


async def test_the_ages_tick_on_screen_only(monkeypatch):
    monkeypatch.setattr(thread_list_module, "AGE_SECONDS", 0.05)
    built: list[str] = []
    real_row = thread_list_module.thread_row

    def counted_row(thread, *args, **kwargs):
        built.append(thread.thread_id)
        return real_row(thread, *args, **kwargs)

    monkeypatch.setattr(thread_list_module, "thread_row", counted_row)
    ticks: list[int] = []
    real_refresh = ThreadList.refresh_ages

    def counted_refresh(self) -> None:
        real_refresh(self)
        ticks.append(len(ticks))

    monkeypatch.setattr(ThreadList, "refresh_ages", counted_refresh)

    async def a_tick_drawn(pilot) -> None:
        """Until the timer's next tick, and what it asked drawn."""
        seen = len(ticks)
        await until(lambda: len(ticks) > seen, pilot.pause, 10, "the ages' next tick")
        await pilot.pause()

    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 50)
        assert "○ idle  now" in drawn(threads)[1]
        built.clear()
        app.clock.now = START + timedelta(minutes=5)
        await a_tick_drawn(pilot)
        assert "○ idle  5m" in drawn(threads)[1]
        assert set(built) == {f"t{n}" for n in range(6)}, "only the six rows on screen are built again"
        built.clear()
        await a_tick_drawn(pilot)
        assert built == [], "an age that reads the same is not drawn again"


async def test_a_long_wide_title_is_cut_to_the_width():
    title = "中文标题：关于数据分析与研究报告的详细总结以及后续的工作计划安排"
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = pilot.app.query_one(ThreadList)
        threads.set_threads([ThreadSummary(thread_id="wide", title=title, status="busy")], exhausted=True, end=1)
        await pilot.pause()
        lines = shown_row(threads, "wide").split("\n")
        width = threads.scrollable_content_region.width
        assert len(lines) == 2 and all(cell_len(line) == width for line in lines)
        first = lines[0].strip()
        assert first.endswith("…") and title.startswith(first.removesuffix("…").rstrip())  # a half cell left: a space
        assert cell_len(first) <= width - 2
        assert lines[1].strip().startswith("● busy")
        await pilot.resize_terminal(30, 12)
        await pilot.pause()
        narrow = shown_row(threads, "wide").split("\n")[0].strip()
        assert cell_len(narrow) < cell_len(first) and narrow.endswith("…"), "cut again for the new width"


async def test_a_found_line_makes_a_row_three_lines_and_a_click_on_it_opens_that_row():
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = pilot.app.query_one(ThreadList)
        threads.found_lines = {"t0": "it failed: connection refused"}
        threads.set_threads(rows(3), exhausted=True, end=3)
        await pilot.pause()
        assert shown_row(threads, "t0").split("\n")[2].strip() == "“it failed: connection refused"
        assert threads.row_region(1).y == 3
        await pilot.click(ThreadList, offset=(5, 3))
        await pilot.pause()
        assert app.chosen[-1] == ("t1", True)


async def test_a_row_changes_in_place_and_a_removed_row_goes():
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 3)
        threads.update_thread(ThreadSummary(thread_id="t1", title="Renamed", status="error", updated_at=START))
        threads.mark_waiting("t2", True)
        await pilot.pause()
        assert shown_row(threads, "t1").split("\n")[0].strip() == "Renamed"
        assert "✗ error" in shown_row(threads, "t1")
        assert "? waiting" in shown_row(threads, "t2")
        threads.highlight_thread("t2")
        await pilot.pause()
        chosen = len(app.chosen)
        assert threads.remove_thread("t0")
        assert not threads.remove_thread("t0")
        await pilot.pause()
        assert [line.strip() for line in drawn(threads)[:4:2]] == ["Renamed", "Thread 2"]
        assert drawn(threads)[4].strip() == ""
        assert threads.highlighted_thread_id == "t2" and len(app.chosen) == chosen, "the cursor stays on its thread"
        assert threads.remove_thread("t2")
        await pilot.pause()
        assert threads.highlighted_thread_id == "t1" and app.chosen[-1] == ("t1", False), "the row left is shown"


async def test_ten_thousand_rows_mount_without_a_widget_or_a_drawing_per_row(monkeypatch):
    built: list[str] = []
    real_row = thread_list_module.thread_row
    monkeypatch.setattr(
        thread_list_module,
        "thread_row",
        lambda thread, *a, **k: built.append(thread.thread_id) or real_row(thread, *a, **k),
    )
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 10_000)
        assert len(threads.children) == 0 and len(list(app.screen.walk_children())) < 10
        assert len(set(built)) <= 6, "only the rows on screen are drawn"
        assert threads.virtual_size.height == 20_000
        await pilot.press("end")
        await pilot.pause()
        assert drawn(threads)[-2].strip() == "Thread 9999"
        assert len(set(built)) <= 13


@pytest.mark.parametrize("focused", [True, False])
async def test_the_cursor_shows_with_or_without_the_focus(focused: bool):
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 2)
        threads.highlighted = 0
        if not focused:
            threads.blur()
        await pilot.pause()
        cursor = {s.style.bgcolor for s in threads.render_line(0) if s.style}
        rest = {s.style.bgcolor for s in threads.render_line(2) if s.style}
        assert cursor != rest


async def test_the_row_under_the_mouse_is_lit():
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        threads = await started(pilot, 3)

        def background(y: int) -> set:
            return {s.style.bgcolor for s in threads.render_line(y) if s.style}

        plain = background(2)
        await pilot.hover(ThreadList, offset=(5, 3))
        await pilot.pause()
        assert background(2) == background(3) != plain, "both lines of the second row"
        assert background(0) == plain
        await pilot.hover("#thread-list", offset=(5, 11))  # below the rows
        await pilot.pause()
        assert background(2) == plain
