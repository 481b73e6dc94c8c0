"""How a 10xGraph client reaches its server: one httpx client (a bearer token if given),
refusals as typed errors in words a person reads, one retry on a broken connection, and the
{"data": ..., "metadata": ...} envelope unwrapped."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from ..base import (
    BackendError,
    Invalid,
    ServerError,
    Unreachable,
)
from ..http import Uncancelled, once_more_if_broken
from .errors import _error_from_response


class Connection:
    """The httpx client a 10xGraph backend calls through."""

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.api_key = api_key or None
        self._timeout = timeout
        self._transport = transport
        self._client = self._new_client()
        self._uncancelled = Uncancelled()

    def _new_client(self) -> httpx.AsyncClient:
        headers = {"Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return httpx.AsyncClient(
            base_url=self.url,
            headers=headers,
            timeout=self._timeout,
            transport=self._transport,
        )

    async def close(self) -> None:
        self._uncancelled.cancel()
        await self._client.aclose()

    # --- HTTP ---------------------------------------------------------------------------------

    def _unreachable(self, err: Exception) -> Unreachable:
        detail = str(err) or type(err).__name__
        return Unreachable(f"Cannot reach the 10xGraph server at {self.url}: {detail}")

    async def _send(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        body: Any = None,
        not_found: str | None = None,
    ) -> httpx.Response:
        """One request; retried once if the connection broke mid-request (one the server reset)."""
        kwargs: dict[str, Any] = {}
        if params:
            kwargs["params"] = {k: v for k, v in params.items() if v is not None}
        if body is not None:
            kwargs["json"] = body

        async def attempt() -> httpx.Response:
            try:
                response = await self._uncancelled.run(self._client.request(method, path, **kwargs))
            except (httpx.ConnectError, httpx.ConnectTimeout) as err:
                raise self._unreachable(err) from err
            except httpx.TimeoutException as err:
                raise Unreachable(
                    f"The 10xGraph server at {self.url} did not answer in time ({method} {path})"
                ) from err
            except httpx.TransportError as err:
                raise self._unreachable(err) from err
            except httpx.InvalidURL as err:
                raise Invalid(f"Bad server URL {self.url!r}: {err}") from err
            if response.is_success:
                return response
            raise self._error(response, not_found=not_found)

        # 10xGraph resets a connection after some plain-text 500s, and the pool may hand that
        # dead connection to the next request: once more, on a fresh one.
        return await once_more_if_broken(attempt)

    def _error(self, response: httpx.Response, *, not_found: str | None = None) -> BackendError:
        error = _error_from_response(response, not_found=not_found)
        if response.status_code == 401 and not self.api_key:
            error.message = f"This 10xGraph server wants a token ({error.message})"
        elif response.status_code == 401:
            error.message = f"The server refused the API key ({error.message})"
        return error

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        """A request whose reply is the {"data": ..., "metadata": ...} envelope; returns data."""
        response = await self._send(method, path, **kwargs)
        try:
            body = response.json()
        except ValueError as err:
            raise ServerError(
                f"{method} {path} answered with something that is not JSON",
                status=response.status_code,
            ) from err
        return body.get("data") if isinstance(body, dict) and "data" in body else body

    @staticmethod
    def _thread_path(thread_id: str, suffix: str = "") -> str:
        if not str(thread_id).strip():
            raise Invalid("The thread id is empty")
        return f"/v1/threads/{_quote(thread_id)}{suffix}"


def _quote(part: str) -> str:
    return quote(str(part), safe="")
