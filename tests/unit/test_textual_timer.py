"""After a pause, a Textual interval timer's next tick is the next point of its grid, not one
past it (threadbench.ui.textual_compat.frame_timer): a screen's frame after an idle one is not held back a
whole extra frame. Driven on a made-up clock: no real time is measured."""

from __future__ import annotations

import asyncio

import textual.timer
from support.compat import needs_compat
from textual import _time
from textual.timer import EventTargetGone
from threadbench.ui.textual_compat import frame_timer
from threadbench.ui.textual_compat.frame_timer import steady_frames

pytestmark = needs_compat


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def get_time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


class FrameTimer:
    """What Timer._run reads of a timer: an update timer (interval 1 on the made-up clock)
    that pauses itself at each tick, as a screen's does, and stops at the third."""

    def __init__(self, clock: Clock) -> None:
        self._interval, self._repeat, self._skip, self._reset = 1.0, None, True, False
        self._active = asyncio.Event()
        self._active.set()
        self.clock = clock
        self.ticks: list[float] = []

    async def _tick(self, *, next_timer: float, count: int) -> None:
        self.ticks.append(self.clock.now)
        self._active.clear()  # nothing left to paint: paused until the next change
        if len(self.ticks) == 3:
            raise EventTargetGone()


async def resumed_after_idle(run, monkeypatch) -> list[float]:
    clock = Clock()
    monkeypatch.setattr(_time, "get_time", clock.get_time)
    monkeypatch.setattr(_time, "sleep", clock.sleep)
    monkeypatch.setattr(textual.timer, "sleep", clock.sleep)  # Textual's loop imported it by name
    timer = FrameTimer(clock)
    loop = asyncio.create_task(run(timer))
    while not timer.ticks:  # the first frame, at 1
        await asyncio.sleep(0)
    for _ in range(5):
        await asyncio.sleep(0)
    clock.now = 5.3  # idle until something changes the screen at 5.3...
    timer._active.set()
    while len(timer.ticks) < 2:  # ...painted at once
        await asyncio.sleep(0)
    for _ in range(5):
        await asyncio.sleep(0)
    timer._active.set()  # and changed again right after that frame
    await asyncio.wait_for(loop, 5)
    return timer.ticks


async def test_the_frame_after_an_idle_one_comes_at_the_next_grid_point(monkeypatch) -> None:
    steady_frames()
    assert await resumed_after_idle(frame_timer.steady_run, monkeypatch) == [1.0, 5.3, 6.0]


async def test_textual_alone_held_it_back_one_frame_more(monkeypatch) -> None:
    """What steady_frames mends; if this fails, Textual's loop changed: check the patch."""
    ticks = await resumed_after_idle(frame_timer.TEXTUAL_RUN, monkeypatch)
    assert ticks == [1.0, 5.3, 7.0]
