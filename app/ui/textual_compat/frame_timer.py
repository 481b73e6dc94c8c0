"""Textual's interval timers, on time again after a pause.

A Textual timer ticks on a grid (its start + n intervals). When it wakes past a grid point it
skips the ticks it missed and waits for the next point, but it counts one point too many: the
next tick comes one to two intervals later instead of at most one. A screen's update timer (60
frames a second) is paused whenever nothing needs painting, so the frame after an idle one came
17-33 ms after it instead of 0-17: whatever changes the screen twice in a row (a key echoed,
then its answer; the thread list's header, then its first page) waited that much longer for its
second frame. bench.threads' first page of 100,000 threads, the same server and fresh apps
taking turns: 127 ms median and 222 worst before, 97 and 124 after.

`steady_frames()` replaces `Timer._run` (Textual 8.2.8's loop, which no public API reaches)
with the same loop whose skip lands on the next grid point.
"""

from __future__ import annotations

import asyncio

from textual import timer
from textual.timer import EventTargetGone, Timer

TEXTUAL_RUN = Timer._run  # compat: Textual 8.2.8's loop (the tests compare the two)


async def steady_run(self: Timer) -> None:
    """Tick every interval on the grid that starts when the timer is first active; a tick missed
    (the timer paused, or the loop busy) is skipped, and the next one is the grid's next point."""
    from textual._time import get_time, sleep  # compat: the clock Textual's timers keep

    interval, repeat, skip = self._interval, self._repeat, self._skip  # compat
    awake: asyncio.Event = self._active  # compat
    count = 0
    await awake.wait()
    start = get_time()
    while repeat is None or count <= repeat:
        due = start + (count + 1) * interval
        now = get_time()
        if skip and due < now:
            count = int((now - start) / interval)  # Textual's own loop adds one more here
            continue
        await sleep(max(0.0, due - now))
        count += 1
        await awake.wait()
        if self._reset:  # compat: Timer.reset() asked for a new grid
            start, count, self._reset = get_time(), 0, False  # compat
            continue
        try:
            await self._tick(next_timer=due, count=count)  # compat: the callback, or the event
        except EventTargetGone:
            break


def steady_frames() -> None:
    """Timers skip to the next grid point after a pause, not one past it."""
    timer.Timer._run = steady_run  # type: ignore[method-assign]  # compat
