"""Which side panes the main screen shows at a width, and how: beside the chat, over it, or not
at all.

The chat and the composer keep at least 40 columns at 80 and 60 at 120: the inspector lies
beside the chat from WIDE columns up and over it below; the thread list narrows with the
screen (38 columns down to 26) and goes over the chat below NARROWEST.
What the person chose (ctrl+b, ctrl+backslash: a pane shown or hidden where it fits) is kept in
the data dir (`layout.json`) across starts; a pane opened over the chat is for the moment only,
and closes when the focus leaves it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from ..logs import log

PANES = ("sidebar", "inspector")
"""The side panes by id; the chat (#chat-pane) is always shown."""

WIDE = 140
"""From this width the inspector lies beside the chat."""
NARROWEST = 66
"""Below this width the thread list would leave the chat under 40 columns: it goes over it."""
INSPECTOR_WIDTH = 44
OVER_WIDTH = {"sidebar": 36, "inspector": 52}
"""The widths of a pane over the chat (at most the screen's)."""
CHAT_GLIMPSE = 30
"""A pane over the chat leaves at least this much of it in view, or covers all of it."""

Mode = Literal["beside", "over", "hidden"]

CLOSE_OVER = Binding(
    "escape", "screen.close_over", "Close", show=False, id="main.close_over", tooltip="Close the pane over the chat"
)
"""A side pane's escape: it closes where it lies over the chat (else the key goes on)."""


@dataclass
class PaneChoice:
    """What the person chose to see where it fits (kept across starts)."""

    sidebar: bool = True
    inspector: bool = True

    def wants(self, pane: str) -> bool:
        return bool(getattr(self, pane))

    def choose(self, pane: str, shown: bool) -> None:
        setattr(self, pane, shown)


def sidebar_width(width: int) -> int:
    """The thread list narrows with the screen."""
    return 38 if width >= 150 else 36 if width >= WIDE else 30 if width >= 100 else 26


def fits(pane: str, width: int) -> bool:
    """Whether `pane` can lie beside the chat at this screen width."""
    return width >= (WIDE if pane == "inspector" else NARROWEST)


def mode(pane: str, width: int, choice: PaneChoice, over: str | None) -> Mode:
    if choice.wants(pane) and fits(pane, width):
        return "beside"
    return "over" if over == pane else "hidden"


def pane_width(pane: str, width: int, choice: PaneChoice, over: str | None) -> int:
    """The columns `pane` takes at this screen width (0: hidden)."""
    shown = mode(pane, width, choice, over)
    if shown == "hidden":
        return 0
    if shown == "beside":
        return sidebar_width(width) if pane == "sidebar" else INSPECTOR_WIDTH
    others = [other for other in PANES if other != pane and mode(other, width, choice, None) == "beside"]
    chat = width - sum(pane_width(other, width, choice, None) for other in others)
    wanted = OVER_WIDTH[pane]
    return min(width, wanted if chat - wanted >= CHAT_GLIMPSE else max(chat, wanted))


def choice_path(data_dir: Path) -> Path:
    return data_dir / "layout.json"


def load_choice(data_dir: Path) -> PaneChoice:
    """The choice kept in the data dir; the default (every pane shown) when there is none or it
    cannot be read (said in the log: a layout is not worth a warning)."""
    path = choice_path(data_dir)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return PaneChoice()
    except (OSError, ValueError) as error:
        log.warning("layout: %s not read (%s); every pane shown", path, error)
        return PaneChoice()
    if not isinstance(data, dict):
        return PaneChoice()
    return PaneChoice(**{pane: data[pane] for pane in PANES if isinstance(data.get(pane), bool)})


def save_choice(data_dir: Path, choice: PaneChoice) -> None:
    path = choice_path(data_dir)
    try:
        path.write_text(json.dumps(asdict(choice)) + "\n", encoding="utf-8")
    except OSError as error:
        log.warning("layout: %s not written (%s)", path, error)


class SidePanes:
    """The side panes of a screen that has them (#sidebar, #inspector beside #chat-pane): laid
    out for the screen's width and the person's choice; one at a time may lie over the chat."""

    def __init__(self, screen: Screen, data_dir: Path) -> None:
        self.screen = screen
        self.data_dir = data_dir
        self.choice = load_choice(data_dir)
        self.over: str | None = None
        """The pane lying over the chat for the moment (opened by its key or by the focus)."""

    def mode(self, pane: str) -> Mode:
        return mode(pane, self.screen.app.size.width, self.choice, self.over)

    def arrange(self) -> None:
        width = self.screen.app.size.width
        for pane in PANES:
            widget = self.screen.query_one(f"#{pane}")
            columns = pane_width(pane, width, self.choice, self.over)
            widget.display = columns > 0
            widget.set_class(self.mode(pane) == "over", "-over")
            if columns:
                widget.styles.width = columns

    def toggle(self, pane: str) -> bool:
        """Show `pane` if it is hidden (beside the chat where it fits, else over it), hide it
        if it is shown. True when it is shown now."""
        shown = self.mode(pane)
        if shown == "beside":
            self.choice.choose(pane, False)
            save_choice(self.data_dir, self.choice)
        elif shown == "over":
            self.over = None
        elif fits(pane, self.screen.app.size.width):
            self.choice.choose(pane, True)
            save_choice(self.data_dir, self.choice)
        else:
            self.over = pane
        self.arrange()
        return self.mode(pane) != "hidden"

    def close_over(self) -> bool:
        """Close the pane lying over the chat; False when there is none."""
        if self.over is None:
            return False
        self.over = None
        self.arrange()
        return True

    def pane_of(self, widget: Widget) -> str | None:
        for node in widget.ancestors_with_self:
            if isinstance(node, Widget) and node.id in PANES:
                return node.id
        return None

    def focus_moved(self, widget: Widget) -> None:
        """The focus reveals a hidden pane it went into (over the chat), and closes the pane
        over the chat that it left."""
        pane = self.pane_of(widget)
        if pane is not None and self.mode(pane) == "hidden":
            self.over = pane
            self.arrange()
        elif self.over is not None and pane != self.over:
            self.close_over()
