"""The API key stays secret (issue #7).

A distinctive key is planted the three ways a user gives one: the --api-key flag
(Settings.api_key), $LANGGRAPH_API_KEY, and a config-file profile's api_key_env. The real
app then runs a session against the real server: it opens a thread, sends a message,
exports the thread (Markdown, and JSON with its history), opens the connection screen
(the key field is masked), remembers a theme in the config file, and every screen it
visits is saved as a screenshot. Then every file the app wrote (its data dir: the log;
the config file's folder; the exports; the screenshots) is searched for the key: it must
be nowhere.

The key goes only to the server it belongs to: profile A (the real server) has one key,
profile B (a local server that records every request) another, profile C (another
recorder) none; switching A -> B -> C sends B only its own key and C no key at all.

And crash reports: the Settings repr never shows the key, the log redacts it from a
logged exception's traceback, and Textual's crash report (which prints local variables)
must not show it either.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import uuid
from contextlib import suppress
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, ai_texts, screen_lines, wait_for
from textual.widgets import Input, Select
from threadbench.backends.headers import api_key_problem
from threadbench.config import API_KEY_ENV_VARS, Settings
from threadbench.logs import log, setup_logging
from threadbench.settings_file import CONFIG_ENV, Flags, load_config, resolve_settings
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.connection import Connection, ConnectionScreen
from threadbench.ui.screens.export import ExportScreen
from threadbench.ui.screens.help import HelpScreen

KEY = "tb-secret-KEY-0123456789abcdef"
KEY_B = "tb-other-KEY-fedcba9876543210"
FIXED_NOW = datetime(2026, 1, 1, tzinfo=UTC)


# -- where a key could end up ---------------------------------------------------------------------


def files_holding(secret: str, *folders: Path) -> list[str]:
    """Every file under `folders` that holds `secret` (as UTF-8 bytes, or UTF-16)."""
    found = []
    needles = [secret.encode(), secret.encode("utf-16-le")]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and any(needle in path.read_bytes() for needle in needles):
                found.append(str(path))
    return found


@pytest.fixture
def no_keys_in_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (*API_KEY_ENV_VARS, "THREADBENCH_PROFILE", "THREADBENCH_THEME", "THREADBENCH_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.fixture
def place(tmp_path: Path, no_keys_in_env: pytest.MonkeyPatch):
    """Folders for one session: data, config (THREADBENCH_CONFIG), exports, screenshots."""
    folders = {name: tmp_path / name for name in ("data", "config", "exports", "shots")}
    for folder in folders.values():
        folder.mkdir()
    config = folders["config"] / "config.toml"
    no_keys_in_env.setenv(CONFIG_ENV, str(config))
    return folders


def write_config(path: Path, profiles: dict[str, dict[str, str]]) -> None:
    lines = ['theme = "textual-dark"', ""]
    for name, spec in profiles.items():
        lines.append(f"[profiles.{name}]")
        lines += [f'{key} = "{value}"' for key, value in spec.items()]
        lines.append("")
    path.write_text("\n".join(lines))


def make(settings: Settings) -> ThreadbenchApp:
    return ThreadbenchApp(settings, backend_kind="langgraph", clock=lambda: FIXED_NOW, monotonic=lambda: 0.0)


class Shots:
    """Screenshots (SVG) and the text of every screen the session shows."""

    def __init__(self, app, folder: Path) -> None:
        self.app, self.folder, self.names = app, folder, []

    def take(self, name: str) -> None:
        svg = self.app.export_screenshot()
        lines = screen_lines(self.app)
        (self.folder / f"{name}.svg").write_text(svg, encoding="utf-8")
        (self.folder / f"{name}.txt").write_text("\n".join(lines), encoding="utf-8")
        self.names.append(name)


async def open_tagged_thread(pilot, server_url: str, text: str = "") -> str:
    """A demo-agent thread of our own (with one exchange when `text`), opened."""
    app = pilot.app
    client = get_client(url=server_url)
    suite = uuid.uuid4().hex[:10]
    thread = await client.threads.create(graph_id="agent", metadata={"suite": suite})
    if text:
        await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": text}]})
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.session.backend is not None)
    box = app.screen.query_one("#thread-search", Input)
    box.focus()
    box.value = f'suite="{suite}"'
    threads = app.screen.query_one("#thread-list")
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread["thread_id"]], what="listed")
    if app.screen.conversation.thread_id != thread["thread_id"]:
        threads.highlighted = 0
    await wait_for(
        pilot,
        lambda: (
            app.screen.conversation.thread_id == thread["thread_id"]
            and app.screen.conversation.thread_state is not None
        ),
    )
    return thread["thread_id"]


async def export(pilot, path: Path, *, json_with_history: bool = False) -> None:
    app = pilot.app
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen) and app.screen.focused is not None)
    if json_with_history:
        await pilot.click("#export-json")
        await pilot.click("#export-history")
    app.screen.query_one("#export-path", Input).value = str(path)
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: path.exists() and isinstance(app.screen, MainScreen), what=f"export {path.name}")


async def visit_connection_screen(pilot, shots: Shots, type_key: str | None) -> None:
    """Open the connection screen; type a key into its (masked) field; leave it."""
    app = pilot.app
    await pilot.press("ctrl+o")
    await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen) and app.screen.focused is not None)
    field = app.screen.query_one("#connection-key", Input)
    assert field.password, "the key field is masked"
    if type_key:
        field.focus()
        field.value = type_key
        await pilot.pause()
        lines = screen_lines(app)
        assert any("•" * 10 in line for line in lines), "the typed key shows as bullets"
    shots.take("connection")
    await pilot.press("escape")
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))


async def session(pilot, server_url: str, folders: dict[str, Path], *, send: bool) -> Shots:
    """Everything a user does that could write or show the key."""
    app = pilot.app
    shots = Shots(app, folders["shots"])
    await open_tagged_thread(pilot, server_url, text="" if send else "hello")
    shots.take("main")
    if send:
        app.screen.query_one("#composer").focus()
        await pilot.press(*"hello", "enter")
        await wait_for(
            pilot,
            lambda: (
                app.screen.query_one("#run-status").state == "idle"
                and len(app.screen.conversation.thread_state.messages) >= 2
            ),
            timeout=30,
            what="the reply",
        )
        await wait_for(pilot, lambda: ai_texts(app), what="reply shown")
        shots.take("reply")
    await export(pilot, folders["exports"] / "thread.md")
    await export(pilot, folders["exports"] / "thread.json", json_with_history=True)
    shots.take("exported")
    await visit_connection_screen(pilot, shots, type_key=KEY)
    await pilot.press("f1")
    await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
    shots.take("help")
    await pilot.press("escape")
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
    app.theme = "nord"  # remembered in the config file: the app writes it
    await pilot.pause()
    return shots


def assert_key_nowhere(folders: dict[str, Path], app, shots: Shots, key: str = KEY) -> None:
    # the session really wrote what we search
    assert (folders["data"] / "threadbench.log").read_text().strip()
    assert (folders["exports"] / "thread.md").stat().st_size and (folders["exports"] / "thread.json").stat().st_size
    assert 'theme = "nord"' in (folders["config"] / "config.toml").read_text()
    assert oct((folders["config"] / "config.toml").stat().st_mode & 0o777) == "0o600"
    assert {"main", "exported", "connection", "help"} <= set(shots.names)
    assert files_holding(key, *folders.values()) == []
    assert key not in repr(app.settings) and key not in str(app.settings)


# -- the three ways in ---------------------------------------------------------------------------


@pytest.mark.server
async def test_a_key_from_the_flag_is_never_written_or_shown(server_url, place) -> None:
    write_config(place["config"] / "config.toml", {})
    settings = resolve_settings(Flags(url=server_url, api_key=KEY, data_dir=place["data"]), os.environ, load_config())
    assert settings.effective_api_key() == KEY and settings.key_source == "--api-key"
    app = make(settings)
    async with app.run_test(size=TERMINAL) as pilot:
        shots = await session(pilot, server_url, place, send=True)
    assert_key_nowhere(place, app, shots)


@pytest.mark.server
async def test_a_key_from_the_environment_is_never_written_or_shown(server_url, place, no_keys_in_env) -> None:
    no_keys_in_env.setenv("LANGGRAPH_API_KEY", KEY)
    write_config(place["config"] / "config.toml", {})
    settings = resolve_settings(Flags(url=server_url, data_dir=place["data"]), os.environ, load_config())
    assert settings.effective_api_key() == KEY and settings.key_source == "LANGGRAPH_API_KEY"
    app = make(settings)
    async with app.run_test(size=TERMINAL) as pilot:
        shots = await session(pilot, server_url, place, send=False)
    assert_key_nowhere(place, app, shots)


# -- a profile's key goes to its server only -------------------------------------------------------


class Recorder:
    """A local HTTP server that answers like an empty LangGraph Agent Server and records
    every request it gets (method, path, headers, body)."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                recorder.requests.append(
                    {"method": self.command, "path": self.path, "headers": dict(self.headers.items()), "body": body}
                )
                path = self.path.split("?")[0]
                routes = {
                    ("GET", "/ok"): {"ok": True},
                    ("GET", "/info"): {"version": "recorder", "flags": {}},
                    ("POST", "/threads/search"): [],
                    ("POST", "/threads/count"): 0,
                    ("POST", "/assistants/search"): [],
                }
                if (self.command, path) in routes:
                    status, payload = 200, routes[(self.command, path)]
                else:
                    status, payload = 404, {"detail": "Not Found"}
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Recorder:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def everything(self) -> str:
        return json.dumps(self.requests)

    def keys_sent(self) -> set[str]:
        return {
            value
            for request in self.requests
            for name, value in request["headers"].items()
            if name.lower() in ("x-api-key", "authorization")
        }


