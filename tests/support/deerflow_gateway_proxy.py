"""A stand-in for DeerFlow's Gateway, in front of the real LangGraph test server.

Why a stand-in: DeerFlow's Gateway (bytedance/deer-flow, `uvicorn app.gateway.app:app`) is
not published on any package registry, and this machine has no network but PyPI, so the
real one cannot be installed here. Every answer comes from the real LangGraph server; this
proxy only serves it under /api (and /api/langgraph, as DeerFlow's nginx does) and reproduces
the Gateway's differences measured on the real one (listed in
threadbench/backends/deerflow/gateway.py's docstring):

- GET <origin>/health says {"service": "deer-flow-gateway"}; /ok and /info: 404;
- threads: count 405, copy 404, the thread-level join stream 404; create with an id in use
  answers 200 with that thread and ignores supersteps; search honours metadata, status, limit
  and offset but ignores ids, select, extract, sort_by and sort_order (always updated_at,
  newest first), and its rows' values hold only the title; a busy thread says "running";
- state: `checkpoint` is {id, ts} with top-level checkpoint_id / parent_checkpoint_id, no
  `interrupts`, tasks are {id, name}; the state of a past checkpoint: 404;
- history: entries {checkpoint_id, parent_checkpoint_id, metadata, values, created_at,
  next}, the messages only in the thread's newest one; `before` must be a string (the SDK's
  config dict gets 422); limit at most 100;
- runs: the stream modes messages and events, and multitask_strategy enqueue, get 422; a
  second run on a busy thread gets 409; every stream carries SSE ids; the user's message is
  stored under its id plus "__user"; cancelling a finished run: 409; runs.join answers SSE;
  with `gap_after` set, a run's stream stops after that many events with the Gateway's `gap`
  event (seen on the real one when a reader falls more than 256 events behind), the run going on;
- assistants: the graph is a stub without nodes, the schemas are {}, no subgraphs or count;
- artifacts: GET /threads/{id}/artifacts/{path} serves a file a test wrote with
  `write_artifact` (a thread's user-data folder stands in for DeerFlow's), typed as the real
  one types it (text/markdown; charset=utf-8, ...), else 404 "Artifact not found: <path>";
- models: GET /models answers what the real Gateway answered (tests/data/gateway/recorded.json);
- uploads: POST /threads/{id}/uploads (multipart `files`) keeps each file in the thread's
  user-data folder (so the artifacts route serves it too) and answers as the real one did
  (413 "Too many files: maximum is 10"); `list`, `limits` (the recorded limits) and
  `DELETE .../{filename}` (404 "File not found: <name>"); a run whose human message names
  files in `additional_kwargs.files` gets DeerFlow's UploadsMiddleware's change: a
  <current_uploads> block before its text, the text kept in `original_user_content`;
- follow-ups: GET /suggestions/config and POST /threads/{id}/suggestions answer as recorded.

Not reproduced (not needed by the app, or not measured): auth (cookies and CSRF), the
Gateway's own thread store and its thread fields beyond these, DeerFlow's graph.
"""

from __future__ import annotations

import email.policy
import json
import mimetypes
import tempfile
import threading
from collections.abc import AsyncIterator
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from threadbench.embedded.launcher import free_port

from .waiting import eventually_blocking

RECORDED = Path(__file__).parents[1] / "data" / "gateway" / "recorded.json"
HEALTH = {"service": "deer-flow-gateway", "status": "healthy"}
REFUSED_MODES = {"messages", "events"}
HISTORY_LIMIT = 100
THREAD = "/threads/{thread_id}"
THREAD_KEYS = ("thread_id", "status", "created_at", "updated_at", "metadata", "values", "interrupts")
ASSISTANT_KEYS = (
    "assistant_id",
    "graph_id",
    "name",
    "config",
    "metadata",
    "description",
    "created_at",
    "updated_at",
    "version",
)
RUN_KEYS = (
    "run_id",
    "thread_id",
    "assistant_id",
    "status",
    "metadata",
    "kwargs",
    "multitask_strategy",
    "created_at",
    "updated_at",
)
UPLOADS = "/mnt/user-data/uploads"
UPLOAD_EXTRAS = (
    "original_filename",
    "markdown_file",
    "markdown_path",
    "markdown_virtual_path",
    "markdown_artifact_url",
)
RUN_COUNTS = (
    "total_input_tokens",
    "total_output_tokens",
    "total_tokens",
    "llm_call_count",
    "lead_agent_tokens",
    "subagent_tokens",
    "middleware_tokens",
    "message_count",
)


