"""The first frame: the main screen's outline, shown while the modules behind the main screen
load in a thread.

Python, Textual and the app's first frame take about 300 ms on a 2-core machine; the main
screen's modules (the models and pydantic, the regions, the Markdown parser, the SDK) take
500-800 ms more. Imported before the first frame, they kept the screen blank and the keys
unanswered for a second (bench/startup.py). So the app shows this outline first (the panes
where the main screen puts them, and what it is waiting for) and loads them in a thread: the
event loop answers meanwhile (the palette, ctrl+q: the app's priority keys). Any other key typed is held here and
handed to the main screen, in order, once it is up: what the user typed is not lost.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from .widgets.key_footer import KeyFooter

MAIN_SCREEN_MODULES = ("threadbench.ui.main_screen", "threadbench.ui.commands")
"""What the main screen and the palette's own commands need (they import the rest)."""
_loaded = False


def main_screen_loaded() -> bool:
    """True once the main screen's modules are imported all the way (one that another thread
    is importing is in sys.modules already, half made)."""
    global _loaded
    if not _loaded:
        modules = [sys.modules.get(name) for name in MAIN_SCREEN_MODULES]
        _loaded = all(module is not None and not getattr(module.__spec__, "_initializing", False) for module in modules)
    return _loaded


def load_main_screen() -> None:
    """Import the main screen's modules (run in a thread)."""
    global _loaded
    for name in MAIN_SCREEN_MODULES:
        importlib.import_module(name)
    _loaded = True


class ShellScreen(Screen):
    """The main screen's outline while its modules load; it holds the keys typed meanwhile."""

    DEFAULT_CSS = """
    ShellScreen #panes > Static { height: 1fr; }
    ShellScreen .shell-note { color: $text-muted; padding: 1 1 0 1; }
    """

    def __init__(self, note: str) -> None:
        super().__init__()
        self.note = note
        self.held: list[events.Key] = []
        self._main: Callable[[], Screen] | None = None

    def compose(self) -> ComposeResult:
        # the main screen's pane ids: its style sheet lays the outline out where the panes will be
        with Horizontal(id="panes"):
            yield Static(self.note, id="sidebar", classes="shell-note", markup=False)
            yield Static(id="chat-pane")
            yield Static(id="inspector")
        yield KeyFooter()

    def replace_with(self, main: Callable[[], Screen]) -> None:
        """Make way for the main screen, now or when the dialog over this one (the palette)
        is closed, and hand it the keys held."""
        self._main = main
        if self.app.screen is self:
            self.app.call_next(self._replace)

    def on_screen_resume(self) -> None:
        if self._main is not None:
            self.app.call_next(self._replace)

    async def _replace(self) -> None:
        if self._main is None or self.app.screen is not self:
            return
        make, self._main = self._main, None
        main = make()
        await self.app.switch_screen(main)
        app, held, self.held = self.app, self.held, []

        def hand_on() -> None:
            for key in held:
                app.post_message(key)

        main.call_later(hand_on)  # after the main screen's resume, which gives the focus

    def on_key(self, event: events.Key) -> None:
        """Not a key of the app's own: kept for the main screen (see `held`)."""
        event.stop()
        event.prevent_default()
        self.held.append(events.Key(event.key, event.character))
