"""`threadbench serve`: the app in a browser through textual-serve, started for real.

The test fetches the page, then talks to the app over the page's websocket the way the
browser does and reads the screen it draws. With Chromium at /usr/bin/chromium (not
installed by default) it also takes a headless screenshot.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import httpx
import pytest
from support.waiting import eventually_blocking
from threadbench.embedded.launcher import free_port

pytestmark = pytest.mark.server
CHROMIUM = Path("/usr/bin/chromium")


def serve(tmp_path: Path, *args: str, timeout: float = 30):
    """`threadbench serve` on a free port (with `args`), until the test ends."""
    port = free_port()
    env = {**os.environ, "THREADBENCH_CONFIG": str(tmp_path / "config.toml"), "THREADBENCH_DATA_DIR": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "threadbench", "serve", "--host", "127.0.0.1", "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        assert process.poll() is None, process.stdout.read().decode(errors="replace")
        try:
            return httpx.get(url, timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        eventually_blocking(answers, timeout, what="serve to answer")
        yield url
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(10)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


@pytest.fixture
def served(server_url: str, tmp_path: Path):
    yield from serve(tmp_path, "--url", server_url)


@pytest.fixture
def served_alone(tmp_path: Path):
    """What a user gets with no server: the embedded one with the demo agent, no thread yet
    (the app welcomes, the composer has the keys)."""
    yield from serve(tmp_path)


def test_serve_answers_with_the_textual_serve_page(served: str):
    page = httpx.get(served, timeout=5)
    assert page.status_code == 200
    assert "<title>Threadbench</title>" in page.text or "Threadbench" in page.text
    assert "textual.js" in page.text and "/ws" in page.text


async def read_screen(url: str, seconds: float = 30.0) -> str:
    """Connect like the browser's terminal does and collect what the app draws."""
    received = b""
    ws_url = url.replace("http://", "ws://") + "/ws?width=120&height=36"
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(ws_url) as websocket:
            await websocket.send_json(["resize", {"width": 120, "height": 36}])
            deadline = asyncio.get_running_loop().time() + seconds
            while b"threads" not in received or b"Help" not in received:
                remaining = deadline - asyncio.get_running_loop().time()
                if remaining <= 0:
                    break
                try:
                    message = await websocket.receive(timeout=remaining)
                except TimeoutError:
                    break
                if message.type == aiohttp.WSMsgType.BINARY:
                    received += message.data
                elif message.type == aiohttp.WSMsgType.TEXT:
                    received += message.data.encode()
                elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    break
            await websocket.send_json(["stdin", "\x11"])  # ctrl+q: the app quits
    return received.decode(errors="replace")


async def test_the_served_app_draws_the_main_screen_over_the_websocket(served: str):
    screen = await read_screen(served)
    assert "threads" in screen and "Help" in screen, screen[-2000:]


@pytest.mark.skipif(not CHROMIUM.exists() or shutil.which("chromium") is None, reason="Chromium is not installed")
def test_headless_chromium_screenshot(served: str, tmp_path: Path):
    shot = tmp_path / "serve.png"
    subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--virtual-time-budget=15000",
            "--window-size=1400,900",
            f"--screenshot={shot}",
            served,
        ],
        check=True,
        capture_output=True,
        timeout=90,
    )
    assert shot.exists() and shot.stat().st_size > 10_000


def chromium_problem() -> str | None:
    """Why Chromium cannot be driven here (None: it can)."""
    if not CHROMIUM.exists():
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium; .ci/run installs it as root)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (it is in the test extra)"
    return None


# A closed network: Chromium must not reach for updates, sync or QUIC.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def test_in_chromium_a_message_typed_on_the_keyboard_gets_its_reply(served_alone: str, tmp_path: Path):
    """The page in a real browser (Debian's Chromium, driven by Playwright): keys pressed in
    the page reach the app, and the reply comes back to the page. The terminal draws on a
    canvas, so the page's text is read where the browser receives it: the websocket."""
    if (problem := chromium_problem()) is not None:
        pytest.skip(problem)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    received: list[str] = []
    sockets: list = []

    def drawn() -> str:
        """What the app drew, its escape sequences left out (runs of text stay whole)."""
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(received))

    def opened(websocket) -> None:
        sockets.append(websocket)
        websocket.on("framereceived", frame)

    def frame(payload) -> None:
        received.append(payload.decode(errors="replace") if isinstance(payload, bytes) else payload)

    def wait_until(what: str, predicate, page, timeout: float = 60.0) -> None:
        """Until the frames received show `what`: looked at again as each frame comes."""
        try:
            if not sockets:
                page.wait_for_event("websocket", timeout=timeout * 1000)
            if not predicate():
                sockets[0].wait_for_event("framereceived", predicate=lambda _: predicate(), timeout=timeout * 1000)
        except PlaywrightTimeout:
            raise AssertionError(f"the page never showed {what}: ...{drawn()[-1500:]!r}") from None

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page()
            page.on("websocket", opened)
            page.goto(served_alone)
            wait_until(
                "the welcome", lambda: "threads" in drawn() and "Help" in drawn() and "0 threads" in drawn(), page
            )
            assert "Hello" not in drawn()
            page.locator("#terminal textarea").focus()  # the terminal's keyboard (a click would be a mouse click)
            page.keyboard.type("hello")
            wait_until("the typed text", lambda: "hello" in drawn(), page)  # in the composer, then send
            page.keyboard.press("Enter")
            wait_until("the agent's reply", lambda: "Hello" in drawn(), page)
        finally:
            browser.close()
