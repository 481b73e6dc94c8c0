"""Logging in to DeerFlow (issue 14), against a real LangGraph server with DeerFlow's auth.

The server (fixture deerflow_url, tests/graphs/deerflow_auth) is the embedded launcher
serving a langgraph.json with an `auth` handler and an `http.app` login route, enforcing
DeerFlow's rules: an OAuth2 form login setting the cookies access_token and csrf_token,
the cookie on every request, X-CSRF-Token on POST/PUT/PATCH/DELETE (checked first), a
refusal for a wrong password, a lock-out after 5 failures, each user seeing only their own
threads. A test ends a user's sessions when it needs them expired (POST /api/test/expire).

It stands for the session rules of DeerFlow's Gateway, which serves the login and the
LangGraph-compatible API from one origin (its wrong-password answer is checked against the
real Gateway's, recorded, in test_gateway_recorded). DeerFlow's own `langgraph dev` serves no
login route: with auth on, the real one refuses the login for want of a CSRF token, and
answers 500 to a session (f1f4af99).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid

import httpx
import pytest
from support.driving import FIXED_NOW, TERMINAL, notices, wait_for, wait_ready
from textual.widgets import Input
from threadbench.__main__ import UsageError, ask_password, build_parser, probe_server, settings_from_args
from threadbench.backends.base import Credentials, LoginFailed, LoginRequired, NoLogin
from threadbench.backends.detect import detect_backend_kind
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.backends.session_auth import SessionAuth, asks_to_log_in, origin_of
from threadbench.config import Settings
from threadbench.models import RunRequest, ThreadQuery
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.connection import ConnectionScreen

PASSWORD = "correct horse battery staple"
ADA = Credentials("ada@example.com", PASSWORD)
BOB = Credentials("bob@example.com", PASSWORD)
EXPIRING = Credentials("expiring@example.com", PASSWORD)


def counts(url: str, email: str) -> dict:
    """How many times `email` logged in, and failed to (the test server counts)."""
    return httpx.get(f"{url}/api/test/logins", params={"email": email}, timeout=10).json()


def expire_sessions(url: str, email: str) -> None:
    """The server ends `email`'s sessions now: the next request gets 401 "Invalid token"."""
    httpx.post(f"{url}/api/test/expire", params={"email": email}, timeout=10).raise_for_status()


def say(text: str) -> RunRequest:
    return RunRequest(assistant_id="lead_agent", input={"messages": [{"type": "human", "content": text}]})


async def thread_with_reply(backend: LangGraphBackend, text: str) -> str:
    suite = uuid.uuid4().hex[:10]
    thread = await backend.create_thread(metadata={"suite": suite}, graph_id="lead_agent")
    events = [event async for event in backend.stream_run(thread.thread_id, say(text))]
    assert events[-1].kind == "end" and not [e for e in events if e.kind == "error"]
    return thread.thread_id


# -- the backend -----------------------------------------------------------------------------------


@pytest.mark.server
async def test_the_backend_logs_in_once_and_every_call_carries_the_session(deerflow_url) -> None:
    before = counts(deerflow_url, ADA.email)["logins"]
    backend = LangGraphBackend(deerflow_url, credentials=ADA)
    try:
        results = await asyncio.gather(*(backend.check() for _ in range(4)))  # at once: one login
        assert all(result["version"] for result in results)
        thread_id = await thread_with_reply(backend, "hello deer")  # POST create, POST stream
        state = await backend.get_state(thread_id)  # GET
        assert [m.text for m in state.messages] == ["hello deer", "echo: hello deer"]
        checkpoint = await backend.update_state(thread_id, {"messages": []}, as_node="lead_agent")  # POST
        assert checkpoint
        found = await backend.search_threads(ThreadQuery(ids=[thread_id]))
        assert [t.thread_id for t in found] == [thread_id]
        await backend.update_metadata(thread_id, {"seen": "yes"})  # PATCH
        await backend.delete_thread(thread_id)  # DELETE
    finally:
        await backend.close()
    assert counts(deerflow_url, ADA.email)["logins"] == before + 1


@pytest.mark.server
async def test_each_user_sees_only_their_own_threads(deerflow_url) -> None:
    ada, bob = LangGraphBackend(deerflow_url, credentials=ADA), LangGraphBackend(deerflow_url, credentials=BOB)
    try:
        thread_id = await thread_with_reply(ada, "mine")
        assert not await bob.search_threads(ThreadQuery(ids=[thread_id]))
        assert [t.thread_id for t in await ada.search_threads(ThreadQuery(ids=[thread_id]))] == [thread_id]
    finally:
        await ada.close()
        await bob.close()


