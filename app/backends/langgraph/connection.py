"""How every call reaches a LangGraph server: langgraph-sdk's client on our own httpx client,
its failures as typed errors, its renewal after a 5xx, and its streams of parts as RunEvents.

Every call goes through `Connection._call`, which maps the SDK's and httpx's exceptions to
the typed errors in threadbench.backends.base (one sentence saying what failed, plus the server's
detail). After a 5xx the server may drop the pooled connection, so the next request on it
fails with httpx.ReadError: after any 5xx the SDK client is replaced (fresh connections),
and idempotent calls (reads, delete) are retried once on a broken connection
(threadbench.backends.http).

With credentials (DeerFlow), every client carries a SessionAuth (threadbench.backends.session_auth):
it logs in before the first request and keeps the session, whose cookies live in one jar
shared by the client and every client that replaces it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import ssl
import uuid
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar, cast

import httpx
import langgraph_sdk
from langgraph_sdk.client import LangGraphClient

from ...models import (
    RunEvent,
)
from ..base import (
    BackendError,
    Credentials,
    Invalid,
    LoginRequired,
    ServerError,
    Unauthorized,
    Unreachable,
)
from ..http import Uncancelled, error_type, once_more_if_broken, one_line, refusal_words, refused_options, unreachable
from ..session_auth import SessionAuth, asks_to_log_in
from .streaming import StreamPosition, run_event_from_part

T = TypeVar("T")
CHECK_TIMEOUT = 10.0
CONNECT_RETRIES = 1
DEFAULT_TIMEOUT = httpx.Timeout(connect=5, read=300, write=300, pool=5)  # the SDK's


def _headers(api_key: str | None) -> dict[str, str]:
    """What langgraph_sdk.get_client sends: its user agent, and the API key given or, like
    the SDK, the first of LANGGRAPH_API_KEY, LANGSMITH_API_KEY, LANGCHAIN_API_KEY."""
    headers = {"User-Agent": f"langgraph-sdk-py/{langgraph_sdk.__version__} threadbench"}
    if api_key is None:
        for name in ("LANGGRAPH_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
            if os.environ.get(name):
                api_key = os.environ[name].strip().strip("\"'")
                break
    if api_key:
        headers["x-api-key"] = api_key
    return headers


@functools.cache
def _tls_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()


def is_uuid(value: str) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def _body(err: httpx.HTTPStatusError) -> Any:
    """The decoded body of a failed request's answer (text when it is not JSON)."""
    body = getattr(err, "body", None)  # the SDK's typed errors carry the decoded body
    if body is None:
        notes = getattr(err, "__notes__", None)  # plain httpx errors the SDK annotated
        text = notes[-1] if notes else ""
        if not text:
            with contextlib.suppress(httpx.ResponseNotRead, RuntimeError):
                text = err.response.text
        body = text
        with contextlib.suppress(ValueError):
            body = json.loads(text)
    return body


def _detail(err: httpx.HTTPStatusError) -> str:
    """The server's own words about a failed request, on one short line."""
    return one_line(refusal_words(_body(err)))


