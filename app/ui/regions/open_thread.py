"""What the other regions read of the conversation (the open thread), without importing it."""

from __future__ import annotations

from typing import Protocol

from ...models import ThreadState


class OpenThread(Protocol):
    """Which thread is open and in what state, how many opens there were (a poll that began
    before an open drops its stale row), whether a run streams, and the run's assistant."""

    @property
    def thread_id(self) -> str | None: ...
    @property
    def thread_state(self) -> ThreadState | None: ...
    @property
    def opens(self) -> int: ...
    @property
    def run_in_progress(self) -> bool: ...
    @property
    def assistant(self) -> str: ...
