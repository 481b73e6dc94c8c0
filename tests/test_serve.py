"""`threadbench serve`: the app in a browser through textual-serve, started for real.

The test fetches the page, then talks to the app over the page's websocket the way the
browser does and reads the screen it draws. With Chromium at /usr/bin/chromium (not
installed by default) it also takes a headless screenshot.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import httpx
import pytest
from threadbench.embedded.launcher import free_port

pytestmark = pytest.mark.server
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def served(server_url: str, tmp_path: Path):
    port = free_port()
    env = {**os.environ, "THREADBENCH_CONFIG": str(tmp_path / "config.toml"), "THREADBENCH_DATA_DIR": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "threadbench", "serve", "--host", "127.0.0.1", "--port", str(port), "--url", server_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, process.stdout.read().decode(errors="replace")
            assert time.monotonic() < deadline, "serve did not answer"
            time.sleep(0.2)
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
