"""One widget per kind of chat message: human, AI (Markdown, streamed: markdown_blocks), tool call,
tool result, reasoning and system. A finished message of text alone draws itself, no widget
inside (a screen of them is mounted at each step of a scroll: markdown_drawing.py).

Every string from the server reaches the screen as `Content` (never parsed as markup)
or as Markdown source, after control characters are made visible.
"""

from __future__ import annotations

import json

from textual.app import ComposeResult, RenderResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from ...human_input import response_of
from ...models import ChatMessage, ToolCall
from ..text import clean, one_line, plain, pretty_json
from .fold import Fold
from .markdown_blocks import BLOCK_CHARS, MarkdownBlocks
from .markdown_drawing import (
    DRAWN_COMPONENTS,
    DrawnPart,
    DrawsMarkdown,
    MarkdownVisual,
    drawn_markdown_css,
    drawn_parts,
)

DISPLAY_LIMIT = 20_000
"""A message longer than this shows its first DISPLAY_LIMIT characters and a note saying
how much more there is: Textual lays out a widget's whole text on every layout of the
chat, and a megabyte of text takes it seconds each time. The message keeps all its text
(y copies it, ctrl+s exports it, v in the state tree shows it)."""


def shown_part(text: str) -> tuple[str, Static | None]:
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
    return text[:cut], Static(note, classes="more-text")


class MessageView(Vertical):
    """Base of every message widget; `message` is the model it shows."""

    DEFAULT_CSS = "MessageView { height: auto; }"

    def __init__(self, message: ChatMessage, **kwargs) -> None:
        super().__init__(**kwargs)
        self.message = message
        self._resting: list[Widget] | None = None  # the children rest() took off display

    @property
    def resting(self) -> bool:
        return self._resting is not None

    def rest(self) -> None:
        """Far out of view: keep its height, stop displaying its children (Textual lays out
        every displayed widget on every layout, seen or not). Not if it was never laid out."""
        height = self.outer_size.height
        if self._resting is not None or not height:
            return
        self._resting = [child for child in self.children if child.display]
        self.styles.height = height
        for child in self._resting:
            child.display = False

    def wake(self) -> None:
        """Display its children again, as they were (it comes near the view)."""
        resting, self._resting = self._resting, None
        if resting is None:
            return
        for child in resting:
            if child.parent is self:
                child.display = True
        self.styles.height = None


class TextMessageView(MessageView):
    """A message of plain text, drawn by the view itself, no widget inside (each widget is
    mounted, styled and laid out: bench/long_thread.py); one too long to show whole is a
    Static and the note about the rest."""

    def __init__(self, message: ChatMessage, **kwargs) -> None:
        super().__init__(message, **kwargs)
        text, self._more = shown_part(message.text)
        self._body = self.body(text)

    def body(self, text: str) -> Content:
        return plain(text)

    @property
    def is_container(self) -> bool:
        return self._more is not None

    def compose(self) -> ComposeResult:
        if self._more is not None:
            yield Static(self._body, classes="body")
            yield self._more

    def render(self) -> RenderResult:
        return super().render() if self.is_container else self._body


class HumanMessageView(TextMessageView):
    pass


def answer_given(message: ChatMessage) -> str | None:
    """The answer a person gave to the agent's question, when `message` carries one
    (DeerFlow's hidden human message with human_input_response), else None."""
    response = response_of(message)
    if response is None:
        return None
    value = response.get("value")
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


class AnswerMessageView(TextMessageView):
    """The person's answer under the question it answers, as DeerFlow's UI shows it on the
    question's card: one line, shown although the message is hidden from the UI."""

    def body(self, text: str) -> Content:
        return Content.assemble(("You answered: ", "bold $accent"), plain(answer_given(self.message) or ""))


class SystemMessageView(TextMessageView):
    LABEL = ("system: ", "bold")

    def body(self, text: str) -> Content:
        return Content.assemble(self.LABEL, plain(text))


class OtherMessageView(SystemMessageView):
    """A message of a type no one knows (or no message at all: a bare string, a number)."""

    LABEL = ("message of an unknown type: ", "italic $text-warning")


class ToolCallView(Fold):
    """A tool call: its name and its arguments on one line; opened, the arguments as
    pretty JSON (they may stream in)."""

    def __init__(self, call: ToolCall, args_text: str = "") -> None:
        self.call = call
        self._args_text = args_text
        self._args: Static | None = None
        super().__init__(self._title_for(call), self._build, classes="tool-call")

    def _build(self) -> list[Widget]:
        self._args = Static(self._args_for(self.call, self._args_text), classes="tool-args")
        return [self._args]

    @staticmethod
    def _title_for(call: ToolCall) -> Content:
        args = one_line(json.dumps(call.args, ensure_ascii=False, default=str), 48) if call.args else ""
        return Content.assemble(("tool call ", "dim"), (clean(call.name) or "…", "bold"), ("  " + args, "dim"))

    @staticmethod
    def _args_for(call: ToolCall, args_text: str) -> Content:
        text = args_text if args_text and not call.args else pretty_json(call.args)
        if len(text) > DISPLAY_LIMIT:
            more = len(text) - DISPLAY_LIMIT
            return plain(text[:DISPLAY_LIMIT]) + Content.styled(f"\n… {more:,} more characters not shown", "dim italic")
        return plain(text)

    def update_call(self, call: ToolCall, args_text: str = "") -> None:
        self.call, self._args_text = call, args_text
        self.title = self._title_for(call)
        if self._args is not None and self._args.parent is not None:
            self._args.update(self._args_for(call, args_text))


