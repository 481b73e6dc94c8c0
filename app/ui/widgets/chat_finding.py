"""Finding words in the thread (ctrl+f in the chat): every occurrence marked where it is
drawn, n and N (or the find bar's enter) to the next and the previous, "3 of 17"; a match in
a folded tool call opens it. Mixed into ChatLog (chat_log.py), whose lines it reads."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message
from textual.scroll_view import ScrollView

from .chat_entries import ChatLine, Entry, MessageEntry

if TYPE_CHECKING:
    from textual.cache import LRUCache

    from .running_heights import RunningHeights

    _Base = ScrollView
else:
    _Base = object


@dataclass
class Match:
    entry: int
    occurrence: int  # which occurrence in the entry's text


class FindsInThread(_Base):
    class FindRequested(Message):
        """ctrl+f: the find bar is wanted."""

    @dataclass
    class FindMoved(Message):
        """n or N went to another match: which, of how many."""

        current: int
        count: int

    _query = ""
    _matches: list[Match] = []
    _current = -1
    _current_at: tuple[int, int] | None = None
    """(content line, column) of the current match."""

    if TYPE_CHECKING:  # (ChatLog's)
        entries: list[Entry]
        opened: set[str]
        _strips: LRUCache
        _rows: RunningHeights

        def shown(self, entry: Entry) -> bool: ...
        def lines_of(self, index: int) -> list[ChatLine]: ...
        def _show_line(self, line_no: int) -> None: ...
        def _changed(self, index: int = 0) -> None: ...

    def action_find(self) -> None:
        self.post_message(self.FindRequested())

    def find(self, query: str) -> int:
        """Mark every occurrence of `query` (any case) in the thread; how many there are."""
        self._query = query.casefold()
        self._find_again()
        self._strips.clear()
        self.refresh()
        return len(self._matches)

    def _find_again(self) -> None:
        self._matches, self._current, self._current_at = [], -1, None
        if not self._query:
            return
        for index, entry in enumerate(self.entries):
            if self.shown(entry):
                count = _searchable(entry).count(self._query)
                self._matches += [Match(index, occurrence) for occurrence in range(count)]

    @property
    def find_position(self) -> tuple[int, int]:
        """(which match is current, from 1; how many there are)."""
        return self._current + 1, len(self._matches)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "find_next":
            return bool(self._query)  # (else n is the screen's: a new thread)
        return True

    def action_find_next(self, step: int) -> None:
        """n / N: the next or previous match, scrolled into view (a fold that holds it opened)."""
        if not self._matches:
            return
        self._current = (self._current + step) % len(self._matches)
        match = self._matches[self._current]
        entry = self.entries[match.entry]
        self._current_at = self._locate(match)
        if self._current_at is None and any(key not in self.opened for key in entry.folds()):
            self.opened.update(entry.folds())
            self._changed(match.entry)
            self._current_at = self._locate(match)
        self._strips.clear()
        self._show_line(self._current_at[0] if self._current_at is not None else self._rows.tops[match.entry])
        self.refresh()
        self.post_message(self.FindMoved(*self.find_position))

    def _locate(self, match: Match) -> tuple[int, int] | None:
        """(content line, column) of a match: its entry's nth occurrence among its drawn lines
        (None when the drawing breaks it: a word wrapped, Markdown's marks in the text)."""
        top = self._rows.tops[match.entry] + self.entries[match.entry].margin
        found = (
            (top + row, start)
            for row, line in enumerate(self.lines_of(match.entry))
            for start in _occurrences(line.content.plain.casefold(), self._query)
        )
        return next(itertools.islice(found, match.occurrence, None), None)

    def _marks(self, line: ChatLine, line_no: int) -> tuple[tuple[int, int, bool], ...]:
        """Where the query is in a line, and which is the current match."""
        return tuple(
            (start, start + len(self._query), (line_no, start) == self._current_at)
            for start in _occurrences(line.content.plain.casefold(), self._query)
        )


def _occurrences(text: str, query: str) -> Iterator[int]:
    start = text.find(query) if query else -1
    while start >= 0:
        yield start
        start = text.find(query, start + len(query))


def _searchable(entry: Entry) -> str:
    text = entry.source
    if isinstance(entry, MessageEntry):
        text += "".join(str(call.args) for call, _ in entry.calls.values()) + entry.reasoning
    return text.casefold()
