"""Logging in to a server that wants a session instead of an API key (DeerFlow).

DeerFlow (its `langgraph dev` mode and its Gateway) logs in with an OAuth2 form posted to
<origin>/api/v1/auth/login/local (username = the email, password). It answers with the
cookies access_token and csrf_token; every request must carry them, and POST, PUT, PATCH
and DELETE also the header X-CSRF-Token equal to the csrf_token cookie.

SessionAuth is an httpx auth flow that does all of it for a client: it logs in before the
first request, sends the session cookies and the CSRF header, and logs in again once when
a request is refused for want of a session (an expired one), then sends that request
again. Its cookie jar outlives the clients that use it (a backend renews its client after a
server error), and nothing of the session or the password goes to any other origin.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncGenerator
from http.cookiejar import CookieJar
from typing import Any

import httpx

from .base import BackendError, Credentials, LoginFailed, NoLogin
from .http import one_line, refusal_words

LOGIN_PATH = "/api/v1/auth/login/local"
ACCESS_COOKIE = "access_token"
CSRF_COOKIE = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOGIN_TIMEOUT = httpx.Timeout(15.0)
# What DeerFlow says when a request has no valid session: the Gateway's codes, and the
# words of its `langgraph dev` auth handler (langgraph-api turns a refusal into text).
NO_SESSION = {
    401: ("not_authenticated", "token_expired", "token_invalid", "not authenticated", "invalid token", "token expired"),
    403: ("csrf token",),
}


def origin_of(url: str | httpx.URL) -> str:
    """scheme://host[:port] of a URL (its path, e.g. /api/langgraph, left out)."""
    url = httpx.URL(str(url))
    return f"{url.scheme}://{url.netloc.decode('ascii')}"


def response_body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except (ValueError, httpx.ResponseNotRead):
        return response.text if response.is_closed else ""


def asks_to_log_in(status: int, body: Any) -> bool:
    """Whether a refusal means "no valid session": 401 not_authenticated, token_expired or
    token_invalid (a code, or in words), or 403 "CSRF token missing"."""
    detail = body.get("detail") if isinstance(body, dict) else body
    if isinstance(detail, dict):
        detail = detail.get("code")
    text = str(detail or "").lower()
    return any(words in text for words in NO_SESSION.get(status, ()))


class SessionAuth(httpx.Auth):
    """Log in to `url`'s origin with `credentials`, and keep that session on every request."""

    def __init__(self, url: str, credentials: Credentials) -> None:
        self.origin = origin_of(url)
        self.credentials = credentials
        self.jar = CookieJar()
        """The session's cookies: hand it to every client (httpx.AsyncClient(cookies=jar))."""
        self._cookies = httpx.Cookies(self.jar)
        self._lock = asyncio.Lock()
        self._logins = 0
        self._refusal: BackendError | None = None
        """Why the server refused to log us in: final (no use trying again, or a lock-out)."""

    def __repr__(self) -> str:
        return f"SessionAuth({self.origin!r}, {self.credentials!r})"

    async def log_in(self, client: httpx.AsyncClient) -> None:
        """Log in now, on `client` (which keeps the cookies if it was made with `jar`)."""
        async with self._lock:
            self._raise_refusal()
            response = await client.send(self._login_request(), auth=None)
            await response.aread()
            self._logged_in(response)

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        if origin_of(request.url) != self.origin:
            # Another origin: no token, no password, and none of our cookies, which a cookie
            # jar would send to the same host on any port.
            request.headers.pop("Cookie", None)
            yield request
            return
        await request.aread()  # it may be sent twice
        seen = self._logins
        log_in = seen == 0
        for last_try in (False, True):
            if log_in:
                async with self._lock:
                    if self._logins == seen:  # (else another request logged in meanwhile)
                        self._raise_refusal()
                        response = yield self._login_request()
                        await response.aread()
                        self._logged_in(response)
                seen = self._logins
            self._with_session(request)
            response = yield request
            if last_try or not await self._no_session(response):
                return
            log_in = True

    def _raise_refusal(self) -> None:
        if self._refusal is not None:
            raise copy.copy(self._refusal)

    def _login_request(self) -> httpx.Request:
        # No Origin header: DeerFlow refuses a login from a foreign one.
        return httpx.Request(
            "POST",
            self.origin + LOGIN_PATH,
            data={"username": self.credentials.email, "password": self.credentials.password},
            headers={"Accept": "application/json"},
            extensions={"timeout": LOGIN_TIMEOUT.as_dict()},
        )

    def _with_session(self, request: httpx.Request) -> None:
        """The current session's cookies (the ones the request was built with may be stale)."""
        request.headers.pop("Cookie", None)
        self._cookies.set_cookie_header(request)
        csrf = next((c.value for c in self.jar if c.name == CSRF_COOKIE), None)
        if request.method in STATE_CHANGING and csrf:
            request.headers[CSRF_HEADER] = csrf

    async def _no_session(self, response: httpx.Response) -> bool:
        if response.status_code not in NO_SESSION:
            return False
        await response.aread()  # a short refusal
        return asks_to_log_in(response.status_code, response_body(response))

    def _logged_in(self, response: httpx.Response) -> None:
        """Keep the session the login answered with, or raise why there is none."""
        if response.is_success and ACCESS_COOKIE in response.cookies:
            self._cookies.extract_cookies(response)
            self._logins += 1
            return
        error = self._login_error(response)
        if response.status_code < 500:
            self._refusal = error
        raise copy.copy(error)

    def _login_error(self, response: httpx.Response) -> BackendError:
        status, who = response.status_code, f"Could not log in to {self.origin} as {self.credentials.email}"
        if status == 401:
            return LoginFailed(
                f"{who}: the server refused the email or password.",
                hint="Check the email, and the password in $THREADBENCH_PASSWORD (or type it again).",
                status=status,
            )
        if status == 429:
            return LoginFailed(
                f"{who}: too many failed logins, so the server locks you out for a few minutes.",
                hint="Wait a few minutes, then try again with the right password.",
                status=status,
            )
        body = response_body(response)
        # (a server whose auth guards every route, DeerFlow's `langgraph dev`, refuses the login
        # itself for want of a session: "CSRF token missing")
        if status in (404, 405) or response.is_success or asks_to_log_in(status, body):
            answer = "set no session cookie" if response.is_success else f"answered {status}"
            if words := one_line(refusal_words(body), 200) if not response.is_success else "":
                answer += f": {words.rstrip('.')}"
            return NoLogin(
                f"{who}: {self.origin} serves no login (POST {LOGIN_PATH} {answer}). DeerFlow serves "
                "its login from its Gateway, not from its `langgraph dev` server.",
                hint=(
                    "Connect to the Gateway with --url http://HOST:8001/api (or its front door "
                    "http://HOST:2026/api/langgraph) and --email; or run this server with "
                    "DEER_FLOW_AUTH_DISABLED=1 and leave --email out."
                ),
                status=status,
            )
        words = one_line(refusal_words(body), 200)
        return BackendError(f"{who}: HTTP {status} {words}".rstrip(), status=status)
