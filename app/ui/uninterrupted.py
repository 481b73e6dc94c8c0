"""Widget removals that a cancelled worker must not break off.

Awaiting a removal gathers the removed widgets' own tasks, and cancelling the task that
awaits a gather cancels what it gathers. So a worker cancelled mid-removal (an exclusive
worker replaced by the next one: another thread opened while a reply streams) cancelled the
tasks of the widgets it was removing, part way through their removal: they stayed in the
DOM with dead tasks, and taking their parent down later raised CancelledError or never
finished. Await such work through `uninterrupted`: if the worker is cancelled, the removal
still runs to its end and the worker stops there.

A container whose next change reads its children (the chat keeps the views it can reuse)
must also wait for a removal a cancelled worker left running, else it keeps a view about
to go: `Removals` runs them and says when they are all done.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

T = TypeVar("T")
P = ParamSpec("P")


async def uninterrupted(work: Awaitable[T]) -> T:
    """Await `work` (a removal, or a Markdown append, which removes blocks) to its end."""
    return await asyncio.shield(asyncio.ensure_future(work))


class Removals:
    """The uninterrupted removals of one container still running."""

    def __init__(self) -> None:
        self._running: set[asyncio.Future[Any]] = set()

    async def run(self, work: Awaitable[T]) -> T:
        future = asyncio.ensure_future(work)
        self._running.add(future)
        future.add_done_callback(self._running.discard)
        return await asyncio.shield(future)

    async def settled(self) -> None:
        while self._running:
            await asyncio.wait(set(self._running))


class HasRemovals(Protocol):
    removals: Removals


S = TypeVar("S", bound=HasRemovals)


def after_removals(
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """A change that first waits for the container's removals still running."""

    @functools.wraps(method)
    async def changed(self: S, *args: P.args, **kwargs: P.kwargs) -> T:
        await self.removals.settled()
        return await method(self, *args, **kwargs)

    return changed
