"""What Markdown is drawn into: lines of Content, each block a Part with its margins."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from textual.content import Content


@dataclass(frozen=True)
class Look:
    """What a drawing depends on besides the width: the theme's lightness, ANSI colours."""

    light: bool = False
    ansi: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """A drawn line: its text, the style of its background across the whole width (a code
    block, a quote, a table in a light theme), and whether it is kept whole (code: the
    view scrolls it sideways instead of cutting or wrapping it)."""

    content: Content
    fill: str = ""
    wide: bool = False


@dataclass
class Part:
    """One block of a text: its margins and how it is drawn at a width."""

    top: int
    bottom: int
    draw: Callable[[int, Look], list[Line]]
    _drawn: dict[tuple[int, Look], list[Line]] = field(default_factory=dict, repr=False)

    def lines(self, width: int, look: Look) -> list[Line]:
        key = (width, look)
        drawn = self._drawn.get(key)
        if drawn is None:
            self._drawn.clear()  # (one width and look at a time)
            drawn = self._drawn[key] = self.draw(width, look)
        return drawn


def plain_lines(contents: Sequence[Content], fill: str = "") -> list[Line]:
    return [Line(content, fill) for content in contents]
