"""A table's line drawn from its cells: each cut to its column (an ellipsis where it is cut)
and padded, in the row's style with the cursor's or the hover's laid over it, then the rest of
the width in the row's style.

A cell is a Rich Text (`cell`, for a style) or any other value, shown as its plain text: a
str is not read as markup, and control characters show as their symbols (␊), so a cell
is always one line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

CONTROL = {code: 0x2400 + code for code in range(0x20)}


def cell(text: str, style: str = "") -> Text:
    """A cell that shows server text literally, in `style`."""
    return Text(text.translate(CONTROL), style=style, no_wrap=True)


def as_text(value: object) -> Text:
    if isinstance(value, Text):
        return value
    if value is None:
        return Text()
    shown = f"{value:.2f}" if isinstance(value, float) else str(value)
    return Text(shown.translate(CONTROL))


def cell_segments(value: object, width: int, console: Console) -> list[Segment]:
    """The cell's text in exactly `width` cells: cut with an ellipsis, or padded."""
    if width <= 0:
        return []
    text = as_text(value)
    if "\n" in text.plain or "\t" in text.plain:  # (a Text made elsewhere: one line)
        text = text.copy()
        text.plain = text.plain.translate(CONTROL)
    if cell_len(text.plain) > width:
        text = text.copy()
        text.truncate(width, overflow="ellipsis")
    if text.spans:
        segments = list(text.render(console, end=""))
    else:  # (Text.render leaves a text without spans unstyled)
        segments = [Segment(text.plain, console.get_style(text.style) if text.style else None)]
    return Segment.adjust_line_length(segments, width, pad=True)


def line_strip(
    values: Sequence[object],
    widths: Sequence[int],
    padding: int,
    styles: tuple[Style, Style, Style],
    width: int,
    console: Console,
    row: int = 0,
) -> Strip:
    """The cells side by side, then blank to `width`. `styles`: the row's style, what is
    laid over it (the cursor's or the hover's) and what is laid over the cells' own styles
    (the cursor's colours, which win over a cell's).

    Each cell is marked with its row and column (Rich's style meta, as DataTable marks
    them), which also keeps the cells apart when the screen joins segments of one style."""
    row_style, over, colours = styles
    pad = [Segment(" " * padding)] if padding else []
    segments: list[Segment] = []
    used = 0
    for column, (value, inner) in enumerate(zip(values, widths, strict=False)):
        style = row_style + Style.from_meta({"row": row, "column": column}) + over
        drawn = [*pad, *cell_segments(value, inner, console), *pad]
        segments.extend(Segment.apply_style(drawn, style, colours))
        used += inner + 2 * padding
    rest = row_style + over + Style.from_meta({"row": row, "column": 0, "out_of_bounds": True})
    segments.append(Segment(" " * max(0, width - used), rest))  # (even empty, as DataTable's)
    return Strip(segments, max(width, used))
