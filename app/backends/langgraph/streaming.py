"""LangGraph stream parts (SSE event name, data, id) as RunEvents, and how far a stream was read.

`run_event_from_part` is on the streaming hot path (thousands of tokens a second): the
token branch uses plain dict lookups and builds no pydantic model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...models import RunEvent, ToolCallChunk
from .mapping import (
    _dict,
    _kwargs_reasoning,
    _list,
    _str,
    approx_size,
    content_text,
    interrupt_from_dict,
    message_from_dict,
    message_type,
)

MAX_SEQUENCE = 2**64 - 1  # the largest sequence number of a Redis stream id


def _token(chunk: dict[str, Any], meta: Any, event: str, event_id: str, namespace: str) -> RunEvent:
    content = chunk.get("content")
    if isinstance(content, str):
        text, reasoning = content, ""
    else:
        text, reasoning = content_text(content)
    kwargs = chunk.get("additional_kwargs")
    if kwargs and not reasoning:
        reasoning = _kwargs_reasoning(kwargs) if isinstance(kwargs, dict) else ""
    size = len(text) + len(reasoning)
    chunks: list[ToolCallChunk] = []
    raw_chunks = chunk.get("tool_call_chunks")
    if raw_chunks:
        for raw in raw_chunks:
            if isinstance(raw, dict):
                index = raw.get("index")
                args = raw.get("args")
                args = args if isinstance(args, str) else "" if args is None else json.dumps(args)
                size += len(args)
                chunks.append(
                    ToolCallChunk(
                        index if isinstance(index, int) else 0,
                        raw.get("id") or "",
                        raw.get("name") or "",
                        args,
                    )
                )
    meta = meta if isinstance(meta, dict) else {}
    return RunEvent(
        kind="token",
        event=event,
        node=meta.get("langgraph_node") or "",
        run_id=meta.get("run_id") or "",
        message_id=chunk.get("id") or "",
        message_type=message_type(chunk.get("type")),
        text=text,
        reasoning=reasoning,
        tool_call_chunks=chunks,
        size=size,
        event_id=event_id,
        namespace=namespace,
        last=chunk.get("chunk_position") == "last",
    )


def _message_event(raw: Any, meta: Any, event: str, event_id: str, namespace: str, last: bool = True) -> RunEvent:
    message = message_from_dict(raw)
    meta = _dict(meta)
    return RunEvent(
        kind="message",
        event=event,
        node=_str(meta.get("langgraph_node")),
        run_id=_str(meta.get("run_id")),
        message_id=message.id,
        message_type=message.type,
        text=message.text,
        reasoning=message.reasoning,
        message=message,
        data=raw,
        size=approx_size(raw),
        event_id=event_id,
        namespace=namespace,
        last=last,
    )


def run_event_from_part(event: str, data: Any, event_id: str | None = None) -> RunEvent | list[RunEvent]:
    """One stream part (the SSE event name, its decoded data, its id) as a RunEvent.

    A list only for "messages/partial" and "messages/complete" parts carrying several
    messages. Subgraph events ("values|tools:<uuid>") get the same kinds, with `namespace`.
    """
    event = event if isinstance(event, str) else _str(event)
    event_id = event_id or ""
    base, _, namespace = event.partition("|")
    if base == "messages":  # messages-tuple: [chunk, metadata]
        if isinstance(data, (list, tuple)) and data and isinstance(data[0], dict):
            chunk = data[0]
            meta = data[1] if len(data) > 1 else None
            kind = chunk.get("type")
            if isinstance(kind, str) and kind.endswith("Chunk"):
                return _token(chunk, meta, event, event_id, namespace)
            return _message_event(chunk, meta, event, event_id, namespace)
        return RunEvent(
            kind="other", event=event, data=data, size=approx_size(data), event_id=event_id, namespace=namespace
        )
    if base in ("messages/partial", "messages/complete"):
        last = base == "messages/complete"
        events = [
            _message_event(item, None, event, event_id, namespace, last=last)
            for item in _list(data)
            if isinstance(item, dict)
        ]
        if len(events) == 1:
            return events[0]
        if events:
            return events
        return RunEvent(kind="other", event=event, data=data, event_id=event_id, namespace=namespace)
    size = approx_size(data)
    common = {"event": event, "data": data, "size": size, "event_id": event_id, "namespace": namespace}
    if base == "metadata":
        return RunEvent(kind="metadata", run_id=_str(_dict(data).get("run_id")), **common)
    if base == "values":
        return RunEvent(kind="values", **common)
    if base == "updates":
        update = _dict(data)
        if "__interrupt__" in update:
            common["data"] = [interrupt_from_dict(item) for item in _list(update["__interrupt__"])]
            return RunEvent(kind="interrupt", **common)
        node = next(iter(update)) if len(update) == 1 else ""
        return RunEvent(kind="updates", node=_str(node), **common)
    if base == "custom":
        return RunEvent(kind="custom", **common)
    if base == "error":
        return RunEvent(kind="error", text=error_text(data), **common)
    if base == "end":
        return RunEvent(kind="end", **common)
    if base == "gap":  # DeerFlow's Gateway: {code: stream_replay_gap, recovery: reload_durable_state, ...}
        return RunEvent(kind="gap", text=_str(_dict(data).get("code")), **common)
    return RunEvent(kind="other", **common)


def error_text(data: Any) -> str:
    """A run error's payload ({error, message}, a string, ...) as one readable line."""
    if isinstance(data, dict):
        name, message = _str(data.get("error")), _str(data.get("message") or data.get("detail"))
        if name and message:
            return message if message.startswith(name) else f"{name}: {message}"
        return message or name or approx_text(data)
    return _str(data) or "the run failed"


