"""Which graph or assistant a run goes to, found on the server rather than assumed.

A thread's runs go to the thread's own graph (its metadata, which the server writes at
each run, else its last run's assistant). A new thread goes to the user's pick, else the
server's only graph; with several graphs the user is asked. The server's graphs come from
its assistants, or, where auth hides them (DeerFlow), from the server's own refusal of an
assistant that cannot exist ("One of the registered graphs: a, b"), else from the graphs
its threads ran on.
"""

from __future__ import annotations

import re
import uuid
from typing import TYPE_CHECKING

from .backends.base import ListsGraphs

# Read from the server's refusal; here too for the UI, which asks this module for the graphs.
from .models import ThreadQuery, ThreadSummary

if TYPE_CHECKING:
    from .backends.base import Backend

# The LangGraph server names each graph's default assistant uuid5(this, graph_id).
_GRAPH_NAMESPACE = uuid.UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8")
_INVALID_ASSISTANT = re.compile(r"invalid assistant", re.IGNORECASE)


def thread_graph(thread: ThreadSummary | None) -> str:
    """The assistant or graph a thread's runs use, as far as its row says ("" unknown)."""
    if thread is None:
        return ""
    graph, assistant = thread.graph_id, thread.assistant_id
    if graph and (not assistant or assistant == str(uuid.uuid5(_GRAPH_NAMESPACE, graph))):
        return graph  # the graph's own assistant: its name reads better and auth never hides it
    return assistant or graph


def refused_assistant(message: str) -> bool:
    """The server refused a run because it has no such assistant or graph."""
    return bool(_INVALID_ASSISTANT.search(message))


async def server_graphs(backend: Backend, sample: int = 50) -> tuple[list[str], bool]:
    """The graph ids the server runs, in a stable order, and whether that is all of them:
    its assistants say so; where auth hides them, the graphs its newest threads ran on are
    some of them (a server of several graphs may show only one there)."""
    graphs: dict[str, None] = {}
    if backend.capabilities.assistants:
        for assistant in await backend.list_assistants():
            graphs.setdefault(assistant.graph_id or assistant.assistant_id, None)
    if graphs:
        return list(graphs), True
    if isinstance(backend, ListsGraphs) and (named := await backend.registered_graphs()):
        return named, True
    for thread in await backend.search_threads(ThreadQuery(limit=sample)):
        if thread.graph_id:
            graphs.setdefault(thread.graph_id, None)
    return list(graphs), False
