"""Moving a run's events from the network to the screen at frame rate.

The reader takes events as fast as the server sends them; the writer hands the UI what
arrived since its last call, merged (consecutive tokens of one message become one), at
most once a frame while tokens stream. So the UI does work per frame, not per token, and
the first token of a run still shows at once. Nothing here imports Textual.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace

from .models import RunEvent, ToolCallChunk

FRAME_SECONDS = 1 / 20


def coalesce(events: list[RunEvent]) -> list[RunEvent]:
    """Merge runs of token events for the same message into one event."""
    merged: list[RunEvent] = []
    for event in events:
        previous = merged[-1] if merged else None
        if (
            event.kind == "token"
            and previous is not None
            and previous.kind == "token"
            and previous.message_id == event.message_id
            and previous.namespace == event.namespace
        ):
            previous.size += event.size
            previous.text += event.text
            previous.reasoning += event.reasoning
            previous.tool_call_chunks = _merge_chunks(previous.tool_call_chunks, event.tool_call_chunks)
            previous.last = previous.last or event.last
            previous.node = event.node or previous.node
            previous.event_id = event.event_id or previous.event_id  # where the merged part ends
            continue
        if event.kind == "token":  # copy: merging must not change the caller's event
            event = replace(event, tool_call_chunks=list(event.tool_call_chunks), message=None, data=None)
        merged.append(event)
    return merged


def _merge_chunks(left: list[ToolCallChunk], right: list[ToolCallChunk]) -> list[ToolCallChunk]:
    if not right:
        return left
    result = list(left)
    for chunk in right:
        same = next((c for c in result if c.index == chunk.index), None)
        if same is None:
            result.append(ToolCallChunk(chunk.index, chunk.id, chunk.name, chunk.args))
        else:
            same.id = same.id or chunk.id
            same.name = same.name or chunk.name
            same.args += chunk.args
    return result


async def pump(
    events: AsyncIterator[RunEvent],
    apply: Callable[[list[RunEvent], int], Awaitable[None]],
    frame: float = FRAME_SECONDS,
) -> None:
    """Read `events` to the end, calling `apply` with merged batches at most once a frame.

    `apply(batch, count)` gets the merged events and how many events the server sent.

    An exception from the reader (a dropped connection, a server error) is raised here
    after everything read before it has been applied.
    """
    buffer: list[RunEvent] = []
    wake = asyncio.Event()
    finished = asyncio.Event()
    done = False

    async def read() -> None:
        nonlocal done
        try:
            async for event in events:
                buffer.append(event)
                wake.set()
        finally:
            done = True
            wake.set()
            finished.set()

    reader = asyncio.create_task(read())
    try:
        while True:
            await wake.wait()
            wake.clear()
            tokens = False
            if buffer:
                batch = buffer[:]
                buffer.clear()
                tokens = any(event.kind == "token" for event in batch)
                await apply(coalesce(batch), len(batch))
            if done and not buffer:
                break
            # At most one batch of tokens a frame; the last one, and what follows a batch
            # without tokens (the run's start: its first token), without waiting.
            if tokens and not done:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(finished.wait(), frame)
        await reader  # re-raise the reader's error, if any
    finally:
        if not reader.done():
            reader.cancel()
