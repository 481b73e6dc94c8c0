"""`threadbench replay FILE`: a recorded run (threadbench.recording) served as if a server were
running it, with no server at all.

The recording's thread is the server's one thread. It is busy until its run has been replayed,
so opening it joins the run: the events arrive at the pace they were recorded (or at once,
`instant`), and the state and the thread become those recorded at the end. Its history is the
state before the run and the state after it; replaying from the state before it (p in the
timeline) replays the run again. A recording changes nothing: every write is refused with a
message that says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from ..models import (
    Assistant,
    Capabilities,
    GraphInfo,
    RunEvent,
    RunRequest,
    ThreadQuery,
    ThreadState,
    ThreadSummary,
)
from ..recording import Recording
from .base import Invalid, NotFound

CAPABILITIES = Capabilities(
    name="Recording",
    fork=False,
    copy_thread=False,
    create_thread=False,
    metadata=False,
    status_filter=False,
    sort=False,
    assistants=False,
    graph=False,
    reason="a recorded run: it replays what the server sent, and changes nothing",
)
READ_ONLY = "A recording is read-only: it replays a run and changes nothing."


class ReplayBackend:
    capabilities = CAPABILITIES

    def __init__(
        self,
        recording: Recording,
        path: Path,
        *,
        instant: bool = False,
        sleep: Callable[[float], Any] = asyncio.sleep,
    ) -> None:
        self.recording = recording
        self.url = f"recording {path.name}"
        self.instant = instant
        self._sleep = sleep
        self._done = False
        self._stopped = False

    @property
    def thread_id(self) -> str:
        return self.recording.thread.thread_id

    def _summary(self) -> ThreadSummary:
        if not self._done:
            return self.recording.thread.model_copy(update={"status": "busy"})
        after = self.recording.thread_after or self.recording.thread
        return after if not self._stopped else after.model_copy(update={"status": "interrupted"})

    def _check_thread(self, thread_id: str) -> None:
        if thread_id != self.thread_id:
            raise NotFound(f"The recording holds one thread, {self.thread_id}; not {thread_id}.", status=404)

    async def check(self) -> dict[str, Any]:
        return {"recording": self.url, "server": self.recording.server}

    async def close(self) -> None:
        self._stopped = True

    # -- threads ----------------------------------------------------------------------------------

    async def search_threads(self, query: ThreadQuery) -> list[ThreadSummary]:
        if query.offset or (query.ids and self.thread_id not in query.ids):
            return []
        return [self._summary()]

    async def count_threads(self, query: ThreadQuery) -> int | None:
        return 1

    async def get_thread(self, thread_id: str) -> ThreadSummary:
        self._check_thread(thread_id)
        return self._summary()

    async def create_thread(
        self,
        *,
        thread_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        graph_id: str | None = None,
        supersteps: list[dict[str, Any]] | None = None,
    ) -> ThreadSummary:
        raise Invalid(READ_ONLY)

    async def copy_thread(self, thread_id: str) -> ThreadSummary:
        raise Invalid(READ_ONLY)

    async def update_metadata(self, thread_id: str, metadata: dict[str, Any]) -> ThreadSummary:
        raise Invalid(READ_ONLY)

    async def delete_thread(self, thread_id: str) -> None:
        raise Invalid(READ_ONLY)

    # -- state and history ------------------------------------------------------------------------

    def _states(self) -> list[ThreadState]:
        """Newest first: the state after the run (once replayed), then the state before it (a
        thread the run created had none: an empty state without a checkpoint stands for it)."""
        before, after = self.recording.state_before, self.recording.state_after
        if not self._done or after is None:
            return [before]
        return [after, before] if before.checkpoint_id else [after]

    async def get_state(self, thread_id: str, checkpoint_id: str | None = None) -> ThreadState:
        self._check_thread(thread_id)
        states = self._states()
        if checkpoint_id is None:
            return states[0]
        found = next((state for state in states if state.checkpoint_id == checkpoint_id), None)
        if found is None:
            raise NotFound(f"The recording has no checkpoint {checkpoint_id}.", status=404)
        return found

    async def get_history(self, thread_id: str, *, limit: int = 20, before: str | None = None) -> list[ThreadState]:
        self._check_thread(thread_id)
        states = self._states()
        if before is not None:
            ids = [state.checkpoint_id for state in states]
            states = states[ids.index(before) + 1 :] if before in ids else []
        return states[:limit]

    async def update_state(
        self,
        thread_id: str,
        values: dict[str, Any] | None,
        *,
        as_node: str | None = None,
        checkpoint_id: str | None = None,
    ) -> str:
        raise Invalid(READ_ONLY)

    # -- runs ---------------------------------------------------------------------------------------

    async def stream_run(self, thread_id: str, request: RunRequest) -> AsyncIterator[RunEvent]:
        """Replaying from the checkpoint the run began at (p in the timeline) replays it again;
        anything else is refused: a recording cannot run the agent."""
        self._check_thread(thread_id)
        before = self.recording.state_before.checkpoint_id
        if not (before and request.checkpoint_id == before and request.input is None and request.command is None):
            raise Invalid(f"{READ_ONLY} To talk to the agent, connect to a server (ctrl+o).")
        self._done = self._stopped = False
        async for event in self.join_stream(thread_id):
            yield event

    async def join_stream(
        self, thread_id: str, run_id: str | None = None, last_event_id: str | None = None
    ) -> AsyncIterator[RunEvent]:
        """The recorded events, at their recorded pace (at once when instant); once only."""
        self._check_thread(thread_id)
        if self._done:
            return
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            for at, event in self.recording.events:
                if self._stopped:
                    break
                wait = at - (loop.time() - began)
                if not self.instant and wait > 0:
                    await self._sleep(wait)
                yield event
        finally:
            self._done = True

    async def active_run(self, thread_id: str) -> str | None:
        return None if self._done else self.recording.run_id

    async def cancel_run(self, thread_id: str, run_id: str, action: str = "interrupt") -> None:
        """Stops the replay where it is; the thread then shows the recorded end."""
        self._stopped = True

    # -- assistants and graphs ----------------------------------------------------------------------

    async def list_assistants(self) -> list[Assistant]:
        return []

    async def get_graph(self, assistant_id: str, xray: bool = False) -> GraphInfo:
        return GraphInfo()

    async def get_schemas(self, assistant_id: str) -> dict[str, Any]:
        return {}
