"""DeerFlow's Gateway: the LangGraph-compatible API DeerFlow serves itself, under `/api`
(`uvicorn app.gateway.app:app`, port 8001; its nginx on 2026 serves it as `/api/langgraph`).

The same langgraph-sdk calls as LangGraphBackend; what differs, measured on the real Gateway,
is handled here:
- no GET /ok or /info: check() asks `<origin>/health`, which says {"service": "deer-flow-gateway"};
- no threads.count or copy, no state or messages of past checkpoints, a stub graph, empty
  schemas: CAPABILITIES says so (the UI hides or explains them); get_graph and get_schemas
  answer empty without asking;
- threads.search ignores ids, select, extract and sort (always updated_at, newest first):
  a thread is fetched with GET /threads/{id}, ids one by one, and no other sort is asked;
- threads.create with an id in use answers 200 with that thread: the id is looked up first;
  supersteps are ignored: refused;
- get_history wants `before` as a string, and a limit of at most 100; it answers `before`
  with that checkpoint alone: older pages are walked from the head's page, then parent by
  parent (each such answer carries that checkpoint's messages);
- runs.stream refuses `stream_resumable: true`, the stream modes messages and events and
  multitask_strategy enqueue (422): they are never sent; a second run on a busy thread gets
  409, said plainly;
- it keeps a run's last 256 events: a reader more than that behind (a fast model) gets a `gap`
  event ({code: stream_replay_gap, recovery: reload_durable_state}) and its stream stops while
  the run goes on; the run is then followed by its status to its end (langgraph/client.py);
- cancelling a run that has finished answers 409, not 404;
- its rows hold only the title: which idle thread waits on a clarification is read from the
  state of the rows shown (threads_asking);
- a busy thread's status is "running" (normalize reads it as busy; a busy filter asks for it);
- it serves the files its agent made (`GET /threads/{id}/artifacts/{path}`, the path as the
  state's `artifacts` names it, without its leading "/") and names its models (`GET /models`);
- it takes files for a thread's agent (`<origin>/api/threads/{id}/uploads`, where DeerFlow's UI
  sends them, whatever the API's prefix: multipart field `files`, then
  `list`, `limits`, `DELETE .../{filename}`), and a message that sends some names them in its
  `additional_kwargs.files` ({filename, size, path: the virtual path, status: "uploaded"}) with
  its text as a content block, as DeerFlow's UI sends it (`human_message`); its UploadsMiddleware then puts a
  `<current_uploads>` block before the text and keeps the text in
  `additional_kwargs.original_user_content` (the mapping shows that);
- it suggests follow-up questions (`POST /threads/{id}/suggestions` with the last six visible
  turns as {role, content}, `n` from `GET /suggestions/config`) and says whether it counts
  tokens (`GET /models`: `token_usage.enabled`);
- it lists and describes runs, but has no store, crons, or assistant versions and editing:
  CAPABILITIES.missing names those protocols (the class inherits their methods).
"""

from __future__ import annotations

import asyncio
import contextlib
import mimetypes
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ...models import (
    ArtifactFile,
    Capabilities,
    ChatMessage,
    GraphInfo,
    RunEvent,
    RunRequest,
    ServerModel,
    ThreadQuery,
    ThreadState,
    ThreadSummary,
    UploadedFile,
    UploadLimits,
)
from ..base import BackendError, Conflict, Invalid, NotFound
from ..langgraph.client import LangGraphBackend
from ..langgraph.connection import is_uuid
from ..langgraph.mapping import asks_clarification, thread_from_dict
from ..session_auth import origin_of
from . import GATEWAY_SERVICE

NAME = "DeerFlow's Gateway"
STREAM_MODES = ("values", "messages-tuple", "updates", "custom")
"""The stream modes the Gateway serves."""
HISTORY_LIMIT = 100
ASKING_READS = 4
"""States read at once to find the threads waiting on a question."""
ASKING_KEPT = 2000
FOLLOW_UP_TURNS = 6
"""The recent visible turns DeerFlow's UI sends for follow-up suggestions."""
FOLLOW_UPS = 3
"""DeerFlow's default number of suggestions (when its config does not say)."""
CAPABILITIES = Capabilities(
    name=NAME,
    copy_thread=False,
    count=False,
    sort=False,
    fork=False,
    graph=False,
    past_messages=False,
    stream_modes=STREAM_MODES,
    missing=("EditsAssistants", "HasStore", "HasCrons"),
    reason=(
        f"{NAME} does not count or copy threads, lists them by last update only, keeps the "
        "messages of the newest checkpoint only (no fork, replay or resend from the past), "
        "does not describe its graph, and has no store, crons or assistant editing."
    ),
)


