"""What every backend that speaks HTTP shares: which typed error a refused request's status
is, one more try after a connection broke mid-request, the server's words on one line, and
a graph in LangGraph's shape as a GraphInfo.

Each server words its errors itself (its client knows what it was doing); the status ->
error table and the retry rule are written here once.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar
from urllib.parse import urlparse

import httpx

from ..models import GraphEdge, GraphInfo, GraphNode
from .base import BackendError, Conflict, Invalid, NotFound, ServerError, Unauthorized, Unreachable

T = TypeVar("T")

STATUS_ERRORS: Mapping[int, type[BackendError]] = {
    400: Invalid,
    401: Unauthorized,
    403: Unauthorized,
    404: NotFound,
    409: Conflict,
    422: Invalid,
}
"""A refused request's status as the typed error it raises; any other 5xx is a ServerError."""

BROKEN_CONNECTION = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError, httpx.CloseError)
"""A connection that broke mid-request (not one that never opened). Servers drop a pooled
connection after some 5xx (LangGraph's after any 500, 10xGraph's after a plain-text 500), and
the pool can hand that dead connection to the next request."""

DETAIL_LENGTH = 600
HTML_TITLE = re.compile(r"<title>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def error_type(
    status: int,
    also: Mapping[int, type[BackendError]] | None = None,
    otherwise: type[BackendError] = BackendError,
) -> type[BackendError]:
    """The typed error for a refused request's status: STATUS_ERRORS with a server's own
    additions (`also`), ServerError for a 5xx, else `otherwise`."""
    found = (also or {}).get(status) or STATUS_ERRORS.get(status)
    if found is not None:
        return found
    return ServerError if status >= 500 else otherwise


def unreachable(error: BaseException, url: str, doing: str = "") -> Unreachable:
    """A request that got no answer, said in words: what httpx says is often empty (a reset
    connection) or the same for every cause ("All connection attempts failed")."""
    causes: list[BaseException] = []
    cause: BaseException | None = error
    while cause is not None and cause not in causes:
        causes.append(cause)
        cause = cause.__cause__ or cause.__context__
    hint = ""
    if any(isinstance(cause, socket.gaierror) for cause in causes):
        words = f"the host name {urlparse(url).hostname} does not resolve (no such host is known)"
        hint = "Check the host name in the URL."
    elif any(isinstance(cause, ConnectionRefusedError) for cause in causes):
        words = f"nothing answers at {url} (the connection was refused: no server listens there)"
        hint = "Start the server (for example `langgraph dev`), or check the URL's port."
    elif any(isinstance(cause, ConnectionResetError) for cause in causes):
        words = f"the server at {url} reset the connection without answering"
        hint = "Is an agent server listening there? Check the URL and its port."
    elif isinstance(error, httpx.TimeoutException):
        words = f"the server at {url} did not answer in time"
    else:
        detail = next((str(cause) for cause in causes if str(cause)), type(error).__name__)
        words = f"nothing answers at {url} ({detail})"
    return Unreachable(f"Could not {doing}: {words}" if doing else words[0].upper() + words[1:], hint=hint)


def broke_mid_request(error: BaseException) -> bool:
    """Whether `error` (or the error it was raised from) is a connection that broke mid-request."""
    return isinstance(error, BROKEN_CONNECTION) or isinstance(error.__cause__, BROKEN_CONNECTION)


async def once_more_if_broken(attempt: Callable[[], Awaitable[T]], *, retry: bool = True) -> T:
    """`attempt()`, and once more if it failed on a connection that broke mid-request.

    Only for requests that may be sent twice (reads, deletes; a run that never started).
    `attempt` must take its connection anew each time (a fresh client, or the pool's next).
    """
    try:
        return await attempt()
    except Exception as error:
        if not (retry and broke_mid_request(error)):
            raise
    return await attempt()


