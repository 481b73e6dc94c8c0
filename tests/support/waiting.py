"""The suite's waits: each on a condition, with a deadline, failing with a message that says
what did not happen. No test pauses for a fixed time (tests/unit/test_code_checks.py keeps it
so): a test waits until something holds, and a fault that needs a slow server gets a slow
server (a graph that takes its time, an answer held until the test lets it through: `Held`).

The one polling step is here: where nothing tells the test that a thing happened (a server's
state, another process, a thread), it looks again every POLL seconds until the deadline.
Nothing else in tests/ sleeps (the test servers' graphs excepted: a slow agent is the server's
behaviour).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any

POLL = 0.05
"""Seconds between two looks at a condition nothing announces."""


async def until(
    predicate: Callable[[], object], step: Callable[[], Awaitable[object]], timeout: float = 30.0, what: str = ""
) -> None:
    """Await `step()` until `predicate()` is true; past the deadline, fail saying what did
    not happen. The one wait of the tests and of bench/ (which steps with asyncio.sleep:
    Pilot.pause visits every widget, and that would be counted as the app's time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or predicate}")
        await step()


def pilot_step(pilot) -> Callable[[], Awaitable[None]]:
    """A step that lets the app run for a POLL (driving.wait_for: a real server answers in its own time)."""
    return lambda: pilot.pause(POLL)


def poll_step() -> Awaitable[None]:
    """A step outside any app: the event loop runs the rest for a POLL."""
    return asyncio.sleep(POLL)


async def eventually(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """Until `check()` (a function or a coroutine function: a question to a server) gives a
    true value, which is returned; past the deadline, fail saying what did not happen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = check()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or check}")
        await poll_step()


def eventually_blocking(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """`eventually` outside an event loop (a fixture starting a server, a process in a pty)."""
    deadline = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or check}")
        time.sleep(POLL)
    return value


class Held:
    """A backend method whose real answer waits until the test lets it through: a slow server,
    exactly as slow as the test needs. `asked` counts the calls that came."""

    def __init__(self, method: Callable[..., Awaitable[Any]]) -> None:
        self.method = method
        self.asked = 0
        self._gate = asyncio.Event()

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.asked += 1
        await self._gate.wait()
        return await self.method(*args, **kwargs)

    def let_through(self) -> None:
        self._gate.set()