async def switch_to(pilot, profile: str, url: str) -> None:
    app = pilot.app
    old = app.screen
    # (Let the screen finish what it is loading first: a request of the old screen that
    # returns while the screen is being replaced crashes the app; see the report on #7.)
    await wait_for(pilot, lambda: not [w for w in old.workers if w.is_running], what="a quiet screen")
    await pilot.press("ctrl+o")
    await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen) and app.screen.focused is not None)
    app.screen.query_one("#connection-profile", Select).value = profile
    await pilot.pause()
    assert app.screen.query_one("#connection-url", Input).value == url
    await pilot.press("ctrl+s")
    await wait_for(
        pilot,
        lambda: (
            app.session.connection_url == url
            and isinstance(app.screen, MainScreen)
            and app.screen is not old
            and app.screen.is_mounted
        ),
        what=f"connected to {profile}",
    )
    await wait_for(pilot, lambda: bool(app.screen.query_one("#thread-counts").visual), what=f"{profile}'s threads")


@pytest.mark.server
async def test_a_profile_key_goes_to_its_own_server_only(server_url, place, no_keys_in_env) -> None:
    no_keys_in_env.setenv("TB_SECRET_A", KEY)
    no_keys_in_env.setenv("TB_SECRET_B", KEY_B)
    with Recorder() as b, Recorder() as c:
        write_config(
            place["config"] / "config.toml",
            {
                "a": {"url": server_url, "backend": "langgraph", "api_key_env": "TB_SECRET_A"},
                "b": {"url": b.url, "backend": "auto", "api_key_env": "TB_SECRET_B"},
                "c": {"url": c.url, "backend": "langgraph"},
            },
        )
        settings = resolve_settings(Flags(profile="a", data_dir=place["data"]), os.environ, load_config())
        assert settings.url == server_url and settings.effective_api_key() == KEY
        app = make(settings)
        async with app.run_test(size=TERMINAL) as pilot:
            shots = await session(pilot, server_url, place, send=False)
            await switch_to(pilot, "b", b.url)
            shots.take("on-b")
            await switch_to(pilot, "c", c.url)
            shots.take("on-c")
        assert b.requests and c.requests, "both recorders were talked to"
        assert {key.removeprefix("Bearer ") for key in b.keys_sent()} == {KEY_B}, "B got its own key, no other"
        assert KEY not in b.everything()
        assert c.keys_sent() == set(), "C has no key: none is sent"
        assert KEY not in c.everything() and KEY_B not in c.everything()
    assert_key_nowhere(place, app, shots)
    assert files_holding(KEY_B, *place.values()) == []


