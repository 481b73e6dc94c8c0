"""Widget removals that a cancelled worker must not break off.

Awaiting a removal gathers the removed widgets' own tasks, and cancelling the task that
awaits a gather cancels what it gathers. So a worker cancelled mid-removal (an exclusive
worker replaced by the next one: another thread opened while a reply streams) cancelled the
tasks of the widgets it was removing, part way through their removal: they stayed in the
DOM with dead tasks, and taking their parent down later raised CancelledError or never
finished. Await such work through `uninterrupted`: if the worker is cancelled, the removal
still runs to its end and the worker stops there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def uninterrupted(work: Awaitable[T]) -> T:
    """Await `work` (a removal, or a Markdown append, which removes blocks) to its end."""
    return await asyncio.shield(asyncio.ensure_future(work))
