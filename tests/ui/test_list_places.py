"""Pilot: a row's place in the thread list (issue 54): after a delete the next row has the
cursor (else the one before) and opens; a thread made here goes where the sort puts it; the open
thread that ran moves where the sort puts it ("updated ↓": the top)."""

from __future__ import annotations

import pytest
from support.driving import TERMINAL, make_app, submit_search, tag, tagged_threads, wait_for, wait_ready
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server


async def show_tagged(pilot, metadata: dict[str, str], ids: list[str]):
    """The list showing only these threads (their order the server's), the focus on it."""
    app = pilot.app
    box = app.screen.query_one("#thread-search")
    box.focus()
    await pilot.pause()
    box.value = f"suite={metadata['suite']}"
    await submit_search(pilot)
    threads = app.screen.sidebar.thread_list
    await wait_for(pilot, lambda: sorted(t.thread_id for t in threads.threads) == sorted(ids), what="the rows")
    return threads


async def test_after_a_delete_the_next_row_has_the_cursor_else_the_one_before(server_url):
    metadata = tag()
    newest, middle, oldest = await tagged_threads(server_url, metadata, 3)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = await show_tagged(pilot, metadata, [newest, middle, oldest])
        screen = app.screen
        for gone, then in ((middle, oldest), (oldest, newest)):
            threads.highlight_thread(gone)
            await wait_for(pilot, lambda: screen.conversation.thread_id == gone, what="the row open")
            await pilot.press("x")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
            await pilot.press("y")
            await wait_for(pilot, lambda: threads.thread(gone) is None, what="the row gone")
            await wait_for(pilot, lambda: threads.highlighted_thread_id == then, what=f"the cursor on {then}")
            await wait_for(pilot, lambda: screen.conversation.thread_id == then, what="that row open")


async def test_a_copy_goes_where_the_sort_puts_it(server_url):
    metadata = tag()
    ids = await tagged_threads(server_url, metadata, 2)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = await show_tagged(pilot, metadata, ids)
        screen = app.screen
        await pilot.press("s")  # updated ↑: the newest last
        await wait_for(
            pilot, lambda: screen.sidebar.sort[2] == "updated ↑" and [t.thread_id for t in threads.threads] == ids[::-1]
        )
        threads.highlight_thread(ids[0])
        await pilot.press("c")
        await wait_for(pilot, lambda: len(threads.threads) == 3, what="the copy listed")
        copy = screen.sidebar.last_copy
        assert [t.thread_id for t in threads.threads] == [*ids[::-1], copy.thread_id]  # the end, not the top
        assert threads.highlighted == 2
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: len(threads.threads) == 2, what="the copy undone")


async def test_the_open_thread_that_ran_moves_to_the_top_under_updated_down(server_url):
    metadata = tag()
    newer, older = await tagged_threads(server_url, metadata, 2)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = await show_tagged(pilot, metadata, [newer, older])
        screen = app.screen
        assert screen.sidebar.sort[2] == "updated ↓" and [t.thread_id for t in threads.threads] == [newer, older]
        threads.highlight_thread(older)
        await wait_for(pilot, lambda: screen.conversation.thread_id == older, what="the older open")
        screen.query_one(Composer).focus()
        await pilot.press(*"hello again", "enter")
        await wait_for(
            pilot, lambda: [t.thread_id for t in threads.threads] == [older, newer], what="the ran row on top"
        )
        assert threads.highlighted_thread_id == older and screen.conversation.thread_id == older
