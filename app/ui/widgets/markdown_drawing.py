"""Markdown drawn into lines of Content, as Textual's Markdown widget draws its blocks.

The chat draws every reply as lines (chat_log.py): the text is read from markdown-it's
tokens into parts (paragraphs, headings, rules, lists, tables, code blocks, quotes), each
drawn for a width; parts meet as Textual's blocks do (the larger of two meeting margins
kept; the last block's bottom margin dropped, as the app's style dropped it). Inline styles,
links and heading styles come from the chat's component classes (`markdown_css`), which
name the same theme variables as Textual's blocks. A code block keeps its lines whole
(the chat scrolls them sideways); it is highlighted as Textual's MarkdownFence highlights.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.token import Token
from textual.content import Content, Span
from textual.style import Style
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownFence

from .drawn_lines import Line, Look, Part, plain_lines
from .markdown_list import Item, ListModel, draw_list, symbols_for
from .markdown_table import TableDrawing

HEADING_MARGINS = {1: (2, 1), 2: (2, 1), 3: (1, 1), 4: (1, 1), 5: (1, 1), 6: (1, 1)}
"""(top, bottom) of each heading level, as Textual's MarkdownH1..H6 have them."""
BLOCK_MARGINS = (0, 1)
"""(top, bottom) of a paragraph, a list and a table."""
BOXED_MARGINS = (1, 1)
"""(top, bottom) of a code block and a quote."""
QUOTE_BORDER = "▌"
"""The left edge of a quote (MarkdownBlockQuote's `outer` border)."""

_PARSER = MarkdownIt("gfm-like")
BLANK = Line(Content(""))
"""A margin's line (one object: what the chat made of it is kept by the object)."""


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
            opened.append((link_style(str(child.attrs.get("href", ""))), position))
        elif kind == "image":
            opened.append((link_style(str(child.attrs.get("src", ""))), position))
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


def link_style(href: str) -> Style:
    """A link's cells: a click runs the view's `link` action (which opens it)."""
    return Style.from_meta({"@click": f"link({href!r})", "link": href})


def _paragraph(content: Content, margins: tuple[int, int] = BLOCK_MARGINS) -> Part:
    return Part(*margins, lambda width, look: plain_lines(content.wrap(width) if content else [Content("")]))


def _heading(level: int, content: Content) -> Part:
    style = f".h{level}"

    def draw(width: int, look: Look) -> list[Line]:
        lines = content.wrap(width) or [Content("")]
        if level == 1:  # its lines centred as one block, its background across the width (MarkdownH1)
            left = (width - max(line.cell_length for line in lines)) // 2
            lines = [line.pad(left, width - left - line.cell_length) for line in lines]
        return plain_lines([line.stylize_before(style) for line in lines])

    return Part(*HEADING_MARGINS[level], draw)


def _rule() -> Part:
    """MarkdownHorizontalRule: its top padding, then its bottom border."""
    return Part(0, 1, lambda width, look: plain_lines([Content(""), Content.styled("─" * width, ".hr")]))


def _list(model: ListModel) -> Part:
    return Part(*BLOCK_MARGINS, lambda width, look: draw_list(model, width, look))


def _table(headers: list[Content], rows: list[list[Content]]) -> Part:
    table = TableDrawing(headers, rows)

    def draw(width: int, look: Look) -> list[Line]:
        return plain_lines(table.draw(width), ".table")

    return Part(*BLOCK_MARGINS, draw)


def _fence(code: str, language: str) -> Part:
    """MarkdownFence: a padded block on its own background, its lines never wrapped."""

    def draw(width: int, look: Look) -> list[Line]:
        highlighted = MarkdownFence.highlight(code.rstrip("\n"), language, ansi=look.ansi, dark=not look.light)
        fill = ".code-block"
        blank = Line(Content(""), fill)
        if look.ansi:  # (MarkdownFence:ansi: no side padding, no background)
            return [blank, *(Line(line, fill, wide=True) for line in highlighted.split("\n")), blank]
        return [
            blank,
            *(Line(Content.assemble("  ", line, "  "), fill, wide=True) for line in highlighted.split("\n")),
            blank,
        ]

    return Part(*BOXED_MARGINS, draw)


def _quote(parts: list[Part]) -> Part:
    """MarkdownBlockQuote: its blocks behind a left edge, on the boost background."""

    def draw(width: int, look: Look) -> list[Line]:
        edge = Content.styled(QUOTE_BORDER, ".quote-edge")
        inner = draw_parts(parts, max(1, width - 3), look, last_margin=False)
        return [Line(Content.assemble(edge, " ", line.content), ".quote") for line in inner]

    return Part(*BOXED_MARGINS, draw)


