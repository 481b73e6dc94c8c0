"""The run status bar (#run-status): what the current run is doing, for how long, how fast,
and (between runs) the tokens the thread's messages say they used."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ..text import clean

if TYPE_CHECKING:
    from ..app import ThreadbenchApp

STATE_STYLES = {
    "idle": "dim",
    "starting": "$warning",
    "running": "bold $accent",
    "waiting": "bold $warning",
    "paused": "$accent",
    "error": "bold $error",
    "cancelled": "$warning",
    "offline": "bold $error",
}


class RunStatus(Static):
    app: ThreadbenchApp
    state: reactive[str] = reactive("idle")
    detail: reactive[str] = reactive("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.node = ""
        self.events = 0
        self.started: float | None = None
        self.elapsed = 0.0
        self.usage = ""
        """The thread's tokens in words (shown when no run is under way)."""

    def on_mount(self) -> None:
        self._ticker = self.set_interval(0.5, self._tick, pause=True)

    def begin(self, detail: str = "") -> None:
        self.started = self.app.monotonic()
        self.events = 0
        self.node = ""
        self.elapsed = 0.0
        self.state, self.detail = "running", detail
        self._ticker.resume()
        self._redraw()

    def count(self, events: int, node: str = "") -> None:
        self.events += events
        if node:
            self.node = node

    def end(self, state: str = "idle", detail: str = "") -> None:
        if self.started is not None:
            self.elapsed = self.app.monotonic() - self.started
        self.started = None
        self._ticker.pause()
        self.state, self.detail = state, detail
        self._redraw()

    def show(self, state: str, detail: str = "") -> None:
        self.state, self.detail = state, detail
        self._redraw()

    def show_usage(self, usage: str) -> None:
        self.usage = usage
        self._redraw()

    def _tick(self) -> None:
        if self.started is not None:
            self.elapsed = self.app.monotonic() - self.started
        self._redraw()

    def _redraw(self) -> None:
        width = self.content_size.width
        content = self._text(counts=2)
        # It keeps to a row where it can (a new height lays out the screen): the rate, the count,
        # then the time go; what the status says stays.
        for fewer in (1, 0, -1):
            if not width or content.cell_length <= width:
                break
            content = self._text(counts=fewer)
        rows = len(content.wrap(width)) if width else 0
        self.update(content, layout=rows != self.content_size.height)  # (a layout only when its height changes)

    def _text(self, counts: int) -> Content:
        label = {"running": "running"}.get(self.state, self.state)
        parts: list[tuple[str, str] | str] = [(f" {label} ", STATE_STYLES.get(self.state, ""))]
        if self.state == "running" and self.node:
            parts.append(("node ", "dim"))
            parts.append((clean(self.node), "bold"))
            parts.append(" ")
        if self.detail:
            parts.append((clean(self.detail) + " ", ""))
        if counts >= 0 and (self.state == "running" or self.elapsed):
            rate = self.events / self.elapsed if self.elapsed > 0.2 else 0.0
            counted = "".join((f" · {self.events} events", f" · {rate:,.0f}/s")[:counts])
            parts.append((f"· {self.elapsed:4.1f}s{counted}", "dim"))
        if self.usage and self.state != "running":
            parts.append((f" · {clean(self.usage)}", "dim"))
        return Content.assemble(*parts)
