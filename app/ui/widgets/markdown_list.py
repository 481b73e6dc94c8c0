"""A Markdown list in the chat drawn by one widget, when its items hold only text and lists.

Textual's lists mount a row, a bullet, a column and a paragraph for every item, and a list
that grows while a reply streams is removed and mounted again whole on every append: the
largest part of a streamed frame's cost once tables were drawn (bench/streaming.py). A
list whose items hold only paragraphs and lists like it is drawn here as Textual draws it
(its bullets per depth, numbers right-aligned, wrapped text hanging under its first line)
by one widget, and drawn again as it grows. Any other list (a code block, a quote, a
table in an item) is left to Textual's widgets.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.content import Content
from textual.css.styles import RulesMap
from textual.widgets._markdown import (
    MarkdownBlock,
    MarkdownBulletList,
    MarkdownList,
    MarkdownListItem,
    MarkdownOrderedList,
    MarkdownParagraph,
)

from .drawn_block import DrawnBlock, LinesVisual
from .markdown_parsing import let_go

BULLET_STYLES = {"dark": "$text-primary", "light": "$text-secondary"}
"""As Textual's MarkdownBullet is coloured in a dark theme and in a light one."""
ORDERED_SUFFIX = ". "


@dataclass
class Item:
    symbol: str
    parts: list[Content | ListModel]  # paragraphs, and lists inside the item


@dataclass
class ListModel:
    items: list[Item]


def list_model(block: MarkdownList) -> ListModel | None:
    """What a parsed list block holds (before it is composed), or None if it is not only
    text and lists."""
    items = [child for child in block._blocks if isinstance(child, MarkdownListItem)]
    if len(items) != len(block._blocks):
        return None
    symbols = symbols_for(isinstance(block, MarkdownOrderedList), [item.bullet for item in items])
    model = ListModel([])
    for item, symbol in zip(items, symbols, strict=True):
        parts: list[Content | ListModel] = []
        for child in item._blocks:
            if isinstance(child, MarkdownParagraph):
                parts.append(child._content)
            elif isinstance(child, (MarkdownBulletList, MarkdownOrderedList)):
                inner = list_model(child)
                if inner is None:
                    return None
                parts.append(inner)
            else:
                return None
        model.items.append(Item(symbol, parts))
    return model


def symbols_for(ordered: bool, bullets: list[str]) -> list[str]:
    """Each item's symbol: its bullet; or, in an ordered list, numbered from the first
    item's number, right-aligned, as Textual numbers them."""
    if not ordered or not bullets:
        return bullets
    try:
        start = int(bullets[0])
    except ValueError:
        start = 1
    numbers = [f"{number}{ORDERED_SUFFIX}" for number in range(start, start + len(bullets))]
    size = max(len(number) for number in numbers)
    return [number.rjust(size + 1) for number in numbers]


def draw_list(model: ListModel, width: int, bullet: str) -> list[Content]:
    lines: list[Content] = []
    for item in model.items:
        hang = len(item.symbol)
        inner_width = max(1, width - hang)
        body: list[Content] = []
        for part in item.parts:
            body += part.wrap(inner_width) if isinstance(part, Content) else draw_list(part, inner_width, bullet)
        if not body:
            continue  # as Textual shows an empty item: not at all
        lines.append(Content.assemble((item.symbol, bullet), body[0]))
        lines += [Content.assemble(" " * hang, line) for line in body[1:]]
    return lines


class ListVisual(LinesVisual):
    def __init__(self, model: ListModel, bullet: str = BULLET_STYLES["dark"]) -> None:
        super().__init__()
        self.model = model
        self.bullet = bullet

    def draw(self, width: int) -> list[Content]:
        return draw_list(self.model, width, self.bullet)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width


class ListDrawing(DrawnBlock):
    """Draws a list of text (DrawnList)."""

    visual: ListVisual

    def render(self) -> ListVisual:
        bullet = BULLET_STYLES["dark" if self.app.current_theme.dark else "light"]
        if self.visual.bullet != bullet:  # (the theme changed)
            self.visual = ListVisual(self.visual.model, bullet)
        return self.visual


class DrawnList:
    """Mixin for a list block class (first among its bases, so Textual's CSS still sees the
    list it is mixed into): drawn by one ListDrawing when it holds text and lists only, else
    composed as that list class does."""

    _blocks: list[MarkdownBlock]

    def compose(self) -> ComposeResult:
        model = list_model(self)  # type: ignore[arg-type]
        if model is None:
            yield from super().compose()  # type: ignore[misc]
            return
        let_go(self._blocks)  # (drawn from the model: markdown_parsing.py)
        self._blocks.clear()
        yield ListDrawing(ListVisual(model))

    async def _update_from_block(self, block: MarkdownBlock) -> None:
        """The list grew while it streams: drawn again if it can still be."""
        drawings = self.query_children(ListDrawing)  # type: ignore[attr-defined]
        model = list_model(block) if type(block) is type(self) and isinstance(block, MarkdownList) else None
        if drawings and model is not None:
            drawings.first().show(ListVisual(model))
            return
        await super()._update_from_block(block)  # type: ignore[misc]
