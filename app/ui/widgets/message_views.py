"""One widget per kind of chat message: human, AI (Markdown, streamed), tool call,
tool result, reasoning and system.

Every string from the server reaches the screen as `Content` (never parsed as markup)
or as Markdown source, after control characters are made visible.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import AwaitMount, Widget
from textual.widgets import Collapsible, Markdown, Static

from app.models import ChatMessage, ToolCall
from app.ui.text import clean, one_line, plain, pretty_json

# A streamed reply is split into Markdown blocks of about this many characters, each its
# own widget, so the cost of a new token does not grow with the length of the reply.
BLOCK_CHARS = 2_000


def mount_at_end(parent: Widget, *widgets: Widget) -> AwaitMount:
    """`parent.mount(*widgets)` (at the end), restyling only the children the append changes."""
    return _appending(parent, widgets, lambda: parent.mount(*widgets))


def _appending(parent: Widget, widgets: tuple[Widget, ...], mount: Callable[[], AwaitMount]) -> AwaitMount:
    """Run `mount` (which appends `widgets` to `parent`) without restyling every sibling.

    After a mount Textual restyles each displayed child, with all its descendants, that
    an order rule (:first-child, :last-child, :first-of-type, ...) could apply to; the
    app's `.message Markdown > *:last-child` makes that every widget, so each append cost
    as much as the whole chat. Appending changes the order pseudo-classes of only the old
    last child and of the old last child of each new widget's type: the others sit out
    that one pass (and are restyled as usual afterwards).
    """
    children = parent.displayed_children
    quiet = [
        child
        for child in children[:-1]
        if child._has_order_style
        and not (child.last_of_type and any(isinstance(widget, type(child)) for widget in widgets))
    ]
    for child in quiet:
        child._has_order_style = False
    try:
        return mount()
    finally:

        def restore() -> None:
            for child in quiet:
                child._has_order_style = True

        if quiet:
            parent.call_later(restore)  # after the restyle pass the mount scheduled


class StreamedMarkdown(Markdown):
    """One block of a streamed reply: Textual's Markdown, whose children are only appended
    (or the last one replaced) while it streams, without restyling the earlier ones."""

    def mount(self, *widgets: Widget, before=None, after=None) -> AwaitMount:
        if before is not None or after is not None:
            return super().mount(*widgets, before=before, after=after)
        return _appending(self, widgets, lambda: super(StreamedMarkdown, self).mount(*widgets))


class MarkdownBlocks(Vertical):
    """Markdown that grows by appending; finished blocks are rendered once and left alone.

    A streamed reply is cut where `split_blocks` would cut the whole text (the first blank
    line outside a code fence after BLOCK_CHARS), wherever the fragments happen to end, so
    Textual only ever re-parses and re-lays-out the short block being written.
    """

    DEFAULT_CSS = "MarkdownBlocks { height: auto; } MarkdownBlocks.-empty { display: none; }"

    def __init__(self, text: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self._initial = clean(text)
        self._splitter = BlockSplitter()  # where the appended text may be cut into blocks
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
        if self.has_class("-empty"):
            self.remove_class("-empty")
        pieces = self._splitter.feed(fragment)
        for index, piece in enumerate(pieces):
            if piece:
                if self._stream is None:
                    await self._new_block()
                await self._stream.write(piece)
            if index < len(pieces) - 1:  # a block ends after this piece
                await self.finish()

    async def _new_block(self) -> None:
        await self.finish()
        block = StreamedMarkdown()
        await mount_at_end(self, block)
        self._stream = Markdown.get_stream(block)

    async def finish(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()


class BlockSplitter:
    """Finds, in text that arrives in pieces, where `split_blocks` cuts it into blocks.

    feed() returns the new text cut at block ends: every piece but the last ends a block.
    Work is proportional to the text fed, never to the text so far.
    """

    def __init__(self) -> None:
        self.size = 0  # characters of complete lines in the current block
        self.fence_open = False
        self.line = ""  # the incomplete last line

    def feed(self, text: str) -> list[str]:
        held = len(self.line)
        lines = (self.line + text).splitlines(keepends=True)
        self.line = lines.pop() if lines and not _ends_line(lines[-1]) else ""
        pieces, start, position = [], 0, -held
        for line in lines:
            position += len(line)
            self.size += len(line)
            if line.lstrip().startswith("```"):
                self.fence_open = not self.fence_open
            if self.size >= BLOCK_CHARS and not self.fence_open and line.strip() == "":
                pieces.append(text[start:position])
                start, self.size = position, 0
        pieces.append(text[start:])
        return pieces


def _ends_line(text: str) -> bool:
    return text.splitlines()[0] != text


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
        # Collapsed: the title shows the arguments on one line; expand for pretty JSON.
        super().__init__(self._body, title=self._title_for(call), collapsed=True, classes="tool-call")

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
