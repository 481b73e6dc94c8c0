"""The first frame: the main screen's outline, shown while the modules behind the main screen
load in a thread.

Python, Textual and the app's first frame take about 300 ms on a 2-core machine; the main
screen's modules (the models and pydantic, the regions, the Markdown parser, the SDK) take
500-800 ms more. Imported before the first frame, they kept the screen blank and the keys
unanswered for a second (bench/startup.py). So the app shows this outline first (the panes
where the main screen puts them, and what it is waiting for) and loads them in a thread: the
event loop answers meanwhile (the palette, ctrl+q: the app's priority keys). Any other key typed is held here and
handed to the main screen, in order, once it is up: what the user typed is not lost.

A palette opened meanwhile has only Textual's own commands (the app's need the main screen).
When the main screen is ready the palette is opened again over it, with what was typed in it,
so the app's commands and threads are found without closing it.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from textual import events
from textual.app import ComposeResult
from textual.command import CommandInput, CommandPalette
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import WorkerCancelled, WorkerFailed

from .pane_layout import SidePanes
from .typed_keys import typed_keys
from .widgets.key_footer import KeyFooter

MAIN_SCREEN_MODULES = ("threadbench.ui.main_screen", "threadbench.ui.commands")
"""What the main screen and the palette's own commands need (they import the rest)."""
_loaded = False
HAND_OVER_QUIET = 0.15
"""Seconds without a key before a palette is handed over to the main screen (replace_with)."""
HAND_OVER_LIMIT = 3.0
"""Seconds the keys typed during a hand-over wait for the palette at most."""
PALETTE_ID = "--command-palette"
"""The id of the palette ctrl+p opens (App.action_command_palette); the theme picker, also a
CommandPalette, has none and stays until closed."""


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

    def __init__(self, note: str, data_dir: Path) -> None:
        super().__init__()
        self.note = note
        self.data_dir = data_dir
        self.held: list[events.Key] = []
        self._main: Callable[[], Screen] | None = None
        self._palette_query: str | None = None

    def compose(self) -> ComposeResult:
        # the main screen's pane ids: its style sheet lays the outline out where the panes will be
        with Horizontal(id="panes"):
            yield Static(self.note, id="sidebar", classes="shell-note", markup=False)
            yield Static(id="chat-pane")
            yield Static(id="inspector")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.panes = SidePanes(self, self.data_dir)
        self.panes.arrange()

    def on_resize(self) -> None:
        self.panes.arrange()

    def replace_with(self, main: Callable[[], Screen]) -> None:
        """Make way for the main screen and hand it the keys held: now; or, under the palette
        ctrl+p opened, now with the palette opened again over it; or when another dialog
        over this one is closed."""
        self._main = main
        top = self.app.screen
        if top is self:
            self.app.call_next(self._replace)
        elif isinstance(top, CommandPalette) and top.id == PALETTE_ID:
            self._take_palette(top)

    def _take_palette(self, palette: CommandPalette) -> None:
        """Close the palette to open it again over the main screen, once the keys typed in it
        have reached its field (a key on its way may wait in the app's queues for a frame):
        no key for HAND_OVER_QUIET. Keys typed from then on wait for the palette opened again."""
        if self.app.screen is not palette:
            return  # closed meanwhile: this screen resumes (_replace)
        keys = typed_keys(self)
        wait = keys.last_key + HAND_OVER_QUIET - time.monotonic()
        if wait > 0:
            self.set_timer(wait, lambda: self._take_palette(palette))
            return
        # (if the palette is not open again in time, another screen came first: the keys
        # go on to whatever is shown rather than wait)
        keys.hold(HAND_OVER_LIMIT)
        self._palette_query = palette.query_one(CommandInput).value
        self.call_next(self._close_palette, palette)

    async def _close_palette(self, palette: CommandPalette) -> None:
        """Its searches stopped, and done, first: Textual stops a closing screen's workers
        only once its widgets are gone, and a search that ended in between filled a list no
        longer there (NoMatches)."""
        searches = palette.workers.cancel_node(palette)
        for search in searches:
            if search.is_running:
                with contextlib.suppress(WorkerCancelled, WorkerFailed):
                    await search.wait()
        if self.app.screen is palette:
            palette.dismiss()  # (this screen resumes: _replace)

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
        typed_keys(main).let_through(held)
        query = self._palette_query

        def hand_on() -> None:
            for key in held:
                app.post_message(key)
            if query is not None:  # after the keys held, each gone all the way
                app.call_later(typed_keys(main).when_idle, partial(self._reopen_palette, query))

        main.call_later(hand_on)  # after the main screen's resume, which gives the focus

    async def _reopen_palette(self, query: str) -> None:
        """(The keys held since the hand-over go to it once it is up: typed_keys.py.)"""
        if not typed_keys(self).holding:
            return  # too late: the keys went on
        palette = CommandPalette(id=PALETTE_ID)
        await self.app.push_screen(palette)
        field = palette.query_one(CommandInput)
        field.value = query
        field.cursor_position = len(query)

    def on_key(self, event: events.Key) -> None:
        """Not a key of the app's own: kept for the main screen (see `held`)."""
        event.stop()
        event.prevent_default()
        self.held.append(events.Key(event.key, event.character))