class GatewayBackend(LangGraphBackend):
    """LangGraphBackend with DeerFlow's Gateway's differences."""

    FINISHED_RUN = (NotFound, Conflict)
    REFUSED_RUN_OPTIONS = frozenset({"stream_resumable"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.capabilities = CAPABILITIES.model_copy()
        self._extract = False  # the Gateway ignores extract and select: rows carry {"title"}
        self._asking: dict[tuple[str, datetime | None], bool] = {}
        """(thread id, updated_at) -> whether it waits on a question: read once per update."""
        self._before_answers_itself = False  # get_history(before=X) answers [X] (seen at f1f4af99)
        self._follow_ups: tuple[bool, int] | None = None
        """(enabled, how many) from GET /suggestions/config, read once."""
        self._counts_tokens: bool | None = None

    async def check(self) -> dict[str, Any]:
        health = await self._get_json(f"reach {NAME} at {self.url}", f"{origin_of(self.url)}/health")
        if health.get("service") != GATEWAY_SERVICE:
            raise Invalid(f"{self.url} answers, but its /health does not say it is {NAME}.")
        return health

    # --- threads -----------------------------------------------------------------------------

    def _status_filter(self, query: ThreadQuery) -> str | None:
        status = super()._status_filter(query)
        return "running" if status == "busy" else status

    async def search_threads(self, query: ThreadQuery) -> list[ThreadSummary]:
        if (query.sort_by, query.sort_order) != ("updated_at", "desc"):
            raise Invalid(f"{NAME} lists threads by their last update only, newest first.")
        if query.ids:
            return await self._threads_by_id(query)
        return await super().search_threads(query)

    async def _threads_by_id(self, query: ThreadQuery) -> list[ThreadSummary]:
        """What a search by ids finds, asked thread by thread (the Gateway ignores ids)."""
        found = []
        for thread_id in query.ids:
            with contextlib.suppress(NotFound):
                found.append(await self.get_thread(thread_id))
        metadata = self._metadata_filter(query)
        found = [
            thread
            for thread in found
            if query.status in (None, "unknown", thread.status)
            and all(thread.metadata.get(key) == value for key, value in metadata.items())
        ]
        found.sort(key=lambda thread: thread.updated_at or 0, reverse=True)
        return found[query.offset : query.offset + query.limit]

    async def count_threads(self, query: ThreadQuery) -> int | None:
        return None

    async def threads_asking(self, threads: list[ThreadSummary]) -> dict[str, bool]:
        """Read from each thread's state (its rows hold only the title), ASKING_READS at a time,
        once per thread and update; a thread whose state cannot be read is left out."""
        slots = asyncio.Semaphore(ASKING_READS)

        async def read(thread: ThreadSummary) -> tuple[str, bool] | None:
            key = (thread.thread_id, thread.updated_at)
            if key not in self._asking:
                async with slots:
                    try:
                        state = await self.get_state(thread.thread_id)
                    except BackendError:
                        return None
                last = state.messages[-1] if state.messages else None
                if len(self._asking) >= ASKING_KEPT:
                    self._asking.clear()
                self._asking[key] = last is not None and asks_clarification(last.type, last.name)
            return thread.thread_id, self._asking[key]

        found = await asyncio.gather(*(read(thread) for thread in threads))
        return dict(pair for pair in found if pair is not None)

    async def get_thread(self, thread_id: str) -> ThreadSummary:
        thread = await self._call(f"get thread {thread_id}", lambda c: c.threads.get(thread_id), retry=True)
        return thread_from_dict(thread)

    async def create_thread(
        self,
        *,
        thread_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        graph_id: str | None = None,
        supersteps: list[dict[str, Any]] | None = None,
    ) -> ThreadSummary:
        if supersteps:
            raise Invalid(f"{NAME} ignores supersteps: create the thread, then write its state.")
        if thread_id and is_uuid(thread_id):
            with contextlib.suppress(NotFound):
                await self.get_thread(thread_id)
                raise Conflict(f"Could not create the thread: thread {thread_id} already exists", status=409)
        return await super().create_thread(thread_id=thread_id, metadata=metadata, graph_id=graph_id)

    async def copy_thread(self, thread_id: str) -> ThreadSummary:
        raise Invalid(f"{NAME} cannot copy threads.")

    # --- state and history ------------------------------------------------------------------

    async def get_state(self, thread_id: str, checkpoint_id: str | None = None) -> ThreadState:
        if checkpoint_id:
            raise Invalid(f"{NAME} cannot read the state of a past checkpoint.")
        return await super().get_state(thread_id)

    async def get_history(self, thread_id: str, *, limit: int = 20, before: str | None = None) -> list[ThreadState]:
        """Up to `limit` checkpoints older than `before`, newest first, as on any server.

        The Gateway reads `before` as where its walk starts, and its checkpointer answers
        that checkpoint alone: checkpoints past the head's page are reached parent by parent."""
        limit = min(limit, HISTORY_LIMIT)
        if not before:
            return await super().get_history(thread_id, limit=limit)
        if not self._before_answers_itself:
            page = await super().get_history(thread_id, limit=min(limit + 1, HISTORY_LIMIT), before=before)
            older = [state for state in page if state.checkpoint_id != before]
            if older or len(page) != 1:  # a Gateway that walks on from `before`
                return older[:limit]
            self._before_answers_itself = True
        head = await super().get_history(thread_id, limit=HISTORY_LIMIT)
        ids = [state.checkpoint_id for state in head]
        older = head[ids.index(before) + 1 :][:limit] if before in ids else []
        if len(older) == limit or (before in ids and len(head) < HISTORY_LIMIT):
            return older
        parent = older[-1].parent_checkpoint_id if older else await self._parent_of(thread_id, before)
        while parent and len(older) < limit:
            step = await super().get_history(thread_id, limit=1, before=parent)
            older += step
            parent = step[0].parent_checkpoint_id if step else ""
        return older

    async def _parent_of(self, thread_id: str, checkpoint_id: str) -> str:
        found = await super().get_history(thread_id, limit=1, before=checkpoint_id)
        return found[0].parent_checkpoint_id if found else ""

    @staticmethod
    def _history_cursor(checkpoint_id: str) -> Any:
        return checkpoint_id

    # --- runs --------------------------------------------------------------------------------

    def stream_run(self, thread_id: str, request: RunRequest) -> AsyncIterator[RunEvent]:
        modes = [mode for mode in request.stream_modes if mode in STREAM_MODES] or ["values"]
        strategy = request.multitask_strategy
        request = request.model_copy(
            update={
                "stream_modes": modes,
                "multitask_strategy": "reject" if strategy in (None, "enqueue") else strategy,
            }
        )
        return self._one_run_at_a_time(thread_id, super().stream_run(thread_id, request))

    @staticmethod
    async def _one_run_at_a_time(thread_id: str, events: AsyncIterator[RunEvent]) -> AsyncIterator[RunEvent]:
        try:
            async with contextlib.aclosing(events):  # type: ignore[type-var]
                async for event in events:
                    yield event
        except Conflict as err:
            raise Conflict(
                f"Could not start a run on thread {thread_id}: a run is in progress there, "
                f"and {NAME} runs one at a time ({err.message.split(': ', 1)[-1]})",
                status=err.status,
            ) from err

    # --- assistants and graphs --------------------------------------------------------------

    async def get_graph(self, assistant_id: str, xray: bool = False) -> GraphInfo:
        return GraphInfo()  # the Gateway's is a stub without nodes

    async def get_schemas(self, assistant_id: str) -> dict[str, Any]:
        return {}  # the Gateway's are empty

    # --- DeerFlow's own routes: artifacts and models ------------------------------------------

    async def get_artifact(self, thread_id: str, path: str) -> ArtifactFile:
        url = f"/threads/{quote(thread_id, safe='')}/artifacts/{quote(path.lstrip('/'))}"

        async def get(client: Any) -> ArtifactFile:
            response = await client.http.client.get(url)
            response.raise_for_status()
            kind = response.headers.get("content-type", "").split(";")[0].strip()
            return ArtifactFile(path=path, content=response.content, content_type=kind)

        return await self._call(f"read {path} of thread {thread_id}", get, retry=True)

    async def list_models(self) -> list[ServerModel]:
        found = await self._get_json(f"list the models of {NAME}", "/models")
        models = found.get("models")
        if not isinstance(models, list):
            return []
        return [
            ServerModel.model_validate({key: value for key, value in model.items() if value is not None})
            for model in models
            if isinstance(model, dict) and model.get("name")
        ]

    async def counts_tokens(self) -> bool:
        if self._counts_tokens is None:
            found = await self._get_json(f"ask {NAME} whether it counts tokens", "/models")
            usage = found.get("token_usage")
            self._counts_tokens = bool(usage.get("enabled")) if isinstance(usage, dict) else False
        return self._counts_tokens

    # --- uploads -----------------------------------------------------------------------------

    def _uploads(self, thread_id: str, rest: str = "") -> str:
        """Where DeerFlow's UI sends them: `<origin>/api/threads/...` (its nginx takes uploads
        of up to 100 MB there, but 20 MB under /api/langgraph: measured, an HTML 413)."""
        return f"{origin_of(self.url)}/api/threads/{quote(thread_id, safe='')}/uploads{rest}"

    async def upload(self, thread_id: str, path: Path) -> UploadedFile:
        content = await asyncio.to_thread(path.read_bytes)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"

        async def send(client: Any) -> dict[str, Any]:
            files = [("files", (path.name, content, kind))]
            response = await client.http.client.post(self._uploads(thread_id), files=files)
            response.raise_for_status()
            found = response.json()
            return found if isinstance(found, dict) else {}

        answer = await self._call(f"upload {path.name} to thread {thread_id}", send)
        found = [_uploaded(item) for item in answer.get("files") or () if isinstance(item, dict)]
        if not found:  # (skipped: an unsafe name)
            words = answer.get("message") or "the server kept no file"
            raise Invalid(f"Could not upload {path.name} to thread {thread_id}: {words}")
        return found[0]

    def human_message(self, text: str, files: list[UploadedFile], message_id: str) -> dict[str, Any]:
        return _human_message(text, files, message_id)

    async def list_uploads(self, thread_id: str) -> list[UploadedFile]:
        found = await self._get_json(f"list the uploads of thread {thread_id}", self._uploads(thread_id, "/list"))
        return [_uploaded(item) for item in found.get("files") or () if isinstance(item, dict)]

    async def delete_upload(self, thread_id: str, filename: str) -> None:
        async def delete(client: Any) -> None:
            response = await client.http.client.delete(self._uploads(thread_id, "/" + quote(filename, safe="")))
            response.raise_for_status()

        await self._call(f"delete {filename} from the uploads of thread {thread_id}", delete, retry=True)

    async def upload_limits(self, thread_id: str) -> UploadLimits:
        found = await self._get_json(
            f"read the upload limits of thread {thread_id}", self._uploads(thread_id, "/limits")
        )
        return UploadLimits.model_validate(found)

    # --- follow-ups --------------------------------------------------------------------------

    async def suggest_follow_ups(
        self, thread_id: str, messages: list[ChatMessage], model_name: str | None = None
    ) -> list[str]:
        """As DeerFlow's UI asks after a reply: the last FOLLOW_UP_TURNS visible human and AI
        turns with text, and the number its config allows ([] when its suggestions are off)."""
        if self._follow_ups is None:
            found = await self._get_json(f"read the follow-up settings of {NAME}", "/suggestions/config")
            count = found.get("max_suggestions")
            self._follow_ups = (found.get("enabled") is not False, count if isinstance(count, int) else FOLLOW_UPS)
        enabled, count = self._follow_ups
        turns = [
            {"role": "user" if message.type == "human" else "assistant", "content": message.text}
            for message in messages
            if message.type in ("human", "ai") and not message.hidden and message.text.strip()
        ][-FOLLOW_UP_TURNS:]
        if not enabled or not turns:
            return []
        body: dict[str, Any] = {"messages": turns, "n": count}
        if model_name:
            body["model_name"] = model_name

        async def ask(client: Any) -> dict[str, Any]:
            response = await client.http.client.post(f"/threads/{quote(thread_id, safe='')}/suggestions", json=body)
            response.raise_for_status()
            found = response.json()
            return found if isinstance(found, dict) else {}

        answer = await self._call(f"ask {NAME} for follow-up questions", ask)
        suggested = answer.get("suggestions")
        questions = [" ".join(item.split()) for item in suggested or () if isinstance(item, str) and item.strip()]
        return questions[:count]


def _human_message(text: str, files: list[UploadedFile], message_id: str) -> dict[str, Any]:
    """A human message as DeerFlow's UI sends it: its text as a content block, and the files
    sent with it in `additional_kwargs.files` (the agent is told of them by their virtual path)."""
    sent = [{"filename": f.filename, "size": f.size, "path": f.virtual_path, "status": "uploaded"} for f in files]
    return {
        "type": "human",
        "id": message_id,
        "content": [{"type": "text", "text": text}],
        "additional_kwargs": {"files": sent} if sent else {},
    }


def _uploaded(item: dict[str, Any]) -> UploadedFile:
    return UploadedFile.model_validate({key: value for key, value in item.items() if value is not None})
