"""A long or streamed Markdown text as a column of blocks, each its own widget, so a new
token's cost does not grow with the text's length, and blocks far from view let go of
their widgets (a screen lays out every displayed widget, seen or not).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterable

from markdown_it.token import Token
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.events import Mount
from textual.widget import AwaitMount, Widget
from textual.widgets import Markdown
from textual.widgets._markdown import (
    MarkdownBlock,
    MarkdownBullet,
    MarkdownBulletList,
    MarkdownListItem,
    MarkdownOrderedList,
    MarkdownOrderedListItem,
)

from ..text import clean
from ..uninterrupted import uninterrupted
from .markdown_drawing import DrawnMarkdown, drawn_parts
from .markdown_list import DrawnList
from .markdown_parsing import let_go, shared_parser
from .markdown_table import ChatTable

# A streamed reply is split into Markdown blocks of about this many characters, each its
# own widget, so the cost of a new token does not grow with the length of the reply.
BLOCK_CHARS = 2_000
EAGER_BLOCKS = 2
"""A long message builds its last blocks at once and the ones above when they are first seen:
Textual lays out every displayed widget on every layout, seen or not."""


def mount_at_end(parent: Widget, *widgets: Widget) -> AwaitMount:
    """`parent.mount(*widgets)` (at the end), restyling only the children the append changes."""
    return _appending(parent, widgets, lambda: parent.mount(*widgets))


def _appending(parent: Widget, widgets: tuple[Widget, ...], mount: Callable[[], AwaitMount]) -> AwaitMount:
    """Run `mount` (which appends `widgets` to `parent`) without restyling every child.

    After a mount Textual restyles each displayed child, with all its descendants, that
    an order rule (:first-child, :last-child, :first-of-type, ...) could apply to; the
    app's `.message Markdown > *:last-child` makes that every widget, so appending a
    paragraph cost as much as restyling the whole reply above it, and a list was restyled
    once per level of its nesting. An append changes the order pseudo-classes of the old
    last child, and of the old last child of each new widget's type, only; the new widgets
    were styled in place when they were registered. So those few are restyled, alone
    (no rule here depends on an ancestor's order), and the others sit out that pass.
    """
    children = parent.displayed_children
    changed = [
        child
        for index, child in enumerate(children)
        if index == len(children) - 1
        or (child.last_of_type and any(isinstance(widget, type(child)) for widget in widgets))
    ]
    held = [child for child in children if child._has_order_style]
    for child in held:
        child._has_order_style = False
    try:
        return mount()
    finally:
        fresh = [widget for widget in widgets if widget._has_order_style]
        for widget in fresh:
            widget._has_order_style = False
        held.extend(fresh)

        def restyle() -> None:
            for child in held:
                child._has_order_style = True
            for child in changed:
                if child.parent is parent and child._has_order_style:
                    parent.app.stylesheet.apply(child)

        if held:
            parent.call_later(restyle)  # after the restyle pass the mount scheduled


class QuietAppend:
    """Mixin for containers whose children are appended: see `_appending`."""

    def mount(self, *widgets: Widget, before=None, after=None) -> AwaitMount:
        if before is not None or after is not None:
            return super().mount(*widgets, before=before, after=after)  # type: ignore[misc]
        return _appending(self, widgets, lambda: super(QuietAppend, self).mount(*widgets))  # type: ignore[arg-type, misc]


class StreamedRow(QuietAppend, Horizontal):
    pass


class StreamedColumn(QuietAppend, Vertical):
    pass


class StreamedBulletList(QuietAppend, MarkdownBulletList):
    def compose(self) -> ComposeResult:  # Textual's, with quiet containers
        for block in self._blocks:
            if isinstance(block, MarkdownListItem):
                bullet = MarkdownBullet()
                bullet.symbol = block.bullet
                yield StreamedRow(bullet, StreamedColumn(*block._blocks))
        self._blocks.clear()


class StreamedOrderedList(QuietAppend, MarkdownOrderedList):
    def compose(self) -> ComposeResult:  # Textual's, with quiet containers
        suffix = ". "
        start = 1
        if self._blocks and isinstance(self._blocks[0], MarkdownOrderedListItem):
            try:
                start = int(self._blocks[0].bullet)
            except ValueError:
                pass
        symbol_size = max(
            len(f"{number}{suffix}")
            for number, block in enumerate(self._blocks, start)
            if isinstance(block, MarkdownListItem)
        )
        for number, block in enumerate(self._blocks, start):
            if isinstance(block, MarkdownListItem):
                bullet = MarkdownBullet()
                bullet.symbol = f"{number}{suffix}".rjust(symbol_size + 1)
                yield StreamedRow(bullet, StreamedColumn(*block._blocks))
        self._blocks.clear()


class ChatBulletList(DrawnList, StreamedBulletList):
    pass


class ChatOrderedList(DrawnList, StreamedOrderedList):
    pass


class ChatMarkdown(Markdown):
    """Textual's Markdown, its tables and its lists of text drawn by one widget each
    (markdown_table.py, markdown_list.py); other lists with quiet appends. The blocks it
    parses and never mounts are let go at once (markdown_parsing.py).

    Its first text is parsed as it is composed. Textual mounts an empty Markdown, then
    parses in a worker thread and mounts the blocks: each message mounted ahead of a scroll
    was handed to a thread and back, and laid out empty, then again with its blocks
    (bench/long_thread.py).
    """

    BLOCKS = {
        **Markdown.BLOCKS,
        "table_open": ChatTable,
        "bullet_list_open": ChatBulletList,
        "ordered_list_open": ChatOrderedList,
    }

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("parser_factory", shared_parser)
        super().__init__(*args, **kwargs)
        self._parsed: list[MarkdownBlock] = []
        """The blocks parsed since the last update or append ended."""

    def compose(self) -> ComposeResult:
        text = self._initial_markdown
        if not text:
            return
        self._initial_markdown = None
        self._composed_text = True
        self._markdown = text
        self._theme = self.app.theme
        blocks = self._parse_markdown(shared_parser().parse(text))
        self._parsed = []  # (every one of them is mounted)
        lines = text.splitlines()
        self._last_parsed_line = len(lines) - (1 if lines and lines[-1] else 0)
        yield from blocks

    async def _on_mount(self, event: Mount) -> None:  # type: ignore[override]  # (Widget's is not async)
        if self.__dict__.get("_composed_text"):
            event.prevent_default()  # (Textual's would parse the text again, or clear it)
            Widget._on_mount(self, event)  # (what the classes below Markdown's do on mount)
            self.post_message(Markdown.TableOfContentsUpdated(self, self.table_of_contents).set_sender(self))

    def _parse_markdown(self, tokens: Iterable[Token]) -> list[MarkdownBlock]:
        blocks = list(super()._parse_markdown(tokens))
        self._parsed += blocks
        return blocks

    def update(self, markdown: str) -> AwaitComplete:
        return AwaitComplete(self._letting_go(super().update(markdown)))

    def append(self, markdown: str) -> AwaitComplete:
        return AwaitComplete(self._letting_go(super().append(markdown)))

    async def _letting_go(self, change: AwaitComplete) -> None:
        """Once `change` is done, and any change queued behind it (they parse and mount
        under the lock), the blocks parsed and not mounted are let go."""
        await change
        lock = self.__dict__.get("lock")
        if lock is None:
            return  # taken apart meanwhile (teardown.py): its blocks are the collector's
        async with lock:
            parsed, self._parsed = self._parsed, []
            let_go(parsed)


class StreamedMarkdown(QuietAppend, ChatMarkdown):
    """One block of a streamed reply: ChatMarkdown, with quiet appends (its blocks are
    only appended, or the last one replaced, while it streams)."""


def finished_block(source: str) -> DrawnMarkdown | ChatMarkdown:
    """A block whose text is complete: drawn by one widget if it can be, else Textual's."""
    parts = drawn_parts(source)
    return DrawnMarkdown(source, parts) if parts is not None else ChatMarkdown(source)


class BlockFrame(Vertical):
    """Holds one block of a streamed reply, and its source.

    Textual lays out every displayed widget of the screen on every frame, so a long reply
    would make each frame cost more than the last. So a finished block's height is pinned
    and, while it is out of view, its Markdown is set aside (not displayed); and a block
    that streamed by while the screen was busy further down is not rendered at all until
    it is needed (`deferred`: a fixed height estimated from its text, no widgets). A frame
    painted in either state brings its Markdown (back) on the next frame.
    """

    DEFAULT_CSS = "BlockFrame { height: auto; }"

    def __init__(self, markdown: Markdown | None = None, source: str = "") -> None:
        super().__init__(*([markdown] if markdown is not None else []))
        self.markdown: Markdown | DrawnMarkdown | None = markdown
        self.source = source
        self.pinned_width = 0
        self.set_aside = False

    @property
    def deferred(self) -> bool:
        return self.markdown is None

    def pin(self) -> bool:
        """Fix the height at what the block measures now (False if it has not been laid out)."""
        size = self.outer_size
        if not size.height or self.deferred:
            return False
        self.styles.height = size.height
        self.pinned_width = size.width
        return True

    def estimate(self, width: int) -> None:
        """A deferred block's height, guessed from its text at this width."""
        self.styles.height = estimate_rows(self.source, width)
        self.pinned_width = width

    def rows(self, width: int) -> int:
        """Its height: as pinned or estimated, else estimated from its text."""
        height = self.styles.height
        return int(height.value) if height is not None and height.is_cells else estimate_rows(self.source, width)

    async def defer(self, width: int) -> None:
        """Let go of its widgets, for a height estimated from its text (built again when seen)."""
        markdown = self.release(width)
        if markdown is not None:
            await uninterrupted(markdown.remove())
            self.forget_removed()

    def release(self, width: int) -> Markdown | DrawnMarkdown | None:
        """`defer`, leaving the removal of the Markdown it returns to the caller."""
        markdown, self.markdown = self.markdown, None
        self.set_aside = False
        self.estimate(width)
        return markdown

    def forget_removed(self) -> None:
        """Drop the Markdown just removed from Textual's caches. Textual 8.2.8 keeps a removed
        child in two caches of its parent (its displayed children, its arrangements) until
        the parent is laid out anew, and a frame that let go of its Markdown seldom is: each
        reply above the view kept about 270 removed widgets alive, 6 MB a reply in a soak."""
        self._clear_arrangement_cache()
        _ = self.displayed_children  # (computed again, without it)

    def unpin(self) -> None:
        self.bring_back()
        if not self.deferred:
            self.styles.height = None
            self.pinned_width = 0

    def put_aside(self) -> None:
        if self.pinned_width and not self.set_aside and self.markdown is not None:
            self.set_aside = True
            self.markdown.display = False

    def bring_back(self) -> None:
        if self.set_aside and self.markdown is not None:
            self.set_aside = False
            self.markdown.display = True

    async def materialize(self) -> None:
        if self.markdown is None and self.is_attached:
            self.markdown = finished_block(self.source)
            await mount_at_end(self, self.markdown)
            self.styles.height = None
            self.pinned_width = 0
            parent = self.parent
            if isinstance(parent, MarkdownBlocks) and self in parent._frames:  # (a streamed one)
                parent.settle_later(self)

    def render_lines(self, crop):
        if self.set_aside:  # in view after all (the user scrolled up to it)
            self.call_later(self.bring_back)
        elif self.markdown is None:
            self.call_later(self.materialize)
        return super().render_lines(crop)


def following(view: ScrollableContainer | None) -> bool:
    """Does `view` show the end of its content, now and as it grows (anchored, the user has
    not scrolled away)? Right after content grows, scroll_y lags max_scroll_y for a frame."""
    if view is None:
        return False
    if view.is_anchored and not view._anchor_released:
        return True
    return view.scroll_y >= view.max_scroll_y


def _top_margin(block: Widget) -> int:
    """The top margin of the first element of a block (a Markdown, or a BlockFrame)."""
    markdown = block.markdown if isinstance(block, BlockFrame) else block
    if isinstance(markdown, DrawnMarkdown):
        return markdown.visual.top_margin
    if isinstance(markdown, Markdown):
        first = next(iter(markdown.children), None)
        if first is not None:
            return first.styles.margin.top
    source = block.source if isinstance(block, (BlockFrame, Markdown, DrawnMarkdown)) else ""
    line = next((line.strip() for line in source.splitlines() if line.strip()), "")
    return 1 if line[:1] in ("#", "`", "~", ">", "|") else 0  # a guess until it is built


def estimate_rows(text: str, width: int) -> int:
    """About how many rows Markdown `text` takes at `width` (blank lines become margins)."""
    width = max(10, width - 2)
    rows, blank = 0, True
    for line in text.splitlines():
        if not line.strip():
            rows += 0 if blank else 1
            blank = True
            continue
        blank = False
        rows += -(-len(line) // width)
    return max(1, rows)


class MarkdownBlocks(Vertical):
    """Markdown that grows by appending; finished blocks are rendered once and left alone.

    A streamed reply is cut where `split_blocks` would cut the whole text (the first blank
    line outside a code fence after BLOCK_CHARS), wherever the fragments happen to end, so
    Textual only ever re-parses the short block being written. After the layout that
    follows a block's end, its height is pinned and, if it is well above the bottom of a
    view that follows the reply, it is set aside; blocks that arrive already a screen or
    more above the end are not rendered until they are seen (see BlockFrame). So the cost
    of a frame does not grow with the reply, and a screen that falls behind the stream
    catches up at once instead of rendering what scrolled by.
    """

    DEFAULT_CSS = "MarkdownBlocks { height: auto; } MarkdownBlocks.-empty { display: none; }"

    def __init__(self, text: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self._initial = clean(text)
        # Known before mount: a class set on mount restyles the subtree.
        self.set_class(not self._initial.strip(), "-empty", update=False)
        self._composed: list[BlockFrame | Markdown | DrawnMarkdown] = []  # the blocks of the initial text
        self._frames: list[BlockFrame] = []  # the streamed ones
        self._splitter = BlockSplitter()  # where the appended text may be cut into blocks
        self._current: BlockFrame | None = None  # the block being written
        self._unsettled: list[BlockFrame] = []  # finished, not laid out since

    def compose(self) -> ComposeResult:
        blocks = split_blocks(self._initial)
        built_later = len(blocks) - EAGER_BLOCKS  # those above the last few: when first seen
        for index, source in enumerate(blocks):
            if index < built_later:
                frame = BlockFrame(source=source)
                frame.estimate(self._width())
                block: BlockFrame | Markdown | DrawnMarkdown = frame
            else:
                block = finished_block(source)
            self._composed.append(block)
            yield block

    def on_mount(self) -> None:
        if len(self._composed) > 1:  # (a drawn block says nothing when built: see _fix_gaps)
            self._fix_gaps()

    def on_unmount(self) -> None:
        self._unsettled.clear()
        self._watch_layout(False)

    def on_markdown_table_of_contents_updated(self, event: Markdown.TableOfContentsUpdated) -> None:
        if len(self._composed) > 1:  # a block of the initial text is built: see _fix_gaps
            self._fix_gaps()

    @property
    def text(self) -> str:
        return "".join(block.source for block in self._composed) + "".join(f.source for f in self._frames)

    async def append(self, fragment: str) -> None:
        fragment = clean(fragment)
        if not fragment:
            return
        if self.has_class("-empty"):
            self.remove_class("-empty")
        pieces = self._splitter.feed(fragment)
        # (text, ends a block) for the block being written, then each new block.
        parts = [(piece, index < len(pieces) - 1) for index, piece in enumerate(pieces)]
        rows_after = self._rows_after(parts)
        new_frames: list[BlockFrame] = []
        writes: list[tuple[BlockFrame, str]] = []
        for index, (piece, ends) in enumerate(parts):
            frame = self._current
            if frame is None:
                if not piece:
                    continue
                if ends and (rows := rows_after[index]) is not None and rows >= self._screen_rows():
                    frame = BlockFrame(source=piece)  # a screen or more above the end: later
                    frame.estimate(self._width())
                    new_frames.append(frame)
                    self._frames.append(frame)
                    continue
                frame = BlockFrame(StreamedMarkdown())
                new_frames.append(frame)
                self._frames.append(frame)
                self._current = frame
            if piece:
                frame.source += piece
                writes.append((frame, piece))
            if ends:
                self._current = None
                self._unsettled.append(frame)
        if new_frames:
            await mount_at_end(self, *new_frames)
        await self._keep_to_a_screen()
        for frame, piece in writes:
            # Not if it was just let go (built when seen), nor if this reply was taken off
            # the chat meanwhile (the chat drawn again as the run ended): its blocks were
            # never mounted. The text is in the frame's source either way.
            if isinstance(frame.markdown, Markdown) and frame.markdown.is_attached:
                await uninterrupted(frame.markdown.append(piece))
        if self._unsettled:
            self._watch_layout(True)

    async def _keep_to_a_screen(self) -> None:
        """While the view follows the end, only blocks within a screen of it keep widgets
        on display, before the layout that follows this append (a burst of text that
        arrives while the screen is busy would otherwise be laid out in full, once)."""
        if len(self._frames) < 2 or not following(self._view()):
            return
        width, screen = self._width(), self._screen_rows()
        below = 0
        for frame in reversed(self._frames):
            if below >= screen and frame is not self._current and not (frame.deferred or frame.set_aside):
                # (not only the newest: a frame above may have been painted, so brought
                # back, while the view was catching up with the end)
                if frame.pinned_width:
                    frame.put_aside()
                else:
                    await frame.defer(width)
            below += frame.outer_size.height if frame.pinned_width else frame.rows(width)

    def _rows_after(self, parts: list[tuple[str, bool]]) -> list[int | None]:
        """For each part, the rows the text after it takes (None: not following the end)."""
        view = self._view()
        if not following(view):
            return [None] * len(parts)
        width = self._width()
        result: list[int | None] = []
        after = 0
        for piece, _ in reversed(parts):
            result.append(after)
            after += estimate_rows(piece, width)
        result.reverse()
        return result

    def _view(self) -> ScrollableContainer | None:
        return next((node for node in self.ancestors if isinstance(node, ScrollableContainer)), None)

    def _width(self) -> int:
        return self.outer_size.width or 80

    def _screen_rows(self) -> int:
        view = self._view()
        return (view.outer_size.height if view is not None else 0) or 50

    async def let_go(self) -> None:
        """Out of view: every block that is built when seen lets go of its widgets (a block
        set aside still held them: a session of long replies grew by 11 MB and 100 widgets
        a reply, and its layouts with them)."""
        width = self._width()
        blocks = [*self._composed, *self._frames]
        frames = [b for b in blocks if isinstance(b, BlockFrame)]
        released = [m for frame in frames if (m := frame.release(width)) is not None]
        if released:
            await uninterrupted(asyncio.gather(*(markdown.remove() for markdown in released)))
            for frame in frames:
                frame.forget_removed()

    async def finish(self) -> None:
        """The block being written is complete (more text would start a new one)."""
        self._current = None
        self._splitter = BlockSplitter()
        if len(self._frames) > 1:
            self._fix_gaps()

    def _fix_gaps(self) -> None:
        """Put back the blank line between two blocks where one Markdown would have it.

        In one Markdown the gap between two elements is the larger of the first's bottom
        margin (1 for every kind) and the second's top margin. Cut into blocks, the first
        is the last child of its Markdown, which the app's style gives no bottom margin,
        and the second keeps its top margin inside its own Markdown: so a block gets a
        bottom margin of 1 when the next one starts with an element without a top margin
        (a paragraph, a list), none otherwise.
        """
        blocks: list[Widget] = [*self._composed, *self._frames]
        for block, following in itertools.pairwise(blocks):
            gap = 1 if _top_margin(following) == 0 else 0
            if block.styles.margin.bottom != gap:
                block.styles.margin = (0, 0, gap, 0)

    # -- keeping the cost of a frame flat ---------------------------------------------------

    def settle_later(self, frame: BlockFrame) -> None:
        self._unsettled.append(frame)
        self._watch_layout(True)

    def _watch_layout(self, on: bool) -> None:
        try:
            signal = self.screen.screen_layout_refresh_signal
        except Exception:  # not on a screen (any more)
            return
        if on:
            if self.is_running:  # (not while the app takes it down, a reply still streaming)
                signal.subscribe(self, self._laid_out)
        else:
            signal.unsubscribe(self)

    def _laid_out(self, _screen=None) -> None:
        """The screen was laid out: finished blocks now have their final height."""
        frames, self._unsettled = self._unsettled, []
        for frame in frames:
            if frame.parent is self and not frame.deferred and not frame.pin():
                self._unsettled.append(frame)  # not laid out yet: next time
        if not self._unsettled:
            self._watch_layout(False)
        if len(self._frames) > 1:
            self._fix_gaps()
        widths = {frame.pinned_width for frame in self._frames if not frame.deferred} - {0}
        if len(widths) > 1:
            self._unpin_all()  # the width changed in between: measure again
            return
        view = self._view()
        if view is None or not following(view):
            return  # not following the end: what is in view is not known cheaply
        below = self._frames[-1].outer_size.height if self._frames else 0
        for frame in reversed(self._frames[:-1]):
            if below >= view.outer_size.height:
                frame.put_aside()
            below += frame.outer_size.height

    def _unpin_all(self) -> None:
        width = self._width()
        for frame in self._frames:
            if frame.deferred:
                frame.estimate(width)
            else:
                frame.unpin()

    def on_resize(self, event) -> None:
        width = event.size.width
        if any(frame.pinned_width not in (0, width) for frame in self._frames):
            self._unpin_all()


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