@pytest.mark.server
async def test_without_credentials_the_server_asks_to_log_in_with_email(deerflow_url) -> None:
    backend = LangGraphBackend(deerflow_url)
    try:
        for call in (backend.search_threads(ThreadQuery()), backend.get_state(str(uuid.uuid4()))):
            with pytest.raises(LoginRequired) as refused:  # 403 CSRF missing (POST), 401 (GET)
                await call
            assert "wants you to log in" in str(refused.value)
            assert "--email" in refused.value.hint and "API key" not in refused.value.hint
    finally:
        await backend.close()
    with pytest.raises(LoginRequired, match="wants you to log in"):
        await detect_backend_kind(deerflow_url)


@pytest.mark.server
async def test_a_wrong_password_is_refused_once_and_said_so(deerflow_url) -> None:
    wrong = Credentials("bob@example.com", "not the password")
    before = counts(deerflow_url, wrong.email)["failures"]
    backend = LangGraphBackend(deerflow_url, credentials=wrong)
    try:
        calls = [backend.search_threads(ThreadQuery()) for _ in range(3)] + [backend.check()]
        refusals = await asyncio.gather(*calls, return_exceptions=True)
    finally:
        await backend.close()
    for refusal in refusals:
        assert isinstance(refusal, LoginFailed)
        assert "the server refused the email or password" in str(refusal)
        assert wrong.password not in str(refusal) and wrong.password not in refusal.hint
    assert counts(deerflow_url, wrong.email)["failures"] == before + 1, "one try, not one per request"
    with pytest.raises(LoginFailed, match="refused the email or password"):
        await detect_backend_kind(deerflow_url, credentials=wrong)


@pytest.mark.server
async def test_five_failures_lock_the_user_out_and_it_says_for_a_few_minutes(deerflow_url) -> None:
    wrong = Credentials("carol@example.com", "guess")
    for _ in range(5):
        with pytest.raises(LoginFailed, match="refused the email or password"):
            await detect_backend_kind(deerflow_url, credentials=wrong)
    backend = LangGraphBackend(deerflow_url, credentials=Credentials("carol@example.com", PASSWORD))
    try:
        with pytest.raises(LoginFailed) as locked:
            await backend.check()
    finally:
        await backend.close()
    assert locked.value.status == 429 and "locks you out for a few minutes" in str(locked.value)


@pytest.mark.server
async def test_an_expired_session_logs_in_again_once_and_the_call_succeeds(deerflow_url) -> None:
    backend = LangGraphBackend(deerflow_url, credentials=EXPIRING)
    try:
        thread_id = await thread_with_reply(backend, "before")
        before = counts(deerflow_url, EXPIRING.email)["logins"]
        expire_sessions(deerflow_url, EXPIRING.email)  # the session expires: 401 "Invalid token"
        assert [t.thread_id for t in await backend.search_threads(ThreadQuery(ids=[thread_id]))] == [thread_id]
        assert counts(deerflow_url, EXPIRING.email)["logins"] == before + 1
        expire_sessions(deerflow_url, EXPIRING.email)
        events = [event async for event in backend.stream_run(thread_id, say("after"))]  # a stream, too
        assert any(e.kind == "values" for e in events) and not [e for e in events if e.kind == "error"]
        assert counts(deerflow_url, EXPIRING.email)["logins"] == before + 2
    finally:
        await backend.close()


@pytest.mark.server
async def test_the_session_survives_every_renewal_of_the_client(deerflow_url) -> None:
    backend = LangGraphBackend(deerflow_url, credentials=ADA)
    try:
        await backend.check()
        logins = counts(deerflow_url, ADA.email)["logins"]
        for _ in range(3):
            backend._renew_client()  # what a 5xx does
            thread_id = await thread_with_reply(backend, "renewed")
            assert (await backend.get_thread(thread_id)).thread_id == thread_id
        assert counts(deerflow_url, ADA.email)["logins"] == logins, "no new login: the cookies came along"
    finally:
        await backend.close()