class Connection:
    """The SDK client a LangGraph backend calls through, and what keeps it usable."""

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        *,
        timeout: float | None = None,
        credentials: Credentials | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self._session = SessionAuth(self.url, credentials) if credentials else None
        self._client = self._new_client()
        self._retired: list[LangGraphClient] = []  # replaced after a failure, see _renew_client
        self._in_use: Counter[LangGraphClient] = Counter()  # requests and streams under way, per client
        self._positions: dict[str, StreamPosition] = {}  # runs whose stream was cut: where
        self._uncancelled = Uncancelled()

    # --- plumbing ----------------------------------------------------------------------------

    def _new_client(self) -> LangGraphClient:
        """The SDK's client on our own httpx client: a refused connection is retried once,
        not five times with back-off (7.5 s before "unreachable"), and the TLS context is
        made once per process (making one costs ~50 ms, and clients are renewed)."""
        return LangGraphClient(
            httpx.AsyncClient(
                base_url=self.url,
                headers=_headers(self.api_key),
                auth=self._session,
                cookies=self._session.jar if self._session else None,
                timeout=httpx.Timeout(self.timeout) if self.timeout else DEFAULT_TIMEOUT,
                # (an SSL context reads every CA certificate: not needed for plain http)
                transport=httpx.AsyncHTTPTransport(
                    verify=_tls_context() if self.url.startswith("https:") else False, retries=CONNECT_RETRIES
                ),
            )
        )

    def _renew_client(self) -> None:
        """Fresh connections for what follows: after a 5xx the server may have dropped the
        pooled connection. The old client is closed once no request or stream uses it (one
        closed under a request waiting for its turn would fail it with "the client has been
        closed", hiding the server's own answer)."""
        self._retired.append(self._client)
        self._client = self._new_client()

    async def _close_retired(self) -> None:
        keep = []
        for client in self._retired:
            if self._in_use[client]:
                keep.append(client)
            else:
                with contextlib.suppress(Exception):
                    await client.aclose()
        self._retired = keep

    async def close(self) -> None:
        self._uncancelled.cancel()
        clients, self._retired = [self._client, *self._retired], []
        for client in clients:
            with contextlib.suppress(Exception):
                await client.aclose()

    def _error(self, err: Exception, doing: str) -> BackendError:
        """The typed error for an exception raised while `doing` something."""
        if isinstance(err, BackendError):
            return err
        response = getattr(err, "response", None)
        if isinstance(err, httpx.HTTPStatusError) and response is not None:
            status = response.status_code
            detail = _detail(err) or f"HTTP {status} {response.reason_phrase}".strip()
            message = f"Could not {doing}: {detail}"
            kind = error_type(status)
            if kind is Unauthorized and asks_to_log_in(status, _body(err)):
                refused = "refused the session even after logging in again" if self._session else "wants you to log in"
                return LoginRequired(f"Could not {doing}: the server {refused} ({detail})", status=status)
            if kind is Unauthorized:
                return Unauthorized(f"Could not {doing}: the server refused the credentials ({detail})", status=status)
            if kind is ServerError:
                self._renew_client()
                return ServerError(f"Could not {doing}: the server failed ({detail})", status=status)
            error = kind(message, status=status)
            body = _body(err)
            if isinstance(body, dict) and isinstance(body.get("detail"), list):  # fields named by `loc`
                error.hint = "The server refused a field of the request: its words are above."
            error.refused_options = refused_options(body)
            return error
        if isinstance(err, (httpx.UnsupportedProtocol, httpx.InvalidURL)):
            return Invalid(f"Could not {doing}: {self.url!r} is not a usable http(s) URL ({err})")
        if isinstance(err, (httpx.ConnectError, httpx.ConnectTimeout)):
            return unreachable(err, self.url, doing)
        if isinstance(err, httpx.TimeoutException):
            return Unreachable(f"Could not {doing}: the server at {self.url} did not answer in time")
        if isinstance(err, httpx.TransportError):  # ReadError, RemoteProtocolError, ...
            self._renew_client()
            reason = str(err) or type(err).__name__
            return Unreachable(f"Could not {doing}: the connection to {self.url} broke ({reason})")
        return ServerError(f"Could not {doing}: {type(err).__name__}: {err}".rstrip(": "))

    async def _call(
        self,
        doing: str,
        request: Callable[[LangGraphClient], Awaitable[T]],
        *,
        retry: bool = False,
    ) -> T:
        """Run `request(client)`, mapping failures to typed errors.

        retry=True (idempotent requests only) retries once, on a fresh client, after a
        connection broke mid-request (the server can drop a pooled connection after a 500).
        """

        async def attempt() -> T:
            with self._using(self._client) as client:
                try:
                    return await self._uncancelled.run(request(client))
                except Exception as err:  # noqa: BLE001 - every failure becomes a typed error
                    raise self._error(err, doing) from err

        try:
            return await once_more_if_broken(attempt, retry=retry)
        finally:
            if self._retired:
                await self._close_retired()

    @contextlib.contextmanager
    def _using(self, client: LangGraphClient) -> Iterator[LangGraphClient]:
        """`client`, kept open (see _renew_client) while the block runs."""
        self._in_use[client] += 1
        try:
            yield client
        finally:
            self._in_use[client] -= 1
            if not self._in_use[client]:
                del self._in_use[client]

    async def _events(
        self,
        doing: str,
        parts: Callable[[LangGraphClient], AsyncIterator[Any]],
        run_id: str = "",
        position: StreamPosition | None = None,
    ) -> AsyncGenerator[RunEvent, None]:
        """RunEvents from an SDK stream of parts, ending with one "end" event; parts read
        before (`position`: where a resumed stream was left) are dropped. Where a stream
        that did not end was left is kept, per run, for join_stream."""
        position = position or StreamPosition()
        ended = False
        with self._using(self._client) as client:
            try:
                # The SDK types its streams as AsyncIterator; they are async generators (aclose).
                async with contextlib.aclosing(cast("AsyncGenerator[Any, None]", parts(client))) as stream:
                    async for part in stream:
                        if not position.admit(part.id):
                            continue
                        result = run_event_from_part(part.event, part.data, part.id)
                        for event in result if isinstance(result, list) else (result,):
                            if event.kind == "metadata" and event.run_id:
                                run_id = event.run_id
                            elif event.kind == "end":
                                continue  # ours comes last
                            if not event.run_id:
                                event.run_id = run_id
                            yield event
                ended = True
            except BackendError:
                raise
            except Exception as err:  # noqa: BLE001
                raise self._error(err, doing) from err
            finally:
                if run_id and not ended and position.event_id:
                    self._positions[run_id] = position
                elif run_id:
                    self._positions.pop(run_id, None)
        yield RunEvent(kind="end", event="end", run_id=run_id)

    async def _get_json(self, doing: str, url: str) -> dict[str, Any]:
        """GET `url` (a path under the server's URL, or a whole URL) as a JSON object."""

        async def get(client: LangGraphClient) -> dict[str, Any]:
            response = await client.http.client.get(url, timeout=CHECK_TIMEOUT)
            response.raise_for_status()
            data = response.json()
            return data if isinstance(data, dict) else {"info": data}

        return await self._call(doing, get, retry=True)
