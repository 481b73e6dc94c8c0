"""When Python's cyclic garbage collector may pause the app.

A full collection walks every object the collector tracks. Textual gives each rendered line
seven little caches, so a running app holds 250,000 such objects or more, and walking them
froze the screen for 100-200 ms at random moments: in the middle of a streamed reply, under
a keystroke. (Textual itself pauses the collector while it scrolls: PAUSE_GC_ON_SCROLL.)

So: what exists once the app has started (modules, classes, the first screen) is frozen out
of the walk, and the oldest generation is collected when the user is idle and nothing
streams, not whenever a count runs over. The young generations are collected as usual:
they are small and quick, and free most garbage. Waiting costs memory only, so a busy app
collects early once it has grown by GROWTH_MB since the last full collection, and nothing
waits past MAX_DEFER seconds. (A minute's limit forced a 300-600 ms collection into every
minute of paging through a long thread, which grew by a few MB meanwhile.) After each full
collection the memory it freed goes back to the system (heap.py).
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterator

from . import heap

IDLE_SECONDS = 1.0  # no key or mouse event for this long
CHECK_SECONDS = 2.0  # how often the app asks `tick`
GROWTH_MB = 64.0
MAX_DEFER = 600.0
NEVER = 2**30  # a threshold the oldest generation's count never reaches
OLDEST_DEFAULT = 10  # CPython's threshold for the oldest generation


class Collector:
    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        collect: Callable[[int], object] = gc.collect,
        count: Callable[[], tuple[int, int, int]] = gc.get_count,
        give_back: Callable[[], object] = heap.give_back,
        resident: Callable[[], float | None] = heap.resident_mb,
    ) -> None:
        self._clock = clock
        self._collect = collect
        self._give_back = give_back
        self._resident = resident
        self._size_after: float | None = None  # MB held after the last full collection
        self._count = count
        self._thresholds: tuple[int, int, int] | None = None
        self._busy = 0
        self._last_input = self._last_full = clock()

    def start(self) -> None:
        """Freeze what exists now and take full collections into our hands."""
        if self._thresholds is not None:
            return
        young, middle, oldest = gc.get_threshold()
        # NEVER is not the interpreter's own: another collector holds it (an app in the same
        # process, or one that crashed before it stopped); due stays due, and stop() gives
        # back the default rather than NEVER.
        self._thresholds = (young, middle, OLDEST_DEFAULT if oldest == NEVER else oldest)
        gc.freeze()
        gc.set_threshold(young, middle, NEVER)
        self._size_after = self._resident()

    def stop(self) -> None:
        """Give the collector back as it was (the app is closing)."""
        if self._thresholds is None:
            return
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()
        self._thresholds = None

    def input_seen(self) -> None:
        self._last_input = self._clock()

    @property
    def is_busy(self) -> bool:
        return self._busy > 0

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """While this is open (a reply streams), a full collection waits."""
        self._busy += 1
        try:
            yield
        finally:
            self._busy -= 1

    @property
    def user_idle(self) -> bool:
        """No key or mouse event for IDLE_SECONDS, and nothing streams."""
        return not self._busy and self._clock() - self._last_input >= IDLE_SECONDS

    def tick(self) -> bool:
        """Run a full collection if one is due and now is a good time; True if it ran."""
        if self._thresholds is None:
            return False
        now = self._clock()
        # The count CPython compares with the threshold: young collections since the last full one.
        due = self._count()[2] >= self._thresholds[2]
        if not due or not (self.user_idle or self._grown() or now - self._last_full >= MAX_DEFER):
            return False
        self._collect(2)
        self._give_back()  # what the collection freed, to the system (heap.py)
        self._last_full = self._clock()
        self._size_after = self._resident()
        return True

    def _grown(self) -> bool:
        """Has the process grown by GROWTH_MB since the last full collection?"""
        size = self._resident()
        return size is not None and self._size_after is not None and size - self._size_after >= GROWTH_MB
