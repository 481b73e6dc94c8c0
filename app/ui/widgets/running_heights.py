"""Heights of a column of entries, guessed until measured, and where each entry starts:
the entry at a line is found by bisection, and a change counts the starts again only
from the first entry that changed."""

from __future__ import annotations

from bisect import bisect_right


class RunningHeights:
    def __init__(self) -> None:
        self.heights: list[int] = []
        self.known: list[bool] = []  # measured (else guessed)
        self._tops: list[int] = [0]  # where each entry starts; the last: the total
        self._right_to = 0  # _tops are right up to this entry

    def __len__(self) -> int:
        return len(self.heights)

    def reset(self, heights: list[int], known: list[bool]) -> None:
        self.heights, self.known, self._right_to = heights, known, 0

    def append(self) -> None:
        self.heights.append(0)
        self.known.append(False)

    def keep(self, kept: list[bool]) -> None:
        """Only the entries where `kept` is true stay."""
        self.heights = [height for height, keep in zip(self.heights, kept, strict=True) if keep]
        self.known = [known for known, keep in zip(self.known, kept, strict=True) if keep]
        self._right_to = 0

    def set(self, index: int, height: int, known: bool) -> int:
        """Entry `index` is `height` high; by how much that changed it."""
        change = height - self.heights[index]
        self.heights[index], self.known[index] = height, known
        if change:
            self.moved(index)
        return change

    def moved(self, index: int) -> None:
        """Entries after `index` may start elsewhere."""
        self._right_to = min(self._right_to, index)

    @property
    def tops(self) -> list[int]:
        tops, start = self._tops, self._right_to
        if start < len(self.heights) or len(tops) != len(self.heights) + 1:
            start = min(start, len(tops) - 1)
            del tops[start + 1 :]
            total = tops[start]
            for height in self.heights[start:]:
                total += height
                tops.append(total)
            self._right_to = len(self.heights)
        return tops

    @property
    def total(self) -> int:
        return self.tops[-1]

    def at(self, line: int) -> int:
        """The entry that holds `line`."""
        return max(0, min(len(self.heights) - 1, bisect_right(self.tops, line) - 1))
