"""What a drag across the chat selects (mixed into ChatLog, chat_log.py): the text of the lines
dragged over, as drawn, without their gutters. The screen finds where a drag starts and ends
from the place in the text (x, line) each drawn cell carries; the cells left of a line's text
(the view's inset, the line's gutter) and a row with no text carry LINE_EDGE."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.scroll_view import ScrollView
from textual.selection import Selection

from .chat_entries import ChatLine

if TYPE_CHECKING:
    from .running_heights import RunningHeights

    _Base = ScrollView
else:
    _Base = object

LINE_EDGE = -(1 << 20)
"""The place (x) of the cells left of a line's text, and of a row with none (a margin, the blank
rows above a short thread, the banner: the first line's): a drag from them starts at the line's
first character, and one that ends on them takes the line whole. Negative, the line's edge:
Textual adds one to a drag's end, which stays negative, read as Selection.get_span's -1 (the end)."""


def text_span(span: tuple[int, int]) -> tuple[int, int | None]:
    """A line's span of a selection (Selection.get_span) as a slice of its text."""
    start, end = span
    return max(0, start), None if end < 0 else end


class SelectsInThread(_Base):
    if TYPE_CHECKING:  # (ChatLog's)
        _rows: RunningHeights

        def text(self) -> str: ...
        def line_at(self, line_no: int) -> tuple[int, ChatLine] | None: ...

    def selection_updated(self, selection: Selection | None) -> None:
        self.refresh()

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """What a drag across the chat selected: the lines' text, without their gutters."""
        start, end = selection
        if start is None and end is None:
            return self.text(), "\n"
        total = self._rows.total
        first = start.y if start is not None else 0
        last = end.y if end is not None else total - 1
        texts = []
        for line_no in range(first, min(last, total - 1) + 1):
            found = self.line_at(line_no)
            texts.append(found[1].content.expand_tabs(8).plain if found is not None else "")  # (as drawn)
        if not texts:
            return "", "\n"
        # (cut here: Selection.extract's splitlines drops a last empty line: a drag to a margin took nothing)
        if end is not None and last < total:
            texts[-1] = texts[-1][: None if end.x < 0 else end.x]
        if start is not None:
            texts[0] = texts[0][max(0, start.x) :]
        return "\n".join(texts), "\n"