# -- keys that cannot be sent; crash reports ------------------------------------------------------


def test_settings_flags_and_connections_never_show_the_key() -> None:
    settings = Settings(url="http://127.0.0.1:1", api_key=KEY)
    for thing in (settings, Flags(api_key=KEY), Connection(url="http://127.0.0.1:1", api_key=KEY, key_source="typed")):
        assert KEY not in repr(thing) and KEY not in str(thing) and KEY not in f"{thing!r:>10}"


def test_the_log_redacts_the_key_from_a_logged_exception(tmp_path: Path) -> None:
    path = setup_logging(tmp_path, secrets=[KEY])
    try:
        try:
            raise PermissionError(f"the server refused x-api-key {KEY}")
        except PermissionError:
            log.exception("request with %s failed", KEY)
        logging.getLogger("threadbench.backend").warning("header %s", {"x-api-key": KEY}, stack_info=True)
        try:
            raise ValueError(KEY)
        except ValueError as error:
            log.error("plain %r", error, exc_info=error)
    finally:
        for handler in log.handlers:
            handler.flush()
    text = path.read_text()
    assert "PermissionError: the server refused x-api-key [redacted]" in text
    assert "Traceback" in text and "Stack (most recent call last)" in text
    assert KEY not in text


def test_a_key_that_cannot_be_sent_is_refused_with_a_message_that_does_not_quote_it() -> None:
    for bad in (KEY + "\u2013", KEY + "\n", "tb secret", "tb-ключ"):
        problem = api_key_problem(bad)
        assert problem and "cannot be sent" in problem and bad not in problem and KEY not in problem
    assert api_key_problem(KEY) is None and api_key_problem(None) is None


