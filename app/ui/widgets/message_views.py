"""One widget per kind of chat message: human, AI (Markdown, streamed), tool call,
tool result, reasoning and system.

Every string from the server reaches the screen as `Content` (never parsed as markup)
or as Markdown source, after control characters are made visible.
"""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Collapsible, Markdown, Static

from app.models import ChatMessage, ToolCall
from app.ui.text import clean, one_line, plain, pretty_json

# A streamed reply is split into Markdown blocks of about this many characters, each its
# own widget, so the cost of a new token does not grow with the length of the reply.
BLOCK_CHARS = 2_000
TOOL_ARGS_LINES = 8
"""Tool calls whose pretty arguments run longer than this start collapsed."""


class MarkdownBlocks(Vertical):
    """Markdown that grows by appending; finished blocks are rendered once and left alone."""

    DEFAULT_CSS = "MarkdownBlocks { height: auto; } MarkdownBlocks.-empty { display: none; }"

    def __init__(self, text: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self._initial = clean(text)
        self._tail = ""  # source of the block being streamed into
        self._fence_open = False
        self._stream = None

    def compose(self) -> ComposeResult:
        for block in split_blocks(self._initial):
            yield Markdown(block)

    def on_mount(self) -> None:
        self.set_class(not self._initial.strip(), "-empty")

    @property
    def text(self) -> str:
        return "".join(
            block.source for block in self.query_children(Markdown)
        )

    async def append(self, fragment: str) -> None:
        fragment = clean(fragment)
        if not fragment:
            return
        self.remove_class("-empty")
        if self._stream is None or self._should_split():
            await self._new_block()
        self._tail += fragment
        self._fence_open ^= fragment.count("```") % 2 == 1
        await self._stream.write(fragment)

    def _should_split(self) -> bool:
        return (
            len(self._tail) >= BLOCK_CHARS
            and not self._fence_open
            and self._tail.endswith("\n\n")
        )

    async def _new_block(self) -> None:
        await self.finish()
        block = Markdown()
        await self.mount(block)
        self._tail = ""
        self._stream = Markdown.get_stream(block)

    async def finish(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()


def split_blocks(text: str) -> list[str]:
    """Split Markdown at blank lines outside code fences into blocks of ~BLOCK_CHARS."""
    if len(text) <= BLOCK_CHARS:
        return [text] if text else []
    blocks, current, fence_open = [], [], False
    size = 0
    for line in text.splitlines(keepends=True):
        current.append(line)
        size += len(line)
        if line.lstrip().startswith("```"):
            fence_open = not fence_open
        if size >= BLOCK_CHARS and not fence_open and line.strip() == "":
            blocks.append("".join(current))
            current, size = [], 0
    if current:
        blocks.append("".join(current))
    return blocks


class MessageView(Vertical):
    """Base of every message widget; `message` is the model it shows."""

    DEFAULT_CSS = "MessageView { height: auto; }"

    def __init__(self, message: ChatMessage, **kwargs) -> None:
        super().__init__(**kwargs)
        self.message = message


class HumanMessageView(MessageView):
    def compose(self) -> ComposeResult:
        yield Static(plain(self.message.text), classes="body")


class SystemMessageView(MessageView):
    def compose(self) -> ComposeResult:
        yield Static(Content.assemble(("system: ", "bold"), plain(self.message.text)), classes="body")


class ToolCallView(Collapsible):
    """A tool call: its name, and its arguments as pretty JSON (they may stream in)."""

    def __init__(self, call: ToolCall, args_text: str = "") -> None:
        self.call = call
        body = self._args_for(call, args_text)
        self._body = Static(body, classes="tool-args")
        long = body.plain.count("\n") >= TOOL_ARGS_LINES
        super().__init__(self._body, title=self._title_for(call), collapsed=long, classes="tool-call")

    @staticmethod
    def _title_for(call: ToolCall) -> Content:
        args = one_line(json.dumps(call.args, ensure_ascii=False, default=str), 48) if call.args else ""
        return Content.assemble(("tool call ", "dim"), (clean(call.name) or "…", "bold"), ("  " + args, "dim"))

    @staticmethod
    def _args_for(call: ToolCall, args_text: str) -> Content:
        if args_text and not call.args:
            return plain(args_text)
        return plain(pretty_json(call.args))

    def update_call(self, call: ToolCall, args_text: str = "") -> None:
        self.call = call
        self.title = self._title_for(call)  # type: ignore[assignment]
        self._body.update(self._args_for(call, args_text))


class ReasoningView(Collapsible):
    def __init__(self, text: str) -> None:
        self._body = Static(plain(text), classes="reasoning-text")
        super().__init__(self._body, title=Content.styled("thinking", "italic"), collapsed=True, classes="reasoning")
        self.text = text

    def append(self, fragment: str) -> None:
        self.text += fragment
        self._body.update(plain(self.text))


class AIMessageView(MessageView):
    """An AI message: reasoning (collapsed), Markdown text, then its tool calls."""

    def __init__(self, message: ChatMessage, **kwargs) -> None:
        super().__init__(message, **kwargs)
        self._reasoning: ReasoningView | None = None
        self._tool_views: dict[int, ToolCallView] = {}
        self.markdown = MarkdownBlocks(message.text, classes="body")

    def compose(self) -> ComposeResult:
        if self.message.reasoning:
            self._reasoning = ReasoningView(self.message.reasoning)
            yield self._reasoning
        yield self.markdown
        for index, call in enumerate(self.message.tool_calls):
            self._tool_views[index] = view = ToolCallView(call)
            yield view

    async def append_reasoning(self, fragment: str) -> None:
        if self._reasoning is None:
            self._reasoning = ReasoningView("")
            await self.mount(self._reasoning, before=self.markdown)
        self._reasoning.append(clean(fragment))

    async def append_text(self, fragment: str) -> None:
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


class ToolResultView(MessageView):
    """A tool's result: collapsed by default, errors highlighted."""

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
        yield Collapsible(
            Static(plain(message.text), classes="tool-output"),
            title=title,  # type: ignore[arg-type]
            collapsed=True,
        )


def view_for(message: ChatMessage) -> MessageView:
    views: dict[str, type[MessageView]] = {
        "human": HumanMessageView,
        "ai": AIMessageView,
        "tool": ToolResultView,
        "system": SystemMessageView,
    }
    view = views.get(message.type, SystemMessageView)(message, classes=f"message -{message.type}")
    if message.hidden:
        view.add_class("-hidden")
    return view
