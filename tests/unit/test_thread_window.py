"""The thread list's window: which server rows it holds, and which ranges to fetch again."""

from __future__ import annotations

from threadbench.models import ThreadSummary
from threadbench.thread_window import ThreadWindow


def rows(first: int, count: int) -> list[ThreadSummary]:
    return [ThreadSummary(thread_id=f"t{n}") for n in range(first, first + count)]


def ids(window: ThreadWindow) -> list[str]:
    return [t.thread_id for t in window.threads]


def test_pages_added_below_drop_whole_chunks_from_the_top():
    window = ThreadWindow(max_rows=25)
    window.reset(rows(0, 10), end=10, exhausted=False)
    assert window.append(rows(10, 10), 10, 20, exhausted=False)[1] == 0
    fresh, dropped = window.append(rows(20, 10), 20, 30, exhausted=True)
    assert (len(fresh), dropped) == (10, 10)
    assert ids(window) == [f"t{n}" for n in range(10, 30)]
    assert window.exhausted and not window.at_top
    assert window.last_row_number == 30
    assert window.chunk_start(0) == 10 and window.chunk_start(15) == 20


def test_the_dropped_range_is_fetched_again_and_the_bottom_dropped():
    window = ThreadWindow(max_rows=25)
    window.reset(rows(0, 10), end=10, exhausted=False)
    window.append(rows(10, 10), 10, 20, exhausted=False)
    window.append(rows(20, 10), 20, 30, exhausted=True)
    chunk = window.earlier()
    assert (chunk.start, chunk.end) == (0, 10)
    fresh, dropped = window.prepend(rows(0, 10), chunk)
    assert (len(fresh), dropped) == (10, 10)
    assert ids(window) == [f"t{n}" for n in range(0, 20)]
    assert window.at_top and not window.exhausted
    assert window.end == 20 and window.last_row_number == 20


def test_a_local_filter_keeps_the_server_ranges_of_fewer_rows():
    window = ThreadWindow(max_rows=5)
    window.reset(rows(0, 3), end=40, exhausted=False)  # 3 of 40 server rows matched
    window.append(rows(40, 3), 40, 90, exhausted=False)
    assert ids(window) == ["t40", "t41", "t42"]
    assert window.end == 90 and window.last_row_number == 6
    chunk = window.earlier()
    assert (chunk.start, chunk.end) == (0, 40)


def test_a_page_that_arrives_after_the_window_moved_is_refused():
    window = ThreadWindow(max_rows=15)
    window.reset(rows(0, 10), end=10, exhausted=False)
    assert window.append(rows(0, 10), 0, 10, exhausted=False) is None
    window.append(rows(10, 10), 10, 20, exhausted=False)
    stale = window.earlier()
    window.reset(rows(0, 10), end=10, exhausted=False)  # a new search
    assert window.prepend(rows(0, 10), stale) is None
    assert ids(window) == [f"t{n}" for n in range(10)]


def test_rows_the_app_adds_or_removes_count_in_their_chunk():
    window = ThreadWindow(max_rows=100)
    window.reset(rows(0, 10), end=10, exhausted=True)
    window.replace([ThreadSummary(thread_id="new"), *window.threads])
    assert window.chunks[0].rows == 11 and window.last_row_number == 11
    window.remove(3)
    assert window.chunks[0].rows == 10 and len(window.threads) == 10
