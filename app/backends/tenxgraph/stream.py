"""10xGraph's run stream: one JSON object per line (despite its text/event-stream type), with
no end marker, turned into RunEvents."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

from ...models import (
    RunEvent,
    ToolCallChunk,
)
from .mapping import _interrupt, _json_text, as_dict, to_chat_message


async def _empty() -> AsyncIterator[RunEvent]:
    return
    yield  # pragma: no cover


class _StreamDecoder:
    """Turns 10xGraph stream lines into RunEvents, keeping what grouping tokens needs."""

    def __init__(self, thread_id: str) -> None:
        self.thread_id = thread_id
        self.run_id = ""
        self.started = False
        self.last_state: Any = None
        self.last_error = ""
        # node -> the id every token of the message being streamed there carries
        self.streaming: dict[str, str] = {}

    def feed(self, line: str) -> list[RunEvent]:
        line = line.strip()
        if not line:
            return []
        if line.startswith("data:"):  # in case a proxy or a future version makes it SSE
            line = line[5:].strip()
        try:
            chunk = json.loads(line)
        except ValueError:
            return [RunEvent(kind="other", event="raw", text=line, size=len(line))]
        if not isinstance(chunk, dict):
            return [RunEvent(kind="other", event="raw", data=chunk, size=len(line))]
        size = len(line)
        events: list[RunEvent] = []
        run_id = str(chunk.get("run_id") or "")
        meta = as_dict(chunk.get("metadata"))
        if not self.started:
            self.started = True
            self.run_id = run_id
            events.append(
                RunEvent(
                    kind="metadata",
                    event="metadata",
                    run_id=run_id,
                    data={
                        "run_id": run_id,
                        "thread_id": chunk.get("thread_id") or self.thread_id,
                        **meta,
                    },
                )
            )
        name = str(chunk.get("event") or "")
        data = chunk.get("data")
        node = str(meta.get("node") or (data.get("node") if isinstance(data, dict) else "") or "")
        if name == "message" and isinstance(chunk.get("message"), dict):
            events.extend(self._message(chunk["message"], node, run_id, size))
        elif name == "error":
            reason = ""
            if isinstance(data, dict):
                reason = str(data.get("reason") or data.get("error") or data.get("message") or "")
            reason = reason or "The run failed"
            # A failed run reports its error twice (with the state, then alone): keep one.
            if reason != self.last_error:
                self.last_error = reason
                events.append(
                    RunEvent(
                        kind="error",
                        event=name,
                        node=node,
                        run_id=run_id,
                        text=reason,
                        data=data,
                        size=size,
                    )
                )
        elif name == "updates":
            events.append(RunEvent(kind="updates", event=name, node=node, run_id=run_id, data=data, size=size))
            if isinstance(data, dict) and data.get("status") == "interrupted":
                pending = _interrupt(data.get("interrupt"))
                if pending is not None:
                    events.append(
                        RunEvent(
                            kind="interrupt",
                            event=name,
                            node=pending.node or node,
                            run_id=run_id,
                            data=[pending],
                            size=size,
                        )
                    )
        elif name not in ("state", "message"):
            events.append(RunEvent(kind="other", event=name, node=node, run_id=run_id, data=chunk, size=size))
        state = chunk.get("state")
        if isinstance(state, dict) and state != self.last_state:
            self.last_state = state
            events.append(RunEvent(kind="values", event=name, node=node, run_id=run_id, data=state, size=size))
        return events

    def _message(self, message: dict[str, Any], node: str, run_id: str, size: int) -> list[RunEvent]:
        role = message.get("role")
        if message.get("delta") and role == "assistant":
            stream_id = self.streaming.get(node)
            if stream_id is None:
                stream_id = str(message.get("message_id") or uuid.uuid4())
                self.streaming[node] = stream_id
            text_parts: list[str] = []
            reasoning_parts: list[str] = []
            chunks: list[ToolCallChunk] = []
            for index, block in enumerate(message.get("content") or []):
                if not isinstance(block, dict):
                    continue
                kind = block.get("type")
                if kind == "text":
                    text_parts.append(str(block.get("text") or ""))
                elif kind == "reasoning":
                    reasoning_parts.append(str(block.get("summary") or ""))
                elif kind in ("tool_call", "remote_tool_call"):
                    chunks.append(
                        ToolCallChunk(
                            index=index,
                            id=str(block.get("id") or ""),
                            name=str(block.get("name") or ""),
                            args=_json_text(block.get("args") or {}),
                        )
                    )
            return [
                _token(
                    node,
                    run_id,
                    stream_id,
                    text="".join(text_parts),
                    reasoning="".join(reasoning_parts),
                    tool_call_chunks=chunks,
                    size=size,
                )
            ]
        chat = to_chat_message(message)
        events: list[RunEvent] = []
        data: Any = None
        if role == "assistant":
            stream_id = self.streaming.pop(node, None)
            if stream_id is not None:
                events.append(_token(node, run_id, stream_id, last=True))
                data = {"replaces": stream_id}
        events.append(
            RunEvent(
                kind="message",
                event="message",
                node=node,
                run_id=run_id,
                message_id=chat.id,
                message_type=chat.type,
                text=chat.text,
                message=chat,
                data=data,
                size=size,
            )
        )
        return events

    def finish(self) -> list[RunEvent]:
        events = [_token(node, self.run_id, stream_id, last=True) for node, stream_id in self.streaming.items()]
        self.streaming.clear()
        events.append(RunEvent(kind="end", event="end", run_id=self.run_id, data={"thread_id": self.thread_id}))
        return events


def _token(node: str, run_id: str, stream_id: str, **fields: Any) -> RunEvent:
    """A "token" of the AI message streamed at `node`: every token of it carries `stream_id`;
    the last (empty, last=True) closes it before the whole message comes."""
    return RunEvent(
        kind="token", event="message", node=node, run_id=run_id, message_id=stream_id, message_type="ai", **fields
    )