def _error(status: int, detail: str = "") -> JSONResponse:
    return JSONResponse({"detail": detail or {404: "Not Found", 405: "Method Not Allowed"}.get(status, "")}, status)


def _invalid(kind: str, field: str, words: str, given: Any, ctx: dict | None = None) -> JSONResponse:
    """A 422 as the real Gateway answers a field it refuses (FastAPI's validation error)."""
    problem = {"type": kind, "loc": ["body", field], "msg": words, "input": given}
    return JSONResponse({"detail": [{**problem, "ctx": ctx} if ctx else problem]}, 422)


async def not_found(request: Request) -> Response:
    return _error(404)


async def not_allowed(request: Request) -> Response:
    return _error(405)


def recorded_answer(name: str) -> Any:
    return next(e["answer"] for e in json.loads(RECORDED.read_text()) if e["name"] == name)


async def models(request: Request) -> Response:
    """The models the real Gateway named, as it named them."""
    return JSONResponse(recorded_answer("models"))


async def suggestions_config(request: Request) -> Response:
    return JSONResponse(recorded_answer("suggestions: config"))


async def suggestions(request: Request) -> Response:
    """The real Gateway's (its model's) questions, whatever the conversation."""
    body = await request.json()
    if not body.get("messages"):
        return JSONResponse({"suggestions": []})
    return JSONResponse(recorded_answer("suggestions"))


