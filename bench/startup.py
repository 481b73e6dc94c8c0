"""Start: `python -m app` in a real terminal (a pty), the embedded server booting meanwhile.

The app is launched the way a person starts it (no --url: it spawns the embedded server
with the demo agent, in a fresh data directory and with no config file). Timed from the
spawn:

In process (the app's own cost): from ThreadbenchApp() to the main screen painted, and
ctrl+p answered (the command palette painted), the server still booting.

In a pty (what a person sees, imports included):

    first frame   the screen shows "starting embedded server" (the UI is up, and says so:
                  the main screen's outline while its modules load, app/ui/shell.py)
    interactive   ctrl+p pressed right after that first frame -> the command palette is
                  on screen (the app answers keys while the server is still booting)
    main screen   the palette closed, the main screen is shown (its thread search), for reference
    server ready  the screen shows the server answering ("idle"), for reference

The baseline is what no Python UI can beat: the same interpreter starting and importing
langgraph-sdk (python -c "import langgraph_sdk").

--quick: 3 starts of each kind (5 otherwise). --smoke: 1 of each, the baselines too.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import cli, emit, median, sized, verdict

FIRST_FRAME = b"starting embedded server"
MAIN_SCREEN = b"/ search"
BARE_TEXTUAL = """
from textual.app import App
from textual.widgets import Static
class Hello(App):
    def compose(self):
        yield Static("hello from textual")
Hello().run()
"""
CSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]")
PALETTE = b"Search for commands"


class Terminal:
    """The app in a pseudo-terminal, the way a person starts it (see tests/unit/test_cli.py)."""

    def __init__(self, *args: str, env: dict[str, str]) -> None:
        """`python ARGS` in the terminal."""
        self.started = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the app
            os.environ.update(env)
            os.execv(sys.executable, [sys.executable, *args])
        self.output = b""

    def wait_for(self, needle: bytes, timeout: float, start: int = 0) -> float | None:
        """Read until `needle` appears on screen in what was written after offset `start`;
        the time it did (None: never). Escape sequences are left out of the search: a
        cursor drawn on a letter splits the text around it."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if needle in CSI.sub(b"", self.output[start:]):
                return time.perf_counter()
            ready, _, _ = select.select([self.fd], [], [], 0.002)
            if ready:
                try:
                    self.output += os.read(self.fd, 1 << 16)
                except OSError:
                    return None
        return None

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def close(self) -> None:
        try:
            self.send(b"\x11")  # ctrl+q: the app stops its server and exits
            deadline = time.perf_counter() + 20
            while time.perf_counter() < deadline:
                self.wait_for(b"\x00never", 0.2)
                pid, _ = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    break
            else:
                os.kill(self.pid, signal.SIGTERM)
                os.waitpid(self.pid, 0)
        finally:
            os.close(self.fd)


def launch_once() -> dict:
    home = Path(tempfile.mkdtemp(prefix="tb-bench-start-"))
    env = {
        "TERM": "xterm-256color",
        "COLUMNS": "140",
        "LINES": "40",
        "THREADBENCH_CONFIG": str(home / "config.toml"),
        "THREADBENCH_DATA_DIR": str(home / "data"),
    }
    term = Terminal("-m", "threadbench", "--data-dir", str(home / "data"), env=env)
    try:
        first = term.wait_for(FIRST_FRAME, 20)
        if first is None:
            raise RuntimeError("the app never showed 'starting embedded server'")
        mark = len(term.output)
        term.send(b"\x10")  # ctrl+p
        palette = term.wait_for(PALETTE, 10, mark)
        term.send(b"\x1b")  # escape: close it again
        main = term.wait_for(MAIN_SCREEN, 20, mark)
        ready = term.wait_for(b"idle", 60, mark)
        return {
            "first": first - term.started,
            "interactive": (palette - term.started) if palette else None,
            "main": (main - term.started) if main else None,
            "ready": (ready - term.started) if ready else None,
        }
    finally:
        term.close()


def bare_textual_once() -> float:
    """The first frame of the smallest Textual app, in the same terminal: what any Textual
    app pays before it shows anything (Python, importing Textual, the first paint)."""
    term = Terminal("-c", BARE_TEXTUAL, env={"TERM": "xterm-256color", "COLUMNS": "140", "LINES": "40"})
    try:
        first = term.wait_for(b"hello from textual", 20)
        if first is None:
            raise RuntimeError("the bare Textual app never showed its text")
        return first - term.started
    finally:
        term.close()


def baseline_once() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import langgraph_sdk"], check=True)
    return time.perf_counter() - start


async def in_process_once() -> dict:
    """From ThreadbenchApp() (embedded mode) to the main screen answering a key."""
    from threadbench.config import Settings
    from threadbench.ui.app import ThreadbenchApp
    from threadbench.ui.main_screen import MainScreen

    from bench.common import TERMINAL, now, painted, press, settle, wait_until

    home = Path(tempfile.mkdtemp(prefix="tb-bench-start-"))
    start = now()
    app = ThreadbenchApp(Settings(url=None, data_dir=home / "data"))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_until(lambda: isinstance(app.screen, MainScreen) and app.screen.is_mounted, what="main screen")
        first = await painted(app)
        booting = app.session.backend is None
        press(app, "ctrl+p")
        await wait_until(lambda: type(app.screen).__name__ == "CommandPalette", what="palette")
        interactive = await painted(app)
        await pilot.press("escape")
        await wait_until(lambda: app.session.backend is not None, timeout=60, what="server")
        ready = now()
        await wait_until(
            lambda: app.screen.sidebar.thread_list.row_count > 0 or not app.screen.workers,
            timeout=30,
            what="thread list",
        )
        await settle(app, 0.3)  # leave no worker running behind
    return {"first": first - start, "interactive": interactive - start, "ready": ready - start, "booting": booting}


def main(args) -> list:
    import asyncio

    starts = sized(args, full=5, quick=3, smoke=1)
    baselines = sized(args, full=3, quick=3, smoke=1)
    inproc = [asyncio.run(in_process_once()) for _ in range(starts)]
    runs = [launch_once() for _ in range(starts)]
    base = [baseline_once() for _ in range(baselines)]
    bare = [bare_textual_once() * 1000 for _ in range(baselines)]
    firsts = [r["first"] * 1000 for r in runs]
    interactive = [r["interactive"] * 1000 for r in runs if r["interactive"] is not None]
    ready = [r["ready"] for r in runs if r["ready"] is not None]
    main_shown = [r["main"] * 1000 for r in runs if r["main"] is not None]
    worst = max(interactive) if len(interactive) == len(runs) else float("inf")
    in_interactive = [r["interactive"] * 1000 for r in inproc]
    return [
        verdict(
            "start: interactive after App() (in process)",
            max(in_interactive),
            500.0,
            note=f"first frame median {median([r['first'] * 1000 for r in inproc]):.0f} ms; server still "
            f"booting then in {sum(r['booting'] for r in inproc)}/{len(inproc)} runs, answering after "
            f"{median([r['ready'] for r in inproc]):.1f} s",
        ),
        verdict(
            "start: interactive after exec (pty)",
            worst,
            500.0,
            baseline=median(base) * 1000,
            note=f"first frame median {median(firsts):.0f} ms (a bare Textual app's: {median(bare):.0f} ms), "
            f"palette open median {median(interactive):.0f} ms, main screen {median(main_shown):.0f} ms; "
            f"server answering after {median(ready):.1f} s; "
            f"sdk = python + import langgraph_sdk",
        ),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(main(ARGS), ARGS.json)