class Uncancelled:
    """Requests that, once sent, run to their end even when their caller is cancelled (the
    caller is let go at once), at most SLOTS at a time: a request waits for a slot here, where
    a cancel is harmless, never in httpx's pool.

    httpcore 1.0.9 leaks a pool slot when a request is cancelled, or times out, while the
    pool is getting it a connection (encode/httpcore#1093, open). Scrolling fast through
    threads on a loaded machine cancels a request or two per row: the pool filled with 100
    connections that never connected, and every request after waited 5 s for a slot ("did
    not answer in time") until the app was restarted. A request let run is answered and its
    connection goes back to the pool; the server does the work anyway (it notices a client
    gone only when it answers).
    """

    SLOTS = 50
    """Half the pool (httpx's default 100): the rest is for streams, which are not run here."""

    def __init__(self) -> None:
        self._slots = asyncio.Semaphore(self.SLOTS)
        self._left: set[asyncio.Future[Any]] = set()
        """Requests whose callers were cancelled, still running (held: the loop keeps only weak references)."""

    async def run(self, request: Awaitable[T]) -> T:
        try:
            await self._slots.acquire()
        except asyncio.CancelledError:
            if inspect.iscoroutine(request):
                request.close()  # never sent
            raise
        task = asyncio.ensure_future(request)
        task.add_done_callback(lambda _: self._slots.release())
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                self._left.add(task)
                task.add_done_callback(self._forget)
            raise

    def _forget(self, task: asyncio.Future[Any]) -> None:
        self._left.discard(task)
        if not task.cancelled():
            task.exception()  # read: nobody waits for it

    def cancel(self) -> None:
        """At close: the client is going, and its pool with it."""
        for task in list(self._left):
            task.cancel()


def one_line(text: str, limit: int = DETAIL_LENGTH) -> str:
    """A server's message on one line, cut to `limit` characters: a refusal's reason can come
    after a line break ("Invalid assistant: 'x'. Must be either:\\n- ...")."""
    line = " ".join(part.strip() for part in text.strip().splitlines() if part.strip())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def refusal_words(body: Any) -> str:
    """A refused request's own words: its `detail` (or `message`, `error`) as text, a structured
    one's message or code, or each problem of a validation error as `loc: msg` (FastAPI's and
    pydantic's 422: {"detail": [{"type", "loc": ["body", "stream_resumable"], "msg"}]})."""
    if isinstance(body, str):
        title = HTML_TITLE.search(body) if body.lstrip()[:1] == "<" else None
        return title.group(1).strip() if title else body  # (a proxy's HTML page: its title says it)
    if isinstance(body, list):
        return "; ".join(filter(None, map(refusal_words, body)))
    if not isinstance(body, dict):
        return ""
    if isinstance(body.get("msg"), str):
        loc = ".".join(str(part) for part in body.get("loc") or ())
        return f"{loc}: {body['msg']}" if loc else body["msg"]
    for key in ("detail", "message", "error"):
        if body.get(key):
            return refusal_words(body[key])
    return str(body.get("code") or "")


def refused_options(body: Any) -> tuple[str, ...]:
    """The request fields a 422 names as options the server does not support
    (`unsupported_run_option`, DeerFlow's Gateway): the last part of each problem's `loc`."""
    problems = body.get("detail") if isinstance(body, dict) else None
    return tuple(
        str(problem["loc"][-1])
        for problem in (problems if isinstance(problems, list) else ())
        if isinstance(problem, dict) and problem.get("type") == "unsupported_run_option" and problem.get("loc")
    )


def graph_info(nodes: Iterable[Any], edges: Iterable[Any]) -> GraphInfo:
    """Nodes {id, data: name | {name}} and edges {source, target, conditional, data: label}
    (LangGraph's shape; other servers map theirs to it) as a GraphInfo. Nodes without an
    id and edges without both ends are left out."""
    graph_nodes = []
    for node in nodes:
        if not isinstance(node, dict) or node.get("id") is None:
            continue
        data = node.get("data")
        name = data.get("name") if isinstance(data, dict) else data if isinstance(data, str) else None
        graph_nodes.append(GraphNode(id=str(node["id"]), name=str(name or node["id"])))
    graph_edges = []
    for edge in edges:
        if not isinstance(edge, dict) or edge.get("source") is None or edge.get("target") is None:
            continue
        label = edge.get("data")
        graph_edges.append(
            GraphEdge(
                source=str(edge["source"]),
                target=str(edge["target"]),
                conditional=bool(edge.get("conditional")),
                label=label if isinstance(label, str) else "",
            )
        )
    return GraphInfo(nodes=graph_nodes, edges=graph_edges)
