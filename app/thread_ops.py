"""Thread operations and their rules, without Textual: what a rename writes where (DeerFlow's
title rule), whether a thread is gone, how an error reads as a sentence, what a thread's
status line says. The widgets call these from their workers and show the outcome."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .backends.base import Backend, BackendError, NotFound
from .models import ThreadState, ThreadSummary

if TYPE_CHECKING:
    from .human_input import PendingInput

GONE = "It was deleted (by another client?): it is removed from the list."
"""What happened when the server no longer has a thread the list shows."""


def sentence(error: BaseException, then: str = "") -> str:
    """The error's text as a sentence, then what to do."""
    text = str(error).strip() or type(error).__name__
    if not text.endswith((".", "!", "?")):
        text += "."
    return f"{text} {then}".strip()


def state_detail(state: ThreadState, pending: list[PendingInput] | None = None) -> str:
    """What the run status says about a thread at rest, after its state ("waiting", "paused")."""
    if pending:
        return "for your answer (enter or a to answer)"
    if state.next:
        return "before " + ", ".join(state.next) + ": nothing is asked (p replays, or send a message)"
    return ""


async def write_title(backend: Backend, thread: ThreadSummary, title: str, assistant: str) -> str:
    """DeerFlow keeps the title in state values: write it there if the graph has that channel,
    else in the metadata. Returns where it went ("state" or "metadata")."""
    if thread.has_title_channel or await graph_has_title(backend, assistant):
        try:
            await backend.update_state(thread.thread_id, {"title": title})
            return "state"
        except BackendError:
            if not backend.capabilities.metadata:
                raise
    await backend.update_metadata(thread.thread_id, {"title": title})
    return "metadata"


async def graph_has_title(backend: Backend, assistant: str) -> bool:
    """True if the assistant's state schema has a `title` channel."""
    if not assistant:
        return False
    try:
        schemas = await backend.get_schemas(assistant)
    except BackendError:
        return False
    properties = (schemas.get("state_schema") or {}).get("properties") or {}
    return "title" in properties


async def fetch_thread(backend: Backend, thread_id: str) -> ThreadSummary | None:
    """The thread's row as the server has it now (None when it cannot say)."""
    try:
        return await backend.get_thread(thread_id)
    except BackendError:
        return None


async def is_gone(backend: Backend, thread_id: str) -> bool:
    """True if the server says it has no such thread (not when it cannot say)."""
    try:
        await backend.get_thread(thread_id)
    except NotFound:
        return True
    except BackendError:
        pass
    return False


async def final_state(backend: Backend, thread_id: str) -> ThreadState | None:
    """The thread's state once a run ended: what the chat must agree with."""
    try:
        return await backend.get_state(thread_id)
    except BackendError:
        return None
