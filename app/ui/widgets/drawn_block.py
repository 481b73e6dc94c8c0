"""A Markdown block drawn by one widget from lines of Content (markdown_table.py,
markdown_list.py), instead of a widget per cell or per list item.

Textual lays out every displayed widget on every frame of a streamed reply, and a block of
many widgets is also rebuilt whole each time it grows (a list is removed and mounted
again): one widget whose Visual draws the block at the width it is given costs one
widget's layout, and growing is drawing again.
"""

from __future__ import annotations

from abc import abstractmethod

from textual.content import Content
from textual.css.styles import RulesMap
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget
from textual.widgets import Markdown


class LinesVisual(Visual):
    """A Visual drawn as whole lines of Content for a width (the last width's are kept)."""

    def __init__(self) -> None:
        self._drawn: tuple[int, list[Content]] | None = None

    @abstractmethod
    def draw(self, width: int) -> list[Content]:
        """The lines at `width`, none wider."""

    def lines(self, width: int) -> list[Content]:
        if self._drawn is None or self._drawn[0] != width:
            self._drawn = (width, self.draw(width))
        return self._drawn[1]

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.lines(width))

    def selected(self, width: int, selection: Selection) -> tuple[str, str]:
        """What `selection` takes of the lines at `width` (a widget's get_selection)."""
        return selection.extract("\n".join(line.plain for line in self.lines(width))), "\n"

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        # one Content, so a selection's line numbers are the block's (the widget does not wrap it)
        strips = Content("\n").join(self.lines(width)).render_strips(width, height, style, options)
        # (a blank line renders an empty segment first, which would split its background in two)
        return [Strip([segment for segment in strip if segment.text]) if not strip.text else strip for strip in strips]


class DrawnBlock(Widget):
    """Shows a LinesVisual; `show` draws another (the block grew)."""

    DEFAULT_CSS = "DrawnBlock { height: auto; width: 1fr; text-wrap: nowrap; }"

    def __init__(self, visual: LinesVisual) -> None:
        super().__init__()
        self.visual = visual

    def show(self, visual: LinesVisual) -> None:
        self.visual = visual
        self.refresh(layout=True)

    def render(self) -> Visual:
        return self.visual

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return self.visual.selected(self.content_size.width, selection)

    async def action_link(self, href: str) -> None:
        """A link in the block was clicked: as Textual's Markdown blocks pass it on."""
        self.post_message(Markdown.LinkClicked(self.query_ancestor(Markdown), href))
