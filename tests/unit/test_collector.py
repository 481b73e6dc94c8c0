"""The garbage-collection policy: full collections wait for an idle moment, never forever."""

from __future__ import annotations

import gc

import pytest
from support.driving import TERMINAL, make_app, send_in_new_thread, wait_for, wait_ready
from threadbench.ui import heap
from threadbench.ui.collector import GROWTH_MB, IDLE_SECONDS, MAX_DEFER, NEVER, Collector


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def made():
    clock, runs, counts = Clock(), [], [(0, 0, 0)]
    collector = Collector(
        clock=clock, collect=runs.append, count=lambda: counts[0], give_back=lambda: runs.append("give back")
    )
    collector.start()
    yield collector, clock, runs, counts
    collector.stop()


def test_start_defers_full_collections_and_stop_gives_them_back():
    before = gc.get_threshold()
    collector = Collector()
    collector.start()
    try:
        assert gc.get_threshold()[:2] == before[:2]
        assert gc.get_threshold()[2] == NEVER
        assert gc.get_freeze_count() > 0
    finally:
        collector.stop()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_due_collection_runs_once_the_user_is_idle(made):
    collector, clock, runs, counts = made
    assert not collector.tick()  # not due
    counts[0] = (0, 0, 10)  # ten young collections since the last full one: CPython's default
    collector.input_seen()
    clock.now += IDLE_SECONDS / 2
    assert not collector.tick()  # a key was just pressed
    clock.now += IDLE_SECONDS
    assert collector.tick()
    assert runs == [2, "give back"]  # and what it freed goes back to the system


def test_streaming_defers_a_due_collection_but_not_past_the_limit(made):
    collector, clock, runs, counts = made
    counts[0] = (0, 0, 10)
    with collector.busy():
        clock.now += IDLE_SECONDS * 5
        assert not collector.tick()
        clock.now += MAX_DEFER
        assert collector.tick()
    assert runs == [2, "give back"]
    clock.now += IDLE_SECONDS
    assert collector.tick()  # idle again, and still due (the fake count did not reset)


def test_a_busy_app_collects_early_once_it_has_grown_enough():
    """Waiting costs memory only: a collection due while the user is busy runs once the
    process has grown by GROWTH_MB since the last one, not on a short timer."""
    clock, runs, counts, size = Clock(), [], [(0, 0, 10)], [100.0]
    collector = Collector(
        clock=clock, collect=runs.append, count=lambda: counts[0], give_back=lambda: None, resident=lambda: size[0]
    )
    collector.start()
    try:
        with collector.busy():
            clock.now += 120  # two minutes of streaming or paging: the old limit was one
            size[0] += GROWTH_MB / 2
            assert not collector.tick()
            size[0] += GROWTH_MB / 2
            assert collector.tick() and runs == [2]
            size[0] += GROWTH_MB / 2  # measured from what it held after that collection
            assert not collector.tick()
    finally:
        collector.stop()


def test_where_memory_cannot_be_read_the_time_limit_still_holds():
    clock, runs = Clock(), []
    collector = Collector(
        clock=clock, collect=runs.append, count=lambda: (0, 0, 10), give_back=lambda: None, resident=lambda: None
    )
    collector.start()
    try:
        with collector.busy():
            clock.now += MAX_DEFER - 1
            assert not collector.tick()
            clock.now += 1
            assert collector.tick()
    finally:
        collector.stop()


def test_the_process_size_is_read():
    size = heap.resident_mb()
    assert size is not None and 10 < size < 10_000


def test_a_collector_started_while_another_holds_the_threshold_still_collects(made):
    """The threshold another collector left at NEVER (an app that crashed before it
    stopped) is not taken for the interpreter's: a due collection still runs."""
    collector, clock, runs, counts = made
    second = Collector(clock=clock, collect=runs.append, count=lambda: counts[0])
    second.start()
    try:
        counts[0] = (0, 0, 10)
        clock.now += IDLE_SECONDS
        assert second.tick() and runs == [2]
    finally:
        second.stop()
    assert gc.get_threshold()[2] != NEVER


async def test_the_app_holds_full_collections_while_a_reply_streams(server_url):
    before = gc.get_threshold()
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        assert gc.get_threshold()[2] == NEVER
        # (opening the newest thread holds them too, until it is shown)
        await wait_for(pilot, lambda: not app.collector.is_busy, what="the first thread shown")
        await send_in_new_thread(pilot, "long 1500")
        await wait_for(pilot, lambda: app.collector.is_busy, what="the reply streaming")
        await wait_for(pilot, lambda: not app.screen.conversation.run_in_progress, what="the run's end")
        # (the state and history read again after the run hold them a moment more)
        await wait_for(pilot, lambda: not app.collector.is_busy, what="the hold let go after the run")
    assert gc.get_threshold() == before