@pytest.mark.server
async def test_the_session_and_the_password_go_to_its_origin_only(deerflow_url) -> None:
    from threadbench.backends.session_auth import SessionAuth
    from ui.test_secrets import Recorder  # (tests/ is on the path: its folders are namespaces)

    session = SessionAuth(deerflow_url + "/some/path", ADA)
    with Recorder() as other:
        async with httpx.AsyncClient(auth=session, cookies=session.jar, timeout=10) as client:
            assert (await client.get(f"{deerflow_url}/threads/{uuid.uuid4()}")).status_code == 404  # logged in
            await client.post(f"{other.url}/threads/search", json={})
            await client.get(f"{other.url}/info")
        cookies = [cookie.value for cookie in session.jar if len(cookie.value) > 8]  # access and CSRF tokens
        assert len(other.requests) == 2 and cookies
        for secret in (ADA.password, *cookies):
            assert secret not in other.everything()
        assert not [r for r in other.requests if {"cookie", "x-csrf-token"} & {h.lower() for h in r["headers"]}]


def test_refusals_that_ask_for_a_session() -> None:
    # The Gateway's structured codes cannot come from a langgraph-api auth handler (it turns a
    # refusal into {"detail": "<text>"}), so they are checked here on the bodies DeerFlow sends.
    for status, body in [
        (401, {"detail": {"code": "not_authenticated", "message": "Authentication required"}}),
        (401, {"detail": {"code": "token_expired", "message": "Token has expired"}}),
        (401, {"detail": {"code": "token_invalid", "message": "Invalid token"}}),
        (401, {"detail": "Not authenticated"}),
        (401, {"detail": "Invalid token"}),
        (403, {"detail": "CSRF token missing. Include X-CSRF-Token header."}),
    ]:
        assert asks_to_log_in(status, body), body
    for status, body in [
        (401, {"detail": {"code": "invalid_credentials"}}),
        (403, {"detail": "Forbidden"}),
        (401, {"detail": "Invalid API key"}),
        (404, {"detail": "Not authenticated"}),
    ]:
        assert not asks_to_log_in(status, body), body
    assert origin_of("http://localhost:2026/api/langgraph/") == "http://localhost:2026"


# -- the command line ----------------------------------------------------------------------------


def cli_settings(*args: str) -> Settings:
    return settings_from_args(build_parser().parse_args(list(args)))


@pytest.mark.server
def test_email_with_the_password_variable_connects(deerflow_url, monkeypatch) -> None:
    monkeypatch.setenv("THREADBENCH_PASSWORD", PASSWORD)
    settings = cli_settings("--url", deerflow_url, "--email", ADA.email)
    ask_password(settings)  # nothing to ask
    assert settings.password is None and settings.credentials() == ADA
    assert probe_server(settings) == "langgraph"
    monkeypatch.setenv("THREADBENCH_PASSWORD", "wrong")
    with pytest.raises(UsageError, match="the server refused the email or password"):
        probe_server(cli_settings("--url", deerflow_url, "--email", ADA.email))
    monkeypatch.delenv("THREADBENCH_PASSWORD")
    with pytest.raises(
        UsageError, match=r"wants you to log in .*Log in with --email EMAIL \(password from \$THREADBENCH_PASSWORD\)"
    ):
        probe_server(cli_settings("--url", deerflow_url))


