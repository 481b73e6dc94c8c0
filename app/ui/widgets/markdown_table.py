"""A Markdown table drawn as a grid of lines, the way Textual's grid keylines look.

Columns take their natural width; when the table is too wide, the widest columns give way
first (their cells wrap) so short columns stay on one line. Links in cells still open.
"""

from __future__ import annotations

from textual.content import Content

LINE_STYLE = "$foreground 20%"
HEADER_STYLE = "bold $primary"
PAD = 1  # blank cells each side of a cell's text


class TableDrawing:
    """Headers and rows of Content drawn as a grid, wrapped to the width it is given."""

    def __init__(self, headers: list[Content], rows: list[list[Content]]) -> None:
        self.columns = max([len(headers), *(len(row) for row in rows)])
        blank = Content("")
        self.headers = [*headers, *[blank] * (self.columns - len(headers))]
        self.rows = [[*row, *[blank] * (self.columns - len(row))] for row in rows]
        self._natural = [max(1, *(cell.cell_length for cell in self._column(i))) for i in range(self.columns)]

    @property
    def _frame(self) -> int:
        """Cells taken by the lines and the padding of every column."""
        return self.columns + 1 + 2 * PAD * self.columns

    def widths(self, width: int) -> list[int]:
        """Each column's text width at `width`: the natural ones if they fit; else the widest
        are cut down to one common width, the largest that fits, none below its longest word
        (so words are not broken) if that can be; else none below one cell."""
        room = max(self.columns, width - self._frame)
        natural = self._natural
        if sum(natural) <= room:
            return list(natural)
        floors = self._longest_words()
        if sum(floors) > room:
            floors = [1] * self.columns

        def at(cap: int) -> list[int]:
            return [max(floor, min(n, cap)) for n, floor in zip(natural, floors, strict=True)]

        low, high = 1, max(natural)
        while low < high:  # the largest cap that fits
            cap = (low + high + 1) // 2
            low, high = (cap, high) if sum(at(cap)) <= room else (low, cap - 1)
        widths = at(low)
        spare = room - sum(widths)
        for index in sorted(range(self.columns), key=lambda i: -natural[i]):  # what is left, widest first
            if spare <= 0:
                break
            if widths[index] < natural[index]:
                widths[index] += 1
                spare -= 1
        return widths

    def _longest_words(self) -> list[int]:
        words = [[word for cell in self._column(i) for word in cell.plain.split()] for i in range(self.columns)]
        return [max(1, *map(len, column)) for column in words]

    def _column(self, index: int) -> list[Content]:
        return [self.headers[index], *(row[index] for row in self.rows)]

    def draw(self, width: int) -> list[Content]:
        widths = self.widths(width)
        line = LINE_STYLE

        def rule(left: str, middle: str, right: str) -> Content:
            return Content.styled(left + middle.join("─" * (w + 2 * PAD) for w in widths) + right, line)

        def row_lines(cells: list[Content], style: str) -> list[Content]:
            wrapped = [cell.wrap(w) or [Content("")] for cell, w in zip(cells, widths, strict=True)]
            drawn = []
            for index in range(max(len(lines) for lines in wrapped)):
                parts: list[Content | str | tuple[str, str]] = [("│", line)]
                for lines, w in zip(wrapped, widths, strict=True):
                    text = lines[index] if index < len(lines) else Content("")
                    text = text.stylize_before(style) if style else text
                    parts += [" " * PAD, text, " " * (w - text.cell_length + PAD), ("│", line)]
                drawn.append(Content.assemble(*parts))
            return drawn

        drawn = [rule("┌", "┬", "┐"), *row_lines(self.headers, HEADER_STYLE)]
        for row in self.rows:
            drawn += [rule("├", "┼", "┤"), *row_lines(row, "")]
        drawn.append(rule("└", "┴", "┘"))
        return drawn
