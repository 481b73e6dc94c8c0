"""What the chat shows, entry by entry (a message, a notice), drawn into lines for a width.

Each kind of message has its gutter (the coloured left edge), its padding and background,
as the chat's widgets had them: a human's message on the boost background behind an accent
edge; an AI's reply drawn from its Markdown (markdown_drawing.py) with its reasoning and
tool calls as folds; a tool's result a fold, red when it failed. A fold is one title line
(`target`: enter or a click opens it), and its body while open.

Every string from the server reaches the screen as `Content` (never parsed as markup)
or as Markdown source, after control characters are made visible.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from textual.content import Content
from textual.style import Style

from ...human_input import response_of
from ...models import ChatMessage, ToolCall, ToolCallChunk
from ..text import clean, one_line, plain, pretty_json
from .drawn_lines import Line, Look
from .markdown_drawing import draw_parts
from .markdown_stream import MarkdownText

DISPLAY_LIMIT = 50_000
"""A message longer than this shows its first DISPLAY_LIMIT characters and a note saying how
much more there is (drawing a megabyte of text takes seconds; 50,000 characters, a long
report, about 70 ms). The message keeps all its text (y copies it, ctrl+s exports it, v in
the state tree shows it)."""
NO_GUTTER = Content("")
EDGE = "█"
"""A message's left edge (Textual's `thick` border)."""


@dataclass(frozen=True, slots=True, eq=False)  # (compared and hashed by identity: a cache key)
class ChatLine:
    """A drawn line: `gutter` drawn at its left (not part of its text), then `content`;
    `fill` the style of its background across the width; `wide` lines (code) scroll
    sideways; `target` is what enter or a click on it does ("fold:<key>", "link:<url>")."""

    content: Content
    gutter: Content
    fill: str = ""
    wide: bool = False
    target: str | None = None


@cache
def gutter_of(edge: str, fill: str = "", indent: int = 0) -> Content:
    """A message's left edge and the cell after it, `indent` cells more (an open fold's body).
    One object for each look: the view keeps its rendering by the object."""
    gutter = Content.assemble((EDGE, edge), " " * (1 + indent))
    return gutter.stylize_before(fill) if fill else gutter


def shown_part(text: str) -> tuple[str, Content | None]:
    """The part of `text` the chat shows (cut at a line end when one is near the limit),
    and the note about the rest (None when it shows it all)."""
    if len(text) <= DISPLAY_LIMIT:
        return text, None
    cut = text.rfind("\n", DISPLAY_LIMIT // 2, DISPLAY_LIMIT)
    cut = cut if cut > 0 else DISPLAY_LIMIT
    note = Content.styled(
        f"… {len(text) - cut:,} more characters not shown ({len(text):,} in all): "
        "v on the message in the state tree shows them, ctrl+s exports them",
        "dim italic",
    )
    return text[:cut], note


def answer_given(message: ChatMessage) -> str | None:
    """The answer a person gave to the agent's question, when `message` carries one
    (DeerFlow's hidden human message with human_input_response), else None."""
    response = response_of(message)
    if response is None:
        return None
    value = response.get("value")
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


class Entry:
    """One thing the chat shows; `lines` draws it for a width (the view caches them)."""

    key = ""
    margin = 1
    hidden = False
    version = 0
    """Grows with each change of what it shows (the view's caches compare it)."""

    def lines(self, width: int, look: Look, opened: frozenset[str]) -> list[ChatLine]:
        raise NotImplementedError

    def estimate(self, width: int) -> int:
        """Its height guessed without drawing it (with its margin)."""
        return self.margin + 1

    def folds(self) -> list[str]:
        """The keys of its folds."""
        return []

    def forget(self) -> None:
        """Its drawing was let go (far out of view): let go of what it was drawn from."""

    @property
    def source(self) -> str:
        """Its text as given (Markdown for a reply): what `y` copies."""
        return ""


class Notice(Entry):
    """A line of the app's own: joined a run, a run failed, the welcome."""

    def __init__(self, key: str, text: Content, kind: str = "") -> None:
        self.key, self.text, self.kind = key, text, kind
        self.margin = 1

    def lines(self, width: int, look: Look, opened: frozenset[str]) -> list[ChatLine]:
        if self.kind == "answer":
            return _answer_lines(self.text.stylize_before(".notice-answer"), width)
        style = ".notice-error" if self.kind == "error" else ".notice"
        return [ChatLine(line.stylize_before(style), NO_GUTTER) for line in self.text.wrap(max(1, width))]

    @property
    def source(self) -> str:
        return self.text.plain


def _answer_lines(text: Content, width: int) -> list[ChatLine]:
    """An answer the person gave, behind a human's edge."""
    gutter = gutter_of(".edge-human")
    return [ChatLine(line, gutter) for line in text.wrap(max(1, width - 3))]


def _fold(key: str, title: Content, is_open: bool, width: int, gutter: Content) -> ChatLine:
    symbol = "▼" if is_open else "▶"
    drawn = Content.assemble(" ", symbol, " ", title, " ").truncate(max(1, width), ellipsis=True)
    return ChatLine(drawn.stylize_before(".fold"), gutter, target=f"fold:{key}")


def _fold_body(text: Content, width: int, edge: str) -> list[ChatLine]:
    """An open fold's body: a blank line, then its text two cells in, muted."""
    gutter, inner = gutter_of(edge), gutter_of(edge, indent=2)
    return [ChatLine(Content(""), gutter)] + [
        ChatLine(line.stylize_before(".tool-text"), inner) for line in text.wrap(max(1, width - 2))
    ]


def _limited(text: str) -> Content:
    shown, more = shown_part(text)
    return plain(shown) if more is None else Content.assemble(plain(shown), "\n", more)


def call_title(call: ToolCall) -> Content:
    args = one_line(json.dumps(call.args, ensure_ascii=False, default=str), 48) if call.args else ""
    return Content.assemble(("tool call ", "dim"), (clean(call.name) or "…", "bold"), ("  " + args, "dim"))


class MessageEntry(Entry):
    """A message of the thread; a reply being streamed grows in place."""

    def __init__(self, message: ChatMessage) -> None:
        self.message = message
        self.kind = message.type if message.type in ("human", "ai", "tool", "system") else "other"
        self.key = message.id or f"message-{id(self)}"
        self.answer = answer_given(message) if message.additional_kwargs else None
        self.hidden = message.hidden and self.answer is None
        self.margin = 0 if self.answer is not None else 1
        self.reasoning = message.reasoning
        self.calls: dict[int, tuple[ToolCall, str]] = {i: (call, "") for i, call in enumerate(message.tool_calls)}
        self._markdown: MarkdownText | None = None
        self._made: dict[int, tuple[Line, ChatLine]] = {}  # id(drawn line) -> (it, its chat line)
        self.live = False
        """It streams: its text is what came so far (replace() gives it the stored one)."""

    @property
    def markdown(self) -> MarkdownText:
        """A reply's text as Markdown blocks (made when first drawn: a thread of thousands
        opens without reading them)."""
        if self._markdown is None:
            self._markdown = MarkdownText(clean(shown_part(self.message.text)[0]))
        return self._markdown

    def forget(self) -> None:
        if not self.live:  # (a streamed reply holds its text only there until it is stored)
            self._markdown = None
            self._made = {}

    @property
    def source(self) -> str:
        if self.answer is not None:
            return f"You answered: {self.answer}"
        return self.markdown.text if self.live else self.message.text

    # -- a reply as it streams -------------------------------------------------------------------

    def append_text(self, fragment: str) -> None:
        self.live = True
        self.markdown.append(clean(fragment))
        self.version += 1

    def append_reasoning(self, fragment: str) -> None:
        self.reasoning += clean(fragment)
        self.version += 1

    def show_call(self, index: int, chunk: ToolCallChunk) -> None:
        try:
            args = json.loads(chunk.args) if chunk.args else {}
        except ValueError:
            args = {}
        self.calls[index] = (ToolCall(id=chunk.id, name=chunk.name, args=args), chunk.args)
        self.version += 1

    def replace(self, message: ChatMessage) -> None:
        """The message as stored (a finished reply): its text drawn again only if it differs."""
        self.message = message
        self.live = False
        self.key = message.id or self.key
        if self._markdown is not None and self._markdown.text != clean(shown_part(message.text)[0]):
            self._markdown = None  # (drawn again from the stored text)
        self.reasoning = message.reasoning or self.reasoning
        if message.tool_calls:
            self.calls = dict(enumerate((call, "") for call in message.tool_calls))
        self.version += 1

    # -- drawing ---------------------------------------------------------------------------------

    def folds(self) -> list[str]:
        keys = [f"{self.key}:reasoning"] if self.reasoning else []
        keys += [f"{self.key}:call:{index}" for index in self.calls]
        return keys + ([f"{self.key}:result"] if self.kind == "tool" else [])

    def estimate(self, width: int) -> int:
        if self.kind == "tool":
            return self.margin + 1
        text = self.message.text if self.answer is None and not self.live else self.source
        rows = len(text) // max(10, width - 3) + text.count("\n") // 2 + 1 if text else 0
        return self.margin + rows + len(self.calls) + bool(self.reasoning)

    def lines(self, width: int, look: Look, opened: frozenset[str]) -> list[ChatLine]:
        if self.answer is not None:
            return _answer_lines(Content.assemble(("You answered: ", "bold $accent"), plain(self.answer)), width)
        kind = self.kind
        if kind == "human":
            return self._text_lines(plain(self.message.text), width, ".edge-human", ".human")
        if kind == "ai":
            return self._reply_lines(width, look, opened)
        if kind == "tool":
            return self._result_lines(width, opened)
        label = ("system: ", "bold") if kind == "system" else ("message of an unknown type: ", "italic $text-warning")
        return self._text_lines(Content.assemble(label, plain(self.message.text)), width, ".edge-other", ".system")

    def _text_lines(self, text: Content, width: int, edge: str, fill: str) -> list[ChatLine]:
        shown, more = shown_part(text.plain)
        body = text[: len(shown)] if more is not None else text
        gutter = gutter_of(edge, fill)  # (its background is the message's)
        lines = [ChatLine(line, gutter, fill) for line in (body.wrap(max(1, width - 3)) or [Content("")])]
        if more is not None:
            lines += [ChatLine(line, gutter, fill) for line in more.wrap(max(1, width - 3))]
        return lines

    def _reply_lines(self, width: int, look: Look, opened: frozenset[str]) -> list[ChatLine]:
        gutter = gutter_of(".edge-ai")
        inner = max(1, width - 2)
        lines: list[ChatLine] = []
        if self.reasoning:
            key = f"{self.key}:reasoning"
            lines.append(_fold(key, Content.styled("thinking", "italic"), key in opened, inner, gutter))
            if key in opened:
                lines += _fold_body(plain(self.reasoning), inner, ".edge-ai")
        if self.markdown.text:
            lines += self._markdown_lines(inner, look, gutter)
            more = shown_part(self.message.text)[1]
            if more is not None:
                lines += [ChatLine(line, gutter) for line in more.wrap(inner)]
        for index, (call, args_text) in self.calls.items():
            key = f"{self.key}:call:{index}"
            lines.append(_fold(key, call_title(call), key in opened, inner, gutter))
            if key in opened:
                args = args_text if args_text and not call.args else pretty_json(call.args)
                lines += _fold_body(_limited(args), inner, ".edge-ai")
        return lines or [ChatLine(Content(""), gutter)]

    def _markdown_lines(self, width: int, look: Look, gutter: Content) -> list[ChatLine]:
        """The reply's Markdown as chat lines. A line drawn before (its block did not change
        while the reply streams), or one that looks as one drawn before (its block drawn
        again), gives the same ChatLine as before: the view keeps its rendering by the object."""
        made, drawn = self._made, draw_parts(self.markdown.parts(), width, look)
        same = [made.get(id(line), (None, None)) for line in drawn]
        found = [chat if held is line else None for line, (held, chat) in zip(drawn, same, strict=True)]
        alike: dict[tuple, ChatLine] = {}
        if None in found:  # a block drawn again: most of its lines look as before
            kept = {id(line) for line, chat in zip(drawn, found, strict=True) if chat is not None}
            alike = {_looks(line): chat for key, (line, chat) in made.items() if key not in kept}
        lines = [
            chat or alike.get(_looks(line)) or _chat_line(line, gutter) for line, chat in zip(drawn, found, strict=True)
        ]
        self._made = {id(line): (line, chat) for line, chat in zip(drawn, lines, strict=True)}
        return lines

    def _result_lines(self, width: int, opened: frozenset[str]) -> list[ChatLine]:
        message = self.message
        error = message.is_error
        edge = ".edge-error" if error else ".edge-other"
        gutter = gutter_of(edge)
        title = Content.assemble(
            ("tool error " if error else "tool result ", "bold $error" if error else "dim"),
            (clean(message.name), "bold"),
            ("  " + one_line(message.text, 60), "dim"),
        )
        key = f"{self.key}:result"
        lines = [_fold(key, title, key in opened, max(1, width - 2), gutter)]
        if key in opened:
            lines += _fold_body(_limited(message.text), max(1, width - 2), edge)
        return lines


def _looks(line: Line) -> tuple:
    """What a drawn line looks like (two lines that look alike render alike)."""
    return line.content.plain, tuple(line.content.spans), line.fill, line.wide


def _chat_line(line: Line, gutter: Content) -> ChatLine:
    links = (span.style.meta.get("link") for span in line.content.spans if isinstance(span.style, Style))
    link = next((href for href in links if href), None)
    return ChatLine(line.content, gutter, line.fill, line.wide, f"link:{link}" if link else None)
