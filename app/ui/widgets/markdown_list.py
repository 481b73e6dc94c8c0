"""A Markdown list drawn into lines as Textual draws it: its bullets per depth, numbers
right-aligned, wrapped text hanging under its first line, blocks inside an item (a code
block, a quote) drawn at the item's width."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content

from .drawn_lines import Line, Look, Part

ORDERED_SUFFIX = ". "


@dataclass
class Item:
    symbol: str
    parts: list[Content | ListModel | Part]  # paragraphs, lists and other blocks inside the item


@dataclass
class ListModel:
    items: list[Item]


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


def draw_list(model: ListModel, width: int, look: Look) -> list[Line]:
    lines: list[Line] = []
    for item in model.items:
        hang = len(item.symbol)
        inner_width = max(1, width - hang)
        body: list[Line] = []
        for part in item.parts:
            if isinstance(part, Content):
                body += [Line(line) for line in part.wrap(inner_width)]
            elif isinstance(part, ListModel):
                body += draw_list(part, inner_width, look)
            else:
                body += part.lines(inner_width, look)
        if not body:
            continue  # as Textual shows an empty item: not at all
        first, *rest = body
        lines.append(Line(Content.assemble((item.symbol, ".bullet"), first.content), first.fill, first.wide))
        lines += [Line(Content.assemble(" " * hang, line.content), line.fill, line.wide) for line in rest]
    return lines