def test_the_cli_refuses_such_a_key_before_starting(capsys, no_keys_in_env) -> None:
    from threadbench.__main__ import main

    no_keys_in_env.setenv("LANGGRAPH_API_KEY", KEY + "\u2013")
    assert main(["--url", "http://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "The API key from $LANGGRAPH_API_KEY has the character U+2013 at position 31" in err
    assert KEY not in err
    no_keys_in_env.setenv("LANGGRAPH_API_KEY", f"  {KEY}\n")  # surrounding blanks are dropped
    assert Settings(url="http://x").effective_api_key() == KEY


@pytest.mark.server
async def test_the_connection_screen_refuses_such_a_key_and_keeps_it(server_url, place) -> None:
    app = make(Settings(url=server_url, data_dir=place["data"]))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.session.backend is not None)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen) and app.screen.focused is not None)
        app.screen.query_one("#connection-url", Input).value = server_url
        app.screen.query_one("#connection-key", Input).value = KEY + "\u2013"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConnectionScreen), "refused here"
        error = str(app.screen.query_one("#connection-error").visual)
        assert "U+2013" in error and KEY not in error
        assert app.screen.query_one("#connection-key", Input).value == KEY + "\u2013"


async def test_a_crash_report_never_shows_the_key(tmp_path: Path, no_keys_in_env, capsys) -> None:
    """A crash while the key is a local variable: the HTTP client cannot be made, so the
    app fails in make_backend(kind, url, api_key). Textual prints its crash report on
    stderr when the app exits; it must say what failed, and not what the key is."""

    def broken_client(*args, **kwargs):
        raise RuntimeError("the HTTP client cannot start")

    no_keys_in_env.setattr(httpx, "AsyncClient", broken_client)
    app = make(Settings(url="http://127.0.0.1:9", api_key=KEY, data_dir=tmp_path))
    with suppress(Exception):
        async with app.run_test(size=TERMINAL) as pilot:
            await pilot.pause()
    captured = capsys.readouterr()
    report = captured.err + captured.out
    assert app.return_code == 1 and "the HTTP client cannot start" in report, "it did crash, and said why"
    assert KEY[:18] not in "".join(report.split())
    assert files_holding(KEY, tmp_path) == []