def test_email_without_a_password_or_a_terminal_is_one_paragraph_and_status_2(monkeypatch) -> None:
    monkeypatch.delenv("THREADBENCH_PASSWORD", raising=False)
    result = subprocess.run(
        [sys.executable, "-m", "threadbench", "--url", "http://127.0.0.1:9", "--email", ADA.email],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "needs a password: set $THREADBENCH_PASSWORD, or start threadbench in a terminal" in result.stderr
    with pytest.raises(UsageError, match="the embedded server needs no login"):
        cli_settings("--email", ADA.email)


@pytest.mark.server
def test_a_server_without_the_login_route_says_so_and_where_deerflow_serves_it(server_url, monkeypatch) -> None:
    """DeerFlow's `langgraph dev` serves no /api/v1/auth route (its Gateway does): the CLI
    said "Cannot reach an agent server … Start it" of a server that was running."""
    monkeypatch.setenv("THREADBENCH_PASSWORD", PASSWORD)
    result = subprocess.run(
        [sys.executable, "-m", "threadbench", "--url", server_url, "--email", ADA.email],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    said = " ".join(result.stderr.split())
    assert "serves no login (POST /api/v1/auth/login/local answered 404: Not Found)" in said
    assert "--url http://HOST:8001/api" in said and "DEER_FLOW_AUTH_DISABLED=1" in said
    assert "Cannot reach" not in said and ".." not in said


def test_a_login_refused_for_want_of_a_session_means_the_server_serves_no_login() -> None:
    """DeerFlow's `langgraph dev` with auth on guards every route, the login's too: it answers
    the login with 403 "CSRF token missing" (seen at f1f4af99), which said "Cannot reach"."""
    auth = SessionAuth("http://127.0.0.1:2024", ADA)
    refusal = httpx.Response(403, json={"detail": "CSRF token missing. Include X-CSRF-Token header."})
    error = auth._login_error(refusal)
    assert isinstance(error, NoLogin)
    assert "serves no login (POST /api/v1/auth/login/local answered 403: CSRF token missing" in str(error)


@pytest.mark.server
def test_the_cli_asks_for_the_password_in_a_terminal_and_logs_in(deerflow_url, tmp_path, monkeypatch) -> None:
    from unit.test_cli import Terminal

    async def seed() -> None:
        backend = LangGraphBackend(deerflow_url, credentials=ADA)
        try:
            await thread_with_reply(backend, "asked in a terminal")
        finally:
            await backend.close()

    asyncio.run(seed())
    monkeypatch.delenv("THREADBENCH_PASSWORD", raising=False)
    term = Terminal("--url", deerflow_url, "--email", ADA.email, "--data-dir", str(tmp_path))
    term.read_until(lambda: b"Password for ada@example.com" in term.output, 30, "the password asked for")
    term.send(PASSWORD.encode() + b"\r")
    asked = len(term.output)
    term.read_until(lambda: b"asked in a terminal" in term.output[asked:], 60, "ada's thread in the thread list")
    term.read_until(lambda: b"idle" in term.output[asked:], 30, "the thread opened (idle)")
    term.send(b"\x11")  # ctrl+q
    status = term.wait(timeout=30)
    assert status == 0, term.output[-3000:].decode(errors="replace")
    assert PASSWORD.encode() not in term.output, "the password is not echoed"
    assert PASSWORD not in (tmp_path / "threadbench.log").read_text()


# -- the app ----------------------------------------------------------------------------------------


def make(settings: Settings) -> ThreadbenchApp:
    return ThreadbenchApp(settings, backend_kind="langgraph", clock=lambda: FIXED_NOW, monotonic=lambda: 0.0)


@pytest.mark.server
async def test_the_app_without_a_login_says_to_log_in_with_email(deerflow_url, tmp_path) -> None:
    app = make(Settings(url=deerflow_url, data_dir=tmp_path))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: notices(app, "error"), what="the refusal")
        text = notices(app, "error")[0]
    assert "wants you to log in" in text and "Log in with --email EMAIL (password from $THREADBENCH_PASSWORD)" in text
    assert "API key" not in text


@pytest.mark.server
async def test_the_connection_screen_logs_in(server_url, deerflow_url, tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("THREADBENCH_PASSWORD", raising=False)
    seeded = LangGraphBackend(deerflow_url, credentials=ADA)
    try:
        thread_id = await thread_with_reply(seeded, "through the connection screen")
    finally:
        await seeded.close()
    app = make(Settings(url=server_url, data_dir=tmp_path))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen) and app.screen.focused is not None)
        screen = app.screen
        screen.query_one("#connection-url", Input).value = deerflow_url
        screen.query_one("#connection-email", Input).value = ADA.email
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConnectionScreen), "no password: it stays"
        assert "Type the password for ada@example.com" in str(screen.query_one("#connection-error").visual)
        assert screen.query_one("#connection-password", Input).password, "the password is masked"
        screen.query_one("#connection-password", Input).value = "not the password"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: notices(app, "error"), what="the refusal")
        refusal = notices(app, "error")[0]
        assert "the server refused the email or password" in refusal and "not the password" not in refusal
        assert app.session.connection_url == server_url, "a refused login changes nothing"
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen) and app.screen.focused is not None)
        screen = app.screen
        screen.query_one("#connection-url", Input).value = deerflow_url
        screen.query_one("#connection-email", Input).value = ADA.email
        screen.query_one("#connection-password", Input).value = PASSWORD
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: app.session.connection_url == deerflow_url and isinstance(app.screen, MainScreen),
            what="connected to the DeerFlow server",
        )
        box = app.screen.query_one("#thread-search", Input)
        box.value = f"id:{thread_id[:8]}"
        await wait_for(
            pilot,
            lambda: thread_id in [t.thread_id for t in app.screen.sidebar.thread_list.threads],
            what="ada's thread",
        )
    assert PASSWORD not in (tmp_path / "threadbench.log").read_text()
    assert os.environ.get("THREADBENCH_PASSWORD") is None
