"""One of App's private methods, the only way to change Textual's crash report.

`_fatal_error` writes Textual's crash report, with the local variables of every frame: they can
hold the API key or the password. Here it is written without them, the known secrets redacted.
(A worker of a closing widget failing is no crash: that is `ui/workers.py`, on public API.)

When it is not active, the crash report still never shows a secret: the app's public
`error_console` writes through `CrashSummary`, which keeps only the report's last lines (what
failed), the secrets redacted, and drops the frames and their variables.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from typing import Any

import rich
from rich.console import Console
from rich.segment import Segment, Segments
from rich.traceback import Traceback
from textual.app import App

from . import active


def redacted_report(console: Console, secrets: list[str]) -> Segments:
    """The traceback being handled, without local variables, each secret replaced."""
    segments = []
    for segment in console.render(Traceback(show_locals=False, width=None, suppress=[rich]), console.options):
        text = segment.text
        for secret in secrets:
            text = text.replace(secret, "[redacted]")
        segments.append(Segment(text, segment.style, segment.control))
    return Segments(segments)


class CrashSummary(io.StringIO):
    """A file for Textual's error console: each report printed is cut to its last lines."""

    def __init__(self, secrets: Callable[[], list[str]]) -> None:
        super().__init__()
        self.secrets = secrets

    def flush(self) -> None:
        text = self.getvalue()
        self.seek(0)
        self.truncate()
        if "Traceback" in text:  # (the frames end with the last box's bottom line)
            text = text.rsplit("╰", 1)[-1].split("\n", 1)[-1]
            text += "(the frames are left out: their variables could show a secret)\n"
        for secret in self.secrets():
            text = text.replace(secret, "[redacted]")
        sys.stderr.write(text)
        sys.stderr.flush()


class CompatApp(App[None]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not active():
            self.error_console = Console(markup=False, highlight=False, file=CrashSummary(self.crash_secrets))

    def crash_secrets(self) -> list[str]:
        """What a crash report must not show."""
        return []

    def _fatal_error(self) -> None:  # compat: Textual 8.2.8's crash report
        if not active():
            return super()._fatal_error()  # compat
        self.bell()
        self._exit_renderables.append(redacted_report(self.console, self.crash_secrets()))  # compat
        self._close_messages_no_wait()  # compat: what Textual's own does next