class ReasoningView(Fold):
    """A reply's reasoning (it may stream in)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._body: Static | None = None
        super().__init__(Content.styled("thinking", "italic"), self._build, classes="reasoning")

    def _build(self) -> list[Widget]:
        self._body = Static(plain(self.text), classes="reasoning-text")
        return [self._body]

    def append(self, fragment: str) -> None:
        self.text += fragment
        if self._body is not None and self._body.parent is not None:
            self._body.update(plain(self.text))


class AIMessageView(MessageView):
    """An AI message: reasoning (folded), Markdown text, then its tool calls. A finished
    one of tool calls alone has no Markdown mounted (one widget less for each)."""

    def __init__(self, message: ChatMessage, **kwargs) -> None:
        super().__init__(message, **kwargs)
        self._reasoning: ReasoningView | None = None
        self._tool_views: dict[int, ToolCallView] = {}
        text, self._more = shown_part(message.text)
        # (not made for a reply of tool calls alone: a widget never mounted is never taken
        # apart (teardown.py), and waits for a full collection with all its cycles)
        tools_alone = bool(message.tool_calls) and not message.text
        self._markdown = None if tools_alone else MarkdownBlocks(text, classes="body")

    @property
    def markdown(self) -> MarkdownBlocks:
        """The text's blocks (made when first asked for, if the reply had no text)."""
        if self._markdown is None:
            self._markdown = MarkdownBlocks(classes="body")
        return self._markdown

    def compose(self) -> ComposeResult:
        if self.message.reasoning:
            self._reasoning = ReasoningView(self.message.reasoning)
            yield self._reasoning
        if self._markdown is not None:
            yield self._markdown
        if self._more is not None:
            yield self._more
        for index, call in enumerate(self.message.tool_calls):
            self._tool_views[index] = view = ToolCallView(call)
            yield view

    def _after_text(self) -> Widget | None:
        """The first child below the text (None: the text would be last)."""
        return next((child for child in self.children if isinstance(child, ToolCallView)), None)

    async def let_go(self) -> None:
        """Out of view: its text's blocks let go of their widgets (MarkdownBlocks.let_go)."""
        if self._markdown is not None:
            await self._markdown.let_go()

    async def append_reasoning(self, fragment: str) -> None:
        if self._reasoning is None:
            self._reasoning = ReasoningView("")
            text = self._markdown
            before = text if text is not None and text.parent is self else self._after_text()
            await self.mount(self._reasoning, before=before)
        self._reasoning.append(clean(fragment))

    async def append_text(self, fragment: str) -> None:
        if self.markdown.parent is not self:
            await self.mount(self.markdown, before=self._after_text())
        await self.markdown.append(fragment)

    async def show_tool_call(self, index: int, call: ToolCall, args_text: str = "") -> None:
        view = self._tool_views.get(index)
        if view is None:
            self._tool_views[index] = view = ToolCallView(call, args_text)
            await self.mount(view)
        else:
            view.update_call(call, args_text)

    async def finish(self, final: ChatMessage | None = None) -> None:
        await self.markdown.finish()
        if final is not None:
            self.message = final
            for index, call in enumerate(final.tool_calls):
                await self.show_tool_call(index, call)


class DrawnAIMessageView(DrawsMarkdown, MessageView):
    """A finished AI message of Markdown text alone (no reasoning, no tool calls), drawn by
    the view itself, no widget inside (markdown_drawing.py says which texts can be)."""

    COMPONENT_CLASSES = DRAWN_COMPONENTS
    DEFAULT_CSS = "DrawnAIMessageView { text-wrap: nowrap; }" + drawn_markdown_css("DrawnAIMessageView")

    def __init__(self, message: ChatMessage, source: str, parts: list[DrawnPart], **kwargs) -> None:
        super().__init__(message, **kwargs)
        self.visual = MarkdownVisual(parts)
        self.source = source
        """The Markdown drawn (the message's text, its control characters made visible)."""

    @property
    def is_container(self) -> bool:
        return False


def drawn_reply(message: ChatMessage) -> DrawnAIMessageView | None:
    """The view of a finished AI message drawn by itself, if it can be (a long one is built
    in blocks, those far from view when first seen: MarkdownBlocks)."""
    if message.reasoning or message.tool_calls:
        return None
    text = clean(message.text)
    parts = drawn_parts(text) if text.strip() and len(text) <= BLOCK_CHARS else None
    return DrawnAIMessageView(message, text, parts, classes="message -ai") if parts is not None else None


class ToolResultView(MessageView):
    """A tool's result: folded by default, errors highlighted."""

    def compose(self) -> ComposeResult:
        message = self.message
        label = "tool error" if message.is_error else "tool result"
        title = Content.assemble(
            (label + " ", "bold $error" if message.is_error else "dim"),
            (clean(message.name), "bold"),
            ("  " + one_line(message.text, 60), "dim"),
        )
        if message.is_error:
            self.add_class("-error")
        yield Fold(title, self._output)

    def _output(self) -> list[Widget]:
        text, more = shown_part(self.message.text)
        return [Static(plain(text), classes="tool-output"), *([more] if more is not None else [])]


def view_for(message: ChatMessage) -> MessageView:
    """The view of a message as the thread holds it (finished: not one being streamed)."""
    views: dict[str, type[MessageView]] = {
        "human": HumanMessageView,
        "ai": AIMessageView,
        "tool": ToolResultView,
        "system": SystemMessageView,
    }
    if answer_given(message) is not None:
        return AnswerMessageView(message, classes="message -answer")
    view = (drawn_reply(message) if message.type == "ai" else None) or views.get(message.type, OtherMessageView)(
        message, classes=f"message -{message.type}"
    )
    if message.hidden:
        view.add_class("-hidden")
    return view