class TokenReader:
    """Reads markdown-it's block tokens into Parts."""

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

    def parts(self, until: str = "", paragraph: tuple[int, int] = BLOCK_MARGINS) -> list[Part]:
        """The parts up to the token `until` (its close read), or to the end."""
        parts: list[Part] = []
        while self.at < len(self.tokens):
            token = self.next()
            kind = token.type
            if kind == until:
                break
            part = self.part(token, paragraph)
            if part is not None:
                parts.append(part)
        return parts

    def part(self, token: Token, paragraph: tuple[int, int]) -> Part | None:
        kind = token.type
        if kind == "paragraph_open":
            return _paragraph(self.inline(), paragraph)
        if kind == "heading_open":
            level = int(token.tag[1]) if token.tag[1:].isdigit() else 6
            return _heading(min(level, 6), self.inline())
        if kind == "hr":
            return _rule()
        if kind in ("bullet_list_open", "ordered_list_open"):
            return _list(self.read_list(token, 0))
        if kind == "table_open":
            return _table(*self.read_table())
        if kind in ("fence", "code_block"):
            return _fence(token.content, token.info.split()[0] if token.info.strip() else "")
        if kind == "blockquote_open":
            return _quote(self.parts("blockquote_close", (0, 0)))
        return None  # (Textual shows no HTML)

    def read_list(self, opening: Token, depth: int) -> ListModel:
        """A list; `depth`: the bullet lists around it."""
        closing = opening.type.replace("_open", "_close")
        bullets: list[str] = []
        items: list[list[Content | ListModel | Part]] = []
        while (token := self.next()).type != closing:
            if token.type != "list_item_open":
                continue
            ordered = bool(token.info)  # (as Textual tells an ordered item)
            bullets.append(token.info if ordered else Markdown.BULLETS[depth % len(Markdown.BULLETS)])
            parts: list[Content | ListModel | Part] = []
            while (inner := self.next()).type != "list_item_close":
                if inner.type == "paragraph_open":
                    parts.append(self.inline())
                elif inner.type in ("bullet_list_open", "ordered_list_open"):
                    parts.append(self.read_list(inner, depth if ordered else depth + 1))
                else:
                    part = self.part(inner, (0, 0))
                    if part is not None:
                        parts.append(part)
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


def parse_parts(text: str, kept: dict[str, Part] | None = None) -> list[Part]:
    """The parts of Markdown `text`. `kept`: the parts of this text as it was before it grew,
    by their source; a block whose source has not changed keeps its Part, and so its drawing
    (while a reply streams only its growing block is drawn again). It becomes this text's."""
    env: dict = {}
    try:
        tokens = _PARSER.parse(text, env)
        reader, parts, found = TokenReader(tokens), [], {}
        lines = text.splitlines(keepends=True)
        while reader.at < len(tokens):
            token = reader.next()
            part = reader.part(token, BLOCK_MARGINS)
            if part is None:
                continue
            if kept is not None and token.map and not env.get("references"):  # (a reference may come later)
                source = "".join(lines[token.map[0] : token.map[1]])
                part = found[source] = kept.get(source, part)
            parts.append(part)
    except IndexError:  # (a token stream cut short: drawn as text)
        parts, found = [_paragraph(Content(text))], {}
    if kept is not None:
        kept.clear()
        kept.update(found)
    return parts


def draw_parts(parts: Sequence[Part], width: int, look: Look, *, last_margin: bool = False) -> list[Line]:
    """`parts` drawn one under the other, margins collapsed as Textual's blocks collapse
    them; the first part's top margin is kept, the last part's bottom margin only if
    `last_margin` (styles/app.tcss dropped it; Textual sets a whole margin from one side,
    so the last part has no top margin either)."""
    lines: list[Line] = []
    below: int | None = None  # the bottom margin of the part above
    blank = BLANK
    for index, part in enumerate(parts):
        top = 0 if index == len(parts) - 1 and not last_margin else part.top
        lines += [blank] * (top if below is None else max(below, top))
        lines += part.lines(width, look)
        below = part.bottom
    if last_margin and below:
        lines += [blank] * below
    return lines


MARKDOWN_COMPONENTS = set("em strong s code_inline bullet hr code-block table quote quote-edge".split())
MARKDOWN_COMPONENTS |= {f"h{level}" for level in range(1, 7)}
"""The component classes the drawings' styles name."""


def markdown_css(selector: str) -> str:
    """The style of a drawing's components, as Textual's Markdown styles its blocks."""
    headings = "\n".join(
        f"& > .h{n} {{ color: $markdown-h{n}-color; background: $markdown-h{n}-background; "
        f"text-style: $markdown-h{n}-text-style; }}"
        for n in range(1, 7)
    )
    return f"""
    {selector} {{
        &:dark > .code_inline {{ background: $warning 10%; color: $text-warning 95%; }}
        &:light > .code_inline {{ background: $error 5%; color: $text-error 95%; }}
        &:ansi > .code_inline {{ background: ansi_default; }}
        & > .em {{ text-style: italic; }}
        & > .strong {{ text-style: bold; }}
        & > .s {{ text-style: strike; }}
        &:dark > .bullet {{ color: $text-primary; }}
        &:light > .bullet {{ color: $text-secondary; }}
        & > .hr {{ color: $secondary; }}
        & > .code-block {{ background: black 10%; color: rgb(210,210,210); }}
        &:light > .code-block {{ background: white 30%; }}
        &:ansi > .code-block {{ background: transparent; }}
        &:light > .table {{ background: white 30%; }}
        & > .quote {{ background: $boost; }}
        & > .quote-edge {{ color: $text-primary 50%; }}
        &:light > .quote-edge {{ color: $text-secondary; }}
        {headings}
    }}
    """
