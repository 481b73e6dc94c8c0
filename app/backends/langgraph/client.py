"""A LangGraph Agent Server (local `langgraph dev`, a deployment, DeerFlow) through langgraph-sdk.

Every call goes through Connection (connection.py): typed errors, a fresh client after a 5xx,
one retry of idempotent calls. What this client works around, measured on the real servers:
- the thread list does not fetch each thread's full values (a thread of 500 messages is
  ~300 KB): it asks for a few small fields and `extract`s the title and first message;
- `get_history(before=...)` wants {"configurable": {"checkpoint_id": ...}};
- the thread-level join stream never ends, so join_stream follows the active run instead;
- the in-memory server gives every event of one millisecond the same SSE id and repeats
  events when a stream is resumed: streams drop what was read already (StreamPosition);
- get_schemas wants an assistant UUID: a graph id is resolved to its assistant first.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, cast

from langgraph_sdk.client import LangGraphClient
from langgraph_sdk.schema import CancelAction, Command, StreamMode, ThreadSelectField
from langgraph_sdk.schema import ThreadStatus as ServerThreadStatus

from ...messages_key import DEFAULT, messages_key_of_schemas
from ...models import (
    Assistant,
    Capabilities,
    GraphInfo,
    RunEvent,
    RunRequest,
    ThreadQuery,
    ThreadState,
    ThreadSummary,
)
from ...server_objects import RUN_ACTIVE
from ..base import (
    BackendError,
    Conflict,
    Invalid,
    NotFound,
    ServerError,
    graphs_in_refusal,
)
from ..http import graph_info
from .connection import Connection, is_uuid
from .mapping import (
    SECOND_TEXT_EXTRACT,
    TITLE_EXTRACT,
    extracted_nothing,
    needs_second_text,
    state_from_dict,
    thread_from_dict,
    title_extract,
)
from .objects import ServerObjects
from .shared_messages import SharedMessages
from .streaming import StreamPosition

THREAD_FIELDS: list[ThreadSelectField] = ["thread_id", "status", "created_at", "updated_at", "metadata", "interrupts"]
log = logging.getLogger(__name__)
RUN_STATUS_SECONDS = 0.5
"""How often a run whose stream the server dropped (a gap) is asked whether it ended."""
NO_SUCH_ASSISTANT = "threadbench: no such graph"  # neither a UUID nor a graph name anyone writes


class LangGraphBackend(ServerObjects, Connection):
    """The Backend protocol over langgraph-sdk's async client."""

    FINISHED_RUN: tuple[type[BackendError], ...] = (NotFound,)
    """What cancelling a run that has finished raises."""
    REFUSED_RUN_OPTIONS: frozenset[str] = frozenset()
    """runs.stream's options the server is known to refuse."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """(url, api_key=None, *, timeout=None, credentials=None): see Connection."""
        super().__init__(*args, **kwargs)
        self.capabilities = Capabilities()
        self._messages = SharedMessages()
        self._extract = True  # False once a server refused or ignored `extract`
        self._assistant_ids: dict[str, str] = {}
        self._graph_keys: dict[str, str] = {}  # graph id -> the key its conversation is under
        self.refused_run_options: set[str] = set(self.REFUSED_RUN_OPTIONS)
        """Run options left out of every run: the server refuses them (known, or learnt from a 422)."""

    # --- server ------------------------------------------------------------------------------

    async def check(self) -> dict[str, Any]:
        try:
            return await self._get_json(f"reach the server at {self.url}", "/info")
        except NotFound as err:
            raise Invalid(
                f"{self.url} answers, but not as a LangGraph Agent Server (no /info).",
                status=404,
            ) from err

    # --- threads -----------------------------------------------------------------------------

    @staticmethod
    def _metadata_filter(query: ThreadQuery) -> dict[str, Any]:
        metadata = dict(query.metadata)
        if query.graph_id:
            metadata["graph_id"] = query.graph_id
        return metadata

    def _status_filter(self, query: ThreadQuery) -> str | None:
        """The status to ask the server for (None: any)."""
        return query.status if query.status and query.status != "unknown" else None

    async def _search_rows(self, doing: str, **kwargs: Any) -> list[dict[str, Any]]:
        """threads.search with small rows: no values, but `extracted` title fields.

        Falls back to selecting values once if the server refuses or ignores `extract`.
        """
        # The SDK types the rows as whole Threads; with `select` and `extract` they are partial
        # rows with an `extracted` object, so they are read as plain JSON objects.
        if self._extract:
            try:
                rows = cast(
                    "list[dict[str, Any]]",
                    await self._call(
                        doing,
                        lambda c: c.threads.search(select=THREAD_FIELDS, extract=TITLE_EXTRACT, **kwargs),
                        retry=True,
                    ),
                )
            except Invalid as err:
                if "extract" not in str(err):
                    raise  # a bad filter, not a server without `extract`
                rows = None
            if rows is not None and (not rows or any("extracted" in row for row in rows)):
                await self._own_key_texts(doing, rows)
                await self._second_texts(doing, rows)
                return rows
            self._extract = False
        return cast(
            "list[dict[str, Any]]",
            await self._call(
                doing, lambda c: c.threads.search(select=[*THREAD_FIELDS, "values"], **kwargs), retry=True
            ),
        )

    async def _own_key_texts(self, doing: str, rows: list[dict[str, Any]]) -> None:
        """Extract the title fields again, under its own key, for threads of a graph that
        keeps its conversation under another key than "messages" (messages_key.py)."""
        if not (self.capabilities.assistants and self.capabilities.graph):
            return
        by_key: dict[str, list[str]] = {}
        for row in rows:
            metadata = row.get("metadata")
            graph = metadata.get("graph_id") if isinstance(metadata, dict) else None
            if extracted_nothing(row.get("extracted")) and isinstance(graph, str) and graph:
                key = await self._graph_key(graph)
                if key != DEFAULT:
                    by_key.setdefault(key, []).append(row["thread_id"])
        for key, ids in by_key.items():
            await self._extract_again(doing, rows, ids, {**title_extract(key), "text1": f"values.{key}[1].content"})

    async def _graph_key(self, graph: str) -> str:
        """The key `graph` keeps its conversation under, from its schemas (asked once)."""
        if graph not in self._graph_keys:
            try:
                key = messages_key_of_schemas(await self.get_schemas(graph)) or DEFAULT
            except BackendError:
                key = DEFAULT  # (a graph whose schemas fail is shown as before)
            self._graph_keys[graph] = key if key.isidentifier() else DEFAULT
        return self._graph_keys[graph]

    async def _second_texts(self, doing: str, rows: list[dict[str, Any]]) -> None:
        """Fetch message[1]'s text for threads whose first message is not the human's."""
        ids = [row["thread_id"] for row in rows if needs_second_text(row.get("extracted"))]
        if ids:
            await self._extract_again(doing, rows, ids, SECOND_TEXT_EXTRACT)

    async def _extract_again(
        self, doing: str, rows: list[dict[str, Any]], ids: list[str], extract: dict[str, str]
    ) -> None:
        """Add to `rows` what `extract` finds in the threads `ids`."""
        extra = await self._call(
            doing,
            lambda c: c.threads.search(ids=ids, limit=len(ids), select=["thread_id"], extract=extract),
            retry=True,
        )
        found = {str(row.get("thread_id")): row.get("extracted") for row in extra or [] if isinstance(row, dict)}
        for row in rows:
            more, extracted = found.get(str(row.get("thread_id"))), row.get("extracted")
            if isinstance(more, dict) and isinstance(extracted, dict):
                extracted.update(more)

    async def search_threads(self, query: ThreadQuery) -> list[ThreadSummary]:
        rows = await self._search_rows(
            "list the threads",
            metadata=self._metadata_filter(query) or None,
            status=self._status_filter(query),
            ids=query.ids or None,
            sort_by=query.sort_by,
            sort_order=query.sort_order,
            limit=query.limit,
            offset=query.offset,
        )
        return [thread_from_dict(row) for row in rows]

    async def count_threads(self, query: ThreadQuery) -> int | None:
        # The SDK names LangGraph's four statuses; DeerFlow's Gateway is asked for "running".
        status = cast("ServerThreadStatus | None", self._status_filter(query))
        metadata = self._metadata_filter(query) or None
        if query.ids:  # count has no ids filter
            rows = await self._call(
                "count the threads",
                lambda c: c.threads.search(
                    ids=query.ids, metadata=metadata, status=status, limit=len(query.ids), select=["thread_id"]
                ),
                retry=True,
            )
            return len(rows)
        count = await self._call(
            "count the threads", lambda c: c.threads.count(metadata=metadata, status=status), retry=True
        )
        return count if isinstance(count, int) else None

    async def get_thread(self, thread_id: str) -> ThreadSummary:
        doing = f"get thread {thread_id}"
        rows = await self._search_rows(doing, ids=[thread_id], limit=1)
        if not rows:
            raise NotFound(f"Could not {doing}: there is no such thread on the server", status=404)
        return thread_from_dict(rows[0])

    async def create_thread(
        self,
        *,
        thread_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        graph_id: str | None = None,
        supersteps: list[dict[str, Any]] | None = None,
    ) -> ThreadSummary:
        if thread_id is not None and not is_uuid(thread_id):
            raise Invalid(f"A thread id must be a UUID (like {uuid.uuid4()}); {thread_id!r} is not one.")
        steps = _supersteps(supersteps) if supersteps else None
        thread = await self._call(
            "create the thread",
            lambda c: c.threads.create(
                thread_id=thread_id or None, metadata=metadata or None, graph_id=graph_id or None, supersteps=steps
            ),
        )
        return thread_from_dict(thread)

    async def copy_thread(self, thread_id: str) -> ThreadSummary:
        doing = f"copy thread {thread_id}"
        try:
            # The SDK types copy() as returning None; the server answers the copy's row.
            copy = await self._call(doing, lambda c: c.threads.copy(thread_id))  # type: ignore[func-returns-value]
        except Conflict as err:  # the server answers 409 "Conflict" for an unknown thread
            if not await self._search_rows(doing, ids=[thread_id], limit=1):
                raise NotFound(f"Could not {doing}: there is no such thread on the server", status=404) from err
            raise
        if isinstance(copy, dict) and copy.get("thread_id"):
            return thread_from_dict(copy)
        raise ServerError(f"Could not copy thread {thread_id}: the server did not say what the copy is")

    async def update_metadata(self, thread_id: str, metadata: dict[str, Any]) -> ThreadSummary:
        thread = await self._call(
            f"update the metadata of thread {thread_id}", lambda c: c.threads.update(thread_id, metadata=metadata)
        )
        return thread_from_dict(thread)

    async def delete_thread(self, thread_id: str) -> None:
        await self._call(f"delete thread {thread_id}", lambda c: c.threads.delete(thread_id), retry=True)

    # --- state and history ------------------------------------------------------------------

    async def get_state(self, thread_id: str, checkpoint_id: str | None = None) -> ThreadState:
        doing = f"get the state of thread {thread_id}" + (f" at checkpoint {checkpoint_id}" if checkpoint_id else "")
        state = await self._call(
            doing, lambda c: c.threads.get_state(thread_id, checkpoint_id=checkpoint_id or None), retry=True
        )
        return state_from_dict(state, thread_id, self._messages)

    async def get_history(self, thread_id: str, *, limit: int = 20, before: str | None = None) -> list[ThreadState]:
        cursor = self._history_cursor(before) if before else None
        items = await self._call(
            f"get the history of thread {thread_id}",
            lambda c: c.threads.get_history(thread_id, limit=limit, before=cursor),
            retry=True,
        )
        # In a thread: a page of checkpoints of a long thread is tens of thousands of
        # messages to read, and the event loop keeps drawing meanwhile.
        return await asyncio.to_thread(
            lambda: [state_from_dict(item, thread_id, self._messages) for item in items or []]
        )

    @staticmethod
    def _history_cursor(checkpoint_id: str) -> Any:
        """get_history's `before`: the server wants a config."""
        return {"configurable": {"checkpoint_id": checkpoint_id}}

    async def update_state(
        self,
        thread_id: str,
        values: dict[str, Any] | None,
        *,
        as_node: str | None = None,
        checkpoint_id: str | None = None,
    ) -> str:
        reply: object = await self._call(
            f"update the state of thread {thread_id}",
            lambda c: c.threads.update_state(
                thread_id, values, as_node=as_node or None, checkpoint_id=checkpoint_id or None
            ),
        )
        result = reply if isinstance(reply, dict) else {}
        for found in (
            result.get("checkpoint_id"),
            (result.get("checkpoint") or {}).get("checkpoint_id"),
            (result.get("configurable") or {}).get("checkpoint_id"),
        ):
            if isinstance(found, str) and found:
                return found
        return ""

    # --- runs --------------------------------------------------------------------------------

    async def stream_run(self, thread_id: str, request: RunRequest) -> AsyncIterator[RunEvent]:
        """The run's events. A run option the server refuses as unsupported (a 422 naming it,
        DeerFlow's Gateway: `stream_resumable`) is left out from then on, and the run is sent
        once more; the server's words are raised if it refuses that too."""
        doing = f"run {request.assistant_id} on thread {thread_id}"
        for last_try in (False, True):
            options = self._run_options(request)
            events = self._through_gaps(
                self._events(doing, functools.partial(_run_stream, thread_id, request.assistant_id, options)),
                thread_id,
            )
            started = False
            try:
                async with contextlib.aclosing(events):
                    async for event in events:
                        started = True
                        yield event
                return
            except Invalid as refusal:
                refused = {name for name in refusal.refused_options if options.get(name) not in (None, False)}
                if last_try or started or not refused:
                    raise
                log.info("%s refused the run options %s: sending without them", self.url, sorted(refused))
                self.refused_run_options |= refused

    def _run_options(self, request: RunRequest) -> dict[str, Any]:
        """runs.stream's keyword arguments for `request`, without those the server refuses
        (None: the SDK leaves them out of the request)."""
        # The command and the stream modes go to the server as they were given: it judges them
        # (a mode this SDK does not know of yet included), so they are passed as the SDK's types.
        options: dict[str, Any] = {
            "input": request.input,
            "command": cast("Command | None", request.command or None),
            "context": request.context or None,
            "config": {"configurable": request.configurable} if request.configurable else None,
            "checkpoint_id": request.checkpoint_id or None,
            "stream_mode": cast("list[StreamMode]", request.stream_modes),
            "stream_subgraphs": request.subgraphs,
            "stream_resumable": request.resumable,
            "multitask_strategy": request.multitask_strategy,
            "on_disconnect": "continue",  # leaving the stream must not cancel the run
        }
        for name in self.refused_run_options & options.keys():
            options[name] = None
        return options

    async def join_stream(
        self, thread_id: str, run_id: str | None = None, last_event_id: str | None = None
    ) -> AsyncIterator[RunEvent]:
        """Follow a run's stream (the given one, else the thread's active run) to its end;
        after `last_event_id` if given (a run started with `resumable` replays what it sent
        since).

        The server's thread-level stream never ends (it waits for the next run), so without a
        run id the active run is looked up; with none, the stream is just the "end" event.
        """
        run_id = run_id or await self.active_run(thread_id)
        if not run_id:
            yield RunEvent(kind="end", event="end")
            return
        position = self._positions.get(run_id)
        cursor: str | None
        if last_event_id and position is not None and position.event_id == last_event_id:
            cursor = position.resume()
        else:  # a stream this backend did not read: resume after the id, as SSE does
            position, cursor = StreamPosition(last_event_id or ""), last_event_id
        events = self._through_gaps(
            self._events(
                f"join run {run_id} on thread {thread_id}",
                lambda client: client.runs.join_stream(thread_id, run_id, last_event_id=cursor or None),
                run_id,
                position,
            ),
            thread_id,
        )
        async with contextlib.aclosing(events):
            async for event in events:
                yield event

    async def _through_gaps(
        self, events: AsyncGenerator[RunEvent, None], thread_id: str
    ) -> AsyncGenerator[RunEvent, None]:
        """`events`, and after a "gap" the run followed by its status to its end.

        DeerFlow's Gateway keeps a run's last 256 events: a reader that falls further behind
        gets a gap and its stream stops while the run goes on. Its `recovery:
        reload_durable_state` is what the app does at a run's end (the reply comes whole
        from the stored state), once the run is over."""
        async with contextlib.aclosing(events):
            async for event in events:
                yield event
                if event.kind == "gap" and event.run_id:
                    run = await self.get_run(thread_id, event.run_id)
                    while run.status in RUN_ACTIVE:
                        await asyncio.sleep(RUN_STATUS_SECONDS)
                        run = await self.get_run(thread_id, event.run_id)
                    if run.status == "error":
                        text = run.error or "the run failed"
                        yield RunEvent(kind="error", event="error", text=text, run_id=event.run_id)

    async def active_run(self, thread_id: str) -> str | None:
        runs = await self._call(
            f"list the runs of thread {thread_id}",
            lambda c: c.runs.list(thread_id, limit=20, select=["run_id", "status"]),
            retry=True,
        )
        runs = [run for run in runs or [] if isinstance(run, dict)]
        for status in ("running", "pending"):
            for run in runs:
                if run.get("status") == status and run.get("run_id"):
                    return str(run["run_id"])
        return None

    async def cancel_run(self, thread_id: str, run_id: str, action: str = "interrupt") -> None:
        if action not in ("interrupt", "rollback"):
            raise Invalid(f'Cannot cancel with {action!r}: use "interrupt" or "rollback".')
        mode: CancelAction = "rollback" if action == "rollback" else "interrupt"
        doing = f"cancel run {run_id}"
        try:
            await self._call(doing, lambda c: c.runs.cancel(thread_id, run_id, wait=True, action=mode))
        except self.FINISHED_RUN as err:
            raise NotFound(
                f"Could not {doing}: it has finished already or does not exist ({err.message.split(': ', 1)[-1]})",
                status=404,
            ) from err

    # --- assistants and graphs --------------------------------------------------------------

    async def list_assistants(self) -> list[Assistant]:
        rows = await self._call("list the assistants", lambda c: c.assistants.search(limit=100), retry=True)
        assistants = []
        for row in rows if isinstance(rows, list) else []:
            if isinstance(row, dict) and row.get("assistant_id"):
                assistants.append(
                    Assistant(
                        assistant_id=str(row["assistant_id"]),
                        graph_id=str(row.get("graph_id") or ""),
                        name=str(row.get("name") or ""),
                        description=str(row.get("description") or ""),
                    )
                )
        return assistants

    async def registered_graphs(self) -> list[str]:
        """The graph ids the server names when it refuses an assistant that cannot exist.
        A stateless run is refused before anything is created or started, so this asks
        nothing of the graphs; it finds them where auth hides the assistants (DeerFlow)."""
        try:
            await self._call("ask the server for its graphs", lambda c: c.runs.wait(None, NO_SUCH_ASSISTANT, input={}))
        except Invalid as refusal:
            return graphs_in_refusal(refusal.message)
        except BackendError:
            return []
        return []

    async def _assistant_uuid(self, assistant_id: str) -> str:
        """An assistant's UUID; a graph id ("agent") is resolved to its first assistant."""
        if is_uuid(assistant_id):
            return assistant_id
        if assistant_id not in self._assistant_ids:
            rows = await self._call(
                f"find the assistant of graph {assistant_id}",
                lambda c: c.assistants.search(graph_id=assistant_id, limit=1, sort_by="created_at", sort_order="asc"),
                retry=True,
            )
            if not rows:
                raise NotFound(f"There is no assistant or graph called {assistant_id!r} on the server.")
            self._assistant_ids[assistant_id] = str(rows[0]["assistant_id"])
        return self._assistant_ids[assistant_id]

    async def get_graph(self, assistant_id: str, xray: bool = False) -> GraphInfo:
        graph = await self._call(
            f"get the graph of {assistant_id}", lambda c: c.assistants.get_graph(assistant_id, xray=xray), retry=True
        )
        graph = graph if isinstance(graph, dict) else {}
        return graph_info(graph.get("nodes") or [], graph.get("edges") or [])

    async def get_schemas(self, assistant_id: str) -> dict[str, Any]:
        uuid_ = await self._assistant_uuid(assistant_id)
        schemas: object = await self._call(
            f"get the schemas of {assistant_id}", lambda c: c.assistants.get_schemas(uuid_), retry=True
        )
        return schemas if isinstance(schemas, dict) else {}


def _run_stream(thread_id: str, assistant_id: str, options: dict[str, Any], client: LangGraphClient) -> Any:
    return client.runs.stream(thread_id, assistant_id, **options)


def _supersteps(supersteps: Any) -> list[dict[str, Any]]:
    """Supersteps in the shape the SDK indexes ({"updates": [{values, command, as_node}]})."""
    if not isinstance(supersteps, list):
        raise Invalid('Supersteps must be a list of {"updates": [{"values": ..., "as_node": ...}]}.')
    steps = []
    for number, step in enumerate(supersteps, 1):
        updates = step.get("updates") if isinstance(step, dict) else None
        if not isinstance(updates, list) or not all(isinstance(u, dict) for u in updates):
            raise Invalid(f'Superstep {number} must be {{"updates": [{{"values": ..., "as_node": ...}}]}}.')
        steps.append(
            {
                "updates": [
                    {"values": u.get("values"), "command": u.get("command"), "as_node": u.get("as_node")}
                    for u in updates
                ]
            }
        )
    return steps
