"""What a run does to the chat (mixed into ChatLog, chat_log.py): tokens grow the reply
being written, whole messages come once, the message being sent shows at once and gives way
to the server's copy of it, and at the run's end the chat is made to agree with the final
state. A batch of events is drawn once, at its end."""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.content import Content
from textual.scroll_view import ScrollView

from ...models import ChatMessage, RunEvent, ToolCallChunk
from .chat_entries import Entry, MessageEntry, Notice

if TYPE_CHECKING:
    _Base = ScrollView
else:
    _Base = object


class StreamsIntoChat(_Base):
    if TYPE_CHECKING:  # (ChatLog's)
        entries: list[Entry]
        _ids: set[str]
        _streaming: dict[str, MessageEntry]
        _tool_chunks: dict[str, dict[int, ToolCallChunk]]
        _echo: ChatMessage | None
        _held: int | None

        def _append(self, entry: Entry) -> None: ...
        def _remove(self, gone: Callable[[Entry], bool]) -> None: ...
        def _changed(self, index: int = 0) -> None: ...
        async def show_messages(self, messages: list[ChatMessage], *, notice: Content | str | None = None) -> None: ...

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
        for entry in self.entries:
            if isinstance(entry, MessageEntry) and entry.message.id == echo.id:
                entry.replace(message)
        return True

    async def add_message(self, message: ChatMessage) -> None:
        """Append one whole message (unless it is shown already)."""
        if self._adopt_echo(message):
            return
        if message.id and message.id in self._ids:
            entry = self._streaming.get(message.id)
            if entry is not None and message.type == "ai":
                entry.replace(message)
                self._changed(self._index(entry))
            return
        if message.id:
            self._ids.add(message.id)
        self._remove(lambda entry: entry.key == "welcome")
        self._append(MessageEntry(message))

    async def remove_message(self, message_id: str) -> None:
        """Take back a message shown optimistically (the server refused it)."""
        self._ids.discard(message_id)
        self._remove(lambda entry: isinstance(entry, MessageEntry) and entry.message.id == message_id)

    async def apply_events(self, events: list[RunEvent]) -> None:
        """Show a batch of (coalesced) stream events: tokens and whole messages (drawn once,
        for the whole batch)."""
        self._held = len(self.entries)
        try:
            for event in events:
                if event.kind == "token" and event.message_type in ("ai", "AIMessageChunk", ""):
                    self._apply_token(event)
                elif event.kind == "message" and event.message is not None:
                    replaces = event.data.get("replaces") if isinstance(event.data, dict) else None
                    if replaces and replaces in self._streaming:
                        self._rename_streamed(replaces, event.message)
                    else:
                        await self.add_message(event.message)
        finally:
            held, self._held = self._held, None
            if held < len(self.entries):  # (some entry changed or came)
                self._changed(held)

    def _apply_token(self, event: RunEvent) -> None:
        key = event.message_id or f"stream-{event.run_id}"
        entry = self._streaming.get(key)
        if entry is None:
            if key in self._ids:
                return  # a message we already show whole (a replayed stream)
            self._ids.add(key)
            entry = self._streaming[key] = MessageEntry(ChatMessage(id=key, type="ai"))
            self._append(entry)
        if event.reasoning:
            entry.append_reasoning(event.reasoning)
        if event.text:
            entry.append_text(event.text)
        for chunk in event.tool_call_chunks or ():
            held = self._tool_chunks.setdefault(key, {}).setdefault(chunk.index, ToolCallChunk(chunk.index))
            held.id = held.id or chunk.id
            held.name = held.name or chunk.name
            held.args += chunk.args
            entry.show_call(chunk.index, held)
        self._changed(self._index(entry))

    def _rename_streamed(self, old_id: str, message: ChatMessage) -> None:
        """A server that gives the finished message another id than its tokens (10xGraph)."""
        entry = self._streaming.pop(old_id)
        self._ids.discard(old_id)
        self._ids.add(message.id)
        self._streaming[message.id] = entry
        entry.replace(message)
        self._changed(self._index(entry))

    async def finish_run(self, final: list[ChatMessage] | None) -> None:
        """The run ended: make the chat agree with the final state.

        A streamed reply whose text differs from the final message (a stream that was cut
        and rejoined misses or repeats tokens) is drawn from the final message; a partial
        reply the final state does not hold (the attempt a restarted run replaced) goes.
        Messages the stream did not carry are added where the final state has them.
        """
        streamed, self._streaming = self._streaming, {}
        self._tool_chunks.clear()
        self._changed(len(self.entries))  # (no room kept ahead any more: chat_log._update_size)
        if final is None:
            return
        for message in final:  # first: the echo's id may be the server's for another message
            if self._echo is None or self._adopt_echo(message):
                break
        self._echo = None
        by_id = {m.id: m for m in final if m.id}
        for key, entry in streamed.items():
            stored = by_id.get(key)
            if stored is None:
                self._ids.discard(key)
                self._remove(partial(operator.is_, entry))
            else:
                entry.replace(stored)
                self._changed(self._index(entry))
        missing = [m for m in final if not m.id or m.id not in self._ids]
        order = {m.id: index for index, m in enumerate(final) if m.id}
        last_shown = max((order[key] for key in self._ids if key in order), default=-1)
        if any(order.get(m.id, -1) < last_shown for m in missing):
            # A message the stream did not carry comes before what it did (a joined run's
            # input: only the agent's messages stream): the chat is drawn again in order.
            notices = [entry for entry in self.entries if isinstance(entry, Notice)]
            await self.show_messages(final)
            for notice in notices:
                self._append(notice)
        else:
            for message in missing:
                await self.add_message(message)

    def _index(self, entry: Entry) -> int:
        for index in range(len(self.entries) - 1, -1, -1):  # (the newest, most often)
            if self.entries[index] is entry:
                return index
        return len(self.entries) - 1
