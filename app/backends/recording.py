"""`threadbench --record DIR`: any backend, with every run it streams written to DIR (one JSON
Lines file per run, threadbench.recording). Everything else goes to the wrapped backend
untouched, the optional capabilities included."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from ..models import RunEvent, RunRequest, ThreadState, ThreadSummary
from ..recording import RunRecorder
from .base import Backend, BackendError


class RecordingBackend:
    def __init__(self, inner: Backend, folder: Path, redact: Callable[[str], str] = lambda text: text) -> None:
        self.inner = inner
        self.folder = folder
        self._redact = redact
        self.written: list[Path] = []
        """The recordings made so far, oldest first."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def stream_run(self, thread_id: str, request: RunRequest) -> AsyncIterator[RunEvent]:
        recorder = await self._begin(thread_id, request)
        async for event in self._recorded(recorder, thread_id, self.inner.stream_run(thread_id, request)):
            yield event

    async def join_stream(
        self, thread_id: str, run_id: str | None = None, last_event_id: str | None = None
    ) -> AsyncIterator[RunEvent]:
        recorder = await self._begin(thread_id, None)
        async for event in self._recorded(
            recorder, thread_id, self.inner.join_stream(thread_id, run_id, last_event_id)
        ):
            yield event

    async def _begin(self, thread_id: str, request: RunRequest | None) -> RunRecorder:
        try:
            thread, state = await asyncio.gather(self.inner.get_thread(thread_id), self.inner.get_state(thread_id))
        except BackendError:  # a thread the first run creates (10xGraph): nothing before it
            thread, state = ThreadSummary(thread_id=thread_id), ThreadState(thread_id=thread_id)
        recorder = RunRecorder.in_folder(self.folder, thread_id, self._redact)
        recorder.begin(self.inner.url, thread, state, request)
        self.written.append(recorder.path)
        return recorder

    async def _recorded(
        self, recorder: RunRecorder, thread_id: str, events: AsyncIterator[RunEvent]
    ) -> AsyncIterator[RunEvent]:
        finished = False
        try:
            async for event in events:
                recorder.event(event)
                yield event
            finished = True
        finally:
            if not finished:  # refused, cut or cancelled: no more server calls, just close the file
                recorder.end(None, None)
        try:
            state, thread = await asyncio.gather(self.inner.get_state(thread_id), self.inner.get_thread(thread_id))
        except BackendError:
            recorder.end(None, None)
            return
        recorder.end(state, thread)
