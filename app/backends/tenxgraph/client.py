"""A 10xGraph server (10xgraph-api) seen through the Backend protocol, over httpx.

What 10xGraph has and lacks, and how each gap is handled (the UI reads `capabilities`):
- No checkpoint history, fork, copy, assistants, thread metadata, status filter, sort or
  count: get_history returns [], count_threads None, the others raise Invalid.
- No thread-create route: a thread appears on its first run, so create_thread only makes
  up an id (the summary it returns is not on the server yet).
- Thread search is the server's substring match over all of a thread's fields
  (ThreadQuery.search); status, metadata, graph and sort are ignored.
- The state is {context: [messages], context_summary, execution_meta}; PUT merges it and
  *appends* context, so update_state sends only what changed and refuses edits that would
  need a replace.
- The message log (list/add/get/delete_message) is separate from state.context: adding or
  deleting there does not change the conversation the graph sees.
- The run stream is one JSON object per line (despite its text/event-stream type), with no
  end marker: the end of the body is the end of the run.

Extras beyond the protocol (the optional capabilities in threadbench.backends.base): clear_state
(ClearsState); list_messages, add_messages, get_message, delete_message (KeepsMessageLog).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx

from ...models import (
    Assistant,
    Capabilities,
    ChatMessage,
    GraphInfo,
    RunEvent,
    RunRequest,
    ThreadQuery,
    ThreadState,
    ThreadSummary,
)
from ..base import (
    Conflict,
    Invalid,
    NotFound,
    Unreachable,
)
from ..http import graph_info
from .connection import Connection, _quote
from .mapping import (
    ASSISTANT_ID,
    langgraph_shape,
    new_context,
    run_body,
    thread_status,
    to_chat_message,
    to_client_message,
    to_thread_state,
    to_thread_summary,
)
from .stream import _empty, _StreamDecoder

CAPABILITIES = Capabilities(
    name="10xGraph",
    history=False,
    fork=False,
    copy_thread=False,
    create_thread=False,
    metadata=False,
    status_filter=False,
    sort=False,
    count=False,
    assistants=False,
    join_stream=False,
    stream_modes=("values", "updates", "messages-tuple"),  # (as its response_granularity)
    cancel=True,
    clear_state=True,
    delete_message=True,
    add_message=True,
    search_messages=True,
    reason=(
        "10xGraph keeps no checkpoint history (so no timeline, fork or replay), cannot copy "
        "threads, has no assistants, thread metadata, status filter, sort or count, and "
        "creates a thread only when its first run starts."
    ),
)


class TenXGraphBackend(Connection):
    """The Backend protocol over a 10xGraph server's REST API and line-JSON run stream."""

    capabilities = CAPABILITIES
    _state_fields: list[str] | None = None  # the state's field names, once asked

    # --- server -------------------------------------------------------------------------------

    async def check(self) -> dict[str, Any]:
        """GET /ping (no auth needed), then one authenticated call so a bad key shows now."""
        await self._call("GET", "/ping")
        graph = await self._call("GET", "/v1/graph")
        info = graph.get("info", {}) if isinstance(graph, dict) else {}
        return {"kind": "10xgraph", "url": self.url, "graph": info}

    # --- threads ------------------------------------------------------------------------------

    async def search_threads(self, query: ThreadQuery) -> list[ThreadSummary]:
        """GET /v1/threads. Uses search (server-side substring), offset and limit only."""
        if query.ids:
            found = await asyncio.gather(*(self.get_thread(i) for i in query.ids), return_exceptions=True)
            for item in found:
                if isinstance(item, BaseException) and not isinstance(item, NotFound):
                    raise item
            return [t for t in found if isinstance(t, ThreadSummary)]
        params = {
            "search": query.search or None,
            "offset": query.offset,
            "limit": query.limit,
        }
        data = await self._call("GET", "/v1/threads", params=params)
        threads = data.get("threads") if isinstance(data, dict) else None
        return [to_thread_summary(t) for t in threads or [] if isinstance(t, dict)]

    async def count_threads(self, query: ThreadQuery) -> int | None:
        return None

    async def _get_thread_row(self, thread_id: str) -> dict[str, Any] | None:
        data = await self._call("GET", self._thread_path(thread_id))
        thread = (data.get("thread_data") or {}).get("thread") if isinstance(data, dict) else None
        return thread if isinstance(thread, dict) else None

    async def get_thread(self, thread_id: str) -> ThreadSummary:
        """The thread row, with status and title taken from its state."""
        row: dict[str, Any] | None | BaseException
        state: dict[str, Any] | None | BaseException
        row, state = await asyncio.gather(
            self._get_thread_row(thread_id),
            self._get_raw_state(thread_id),
            return_exceptions=True,
        )
        if isinstance(row, BaseException):
            raise row
        if row is None:
            raise NotFound(f"Thread {thread_id} not found")
        summary = to_thread_summary(row)
        if isinstance(state, Conflict):
            summary.status = "busy"
            return summary
        if isinstance(state, BaseException):
            raise state
        summary.status = thread_status(state)
        if not summary.title and isinstance(state, dict):
            for message in state.get("context") or []:
                if isinstance(message, dict) and message.get("role") == "user":
                    summary.title = to_chat_message(message).text.strip()[:120]
                    break
        return summary

    async def create_thread(
        self,
        *,
        thread_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        graph_id: str | None = None,
        supersteps: list[dict[str, Any]] | None = None,
    ) -> ThreadSummary:
        """10xGraph has no create route: return a summary for a new id; the first run makes it."""
        if supersteps:
            raise Invalid("10xGraph cannot pre-fill a thread with supersteps")
        if metadata:
            raise Invalid("10xGraph threads have no metadata")
        if thread_id and await self._get_thread_row(thread_id) is not None:
            raise Conflict(f"Thread {thread_id} exists already")
        return ThreadSummary(
            thread_id=thread_id or str(uuid.uuid4()),
            status="idle",
            graph_id=ASSISTANT_ID,
            assistant_id=ASSISTANT_ID,
        )

    async def copy_thread(self, thread_id: str) -> ThreadSummary:
        raise Invalid("10xGraph cannot copy threads")

    async def update_metadata(self, thread_id: str, metadata: dict[str, Any]) -> ThreadSummary:
        raise Invalid("10xGraph threads have no metadata")

    async def delete_thread(self, thread_id: str) -> None:
        data = await self._call("DELETE", self._thread_path(thread_id), body={"config": {}})
        if isinstance(data, dict) and data.get("data") is False:
            raise NotFound(f"Thread {thread_id} not found")

    # --- state --------------------------------------------------------------------------------

    async def _get_raw_state(self, thread_id: str) -> dict[str, Any] | None:
        try:
            data = await self._call("GET", self._thread_path(thread_id, "/state"))
        except Invalid as err:
            # While a run is in progress the server fails to serialise the live state
            # (422 "1 validation error for StateResponseSchema"): the thread is busy.
            if "StateResponseSchema" in str(err) or "state: Input should be" in str(err):
                raise Conflict(
                    f"Thread {thread_id} is running: 10xGraph shows its state once the run ends",
                    status=err.status,
                ) from err
            raise
        state = data.get("state") if isinstance(data, dict) else None
        return state if isinstance(state, dict) else None

    async def get_state(self, thread_id: str, checkpoint_id: str | None = None) -> ThreadState:
        """The thread's state; a thread with none yet (new, or cleared) gives an empty one."""
        if checkpoint_id:
            raise Invalid("10xGraph keeps no checkpoints: only the current state can be read")
        return to_thread_state(thread_id, await self._get_raw_state(thread_id))

    async def get_history(self, thread_id: str, *, limit: int = 20, before: str | None = None) -> list[ThreadState]:
        return []

    async def _state_field_names(self) -> list[str] | None:
        if self._state_fields is None:
            graph = await self._call("GET", "/v1/graph")
            fields = (graph.get("info") or {}).get("state_fields") if isinstance(graph, dict) else None
            if isinstance(fields, list):
                self._state_fields = [str(f) for f in fields]
        return self._state_fields

    async def update_state(
        self,
        thread_id: str,
        values: dict[str, Any] | None,
        *,
        as_node: str | None = None,
        checkpoint_id: str | None = None,
    ) -> str:
        """PUT the values that differ from the current state; returns "" (no checkpoint ids).

        10xGraph merges a PUT into the state and appends `context`, so given a whole state
        (as an editor sends back) only changed keys and new trailing messages are sent.
        Editing or removing existing messages, or writing execution_meta, raises Invalid.
        """
        if as_node:
            raise Invalid("10xGraph cannot write state as a node")
        if checkpoint_id:
            raise Invalid("10xGraph keeps no checkpoints: it can only update the current state")
        if not values:
            raise Invalid("Nothing to write: give the state keys to change")
        fields = await self._state_field_names()
        if fields:
            unknown = sorted(k for k in values if k not in fields)
            if unknown:
                raise Invalid(f"The state has no field {', '.join(unknown)} (fields: {', '.join(fields)})")
        current = await self._get_raw_state(thread_id) or {}
        changes: dict[str, Any] = {}
        for key, value in values.items():
            if key in current and current[key] == value:
                continue
            if key == "execution_meta":
                raise Invalid("execution_meta is kept by the server and cannot be written")
            if key == "context":
                value = new_context(current.get("context") or [], value)
                if not value:
                    continue
            changes[key] = value
        if not changes:
            return ""
        await self._call("PUT", self._thread_path(thread_id, "/state"), body={"state": changes, "config": {}})
        return ""

    async def clear_state(self, thread_id: str) -> None:
        """DELETE the thread's state (its row and message log stay)."""
        await self._call("DELETE", self._thread_path(thread_id, "/state"))

    # --- the message log ----------------------------------------------------------------------

    async def list_messages(
        self, thread_id: str, *, offset: int = 0, limit: int = 100, search: str | None = None
    ) -> list[ChatMessage]:
        """The thread's message log (GET /messages); not always the same as state.context."""
        data = await self._call(
            "GET",
            self._thread_path(thread_id, "/messages"),
            params={"offset": offset, "limit": limit, "search": search or None},
        )
        messages = data.get("messages") if isinstance(data, dict) else None
        return [to_chat_message(m) for m in messages or [] if isinstance(m, dict)]

    async def add_messages(
        self,
        thread_id: str,
        messages: list[Any],
        metadata: dict[str, Any] | None = None,
    ) -> None:
        """Append messages to the message log without running the graph."""
        if not messages:
            raise Invalid("No messages to add")
        body: dict[str, Any] = {
            "messages": [to_client_message(m) for m in messages],
            "config": {},
        }
        if metadata:
            body["metadata"] = metadata
        await self._call("POST", self._thread_path(thread_id, "/messages"), body=body)

    async def get_message(self, thread_id: str, message_id: str) -> ChatMessage:
        if not str(message_id).strip():
            raise Invalid("The message id is empty")
        data = await self._call(
            "GET",
            self._thread_path(thread_id, f"/messages/{_quote(message_id)}"),
            not_found=f"Message {message_id} not found in thread {thread_id}",
        )
        message = data.get("message", data) if isinstance(data, dict) else None
        if not isinstance(message, dict):
            raise NotFound(f"Message {message_id} not found in thread {thread_id}")
        return to_chat_message(message)

    async def delete_message(self, thread_id: str, message_id: str) -> None:
        """Delete a message from the message log (state.context keeps its copy)."""
        if not str(message_id).strip():
            raise Invalid("The message id is empty")
        await self._call(
            "DELETE",
            self._thread_path(thread_id, f"/messages/{_quote(message_id)}"),
            body={"config": {}},
            not_found=f"Message {message_id} not found in thread {thread_id}",
        )

    # --- runs ---------------------------------------------------------------------------------

    def run_body(self, thread_id: str, request: RunRequest) -> dict[str, Any]:
        """The POST /v1/graph/stream body for a RunRequest."""
        return run_body(thread_id, request)

    async def stream_run(self, thread_id: str, request: RunRequest) -> AsyncIterator[RunEvent]:
        """POST /v1/graph/stream and turn its JSON lines into RunEvents, ending with "end".

        Delta messages become "token"s that share one message_id (the first delta's);
        the whole message that closes them comes as a "message" whose data is
        {"replaces": that id}, after a last empty token (last=True).
        """
        body = self.run_body(thread_id, request)
        timeout = httpx.Timeout(self._timeout, read=None)
        answered = False
        for attempt in (0, 1):
            try:
                async with self._client.stream("POST", "/v1/graph/stream", json=body, timeout=timeout) as response:
                    answered = True
                    if not response.is_success:
                        await response.aread()
                        raise self._error(response)
                    decoder = _StreamDecoder(thread_id)
                    async for line in response.aiter_lines():
                        for event in decoder.feed(line):
                            yield event
                    for event in decoder.finish():
                        yield event
                    return
            except (httpx.ConnectError, httpx.ConnectTimeout) as err:
                raise self._unreachable(err) from err
            except httpx.TransportError as err:
                if answered:
                    raise Unreachable(f"Lost the connection to {self.url} while the run streamed: {err}") from err
                # A pooled connection the server had reset fails before it answers: the
                # run never started, so once more on a fresh connection.
                if attempt:
                    raise self._unreachable(err) from err

    def join_stream(
        self, thread_id: str, run_id: str | None = None, last_event_id: str | None = None
    ) -> AsyncIterator[RunEvent]:
        return _empty()

    async def active_run(self, thread_id: str) -> str | None:
        return None

    async def cancel_run(self, thread_id: str, run_id: str = "", action: str = "interrupt") -> None:
        """POST /v1/graph/stop: the run pauses at the next node boundary."""
        await self._call("POST", "/v1/graph/stop", body={"thread_id": thread_id})

    # --- graph --------------------------------------------------------------------------------

    async def list_assistants(self) -> list[Assistant]:
        """10xGraph serves one graph: one pseudo assistant named after its state type."""
        graph = await self._call("GET", "/v1/graph")
        info = graph.get("info", {}) if isinstance(graph, dict) else {}
        nodes = info.get("node_count")
        description = f"{info.get('state_type') or 'AgentState'} graph"
        if nodes is not None:
            description += f", {nodes} nodes"
        return [
            Assistant(
                assistant_id=ASSISTANT_ID,
                graph_id=ASSISTANT_ID,
                name="10xGraph",
                description=description,
            )
        ]

    async def get_graph(self, assistant_id: str = ASSISTANT_ID, xray: bool = False) -> GraphInfo:
        graph = await self._call("GET", "/v1/graph")
        if not isinstance(graph, dict):
            return GraphInfo()
        return graph_info(*langgraph_shape(graph))

    async def get_schemas(self, assistant_id: str = ASSISTANT_ID) -> dict[str, Any]:
        """{"state": the state's JSON schema} (10xGraph has no input/output/config schemas)."""
        schema = await self._call("GET", "/v1/graph:StateSchema")
        return {"state": schema}
