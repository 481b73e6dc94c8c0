"""The inbox: every thread on a server that waits for a human, and what each waits for."""

from __future__ import annotations

import asyncio

from ..backends.base import Backend, BackendError
from ..models import ThreadQuery, ThreadState, ThreadSummary
from .dialects import detect_pending
from .models import InboxItem


async def pending_for_thread(backend: Backend, thread: ThreadSummary) -> InboxItem | None:
    """The thread as an inbox item, or None when it waits for nothing.

    An interrupted thread whose summary carries its interrupts needs no further request;
    any other thread's state is fetched (the seed's form and DeerFlow's live in messages).
    """
    interrupts = list(getattr(thread, "interrupts", None) or [])
    if interrupts and thread.status == "interrupted":
        state = ThreadState(thread_id=thread.thread_id, interrupts=interrupts)
    else:
        state = await backend.get_state(thread.thread_id)
    if not state.thread_id:
        state.thread_id = thread.thread_id
    pending = detect_pending(state, thread.status)
    for item in pending:
        item.thread_id = thread.thread_id
    return InboxItem(thread=thread, pending=pending) if pending else None


async def gather_inbox(
    backend: Backend, *, recent: int = 50, limit: int = 500, concurrency: int = 8
) -> list[InboxItem]:
    """Every thread on the server waiting for a human, most recently updated first.

    The interrupted threads (threads.search(status="interrupted"), paged, at most `limit`)
    plus DeerFlow-style open clarifications among the `recent` most recently updated idle
    threads. A server without a status filter has its `recent` newest threads checked.
    """
    candidates: dict[str, ThreadSummary] = {}
    if backend.capabilities.status_filter:
        offset = 0
        while offset < limit:
            page = await backend.search_threads(ThreadQuery(status="interrupted", limit=100, offset=offset))
            for thread in page:
                candidates.setdefault(thread.thread_id, thread)
            offset += len(page)
            if len(page) < 100:
                break
        idle = await backend.search_threads(ThreadQuery(status="idle", limit=recent))
    else:
        idle = await backend.search_threads(ThreadQuery(limit=recent))
    for thread in idle:
        candidates.setdefault(thread.thread_id, thread)
    gate = asyncio.Semaphore(concurrency)

    async def check(thread: ThreadSummary) -> InboxItem | None:
        async with gate:
            try:
                return await pending_for_thread(backend, thread)
            except BackendError:  # one broken thread must not hide the rest
                return None

    found = await asyncio.gather(*(check(t) for t in candidates.values()))
    items = [item for item in found if item is not None]
    items.sort(
        key=lambda item: (
            item.thread.updated_at is None,
            -(item.thread.updated_at.timestamp() if item.thread.updated_at else 0),
        )
    )
    return items
