"""Which kind of server is at a URL, and the backend that talks to it.

A LangGraph Agent Server answers GET /ok with {"ok": true} and GET /info with JSON;
10xGraph answers GET /ping with {"data": "pong", "metadata": ...} and GET /v1/graph with its
{"data" | "error", "metadata"} envelope; DeerFlow's Gateway (a LangGraph-compatible API under
a path such as /api, without /ok or /info) answers GET <origin>/health with
{"service": "deer-flow-gateway"}. The probes run at once; nothing here needs a key except
the /v1/graph probe, which still identifies 10xGraph when it answers 401.

A server that wants a logged-in session (DeerFlow) is logged in to first when credentials
are given; without them, a LangGraph server refusing a thread read for want of a session
is reported at once (LoginRequired), not at the first request of the UI.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..server_kinds import KINDS, REGISTRY, ServerKind, kind_named
from .base import Backend, Credentials, Invalid, LoginRequired, Unreachable
from .deerflow import GATEWAY_SERVICE
from .headers import api_key_problem

if TYPE_CHECKING:  # httpx is imported when it is needed: it is a tenth of the app's start-up
    import httpx

    from .session_auth import SessionAuth

NO_THREAD = "00000000-0000-0000-0000-000000000000"
"""A thread id nobody has: reading it shows whether the server wants a session."""


def normalize_kind(kind: str) -> ServerKind:
    found = kind_named(kind)
    if found is None:
        raise Invalid(f"Unknown backend {kind!r}: use {', '.join(KINDS)}")
    return found.name


async def _probe(client: httpx.AsyncClient, path: str, headers: dict[str, str]) -> Any:
    """(status, json or None), or the error when the request itself failed."""
    import httpx

    try:
        response = await client.get(path, headers=headers)
    except httpx.HTTPError as error:
        return error
    try:
        body = response.json()
    except ValueError:
        body = None
    return response.status_code, body


def _is_tenx_envelope(body: Any) -> bool:
    return isinstance(body, dict) and ("data" in body or "error" in body) and isinstance(body.get("metadata"), dict)


async def detect_backend_kind(
    url: str, api_key: str | None = None, *, timeout: float = 5.0, credentials: Credentials | None = None
) -> ServerKind:
    """Probe `url`; raises Unreachable when nothing answers or the answers fit neither kind
    (Invalid for a key that cannot be sent; LoginRequired, or why the login failed, for a
    server that wants a session)."""
    _check_key(api_key)
    base = url.rstrip("/")
    bearer = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    import httpx

    from .session_auth import SessionAuth, origin_of

    session = SessionAuth(base, credentials) if credentials else None
    async with httpx.AsyncClient(
        base_url=base, timeout=timeout, auth=session, cookies=session.jar if session else None
    ) as client:
        if session is not None:
            await _log_in(session, client, base)
        ok, info, ping, graph, health, thread = await asyncio.gather(
            _probe(client, "/ok", {}),
            _probe(client, "/info", {"x-api-key": api_key} if api_key else {}),
            _probe(client, "/ping", {}),
            _probe(client, "/v1/graph", bearer),
            _probe(client, f"{origin_of(base)}/health", {}),
            _probe(client, f"/threads/{NO_THREAD}", {"x-api-key": api_key} if api_key else {}),
        )
    if isinstance(ok, Exception) and not any(isinstance(r, tuple) for r in (info, ping, graph, health)):
        from .http import unreachable

        raise unreachable(ok, base)
    ok, info, ping, graph, health, thread = (
        None if isinstance(r, Exception) else r for r in (ok, info, ping, graph, health, thread)
    )
    _check_session(base, thread)
    if ping is not None and ping[0] == 200 and _is_tenx_envelope(ping[1]) and ping[1].get("data") == "pong":
        return "10xgraph"
    if graph is not None and graph[0] in (200, 401, 403) and _is_tenx_envelope(graph[1]):
        return "10xgraph"
    if ok is not None and ok[0] == 200 and isinstance(ok[1], dict) and ok[1].get("ok") is True:
        return "langgraph"
    if info is not None and info[0] == 200 and isinstance(info[1], dict) and not _is_tenx_envelope(info[1]):
        return "langgraph"
    if (
        health is not None
        and health[0] == 200
        and isinstance(health[1], dict)
        and health[1].get("service") == GATEWAY_SERVICE
    ):
        return "deerflow-gateway"
    raise Unreachable(
        f"{base} answers, but not as a LangGraph Agent Server (GET /ok, /info), 10xGraph "
        "(GET /ping, /v1/graph) or DeerFlow's Gateway (GET /health at the server's root)",
        hint="Check the URL (DeerFlow's Gateway: http://host:8001/api), or pick the backend with --backend.",
    )


async def _log_in(session: SessionAuth, client: httpx.AsyncClient, base: str) -> None:
    import httpx

    from .http import unreachable

    try:
        await session.log_in(client)
    except httpx.HTTPError as error:
        raise unreachable(error, base, "log in") from error


def _check_session(base: str, thread: Any) -> None:
    """Raise LoginRequired when a thread read was refused for want of a session."""
    from .http import refusal_words
    from .session_auth import asks_to_log_in

    if thread is not None and asks_to_log_in(*thread):
        raise LoginRequired(f"{base} wants you to log in ({refusal_words(thread[1])[:200]})", status=thread[0])


def _check_key(api_key: str | None) -> None:
    if problem := api_key_problem(api_key):
        raise Invalid(f"The API key {problem}.", hint="Type or paste it again.")


def backend_module(kind: str) -> str:
    """The module the backend of `kind` needs (an unknown kind: the one make_backend falls back on)."""
    found = kind_named(kind) or REGISTRY[0]
    return f"{__package__}.{found.module}"


def make_backend(kind: str, url: str, api_key: str | None = None, credentials: Credentials | None = None) -> Backend:
    """The backend for `kind` (one of KINDS) at `url`, logging in with `credentials` if
    given; raises Invalid for a key that cannot be sent in a header (instead of an encoding
    error on the first request)."""
    found = normalize_kind(kind)
    _check_key(api_key)
    if found == "10xgraph" and credentials is not None:
        raise Invalid(
            "Logging in with an email and password is for DeerFlow; 10xGraph takes its token as the API key.",
            hint="Leave the email out, and give the token with --api-key.",
        )
    backend_class = next(k.backend_class for k in REGISTRY if k.name == found)
    backend: Callable[..., Backend] = getattr(importlib.import_module(backend_module(found)), backend_class)
    return backend(url, api_key) if credentials is None else backend(url, api_key, credentials=credentials)
