"""EventLog (#event-log): the raw stream events of the current run, and the stream modes.

    1,234 events · 312/s · last: messages
    [x] values  [x] updates  [x] messages
    [x] custom  [ ] debug    [ ] tasks
       12 messages        agent      214
       13 updates         tools     1.2k

`add_events(events, count)` is called once per batch from the stream pump and must stay
cheap at thousands of events a second: it appends rows to a ring buffer (the last
MAX_LINES events) and the list is virtual, so only visible rows are ever rendered.
`clear()` at run start; `selected_modes()` gives the stream modes for the next run
(EventLog.ModesChanged is posted when the user toggles one), of those the server streams
(`offer_modes`: the others are not shown).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable

from rich.segment import Segment
from textual.app import ComposeResult
from textual.containers import Grid, Vertical
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Checkbox, Static

from ...models import RunEvent
from ..text import clean

MAX_LINES = 2000
RATE_WINDOW = 2.0
"""Seconds of history the events/s figure is computed over."""
STREAM_MODES: list[tuple[str, str]] = [
    ("values", "values"),
    ("updates", "updates"),
    ("messages-tuple", "messages"),
    ("custom", "custom"),
    ("debug", "debug"),
    ("tasks", "tasks"),
]
"""(stream mode, checkbox label), in the order selected_modes() returns them."""
DEFAULT_MODES = ("messages-tuple", "updates", "values", "custom")
EVENT_WIDTH = 15
NODE_WIDTH = 10


def human_size(size: int) -> str:
    if size < 1000:
        return str(size)
    if size < 1_000_000:
        return f"{size / 1000:.1f}k"
    return f"{size / 1_000_000:.1f}M"


def _fit(text: str, width: int) -> str:
    text = clean(text).replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


class EventLines(ScrollView, can_focus=True):
    """A virtual list of event rows: (number, event, node, size, kind)."""

    COMPONENT_CLASSES = {"event-lines--number", "event-lines--event", "event-lines--error", "event-lines--size"}
    DEFAULT_CSS = """
    EventLines {
        height: 1fr;
        scrollbar-size-vertical: 1;
        & > .event-lines--number { color: $text-muted; }
        & > .event-lines--event { color: $text-accent; }
        & > .event-lines--error { color: $text-error; text-style: bold; }
        & > .event-lines--size { color: $text-muted; }
    }
    """

    def __init__(self, max_lines: int = MAX_LINES, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rows: deque[tuple[int, str, str, int, str]] = deque(maxlen=max_lines)
        self._width = 5 + 1 + EVENT_WIDTH + 1 + NODE_WIDTH + 1 + 6

    def add_rows(self, rows: Iterable[tuple[int, str, str, int, str]]) -> None:
        self.rows.extend(rows)
        if self.is_on_screen:  # (else sized when shown: a new size lays out the whole screen)
            self._show_rows()

    def on_show(self) -> None:
        self._show_rows()

    def _show_rows(self) -> None:
        follow = self.is_vertical_scroll_end or self.scroll_y >= self.max_scroll_y
        self.virtual_size = Size(self._width, len(self.rows))
        if follow:
            self.scroll_end(animate=False, immediate=False, x_axis=False)
        self.refresh()

    def clear(self) -> None:
        self.rows.clear()
        self.virtual_size = Size(self._width, 0)
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if index >= len(self.rows):
            return Strip.blank(width, base)
        number, event, node, size, kind = self.rows[index]
        error = kind == "error"
        event_style = self.get_component_rich_style("event-lines--error" if error else "event-lines--event")
        muted = self.get_component_rich_style("event-lines--number")
        size_style = self.get_component_rich_style("event-lines--size")
        segments = [
            Segment(f"{number:>5} ", base + muted),
            Segment(f"{_fit(event, EVENT_WIDTH):<{EVENT_WIDTH}} ", base + event_style),
            Segment(f"{_fit(node, NODE_WIDTH):<{NODE_WIDTH}} ", base),
            Segment(f"{human_size(size):>6}", base + size_style),
        ]
        strip = Strip(segments)
        return strip.crop_extend(scroll_x, scroll_x + width, base)


class EventLog(Vertical):
    class ModesChanged(Message):
        def __init__(self, modes: list[str]) -> None:
            super().__init__()
            self.modes = modes

    def __init__(
        self,
        modes: Iterable[str] = DEFAULT_MODES,
        clock: Callable[[], float] = time.monotonic,
        max_lines: int = MAX_LINES,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.initial_modes = set(modes)
        self.clock = clock
        self.max_lines = max_lines
        self.count = 0
        self.rows_added = 0
        self.last_event = ""
        self.run_id = ""
        self._samples: deque[tuple[float, int]] = deque()
        self._rate = 0.0

    def compose(self) -> ComposeResult:
        yield Static(id="event-log-header")
        with Grid(id="event-modes"):
            for mode, label in STREAM_MODES:
                yield Checkbox(label, mode in self.initial_modes, compact=True, name=mode, id=f"mode-{mode}")
        yield Static(
            Content.styled(f"{'#':>5} {'event':<{EVENT_WIDTH}} {'node':<{NODE_WIDTH}} {'bytes':>6}", "$text-muted"),
            id="event-columns",
        )
        yield EventLines(max_lines=self.max_lines, id="event-lines")

    def on_mount(self) -> None:
        self._update_header()

    @property
    def lines(self) -> EventLines:
        return self.query_one(EventLines)

    # -- modes -------------------------------------------------------------------------------

    def selected_modes(self) -> list[str]:
        """The stream modes ticked, for the next run."""
        boxes = (self.query_one(f"#mode-{mode}", Checkbox) for mode, _ in STREAM_MODES)
        return [box.name or "" for box in boxes if box.value and box.display]

    def offer_modes(self, modes: Iterable[str]) -> None:
        """Show only the modes the server streams."""
        offered = set(modes)
        for mode, _ in STREAM_MODES:
            self.query_one(f"#mode-{mode}", Checkbox).display = mode in offered

    def set_modes(self, modes: Iterable[str]) -> None:
        wanted = set(modes)
        for mode, _ in STREAM_MODES:
            self.query_one(f"#mode-{mode}", Checkbox).value = mode in wanted

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        self.post_message(self.ModesChanged(self.selected_modes()))

    # -- events ------------------------------------------------------------------------------

    def clear(self) -> None:
        """A new run starts."""
        self.count = self.rows_added = 0
        self.last_event = ""
        self.run_id = ""
        self._samples.clear()
        self._rate = 0.0
        self.lines.clear()
        self._update_header()

    def add_events(self, events: list[RunEvent], count: int | None = None) -> None:
        """A batch of events, one row each; `count` is how many the server sent for them
        (the stream pump merges a message's tokens into one event: default, one each). The
        header counts the server's events, the # column the rows."""
        if not events:
            return
        total = self.count + (count if count is not None else len(events))
        first = self.rows_added + 1
        self.lines.add_rows(
            (first + offset, event.event or event.kind, event.node, event.size, event.kind)
            for offset, event in enumerate(events)
        )
        self.rows_added += len(events)
        self.count = total
        last = events[-1]
        self.last_event = last.event or last.kind
        if not self.run_id:
            self.run_id = next((e.run_id for e in events if e.run_id), "")
        now = self.clock()
        self._samples.append((now, total))
        while len(self._samples) > 2 and now - self._samples[0][0] > RATE_WINDOW:
            self._samples.popleft()
        start_time, start_count = self._samples[0]
        elapsed = now - start_time
        self._rate = (total - start_count) / elapsed if elapsed > 0 else 0.0
        if self.is_on_screen:  # (else when shown: a hidden widget refreshed makes the screen map every widget again)
            self._update_header()

    def on_show(self) -> None:
        self._update_header()

    @property
    def rate(self) -> float:
        return self._rate

    def _update_header(self) -> None:
        parts: list[Content | str] = [Content.styled(f"{self.count:,} event{'s' * (self.count != 1)}", "bold")]
        if self.count and len(self._samples) > 1:
            parts += [" · ", Content.styled(f"{self._rate:,.0f}/s", "$text-accent")]
        if self.last_event:
            parts += [" · ", Content.styled(f"last: {_fit(self.last_event, 14)}", "$text-muted")]
        if not self.count:
            parts += [Content.styled(" · modes for the next run:", "$text-muted")]
        self.query_one("#event-log-header", Static).update(Content.assemble(*parts), layout=False)  # (one row)