# -- a DeerFlow login: the password, the session cookie and the CSRF token ------------------------

PASSWORD = "correct horse battery staple"  # the test DeerFlow's (tests/graphs/deerflow_auth)


async def open_own_thread(pilot, backend, text: str) -> str:
    """A thread of the logged-in user's, with one exchange, opened in the app."""
    from threadbench.models import RunRequest

    app = pilot.app
    thread = await backend.create_thread(graph_id="lead_agent")
    request = RunRequest(assistant_id="lead_agent", input={"messages": [{"type": "human", "content": text}]})
    [_ async for _ in backend.stream_run(thread.thread_id, request)]
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.session.backend is not None)
    box = app.screen.query_one("#thread-search", Input)
    box.focus()
    box.value = f"id:{thread.thread_id[:12]}"
    threads = app.screen.query_one("#thread-list")
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread.thread_id], what="listed")
    if app.screen.conversation.thread_id != thread.thread_id:
        threads.highlighted = 0
    await wait_for(
        pilot,
        lambda: (
            app.screen.conversation.thread_id == thread.thread_id and app.screen.conversation.thread_state is not None
        ),
    )
    return thread.thread_id


def session_secrets(app) -> list[str]:
    """The cookies of the app's DeerFlow session (access_token, csrf_token...)."""
    jar = app.session.backend._session.jar
    values = [cookie.value for cookie in jar if cookie.value and len(cookie.value) > 8]
    assert {cookie.name for cookie in jar} >= {"access_token", "csrf_token"}
    return values


@pytest.mark.server
async def test_a_deerflow_login_is_never_written_or_shown_and_goes_to_its_origin_only(
    deerflow_url, place, no_keys_in_env
) -> None:
    from threadbench.backends.base import Credentials
    from threadbench.backends.langgraph import LangGraphBackend

    no_keys_in_env.setenv("TB_DEER_PASSWORD", PASSWORD)
    no_keys_in_env.delenv("THREADBENCH_PASSWORD", raising=False)
    own = LangGraphBackend(deerflow_url, credentials=Credentials("ada@example.com", PASSWORD))
    with Recorder() as other:
        write_config(
            place["config"] / "config.toml",
            {
                "deer": {
                    "url": deerflow_url,
                    "backend": "langgraph",
                    "email": "ada@example.com",
                    "password_env": "TB_DEER_PASSWORD",
                    "assistant_id": "lead_agent",
                },
                "other": {"url": other.url, "backend": "langgraph"},
            },
        )
        settings = resolve_settings(Flags(profile="deer", data_dir=place["data"]), os.environ, load_config())
        assert settings.credentials() == Credentials("ada@example.com", PASSWORD)
        app = make(settings)
        try:
            async with app.run_test(size=TERMINAL) as pilot:
                shots = Shots(app, place["shots"])
                await open_own_thread(pilot, own, "hello deer")
                shots.take("main")
                await export(pilot, place["exports"] / "thread.md")
                await export(pilot, place["exports"] / "thread.json", json_with_history=True)
                shots.take("exported")
                cookies = session_secrets(app)
                await pilot.press("ctrl+o")
                await wait_for(
                    pilot, lambda: isinstance(app.screen, ConnectionScreen) and app.screen.focused is not None
                )
                app.screen.query_one("#connection-password", Input).value = PASSWORD
                await pilot.pause()
                shots.take("connection")
                await pilot.press("escape")
                await pilot.press("f1")
                await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
                shots.take("help")
                await pilot.press("escape")
                app.theme = "nord"
                await switch_to(pilot, "other", other.url)
                shots.take("on-other")
        finally:
            await own.close()
        assert other.requests, "the other server was talked to"
        for secret in (PASSWORD, *cookies):
            assert secret not in other.everything()
        assert not [r for r in other.requests if {"cookie", "x-csrf-token"} & {h.lower() for h in r["headers"]}]
    assert_key_nowhere(place, app, shots, key=PASSWORD)
    for secret in cookies:
        assert files_holding(secret, *place.values()) == []
