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

    def reset(self) -> None:
        """Another thread: nothing of the last one's run (its time, its count, its tokens)."""
        self.started = None
        self._ticker.pause()
        self.events, self.node, self.elapsed, self.usage = 0, "", 0.0, ""
        self.show("idle")

    def show(self, state: str, detail: str = "") -> None:
        self.state, self.detail = state, detail
        self._redraw()

    def show_usage(self, usage: str) -> None:
        self.usage = usage
        self._redraw()

    def on_resize(self) -> None:
        self._redraw()

    def _tick(self) -> None:
        if self.started is not None:
            self.elapsed = self.app.monotonic() - self.started
        self._redraw()

    def _redraw(self) -> None:
        parts = self._parts()
        self.update(self._fit(parts, self.content_size.width), layout=False)  # (one row: never a layout)
        self.tooltip = _joined(parts).plain.strip()

    @property
    def full_text(self) -> str:
        """Everything the status says, however narrow its row (the help screen shows it)."""
        return _joined(self._parts()).plain.strip()

    def fitted(self, width: int) -> Content:
        """The status in one row of `width` cells (see _fit)."""
        return self._fit(self._parts(), width)

    @staticmethod
    def _fit(parts: list[tuple[int, Content]], width: int) -> Content:
        """`parts` in one row of `width` cells: dropped by priority (the rate, the count, the
        tokens, the node, the time) until they fit, then what the status says cut with "…";
        the state itself stays."""
        while width and len(parts) > 1 and _joined(parts).cell_length > width:
            droppable = [drop for drop, _ in parts if drop > 1]
            if not droppable:
                break
            worst = max(droppable)
            parts = [(drop, part) for drop, part in parts if drop != worst]
        content = _joined(parts)
        if width and content.cell_length > width:
            content = content.truncate(width, ellipsis=True)
        return content

    def _parts(self) -> list[tuple[int, Content]]:
        """The status's parts in the order shown, each with when it goes on a narrow row
        (the highest first; 0 and 1 stay, 1 cut if it must be)."""
        style = STATE_STYLES.get(self.state, "")
        detail = clean(self.detail)
        parts: list[tuple[int, Content]] = []
        if detail.lower().startswith(self.state):  # ("starting the embedded server…": not "starting starting")
            parts.append((0, Content.styled(f" {detail} ", style)))
        else:
            parts.append((0, Content.styled(f" {self.state} ", style)))
            if self.state == "running" and self.node:
                parts.append((4, Content.assemble(("node ", "dim"), (clean(self.node), "bold"), " ")))
            if detail:
                parts.append((1, Content(detail + " ")))
        if self.state == "running" or self.elapsed:
            parts.append((3, Content.styled(f"· {self.elapsed:4.1f}s", "dim")))
            parts.append((6, Content.styled(f" · {self.events} events", "dim")))
            if self.elapsed > 0.2:  # (a rate over a blink of time says nothing)
                parts.append((7, Content.styled(f" · {self.events / self.elapsed:,.0f}/s", "dim")))
        if self.usage and self.state != "running":
            parts.append((5, Content.styled(f" · {clean(self.usage)}", "dim")))
        return parts


def _joined(parts: list[tuple[int, Content]]) -> Content:
    return Content.assemble(*(part for _, part in parts))