class GatewayStandIn:
    """The proxy, served by uvicorn in a thread on a free port: `url` is its origin."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._client: httpx.AsyncClient | None = None
        self.files = Path(tempfile.mkdtemp(prefix="gateway-files-"))
        """<thread id>/<path>: the files the stand-in serves as each thread's artifacts."""
        self.limits: dict[str, int] = dict(recorded_answer("uploads: limits"))
        """What GET .../uploads/limits answers (a test may lower them)."""
        self.gap_after: int | None = None
        """A run's stream stops after this many events with a `gap` (a test sets it)."""
        routes = self._routes()
        app = Starlette(
            routes=[
                Route("/health", lambda request: JSONResponse(HEALTH)),
                Mount("/api/langgraph", routes=routes),
                Mount("/api", routes=routes),
            ]
        )
        self._server = uvicorn.Server(
            uvicorn.Config(
                app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                access_log=False,
                lifespan="off",
            )
        )
        self._thread = threading.Thread(target=self._server.run, name="gateway-stand-in", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        self._thread.start()

        def started() -> bool:
            if not self._thread.is_alive():
                raise RuntimeError("the Gateway stand-in did not start")
            return self._server.started

        eventually_blocking(started, timeout, "the Gateway stand-in to start")

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def _routes(self) -> list[Route]:
        return [
            Route("/ok", not_found),
            Route("/info", not_found),
            Route("/threads", self.create_thread, methods=["POST"]),
            Route("/threads/count", not_allowed, methods=["POST"]),
            Route("/threads/search", self.search_threads, methods=["POST"]),
            Route(THREAD, self.get_thread, methods=["GET"]),
            Route(THREAD + "/copy", not_found, methods=["POST"]),
            Route(THREAD + "/stream", not_found, methods=["GET"]),
            Route(THREAD + "/state", self.get_state, methods=["GET"]),
            Route(THREAD + "/state/{checkpoint_id}", not_found, methods=["GET", "POST"]),
            Route(THREAD + "/history", self.history, methods=["POST"]),
            Route(THREAD + "/runs/stream", self.run, methods=["POST"]),
            Route(THREAD + "/runs", self.run, methods=["POST"]),
            Route(THREAD + "/runs/wait", self.run, methods=["POST"]),
            Route(THREAD + "/runs/{run_id}/cancel", self.cancel, methods=["POST"]),
            Route(THREAD + "/runs/{run_id}/join", self.join_as_sse, methods=["GET"]),
            Route(THREAD + "/runs", self.list_runs, methods=["GET"]),
            Route(THREAD + "/artifacts/{path:path}", self.artifact, methods=["GET"]),
            Route("/models", models, methods=["GET"]),
            Route(THREAD + "/uploads", self.upload, methods=["POST"]),
            Route(THREAD + "/uploads/list", self.list_uploads, methods=["GET"]),
            Route(THREAD + "/uploads/limits", lambda r: JSONResponse(self.limits), methods=["GET"]),
            Route(THREAD + "/uploads/{filename}", self.delete_upload, methods=["DELETE"]),
            Route("/suggestions/config", suggestions_config, methods=["GET"]),
            Route(THREAD + "/suggestions", suggestions, methods=["POST"]),
            Route("/assistants/search", self.search_assistants, methods=["POST"]),
            Route("/assistants/count", not_allowed, methods=["POST"]),
            Route("/assistants/{assistant_id}/subgraphs", not_found, methods=["GET"]),
            Route("/assistants/{assistant_id}/graph", lambda r: JSONResponse({"nodes": [], "edges": []})),
            Route("/assistants/{assistant_id}/schemas", lambda r: JSONResponse({})),
            Route("/{path:path}", self.forward, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        ]

    def write_artifact(self, thread_id: str, path: str, content: bytes) -> None:
        """Give the thread the file `path` (as its state's `artifacts` names it)."""
        target = self.files / thread_id / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)

    async def artifact(self, request: Request) -> Response:
        """A thread's file as the real Gateway serves it inline: typed by its name (text types
        with their charset), else text/plain when it holds no NUL byte."""
        path = request.path_params["path"]
        found = self.files / request.path_params["thread_id"] / path
        if ".." in Path(path).parts or not found.is_file():
            return _error(404, f"Artifact not found: {path}")
        content = found.read_bytes()
        kind = mimetypes.guess_type(found.name)[0]
        if kind is None and b"\x00" not in content[:8192]:
            kind = "text/plain"
        kind = kind or "application/octet-stream"
        if kind.startswith("text/"):
            kind += "; charset=utf-8"
        disposition = f"inline; filename*=UTF-8''{found.name}"
        return Response(content, headers={"content-type": kind, "content-disposition": disposition})

    # --- uploads -------------------------------------------------------------------------------

    def _uploads_dir(self, thread_id: str) -> Path:
        return self.files / thread_id / UPLOADS.lstrip("/")

    def _upload_info(self, thread_id: str, found: Path, listed: bool) -> dict[str, Any]:
        """A file as the real Gateway describes it (the listing adds extension and modified)."""
        stat = found.stat()
        return {
            "filename": found.name,
            "size": stat.st_size,
            "path": str(found),
            "virtual_path": f"{UPLOADS}/{found.name}",
            "artifact_url": f"/api/threads/{thread_id}/artifacts{UPLOADS}/{found.name}",
            "extension": found.suffix if listed else None,
            "modified": stat.st_mtime if listed else None,
            **dict.fromkeys(UPLOAD_EXTRAS),
        }

    async def upload(self, request: Request) -> Response:
        thread_id = request.path_params["thread_id"]
        parts = _form_files(request.headers.get("content-type", ""), await request.body())
        if not parts:
            return _error(400, "No files provided")
        if len(parts) > self.limits["max_files"]:
            return _error(413, f"Too many files: maximum is {self.limits['max_files']}")
        folder = self._uploads_dir(thread_id)
        folder.mkdir(parents=True, exist_ok=True)
        written, total = [], 0
        for name, content in parts:
            total += len(content)
            if len(content) > self.limits["max_file_size"] or total > self.limits["max_total_size"]:
                for done in written:
                    done.unlink(missing_ok=True)
                words = f"File too large: {name}" if len(content) > self.limits["max_file_size"] else ""
                return _error(413, words or "Total upload size too large")
            (folder / name).write_bytes(content)
            written.append(folder / name)
        files = [self._upload_info(thread_id, found, listed=False) for found in written]
        message = f"Successfully uploaded {len(files)} file(s)"
        return JSONResponse({"success": True, "files": files, "message": message, "skipped_files": []})

    async def list_uploads(self, request: Request) -> Response:
        thread_id = request.path_params["thread_id"]
        folder = self._uploads_dir(thread_id)
        found = sorted(folder.iterdir()) if folder.is_dir() else []
        files = [self._upload_info(thread_id, path, listed=True) for path in found if path.is_file()]
        return JSONResponse({"files": files, "count": len(files)})

    async def delete_upload(self, request: Request) -> Response:
        filename = request.path_params["filename"]
        found = self._uploads_dir(request.path_params["thread_id"]) / Path(filename).name
        if not found.is_file():
            return _error(404, f"File not found: {filename}")
        found.unlink()
        return JSONResponse({"success": True, "message": f"Deleted {filename}"})

    # --- plumbing ------------------------------------------------------------------------------

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:  # made on the proxy's own event loop
            self._client = httpx.AsyncClient(base_url=self.upstream, timeout=None)
        return self._client

    @staticmethod
    def _path(request: Request) -> str:
        """The request's path below the mount (/api or /api/langgraph)."""
        return request.url.path[len(request.scope.get("root_path", "")) :]

    async def _send(
        self, request: Request, body: Any = None, path: str | None = None, method: str | None = None
    ) -> httpx.Response:
        headers = {k: v for k, v in request.headers.items() if k.lower() in ("accept", "last-event-id", "content-type")}
        upstream = self.client.build_request(
            method or request.method,
            path or self._path(request),
            params=request.query_params.multi_items(),
            headers=headers,
            **({"json": body} if body is not None else {"content": b"" if method else await request.body()}),
        )
        return await self.client.send(upstream, stream=True)

    @staticmethod
    async def _relay(response: httpx.Response, end: bool = False) -> Response:
        """The upstream answer as it is (streamed, for a stream; a run's stream ends with the
        Gateway's own `end` event when `end`)."""
        headers = {k: v for k, v in response.headers.items() if k.lower() in ("content-type", "location")}
        if response.headers.get("content-type", "").startswith("text/event-stream") and response.is_success:
            return StreamingResponse(_chunks(response, end), response.status_code, headers=headers)
        await response.aread()
        await response.aclose()
        return Response(response.content, response.status_code, headers=headers)

    async def _json(
        self, request: Request, body: Any = None, path: str | None = None, method: str | None = None
    ) -> tuple[int, Any]:
        response = await self._send(request, body, path, method)
        await response.aread()
        await response.aclose()
        return response.status_code, response.json() if response.content else None

    async def forward(self, request: Request) -> Response:
        return await self._relay(await self._send(request))

    # --- threads -------------------------------------------------------------------------------

    async def create_thread(self, request: Request) -> Response:
        body = await request.json()
        body.pop("supersteps", None)
        body["if_exists"] = "do_nothing"  # an id in use: 200 with that thread
        status, thread = await self._json(request, body)
        return JSONResponse(_thread(thread) if status == 200 else thread, status)

    async def search_threads(self, request: Request) -> Response:
        asked = await request.json()
        body = {key: asked[key] for key in ("metadata", "limit", "offset") if asked.get(key) is not None}
        if asked.get("status"):
            body["status"] = "busy" if asked["status"] == "running" else asked["status"]
        body.update(sort_by="updated_at", sort_order="desc")
        status, rows = await self._json(request, body)
        return JSONResponse([_thread(row) for row in rows] if status == 200 else rows, status)

    async def get_thread(self, request: Request) -> Response:
        status, thread = await self._json(request)
        return JSONResponse(_thread(thread, values=True) if status == 200 else thread, status)

    # --- state and history ---------------------------------------------------------------------

    async def get_state(self, request: Request) -> Response:
        status, state = await self._json(request)
        return JSONResponse(_state(state) if status == 200 else state, status)

    async def history(self, request: Request) -> Response:
        """As the real Gateway: `before` is read as the checkpoint to start from, and
        answered with that checkpoint alone (its checkpointer's list filters on it)."""
        body = await request.json()
        before, limit = body.get("before"), body.get("limit", 10)
        if before is not None and not isinstance(before, str):
            return _invalid("string_type", "before", "Input should be a valid string", before)
        if not isinstance(limit, int) or limit > HISTORY_LIMIT:
            words = f"Input should be less than or equal to {HISTORY_LIMIT}"
            return _invalid("less_than_equal", "limit", words, limit, {"le": HISTORY_LIMIT})
        if before:
            path = self._path(request).removesuffix("/history") + f"/state/{before}"
            status, state = await self._json(request, path=path, method="GET")
            entries = [state] if status == 200 else []
        else:
            status, entries = await self._json(request, {"limit": limit})
            if status != 200:
                return JSONResponse(entries, status)
        return JSONResponse([_history_entry(entry, newest=index == 0) for index, entry in enumerate(entries)])

    # --- runs ------------------------------------------------------------------------------------

    async def run(self, request: Request) -> Response:
        body = await request.json()
        modes = body.get("stream_mode") or ["values"]
        modes = [modes] if isinstance(modes, str) else modes
        if refused := ", ".join(mode for mode in modes if mode in REFUSED_MODES):
            words = f"Unsupported stream mode(s): {refused}"
            return _invalid(
                "unsupported_stream_mode", "stream_mode", words, body.get("stream_mode"), {"modes": refused}
            )
        for option, refused_value in (("stream_resumable", True), ("multitask_strategy", "enqueue")):
            if body.get(option) == refused_value:
                words = f"Run option '{option}' is not supported by DeerFlow"
                return _invalid("unsupported_run_option", option, words, refused_value, {"option": option})
        body["multitask_strategy"] = body.get("multitask_strategy") or "reject"
        body["stream_resumable"] = True  # upstream: the Gateway's streams carry SSE ids
        for message in (body.get("input") or {}).get("messages") or []:
            kind = message.get("type", message.get("role")) if isinstance(message, dict) else None
            if kind in ("human", "user") and message.get("id"):
                message["id"] = f"{message['id']}__user"
            if kind in ("human", "user"):
                _as_uploads_middleware(message)
        response = await self._send(request, body)
        if self.gap_after is not None and response.is_success:
            headers = {"content-type": response.headers.get("content-type", "text/event-stream")}
            return StreamingResponse(_gapped(response, self.gap_after), response.status_code, headers=headers)
        return await self._relay(response, end=True)

    async def cancel(self, request: Request) -> Response:
        response = await self._send(request)
        if response.status_code == 404:  # a run that has finished: the Gateway says 409, and why
            await response.aclose()
            path = self._path(request).removesuffix("/cancel")
            status, run = await self._json(request, path=path, method="GET")
            if status == 200:
                run_id = request.path_params["run_id"]
                return _error(409, f"Run {run_id} is not cancellable (status: {run.get('status')})")
            return _error(404)
        return await self._relay(response)

    async def list_runs(self, request: Request) -> Response:
        status, runs = await self._json(request)
        return JSONResponse([_run(run) for run in runs] if status == 200 else runs, status)

    async def search_assistants(self, request: Request) -> Response:
        status, found = await self._json(request)
        return JSONResponse([_keep(a, ASSISTANT_KEYS) for a in found] if status == 200 else found, status)

    async def join_as_sse(self, request: Request) -> Response:
        """runs.join: the Gateway answers with the run's event stream (the SDK wants JSON)."""
        path = self._path(request).removesuffix("/join") + "/stream"
        return await self._relay(await self._send(request, path=path), end=True)


async def _chunks(response: httpx.Response, end: bool = False) -> AsyncIterator[bytes]:
    try:
        async for chunk in response.aiter_raw():
            yield chunk
        if end:
            yield b"event: end\ndata: null\n\n"
    finally:  # also when the client went away mid-stream
        await response.aclose()


async def _gapped(response: httpx.Response, events: int) -> AsyncIterator[bytes]:
    """A run's stream cut after `events` events by the `gap` the real Gateway sends a reader
    that fell behind the events it keeps (its fields as seen on it; no id, no `end`)."""
    run_id, last_id, count = "", "", 0
    try:
        async for line in response.aiter_lines():
            yield (line + "\n").encode()
            if line.startswith("id: "):
                last_id = line[4:]
            elif line.startswith("data: ") and not run_id and '"run_id"' in line:
                run_id = str(json.loads(line[6:]).get("run_id", ""))
            elif not line:
                count += 1
                if count == events:
                    gap = {
                        "code": "stream_replay_gap",
                        "run_id": run_id,
                        "requested_event_id": last_id,
                        "earliest_available_event_id": last_id,
                        "latest_available_event_id": last_id,
                        "recovery": "reload_durable_state",
                    }
                    yield f"event: gap\ndata: {json.dumps(gap)}\n\n".encode()
                    return
    finally:
        await response.aclose()


def _form_files(content_type: str, body: bytes) -> list[tuple[str, bytes]]:
    """(file name, bytes) of each `files` part of a multipart/form-data body (read with the
    standard library's email parser: the stand-in needs no multipart package)."""
    if not content_type.startswith("multipart/form-data"):
        return []
    message = BytesParser(policy=email.policy.HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    found = []
    for part in message.iter_parts():  # type: ignore[attr-defined]
        if part.get_param("name", header="content-disposition") == "files" and part.get_filename():
            found.append((Path(part.get_filename()).name, part.get_payload(decode=True) or b""))
    return found


def _as_uploads_middleware(message: dict) -> None:
    """What DeerFlow's UploadsMiddleware makes of a message that names files: a block naming
    them before its text, the text kept in additional_kwargs.original_user_content."""
    kwargs = message.get("additional_kwargs") or {}
    files = [f for f in kwargs.get("files") or () if isinstance(f, dict) and f.get("filename")]
    if not files:
        return
    content = message.get("content")
    text = content if isinstance(content, str) else "".join(b.get("text", "") for b in content or ())
    named = "\n".join(f"- {f['filename']}\n  Path: {UPLOADS}/{f['filename']}" for f in files)
    block = f"<current_uploads>\nThe following files were uploaded in this message:\n\n{named}\n</current_uploads>\n\n"
    blocks = content if isinstance(content, list) else [{"type": "text", "text": text}]
    message["content"] = [{"type": "text", "text": block}, *blocks]
    message["additional_kwargs"] = {**kwargs, "original_user_content": text}


def _keep(found: dict, keys: tuple[str, ...]) -> dict:
    return {key: found.get(key) for key in keys}


def _thread(thread: Any, values: bool = False) -> Any:
    """A thread as the Gateway shapes it: its values only the title (but in GET /threads/{id})."""
    if not isinstance(thread, dict):
        return thread
    kept = thread.get("values") if isinstance(thread.get("values"), dict) else {}
    title = kept.get("title")
    status = "running" if thread.get("status") == "busy" else thread.get("status")
    shown = kept if values else {"title": title} if title is not None else {}
    return {
        **_keep(thread, THREAD_KEYS),
        "values": shown,
        "status": status,
        "interrupts": thread.get("interrupts") or {},
    }


def _run(run: dict) -> dict:
    """A run as the Gateway lists it: with its token counts (none here)."""
    return {**_keep(run, RUN_KEYS), **dict.fromkeys(RUN_COUNTS, 0), "stop_reason": None}


def _state(state: dict) -> dict:
    checkpoint = state.get("checkpoint") or {}
    return {
        "values": state.get("values"),
        "next": state.get("next"),
        "tasks": [{"id": task.get("id"), "name": task.get("name")} for task in state.get("tasks") or []],
        "metadata": state.get("metadata"),
        "created_at": state.get("created_at"),
        "checkpoint": {"id": checkpoint.get("checkpoint_id"), "ts": state.get("created_at")},
        "checkpoint_id": checkpoint.get("checkpoint_id"),
        "parent_checkpoint_id": (state.get("parent_checkpoint") or {}).get("checkpoint_id"),
    }


def _history_entry(entry: dict, newest: bool) -> dict:
    """A history entry as the Gateway shapes it: of the values only the title and thread_data
    (and the messages, in the first entry of an answer), the metadata without source, writes
    and parents."""
    values = entry.get("values") if isinstance(entry.get("values"), dict) else {}
    kept = ("title", "thread_data", "messages") if newest else ("title", "thread_data")
    metadata = entry.get("metadata") or {}
    return {
        "checkpoint_id": (entry.get("checkpoint") or {}).get("checkpoint_id"),
        "parent_checkpoint_id": (entry.get("parent_checkpoint") or {}).get("checkpoint_id"),
        "metadata": {k: v for k, v in metadata.items() if k not in ("source", "writes", "parents")},
        "values": {key: values[key] for key in kept if values.get(key)},
        "created_at": entry.get("created_at"),
        "next": entry.get("next"),
    }
