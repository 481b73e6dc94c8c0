"""The app in a pseudo-terminal, the way a person starts it (tests/unit/test_cli.py,
tests/unit/test_start_errors.py)."""

from __future__ import annotations

import os
import pty
import re
import select
import sys
import time

from support.waiting import POLL

ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=$]*[A-Za-z~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][A-Z0-9]|[=>78])")
"""A terminal's control sequences (CSI, OSC, charset and keypad ones), to read what an app printed."""


class Terminal:
    """The app in a pseudo-terminal, the way a person starts it."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        """`env`: the app's environment (default: this process's)."""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the app
            if env is not None:
                os.environ.clear()
                os.environ.update(env)
            os.environ.update(TERM="xterm-256color", COLUMNS="120", LINES="40")
            os.execv(sys.executable, [sys.executable, "-m", "threadbench", *args])
        self.output = b""

    def read(self, seconds: float) -> None:
        """What the app writes for `seconds` (read_until's step)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.output += os.read(self.fd, 65536)
                except OSError:
                    return

    def read_until(self, done, timeout: float = 30, what: str = "") -> None:
        """Read until `done()` holds (looked at again as output comes, or every POLL)."""
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"timed out waiting for {what}: ...{self.output[-1500:]!r}"
            self.read(POLL)

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def wait(self, timeout: float = 20) -> int:
        """The app's exit status, once it has exited (what it writes meanwhile is read)."""
        codes: list[int] = []

        def exited() -> bool:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                codes.append(os.waitstatus_to_exitcode(status))
            return bool(pid)

        self.read_until(exited, timeout, "the app to exit")
        os.close(self.fd)
        return codes[0]

    def printed(self) -> str:
        """What the app printed once it had left the alternate screen (its last words), as text."""
        text = self.output.decode(errors="replace")
        after = text.rsplit("\x1b[?1049l", 1)[-1]
        return ESCAPES.sub("", after).replace("\r", "")
