"""A finished Markdown text drawn whole by one widget, when it is made only of paragraphs,
headings, rules, lists of text and tables.

A message Textual builds as widgets is a Markdown, a widget per paragraph, heading and list,
and the widgets inside those: a screen of older messages mounted ahead of a scroll was some
forty widgets, each styled, mounted and laid out on every frame after (bench/long_thread.py).
Here the text is read from markdown-it's tokens, no widget made, and drawn into lines of
Content as Textual's blocks draw it (their margins, the larger of two meeting margins kept,
the last block's dropped as styles/app.tcss drops them; inline styles, link actions and
heading styles from the same component classes and theme variables). A text
with anything else (a code block, which scrolls sideways; a quote; HTML) is left to
Textual's widgets, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from markdown_it.token import Token
from textual.app import App
from textual.content import Content, Span
from textual.css.styles import RulesMap
from textual.selection import Selection
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import Markdown

from .drawn_block import LinesVisual
from .markdown_list import Item, ListModel, draw_list, symbols_for
from .markdown_parsing import shared_parser
from .markdown_table import TableVisual

HEADING_MARGINS = {1: (2, 1), 2: (2, 1), 3: (1, 1), 4: (1, 1), 5: (1, 1), 6: (1, 1)}
"""(top, bottom) of each heading level, as Textual's MarkdownH1..H6 have them."""
BLOCK_MARGINS = (0, 1)
"""(top, bottom) of a paragraph, a list and a table."""
LIGHT_TABLE = "on white 30%"
"""MarkdownTable's background in a light theme."""


class NotDrawn(Exception):
    """The text holds a block this module does not draw."""


@dataclass
class DrawnPart:
    """One block of the text: its margins and how it is drawn at a width."""

    top: int
    bottom: int
    draw: Callable[[int], list[Content]]
    light_background: str = ""
    """Its background across the width in a light theme (a table has one)."""


def inline_content(token: Token) -> Content:
    """An inline token's text and styles, as Textual's MarkdownBlock makes them."""
    text: list[str] = []
    spans: list[Span] = []
    opened: list[tuple[str | Style, int]] = []
    position = 0

    def add(part: str) -> None:
        nonlocal position
        text.append(part)
        position += len(part)

    def close() -> None:
        style, start = opened.pop()
        spans.append(Span(start, position, style))

    for child in token.children or ():
        kind = child.type
        if kind == "text":
            add(re.sub(r"\s+", " ", child.content))
        elif kind == "hardbreak":
            add("\n")
        elif kind == "softbreak":
            add(" ")
        elif kind == "code_inline":
            opened.append((".code_inline", position))
            add(child.content)
            close()
        elif kind in ("em_open", "strong_open", "s_open"):
            opened.append(("." + kind.removesuffix("_open"), position))
        elif kind == "link_open":
            opened.append((_link(child.attrs.get("href", "")), position))
        elif kind == "image":
            opened.append((_link(child.attrs.get("src", "")), position))
            add("🖼  ")
            alt = child.attrs.get("alt", "")
            if alt:
                add(f"({alt})")
            for grandchild in child.children or ():
                add(grandchild.content)
            close()
        elif kind.endswith("_close") and opened:
            close()
    return Content("".join(text), spans=spans)


def _link(href: object) -> Style:
    return Style.from_meta({"@click": f"link({str(href)!r})"})


def _paragraph(content: Content) -> DrawnPart:
    return DrawnPart(*BLOCK_MARGINS, lambda width: content.wrap(width) if content else [Content("")])


def _heading(level: int, content: Content) -> DrawnPart:
    style = f".h{level}"

    def draw(width: int) -> list[Content]:
        lines = content.wrap(width) or [Content("")]
        if level == 1:  # its lines centred as one block, its background across the width (MarkdownH1)
            left = (width - max(line.cell_length for line in lines)) // 2
            lines = [line.pad(left, width - left - line.cell_length) for line in lines]
        return [line.stylize_before(style) for line in lines]

    return DrawnPart(*HEADING_MARGINS[level], draw)


def _rule() -> DrawnPart:
    """MarkdownHorizontalRule: its top padding, then its bottom border."""
    return DrawnPart(0, 1, lambda width: [Content(""), Content.styled("─" * width, ".hr")])


def _list(model: ListModel) -> DrawnPart:
    return DrawnPart(*BLOCK_MARGINS, lambda width: draw_list(model, width, ".bullet"))


def _table(headers: list[Content], rows: list[list[Content]]) -> DrawnPart:
    return DrawnPart(*BLOCK_MARGINS, TableVisual(headers, rows).lines, light_background=LIGHT_TABLE)


