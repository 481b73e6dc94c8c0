"""Which of the server's threads the thread list holds: a sliding window of chunks.

The list keeps at most `max_rows` rows. Each fetch adds a chunk: the server offsets it
covered and the rows it gave (fewer than the offsets span when a free-text filter is
applied here). A chunk added at one end drops whole chunks from the other; the chunks
dropped above are kept (offsets only) so the same server ranges can be fetched again
when the user goes back up. Below, the next fetch simply starts where the window ends.

Offsets are the server's at the time of the fetch: a thread created or deleted meanwhile
shifts them, so a row may come back twice (dropped here) or be missed, as with any
offset paging.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import ThreadSummary


@dataclass(eq=False)
class Chunk:
    start: int
    """Server offset of the first row asked for."""
    end: int
    """Server offset after the last row asked for."""
    rows: int = 0
    """How many rows of the window came from it."""


class ThreadWindow:
    def __init__(self, max_rows: int) -> None:
        self.max_rows = max_rows
        self.threads: list[ThreadSummary] = []
        self.chunks: list[Chunk] = []
        self.above: list[Chunk] = []
        """Chunks dropped from the top, the nearest last."""
        self.exhausted = False
        """The window reaches the server's last row."""

    @property
    def at_top(self) -> bool:
        return not self.above

    @property
    def end(self) -> int:
        """Where the next page below the window starts."""
        return self.chunks[-1].end if self.chunks else 0

    @property
    def last_row_number(self) -> int:
        """Rows from the first on the server to the window's last (for "N of M threads")."""
        return sum(chunk.rows for chunk in self.above) + len(self.threads)

    def earlier(self) -> Chunk | None:
        """The server range to fetch again to extend the window upwards."""
        return self.above[-1] if self.above else None

    def reset(self, threads: list[ThreadSummary], end: int, exhausted: bool) -> None:
        """The first rows on the server, offsets 0 to `end`."""
        self.threads = list(threads)
        self.chunks = [Chunk(0, end, len(self.threads))]
        self.above = []
        self.exhausted = exhausted

    def replace(self, threads: list[ThreadSummary]) -> None:
        """The app rearranged its rows (put a thread it created on top): the first chunk
        takes the difference."""
        if not self.chunks:
            self.chunks = [Chunk(0, 0)]
        self.chunks[0].rows = max(0, self.chunks[0].rows + len(threads) - len(self.threads))
        self.threads = list(threads)

    def append(
        self, threads: list[ThreadSummary], start: int, end: int, exhausted: bool
    ) -> tuple[list[ThreadSummary], int] | None:
        """Add the rows of server offsets `start` to `end` below the window; returns the
        rows added and how many rows were dropped from the top, or None when the window
        no longer ends at `start` (it changed while the page was fetched)."""
        if start != self.end:
            return None
        fresh = self._unknown(threads)
        self.threads.extend(fresh)
        self.chunks.append(Chunk(start, end, len(fresh)))
        self.exhausted = exhausted
        dropped = 0
        while len(self.threads) - dropped > self.max_rows and len(self.chunks) > 1:
            chunk = self.chunks.pop(0)
            dropped += chunk.rows
            self.above.append(chunk)
        del self.threads[:dropped]
        return fresh, dropped

    def prepend(self, threads: list[ThreadSummary], chunk: Chunk) -> tuple[list[ThreadSummary], int] | None:
        """Put back the rows of `chunk` (from `earlier()`) above the window; returns the
        rows added and how many rows were dropped from the bottom, or None when `chunk`
        is no longer the one just above (the window changed while it was fetched)."""
        if chunk is not self.earlier():
            return None
        self.above.pop()
        fresh = self._unknown(threads)
        self.threads[:0] = fresh
        chunk.rows = len(fresh)
        self.chunks.insert(0, chunk)
        dropped = 0
        while len(self.threads) - dropped > self.max_rows and len(self.chunks) > 1:
            dropped += self.chunks.pop().rows
            self.exhausted = False
        if dropped:
            del self.threads[-dropped:]
        return fresh, dropped

    def remove(self, index: int) -> None:
        del self.threads[index]
        for chunk in self.chunks:
            if index < chunk.rows:
                chunk.rows -= 1
                return
            index -= chunk.rows

    def chunk_start(self, index: int) -> int:
        """The server offset of the chunk that holds row `index`."""
        for chunk in self.chunks:
            if index < chunk.rows:
                return chunk.start
            index -= chunk.rows
        return self.chunks[-1].start if self.chunks else 0

    def _unknown(self, threads: list[ThreadSummary]) -> list[ThreadSummary]:
        known = {t.thread_id for t in self.threads}
        return [t for t in threads if t.thread_id not in known]
