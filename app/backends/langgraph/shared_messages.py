"""Messages read once and shared by every state that holds them.

Every checkpoint of a thread holds its whole conversation, so a page of 30 checkpoints of a
thread of 200 messages is 6,000 message dicts, nearly all of them the same 200 again. Read
one by one they cost a pydantic model each and stay in memory as 30 copies (a session of
100 runs grew by 300 MB, most of it the timeline's pages read anew after each run). Here a
message dict equal to one read before (same id, same content) gives back the message read
then, and the state keeps the dict read then: one copy of each message however many
checkpoints hold it, for as long as any of them is kept.
"""

from __future__ import annotations

import weakref
from typing import Any

from ...models import ChatMessage
from .mapping import message_from_dict, message_items


class SharedMessages:
    """The messages read so far that something still holds, by id.

    Pages of history are read in worker threads: each step here is one dict operation
    (atomic), and a race costs no more than a message read again."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[weakref.ref[ChatMessage], dict[str, Any]]] = {}

    def __len__(self) -> int:
        return len(self._held)

    def read(self, raw: Any) -> tuple[ChatMessage, Any]:
        """The message `raw` holds, and the dict to keep for it: the one read before when
        it is equal, else `raw`."""
        key = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(key, str) or not key:
            return message_from_dict(raw), raw
        held = self._held.get(key)
        if held is not None:
            message = held[0]()
            if message is not None and held[1] == raw:
                return message, held[1]
        message = message_from_dict(raw)
        self._held[key] = (weakref.ref(message, lambda ref: self._forget(key, ref)), raw)
        return message, raw

    def read_values(self, values: Any) -> list[ChatMessage]:
        """The conversation in a state's values ({"messages": [...]}, or a bare list); each
        message dict in `values` is replaced by the equal one read before."""
        items = message_items(values)
        messages = []
        for index, raw in enumerate(items):
            message, kept = self.read(raw)
            if kept is not raw:
                items[index] = kept
            messages.append(message)
        return messages

    def _forget(self, key: str, ref: weakref.ref[ChatMessage]) -> None:
        held = self._held.get(key)
        if held is not None and held[0] is ref:
            self._held.pop(key, None)