def approx_text(data: Any) -> str:
    try:
        return json.dumps(data, default=str)[:500]
    except (TypeError, ValueError):
        return repr(data)[:500]


def _stream_order(event_id: str) -> tuple[int, int] | None:
    """A Redis stream id ("<ms>-<seq>") as a sortable pair; None for other ids."""
    ms, dash, seq = event_id.partition("-")
    return (int(ms), int(seq)) if dash and ms.isdigit() and seq.isdigit() else None


@dataclass(slots=True)
class StreamPosition:
    """How far a run's stream was read: the last SSE event id, and how many events carried it.

    Two traps of langgraph-runtime-inmem, measured: it stamps every event of one
    millisecond "<ms>-0" (a reply's 104 events had 60 ids) and replays only events whose
    id is above Last-Event-ID, so resuming from the last id read loses the rest of its
    millisecond; and a stream resumed while the run goes on sends again the events
    published while it replayed. So a stream resumes from just below the last id, and
    events read already are dropped: the `count` that carry the last id when they come
    again, and any with a lower id. (Repeats of the last millisecond alone look like new
    events of it, and are kept.)
    """

    event_id: str = ""
    count: int = 0
    again: int = -1
    """How many of the `count` came again since the stream went back (-1: it did not)."""

    def admit(self, event_id: str | None) -> bool:
        """True if the event is new (the position is then past it); False if it was read."""
        if not event_id:
            return True
        if event_id == self.event_id:
            if 0 <= self.again < self.count:
                self.again += 1
                return False
            self.count, self.again = self.count + 1, -1
            return True
        here, last = _stream_order(event_id), _stream_order(self.event_id)
        if here is not None and last is not None and here < last:
            self.again = 0
            return False
        self.event_id, self.count, self.again = event_id, 1, -1
        return True

    def resume(self) -> str:
        """The Last-Event-ID to resume from: just below the last id, whose events come again."""
        order = _stream_order(self.event_id)
        if order is None:
            return self.event_id  # not a stream id: resume after it, as SSE does
        ms, seq = order
        self.again = 0
        return f"{ms}-{seq - 1}" if seq else f"{ms - 1}-{MAX_SEQUENCE}"
