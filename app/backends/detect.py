"""Which kind of server is at a URL, and the backend that talks to it.

A LangGraph Agent Server answers GET /ok with {"ok": true} and GET /info with JSON;
10xGraph answers GET /ping with {"data": "pong", "metadata": ...} and GET /v1/graph with its
{"data" | "error", "metadata"} envelope; DeerFlow's Gateway (a LangGraph-compatible API under
a path such as /api, without /ok or /info) answers GET <origin>/health with
{"service": "deer-flow-gateway"}. The probes run at once; nothing here needs a key except
the /v1/graph probe, which still identifies 10xGraph when it answers 401.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from app.backends.base import Backend, Invalid, Unreachable
from app.config import api_key_problem

if TYPE_CHECKING:  # httpx is imported when it is needed: it is a tenth of the app's start-up
    import httpx

BackendKind = Literal["langgraph", "10xgraph", "deerflow-gateway"]
KINDS: tuple[BackendKind, ...] = ("langgraph", "10xgraph", "deerflow-gateway")
_ALIASES = {
    "langgraph": "langgraph", "10xgraph": "10xgraph", "tenxgraph": "10xgraph",
    "deerflow-gateway": "deerflow-gateway", "deer-flow-gateway": "deerflow-gateway", "gateway": "deerflow-gateway",
}
GATEWAY_SERVICE = "deer-flow-gateway"
"""What DeerFlow's Gateway calls itself in GET <origin>/health."""


def normalize_kind(kind: str) -> BackendKind:
    found = _ALIASES.get(kind.strip().lower())
    if found is None:
        raise Invalid(f"Unknown backend {kind!r}: use {', '.join(KINDS)}")
    return found  # type: ignore[return-value]


def origin(url: str) -> str:
    """scheme://host:port of a URL, without its path."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


async def _probe(client: httpx.AsyncClient, path: str, headers: dict[str, str]) -> Any:
    """(status, json or None), or None when the request itself failed."""
    import httpx

    try:
        response = await client.get(path, headers=headers)
    except httpx.HTTPError:
        return None
    try:
        body = response.json()
    except ValueError:
        body = None
    return response.status_code, body


def _is_tenx_envelope(body: Any) -> bool:
    return (
        isinstance(body, dict)
        and ("data" in body or "error" in body)
        and isinstance(body.get("metadata"), dict)
    )


async def detect_backend_kind(
    url: str, api_key: str | None = None, *, timeout: float = 5.0
) -> BackendKind:
    """Probe `url`; raises Unreachable when nothing answers or the answers fit neither kind
    (Invalid for a key that cannot be sent)."""
    _check_key(api_key)
    base = url.rstrip("/")
    bearer = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
        ok, info, ping, graph, health = await asyncio.gather(
            _probe(client, "/ok", {}),
            _probe(client, "/info", {"x-api-key": api_key} if api_key else {}),
            _probe(client, "/ping", {}),
            _probe(client, "/v1/graph", bearer),
            _probe(client, f"{origin(base)}/health", {}),
        )
    if (
        ping is not None
        and ping[0] == 200
        and _is_tenx_envelope(ping[1])
        and ping[1].get("data") == "pong"
    ):
        return "10xgraph"
    if graph is not None and graph[0] in (200, 401, 403) and _is_tenx_envelope(graph[1]):
        return "10xgraph"
    if ok is not None and ok[0] == 200 and isinstance(ok[1], dict) and ok[1].get("ok") is True:
        return "langgraph"
    if (
        info is not None
        and info[0] == 200
        and isinstance(info[1], dict)
        and not _is_tenx_envelope(info[1])
    ):
        return "langgraph"
    if (
        health is not None
        and health[0] == 200
        and isinstance(health[1], dict)
        and health[1].get("service") == GATEWAY_SERVICE
    ):
        return "deerflow-gateway"
    if all(result is None for result in (ok, info, ping, graph, health)):
        raise Unreachable(f"Nothing answers at {base}")
    raise Unreachable(
        f"{base} answers, but not as a LangGraph Agent Server (GET /ok, /info), 10xGraph "
        "(GET /ping, /v1/graph) or DeerFlow's Gateway (GET /health at the server's root)",
        hint="Check the URL (DeerFlow's Gateway: http://host:8001/api), or pick the backend with --backend.",
    )


def _check_key(api_key: str | None) -> None:
    if problem := api_key_problem(api_key):
        raise Invalid(f"The API key {problem}.", hint="Type or paste it again.")


def make_backend(kind: str, url: str, api_key: str | None = None) -> Backend:
    """The backend for `kind` (one of KINDS) at `url`; raises Invalid for a key that cannot
    be sent in a header (instead of an encoding error on the first request)."""
    found = normalize_kind(kind)
    _check_key(api_key)
    if found == "10xgraph":
        from app.backends.tenxgraph import TenXGraphBackend

        return TenXGraphBackend(url, api_key)
    if found == "deerflow-gateway":
        from app.backends.gateway import GatewayBackend

        return GatewayBackend(url, api_key=api_key)
    from app.backends.langgraph import LangGraphBackend

    return LangGraphBackend(url, api_key=api_key)
