"""The conversation (#chat-log): a window of message widgets over the whole thread.

Only the newest messages that fill a few screens (at most WINDOW) are mounted when a
thread opens, so a 10,000-message thread opens quickly; as the user scrolls up, a screen of
older ones is mounted ahead of the view (AHEAD_SCREENS from the window's top), so a scroll
step mounts a few and none waits at the edge. At most MOUNTED messages stay mounted: as
older ones come in at the top, the newest go from the bottom (and come back the same way as
the user scrolls down again), so every scroll step lays out the same few widgets however far
up the user reads; a new message or a run brings the window back to the end first. While
a run streams, tokens are appended to the reply's Markdown and the view follows the
bottom unless the user has scrolled up (VerticalScroll anchoring).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from typing import TypeVar

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static
from textual.worker import Worker

from ...models import ChatMessage, RunEvent, ToolCall, ToolCallChunk
from ..text import plain
from ..uninterrupted import Removals, after_removals
from .markdown_blocks import estimate_rows, following
from .message_views import AIMessageView, MessageView, answer_given, drawn_reply, view_for

T = TypeVar("T")

WINDOW = 40
"""At most this many messages are mounted when a thread opens..."""
SCREENS = 1.5
"""...and fewer when the newest ones fill this many heights of the view already."""
PAGE = 30
"""Messages mounted at once by `load_older` and `load_newer` when asked for no number."""
MOUNTED = 40
"""At most this many messages are mounted while scrolling through a long thread."""
FILLS = 10
"""At most this many pages of older messages are mounted to fill a view the window does not
(a thread whose newest hundreds are hidden stops there: `h` shows them, `home` goes up)."""
AHEAD_SCREENS = 1.5
"""Scrolling towards an end of the window with more beyond it, the next messages are mounted
while the view is this many of its heights from that end..."""
AHEAD = 8
"""...a screen of them at a time, at most this many: a scroll step mounts the few it needs
(30 at once took 200-400 ms) and the reader never waits at an edge."""
REST_SCREENS = 1.0
"""Before the chat is laid out anew (older or newer messages mounted), the messages more
than this many heights of the view away from it rest (MessageView.rest), and a scroll wakes
those it brings within this distance: a layout then takes the messages near the view, not
the whole window of up to MOUNTED."""
KEPT_SCREENS = 3
"""While the view follows the end of a growing conversation, only the newest messages that
fill this many heights of the view (at most WINDOW) stay mounted."""


def _estimated_rows(message: ChatMessage, width: int) -> int:
    """A message's height guessed from its text, with its margin. A fold (a tool call, a
    tool's result, reasoning) is one line: an agent's thread is mostly folds, and a window
    guessed from their text did not fill the view (so could not be scrolled up). A hidden
    message takes no line until the reader shows the hidden ones."""
    if message.hidden and answer_given(message) is None:
        return 0
    folds = (message.type == "tool") + len(message.tool_calls) + bool(message.reasoning)
    shows_text = message.type != "tool" and bool(message.text.strip())
    return (estimate_rows(message.text, width) + 1 if shows_text else 0) + folds + 1


def _measured_rows(view: MessageView, width: int) -> int:
    return view.outer_size.height or _estimated_rows(view.message, width)


class ChatLog(VerticalScroll, can_focus=True):
    TEAR_DOWN_REMOVED = True  # see teardown.py
    BINDINGS = [
        ("h", "toggle_hidden", "Hidden msgs"),
        ("home", "scroll_home_all", "Top"),
        Binding("end", "scroll_end_all", "End", show=False),
    ]

    class OlderLoaded(Message):
        """More of the thread's history was mounted at the top."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.messages: list[ChatMessage] = []
        self._first = 0  # index in self.messages of the first mounted message
        self._below = 0  # the newest messages not mounted (the user scrolled far up)
        self._ids: set[str] = set()
        self._streaming: dict[str, AIMessageView] = {}
        self._tool_chunks: dict[str, dict[int, ToolCallChunk]] = {}
        self._loading_older = False
        self._ahead: Worker[bool] | None = None  # the load _load_ahead started last
        self._fills_left = 0  # pages _fill_view may still mount (FILLS at each show_messages)
        self._anchoring = False
        self._banner: Static | None = None  # the past view's notice, pinned above the conversation
        self._marker: Static | None = None  # "↑ N older messages"
        self._echo: ChatMessage | None = None
        """The message being sent, shown before the server has stored it (add_echo)."""
        self.removals = Removals()
        self._rest_width = 0  # the width resting message views were measured at
        self._may_rest = False  # a view may be resting (a scroll has something to wake)

    # -- whole conversations ---------------------------------------------------------------

    @after_removals
    async def show_messages(self, messages: list[ChatMessage], *, notice: Content | str | None = None) -> None:
        """Show `messages` instead (mounting only the newest window).

        Message widgets that already show one of the new window's messages are kept, so
        stepping through checkpoints (one message more or less) mounts one widget, not forty.
        """
        streamed = list(self._streaming.values())
        for view in streamed:  # stop their Markdown streams before they go:
            await view.finish()  # a stream appending to a widget being removed can hang
        self.messages = list(messages)
        self._ids = {m.id for m in messages if m.id}
        self._streaming.clear()
        self._tool_chunks.clear()
        self._first = self._window_start(self.messages)
        self._below = 0
        self._wake_all()
        with self.app.batch_update():
            kept = [c for c in self.children if isinstance(c, MessageView) and c not in streamed]
            top = (self._banner, self._marker)
            await self.removals.run(self.remove_children([c for c in self.children if c not in kept and c not in top]))
            await self._reconcile(kept, self.messages[self._first :])
            self._banner = await self._top_line(
                self._banner,
                None if notice is None else notice if isinstance(notice, Content) else plain(notice),
                "chat-notice past-banner",
                before=self._marker,
            )
            await self._show_marker()
        self.scroll_end(animate=False, immediate=True)
        self.anchor()
        self._fills_left = FILLS
        self.call_after_refresh(self._fill_view)

    def _fill_view(self) -> None:
        """While the window is shorter than the view and older messages are left, mount
        them: the view cannot be scrolled up to ask for them (its heights were guessed)."""
        if self.is_attached and self._first and not self.max_scroll_y and not self._loading_older and self._fills_left:
            self._fills_left -= 1
            self._ahead = self.run_worker(self._fill_up(), group="older")

    async def _fill_up(self) -> bool:
        loaded = await self.load_older(PAGE)
        if loaded:
            self.call_after_refresh(self._fill_view)
        return loaded

    def _window_start(self, messages: list[ChatMessage]) -> int:
        """Where the first window starts: the newest messages that fill a few screens."""
        return len(messages) - self._newest_filling(messages, _estimated_rows, SCREENS)

    def _newest_filling(self, items: Sequence[T], rows: Callable[[T, int], int], screens: float) -> int:
        """How many of the newest `items` (at most WINDOW) fill `screens` heights of the chat;
        `rows(item, width)` is an item's height at the chat's width."""
        region = self.scrollable_content_region
        width, want = region.width or 80, int(screens * (region.height or 40))
        total = count = 0
        for item in reversed(items):
            if total >= want or count >= WINDOW:
                break
            total += rows(item, width)
            count += 1
        return count

    async def _reconcile(self, views: list[MessageView], window: list[ChatMessage]) -> None:
        """Make the mounted `views` show `window`: keep equal ones, mount the rest in place."""
        matcher = SequenceMatcher(None, [_key(v.message) for v in views], [_key(m) for m in window], autojunk=False)
        keep: dict[int, MessageView] = {}  # index in window -> the view that shows it already
        for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
            if tag == "equal":
                for offset, view in enumerate(views[i1:i2]):
                    if view.message == window[j1 + offset]:
                        keep[j1 + offset] = view
        kept = set(map(id, keep.values()))
        stale = [v for v in views if id(v) not in kept]
        if stale:
            await self.removals.run(self.remove_children(stale))
        pending: list[MessageView] = []
        for index, message in enumerate(window):
            kept_view = keep.get(index)
            if kept_view is None:
                pending.append(view_for(message))
            elif pending:
                await self.mount_all(pending, before=kept_view)
                pending = []
        if pending:
            await self.mount_all(pending)

    async def _top_line(
        self, line: Static | None, content: Content | None, classes: str, before: Static | None = None
    ) -> Static | None:
        """A line above the messages, updated in place (a step through the timeline changes
        only its text: updating costs a repaint, remounting a restyle and relayout)."""
        if line is not None and line.parent is not self:
            line = None
        if content is None:
            if line is not None:
                await self.removals.run(line.remove())
            return None
        if line is not None:
            line.update(content)
            return line
        line = Static(content, classes=classes)
        first = before if before is not None else next(iter(self.query_children(MessageView)), None)
        await (self.mount(line, before=first) if first is not None else self.mount(line))
        return line

    async def _show_marker(self) -> None:
        text = f"↑ {self._first} older messages: scroll up or press home"
        self._marker = await self._top_line(
            self._marker, Content.styled(text, "dim italic") if self._first else None, "more-marker"
        )

    @after_removals
    async def load_older(self, count: int = PAGE) -> bool:
        """Mount up to `count` older messages above the window; False if none are left."""
        if self._first == 0 or self._loading_older:
            return False
        self._loading_older = True
        try:
            start = max(0, self._first - count)
            views = [view_for(m) for m in self.messages[start : self._first]]
            self._first = start
            first = next(iter(self.query_children(MessageView)), None)
            height_before = self.virtual_size.height
            top_before = first.virtual_region.y if first is not None else 0
            with self.app.batch_update():  # no frame shows what was read pushed down
                await self.mount_all(views, before=first) if first else await self.mount_all(views)
                await self._trim_bottom()
                await self._show_marker()
                # Keep what the user was reading in place: shift by the height added above it.
                self._rest_far()
                self._lay_out_now()
                if first is not None:
                    self._keep_anchor(first, top_before)
                else:
                    self._keep_position(height_before)
            self.post_message(self.OlderLoaded())
            return True
        finally:
            self._loading_older = False

    def _lay_out_now(self) -> None:
        """The layout the next frame would make, made now (in a batch: before that frame),
        so that the scroll can be set from where the widgets are. (Textual's private
        layout call, as its screen's update timer makes it; that frame's layout is done.)"""
        screen = self.screen
        screen._refresh_layout()
        screen._layout_required = False

    async def _trim_bottom(self) -> None:
        """Unmount the newest messages beyond MOUNTED (below the view: nothing in it moves)."""
        if self._streaming or self._echo is not None:
            return
        views = list(self.query_children(MessageView))
        extra = len(views) - MOUNTED
        if extra <= 0:
            return
        await self.removals.run(self.remove_children(views[-extra:]))
        self._below += extra
        await self._show_below()

    async def _show_below(self) -> None:
        marker = next(iter(self.query_children(".less-marker")), None)
        if not self._below:
            if marker is not None:
                await self.removals.run(marker.remove())
            return
        text = Content.styled(f"↓ {self._below} newer messages: scroll down or press end", "dim italic")
        if isinstance(marker, Static):
            marker.update(text)
        else:
            await self.mount(Static(text, classes="more-marker less-marker"))

    @after_removals
    async def load_newer(self, count: int = PAGE) -> bool:
        """Mount up to `count` of the newer messages unmounted below; the oldest mounted
        beyond MOUNTED go from the top, the view staying on what it showed."""
        if not self._below or self._loading_older:
            return False
        self._loading_older = True
        try:
            end = len(self.messages) - self._below
            take = min(count, self._below)
            views = [view_for(m) for m in self.messages[end : end + take]]
            self._below -= take
            marker = next(iter(self.query_children(".less-marker")), None)
            await self.mount_all(views, before=marker) if marker is not None else await self.mount_all(views)
            mounted = list(self.query_children(MessageView))
            extra = len(mounted) - MOUNTED
            with self.app.batch_update():
                if extra > 0:
                    anchor = mounted[extra]
                    top_before = anchor.virtual_region.y
                    await self.removals.run(self.remove_children(mounted[:extra]))
                    self._first += extra
                await self._show_below()
                await self._show_marker()
                if extra > 0:
                    self._rest_far()
                    self._lay_out_now()
                    self._keep_anchor(anchor, top_before)
            return True
        finally:
            self._loading_older = False

    def _keep_anchor(self, anchor: MessageView, top_before: int) -> None:
        """Scroll by as much as `anchor` moved (what was added or removed above it)."""
        moved = anchor.virtual_region.y - top_before
        if moved:
            self._scroll_window_by(moved)

    async def _back_to_end(self) -> None:
        """The newest messages were unmounted (the user read far up): show the newest window
        again, before something is added at the end."""
        if not self._below:
            return
        self._below = 0
        self._first = self._window_start(self.messages)
        with self.app.batch_update():
            await self.removals.run(self.remove_children(list(self.query_children(MessageView))))
            await self.mount_all([view_for(m) for m in self.messages[self._first :]])
            await self._show_below()
            await self._show_marker()
        self.scroll_end(animate=False)  # and follow it again

    def _keep_position(self, height_before: int) -> None:
        added = self.virtual_size.height - height_before
        if added > 0:
            self._scroll_window_by(added)

    def _scroll_window_by(self, moved: float) -> None:
        """Scroll by `moved` rows, what was added or removed above the reader (the window's
        scroll, not the reader's: a view that follows the end goes on following it). Textual
        ends a scroll under way (pageup glides) at its end first: it goes on from the new
        place to its end, moved as far."""
        target, animating = self.scroll_target_y + moved, self.scroll_target_y != self.scroll_y
        self._anchoring = True
        try:
            self.scroll_to(y=max(0, self.scroll_y + moved), animate=False, immediate=True, release_anchor=False)
        finally:
            self._anchoring = False
        if animating:
            self.scroll_to(y=max(0, target), immediate=True, release_anchor=False)

    def _near_and_far(self) -> tuple[list[MessageView], list[MessageView]]:
        """The message views within REST_SCREENS heights of the view, and those further,
        from the heights of the last layout (views not laid out yet are in neither)."""
        height = self.scrollable_content_region.height
        top = self.scroll_y - REST_SCREENS * height
        bottom = self.scroll_y + (1 + REST_SCREENS) * height
        near: list[MessageView] = []
        far: list[MessageView] = []
        y = margin_below = 0
        for child in self.children:
            if not child.display or child.styles.is_docked:
                continue
            margin = child.styles.margin
            y += max(margin_below, margin.top)  # (adjacent margins collapse)
            rows = child.outer_size.height
            if isinstance(child, MessageView) and rows:
                (far if y + rows < top or y > bottom else near).append(child)
            y += rows
            margin_below = margin.bottom
        return near, far

    def _rest_far(self) -> None:
        """Far from the view, message views rest (not while they stream or hold the focus)."""
        if not self.scrollable_content_region.height:
            return
        streaming = set(self._streaming.values())
        focused = self.screen.focused
        holding = set(focused.ancestors_with_self) if focused is not None else set()
        for view in self._near_and_far()[1]:
            if view not in streaming and view not in holding:
                view.rest()
                self._may_rest = True

    def _wake_near(self) -> None:
        if not self._may_rest:  # (the common case: every scroll of a streamed reply asks)
            return
        near, far = self._near_and_far()
        for view in near:
            view.wake()
        self._may_rest = any(view.resting for view in far)

    def _wake_all(self) -> None:
        """Where heights or places change without a scroll, every resting view wakes."""
        for view in self.query_children(MessageView):
            view.wake()
        self._may_rest = False

    def on_resize(self, event) -> None:
        if event.size.width != self._rest_width:  # the heights resting views keep are wrong
            self._rest_width = event.size.width
            self._wake_all()

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self._wake_near()
        if new != old and not self._anchoring:  # (the reader's scroll, not the window's own)
            self._load_ahead(up=new < old)

    def _load_ahead(self, up: bool) -> None:
        """Near the end of the window the reader scrolls towards, with more messages beyond
        it: mount the next screen of them. Not while the view follows the end (its window is
        the newest few screens), and only on the reader's scroll: with short messages the
        window may never be tall enough to leave that zone, and loads that called the next
        would go on to the end of the thread."""
        if self._loading_older or self.loading_ahead:
            return
        ahead = AHEAD_SCREENS * self.scrollable_content_region.height
        if up and self._first and self.scroll_y <= ahead and not following(self):
            count = self._newest_filling(self.messages[max(0, self._first - AHEAD) : self._first], _estimated_rows, 1.0)
            self._ahead = self.run_worker(self.load_older(count), group="older")
        elif not up and self._below and self.scroll_y >= self.max_scroll_y - ahead:
            end = len(self.messages) - self._below
            count = self._newest_filling(self.messages[end : end + AHEAD][::-1], _estimated_rows, 1.0)
            self._ahead = self.run_worker(self.load_newer(count), group="older")

    @property
    def loading_ahead(self) -> bool:
        """Messages the reader scrolls towards are being mounted."""
        return self._ahead is not None and not self._ahead.is_finished

    @after_removals
    async def action_scroll_home_all(self) -> None:
        """home: the first messages of the thread, at the top (mounted in place of the window)."""
        if len(self.messages) <= MOUNTED:
            while await self.load_older(len(self.messages)):
                pass
        elif self._first and not self._streaming and self._echo is None:
            with self.app.batch_update():
                await self.removals.run(self.remove_children(list(self.query_children(MessageView))))
                self._first = 0
                shown = min(len(self.messages), WINDOW)
                self._below = len(self.messages) - shown
                marker = next(iter(self.query_children(".less-marker")), None)
                views = [view_for(m) for m in self.messages[:shown]]
                await self.mount_all(views, before=marker) if marker is not None else await self.mount_all(views)
                await self._show_below()
                await self._show_marker()
        self.call_after_refresh(self.scroll_home, animate=False)

    @after_removals
    async def action_scroll_end_all(self) -> None:
        """end: the newest messages, at the bottom."""
        await self._back_to_end()
        self.call_after_refresh(self.scroll_end, animate=False)

    def action_toggle_hidden(self) -> None:
        self._wake_all()
        self.toggle_class("-show-hidden")
        shown = self.has_class("-show-hidden")
        self.notify("Showing hidden messages" if shown else "Hiding hidden messages", timeout=2)

    # -- live updates ----------------------------------------------------------------------

    @after_removals
    async def add_echo(self, message: ChatMessage) -> None:
        """Show the message being sent at once. The server may store it under another id
        (DeerFlow: `<id>__user`, reusing the sent id for a hidden reminder): its copy then
        takes this one's place instead of showing the text twice."""
        await self.add_message(message)
        self._echo = message

    def _adopt_echo(self, message: ChatMessage) -> bool:
        """True if `message` is the server's copy of the echo under a new id (now its id)."""
        echo = self._echo
        if echo is not None and message.id == echo.id and message.text == echo.text:
            self._echo = None  # stored as sent
        if echo is None or message.type != "human" or message.id == echo.id or message.id in self._ids:
            return False
        if message.hidden or message.text.strip() != echo.text.strip():
            return False
        self._echo = None
        self._ids.discard(echo.id)
        self._ids.add(message.id)
        self.messages = [message if m.id == echo.id else m for m in self.messages]
        for view in self.query_children(MessageView):
            if view.message.id == echo.id:
                view.message = message
        return True

    @after_removals
    async def add_message(self, message: ChatMessage) -> None:
        """Append one whole message (unless it is shown already)."""
        if self._adopt_echo(message):
            return
        if message.id and message.id in self._ids:
            view = self._streaming.get(message.id)
            if view is not None and message.type == "ai":
                await view.finish(message)
                self._record(message)
            return
        await self._back_to_end()
        if message.id:
            self._ids.add(message.id)
        self.messages.append(message)
        await self.mount(view_for(message))
        await self._trim_top()

    async def _trim_top(self) -> None:
        """While the view follows the end, the messages above the newest that fill
        KEPT_SCREENS heights go (and come back a page at a time as the user scrolls up), so
        that a long session lays out as few widgets at its end as at its start."""
        if self._loading_older or self._below or not following(self):
            return
        views = list(self.query_children(MessageView))
        kept = self._newest_filling(views, _measured_rows, KEPT_SCREENS)
        streaming = set(self._streaming.values())
        gone = list(itertools.takewhile(lambda view: view not in streaming, views[: len(views) - kept]))
        if gone:
            await self.removals.run(self.remove_children(gone))
            self._first += len(gone)
            await self._show_marker()

    @after_removals
    async def remove_message(self, message_id: str) -> None:
        """Take back a message shown optimistically (the server refused it)."""
        self._ids.discard(message_id)
        self.messages = [m for m in self.messages if m.id != message_id]
        for view in self.query_children(MessageView):
            if view.message.id == message_id:
                await self.removals.run(view.remove())

    @after_removals
    async def apply_events(self, events: list[RunEvent]) -> None:
        """Show a batch of (coalesced) stream events: tokens and whole messages.

        The screen is laid out and painted once for the whole batch, not after each
        widget it mounts.
        """
        with self.app.batch_update():
            await self._apply_events(events)

    async def _apply_events(self, events: list[RunEvent]) -> None:
        for event in events:
            if event.kind == "token" and event.message_type in ("ai", "AIMessageChunk", ""):
                await self._apply_token(event)
            elif event.kind == "message" and event.message is not None:
                replaces = event.data.get("replaces") if isinstance(event.data, dict) else None
                if replaces:
                    await self._rename_streamed(replaces, event.message)
                else:
                    await self.add_message(event.message)

    async def _apply_token(self, event: RunEvent) -> None:
        key = event.message_id or f"stream-{event.run_id}"
        view = self._streaming.get(key)
        if view is None:
            if key in self._ids:
                return  # a message we already show whole (a replayed stream)
            await self._back_to_end()
            message = ChatMessage(id=key, type="ai")
            self._ids.add(key)
            self.messages.append(message)
            view = self._streaming[key] = AIMessageView(message, classes="message -ai")
            await self._let_go_above()
            await self.mount(view)
        if event.reasoning:
            await view.append_reasoning(event.reasoning)
        if event.text:
            await view.append_text(event.text)
        if event.tool_call_chunks:
            chunks = self._tool_chunks.setdefault(key, {})
            for chunk in event.tool_call_chunks:
                held = chunks.setdefault(chunk.index, ToolCallChunk(chunk.index))
                held.id = held.id or chunk.id
                held.name = held.name or chunk.name
                held.args += chunk.args
                await view.show_tool_call(chunk.index, _call_from_chunk(held), held.args)
        if event.last:
            await view.finish()

    async def _let_go_above(self) -> None:
        """Replies wholly above the view let go of their Markdown widgets, built again when
        scrolled to: each kept a screen or more of them displayed, laid out at every frame."""
        top = self.scroll_y
        streaming = set(self._streaming.values())
        for view in self.children:
            if isinstance(view, AIMessageView) and view not in streaming and view.virtual_region.bottom <= top:
                await view.let_go()

    async def _rename_streamed(self, old_id: str, message: ChatMessage) -> None:
        """A server that gives the finished message another id than its tokens (10xGraph)."""
        view = self._streaming.pop(old_id, None)
        if view is None:
            await self.add_message(message)
            return
        self._ids.discard(old_id)
        self._ids.add(message.id)
        self._streaming[message.id] = view
        for index, held in enumerate(self.messages):
            if held.id == old_id:
                self.messages[index] = message
        await view.finish(message)

    @after_removals
    async def finish_run(self, final: list[ChatMessage] | None) -> None:
        """The run ended: close every stream and make the chat agree with the final state.

        A streamed reply whose text differs from the final message (a stream that was cut
        and rejoined misses or repeats tokens) is redrawn from the final message; a partial
        reply the final state does not hold (the attempt a restarted run replaced) goes.
        The message shown as it was sent takes the id the server stored it under (add_echo).
        Messages the stream did not carry are added where the final state has them.
        """
        for view in self._streaming.values():
            await view.finish()
        if final is None:
            for view in self._streaming.values():  # (as streamed: the window may mount it again)
                self._record(view.message.model_copy(update={"text": view.markdown.text}))
        else:
            for message in final:  # first: the echo's id may be the server's for another message
                if self._echo is None or self._adopt_echo(message):
                    break
            self._echo = None
            by_id = {m.id: m for m in final if m.id}
            for key, view in self._streaming.items():
                stored = by_id.get(key)
                if stored is None:
                    await self._drop(key, view)
                elif stored.text != view.markdown.text:
                    await self._redraw(view, stored)
                else:
                    await view.finish(stored)
                    self._record(stored)
                    await self._draw_finished(view, stored)
            missing = [m for m in final if not m.id or m.id not in self._ids]
            order = {m.id: index for index, m in enumerate(final) if m.id}
            last_shown = max((order[key] for key in self._ids if key in order), default=-1)
            if any(order.get(m.id, -1) < last_shown for m in missing):
                # A message the stream did not carry comes before what it did (a joined run's
                # input: only the agent's messages stream): the chat is drawn again in order.
                self._streaming.clear()
                await self.show_messages(final)
            else:
                for message in missing:
                    await self.add_message(message)
        self._streaming.clear()
        self._tool_chunks.clear()
        await self._trim_top()  # (not as a reply starts: its first token is painted first)

    def _record(self, message: ChatMessage) -> None:
        """A streamed reply is whole: the thread's list holds it as shown (it held the empty
        message the tokens started), for the window to mount it again when it pages back."""
        self.messages = [message if m.id == message.id else m for m in self.messages]

    async def _draw_finished(self, view: MessageView, message: ChatMessage) -> None:
        """A streamed reply that can draw itself (text alone: drawn_reply) is put in place of
        its widgets, one widget that looks the same: the chat's later frames lay out less."""
        if view.parent is self and drawn_reply(message) is not None:
            await self._redraw(view, message)

    async def _drop(self, key: str, view: MessageView) -> None:
        self._ids.discard(key)
        self.messages = [m for m in self.messages if m.id != key]
        await self.removals.run(view.remove())

    async def _redraw(self, view: MessageView, message: ChatMessage) -> None:
        self.messages = [message if m.id == message.id else m for m in self.messages]
        with self.app.batch_update():  # (no frame shows both)
            await self.mount(view_for(message), after=view)
            await self.removals.run(view.remove())

    @after_removals
    async def show_welcome(self, text: Content) -> None:
        """What a newcomer sees on a server with no thread yet (goes with the first message)."""
        await self.removals.run(self.remove_children(".chat-welcome"))
        await self.mount(Static(text, classes="chat-notice chat-welcome"))

    @after_removals
    async def add_notice(self, text: Content | str, classes: str = "chat-notice") -> None:
        await self.mount(Static(text if isinstance(text, Content) else plain(text), classes=classes))


def _key(message: ChatMessage) -> tuple:
    """What tells messages apart cheaply (equal keys are then compared in full)."""
    return message.id, message.type, len(message.text), hash(message.text), len(message.tool_calls)


def _call_from_chunk(chunk: ToolCallChunk) -> ToolCall:
    try:
        args = json.loads(chunk.args) if chunk.args else {}
    except ValueError:
        args = {}
    return ToolCall(id=chunk.id, name=chunk.name, args=args)