class TokenReader:
    """Reads markdown-it's block tokens into DrawnParts (NotDrawn for any other block)."""

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = tokens
        self.at = 0

    def next(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def inline(self) -> Content:
        """The inline token of the block just opened, and its close."""
        inline = self.next()
        self.next()
        return inline_content(inline) if inline.type == "inline" else Content("")

    def parts(self) -> list[DrawnPart]:
        parts: list[DrawnPart] = []
        while self.at < len(self.tokens):
            token = self.next()
            kind = token.type
            if kind == "paragraph_open":
                parts.append(_paragraph(self.inline()))
            elif kind == "heading_open" and token.tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                parts.append(_heading(int(token.tag[1]), self.inline()))
            elif kind == "hr":
                parts.append(_rule())
            elif kind in ("bullet_list_open", "ordered_list_open"):
                parts.append(_list(self.read_list(token, 0)))
            elif kind == "table_open":
                parts.append(_table(*self.read_table()))
            elif kind != "html_block":  # (Textual shows no HTML)
                raise NotDrawn(kind)
        return parts

    def read_list(self, opening: Token, depth: int) -> ListModel:
        """A list whose items hold only paragraphs and lists; `depth`: the bullet lists around it."""
        closing = opening.type.replace("_open", "_close")
        bullets: list[str] = []
        items: list[list[Content | ListModel]] = []
        while (token := self.next()).type != closing:
            if token.type != "list_item_open":
                raise NotDrawn(token.type)
            ordered = bool(token.info)  # (as Textual tells an ordered item)
            bullets.append(token.info if ordered else Markdown.BULLETS[depth % len(Markdown.BULLETS)])
            parts: list[Content | ListModel] = []
            while (inner := self.next()).type != "list_item_close":
                if inner.type == "paragraph_open":
                    parts.append(self.inline())
                elif inner.type in ("bullet_list_open", "ordered_list_open"):
                    parts.append(self.read_list(inner, depth if ordered else depth + 1))
                else:
                    raise NotDrawn(inner.type)
            items.append(parts)
        symbols = symbols_for(opening.type == "ordered_list_open", bullets)
        return ListModel([Item(symbol, parts) for symbol, parts in zip(symbols, items, strict=True)])

    def read_table(self) -> tuple[list[Content], list[list[Content]]]:
        headers: list[Content] = []
        rows: list[list[Content]] = []
        in_head = False
        while (token := self.next()).type != "table_close":
            kind = token.type
            if kind in ("thead_open", "thead_close"):
                in_head = kind == "thead_open"
            elif kind == "tr_open" and not in_head:
                rows.append([])
            elif kind in ("th_open", "td_open"):
                (headers if in_head else rows[-1]).append(self.inline())
        return headers, [row for row in rows if row]


def drawn_parts(text: str) -> list[DrawnPart] | None:
    """The blocks of `text` to draw, or None if one of them is not drawn here."""
    try:
        return TokenReader(shared_parser().parse(text)).parts()
    except (NotDrawn, IndexError):
        return None


class MarkdownVisual(LinesVisual):
    def __init__(self, parts: list[DrawnPart], light: bool = False) -> None:
        super().__init__()
        self.parts = parts
        self.light = light

    def draw(self, width: int) -> list[Content]:
        lines: list[Content] = []
        below = None  # the bottom margin of the block above
        for index, part in enumerate(self.parts):
            top = self._top(index)
            gap = top if below is None else max(below, top)
            lines += [Content("")] * gap
            drawn = part.draw(width)
            if self.light and part.light_background:
                drawn = [
                    Content.assemble(line, " " * (width - line.cell_length)).stylize_before(part.light_background)
                    for line in drawn
                ]
            lines += drawn
            below = part.bottom
        return lines

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def _top(self, index: int) -> int:
        """A part's top margin. The last has none: styles/app.tcss gives the last block no
        bottom margin, and Textual sets a whole margin from one side (its other sides 0)."""
        return 0 if index == len(self.parts) - 1 else self.parts[index].top

    @property
    def top_margin(self) -> int:
        return self._top(0) if self.parts else 0


DRAWN_COMPONENTS = {"em", "strong", "s", "code_inline", "bullet", "hr", "h1", "h2", "h3", "h4", "h5", "h6"}
"""The component classes a drawing's styles name (each widget class that draws one lists them)."""


def drawn_markdown_css(selector: str) -> str:
    """The style of a drawing's components, as Textual's Markdown styles its blocks."""
    headings = "\n".join(
        f"& > .h{n} {{ color: $markdown-h{n}-color; background: $markdown-h{n}-background; "
        f"text-style: $markdown-h{n}-text-style; }}"
        for n in range(1, 7)
    )
    return f"""
    {selector} {{
        color: $foreground;
        &:dark > .code_inline {{ background: $warning 10%; color: $text-warning 95%; }}
        &:light > .code_inline {{ background: $error 5%; color: $text-error 95%; }}
        &:ansi > .code_inline {{ background: ansi_default; }}
        & > .em {{ text-style: italic; }}
        & > .strong {{ text-style: bold; }}
        & > .s {{ text-style: strike; }}
        &:dark > .bullet {{ color: $text-primary; }}
        &:light > .bullet {{ color: $text-secondary; }}
        & > .hr {{ color: $secondary; }}
        {headings}
    }}
    """


class DrawsMarkdown:
    """Mixin for a widget that shows a MarkdownVisual (first among its bases): drawn again
    for a change of theme; its text selectable; its links opened when clicked, as a
    Markdown widget opens them."""

    visual: MarkdownVisual
    app: App

    def render(self) -> Visual:
        light = not self.app.current_theme.dark
        if self.visual.light != light:
            self.visual = MarkdownVisual(self.visual.parts, light)
        return self.visual

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return self.visual.selected(cast(Widget, self).content_size.width, selection)

    async def action_link(self, href: str) -> None:
        self.app.open_url(href)


class DrawnMarkdown(DrawsMarkdown, Widget):
    """A finished Markdown text drawn by one widget (`drawn_parts` says if it can be), a
    block of a message. `source` is the text, as a Markdown's."""

    COMPONENT_CLASSES = DRAWN_COMPONENTS
    DEFAULT_CSS = "DrawnMarkdown { height: auto; width: 1fr; text-wrap: nowrap; }" + drawn_markdown_css("DrawnMarkdown")

    def __init__(self, source: str, parts: list[DrawnPart]) -> None:
        super().__init__()
        self.visual = MarkdownVisual(parts)
        self.source = source
