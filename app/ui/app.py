"""The Threadbench application: owns the settings, the backend and the embedded server.

Screens do the work of each view; the app starts the embedded server in the background
(the UI is interactive at once and says so while it boots) and hands screens a ready
backend. App-level keys: help (f1, ?), the command palette (ctrl+p), another server
(ctrl+o, switch_server), export (ctrl+s), theme (ctrl+t, remembered in the config file),
$EDITOR for the focused text box (f4), copy the last reply (y), record runs (f8) and replay
a recording (f9).
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.theme import Theme
from textual.worker import get_current_worker

from ..config import Settings
from ..logs import RedactSecrets, log, setup_logging
from ..sentences import whole_sentences
from ..session import Session
from ..start_checks import EXIT_USAGE
from ..styles import STYLES
from . import (
    heap,
    key_characters,  # noqa: F401  (names six keys for Textual: see the module)
    textual_compat,
)
from .app_config import apply_config, check_keymap, save_theme
from .collector import CHECK_SECONDS, Collector
from .connecting import Connections
from .editor import edit_focused
from .embedded_host import EmbeddedHost
from .kept_screens import KeptScreens
from .shell import ShellScreen, load_main_screen, main_screen_loaded
from .text import pasted
from .textual_compat.app_hooks import CompatApp
from .thread_export import copy_last_reply, export_open_thread
from .typed_keys import TypedKeys
from .workers import work

if TYPE_CHECKING:  # (imported where used: they load behind the first frame, see shell.py)
    from textual.command import Provider

    from ..backends.base import Backend
    from .main_screen import MainScreen

MAX_SERVER_RESTARTS = 3
KEYS_PAUSE = 0.1
"""Seconds with no key, after the outline is mounted, before the main screen loads: the first
frame and a key pressed at first sight (ctrl+p) are answered first; the loading thread would
take half the interpreter's time from the event loop meanwhile."""
WARM_UP_AFTER = 1.0
"""Seconds after start before the highlighters are compiled (the first frames come first)."""
OWN_SYSTEM_COMMANDS = {"Theme", "Quit"}
"""Textual's palette commands the app's own bindings list too (ctrl+t, ctrl+q)."""
WARM_LEXERS = ("python", "json", "bash", "javascript", "typescript", "yaml", "toml", "sql", "diff", "text")


def threadbench_commands() -> type[Provider]:
    """The palette's threads and actions (commands.py) once the main screen's modules are
    loaded; until then Textual's own (importing them here would hold the palette up until
    the thread loading them is done)."""
    if not main_screen_loaded():
        from textual.system_commands import SystemCommandsProvider

        return SystemCommandsProvider
    from .commands import ThreadbenchCommands

    return ThreadbenchCommands


class ThreadbenchApp(CompatApp):
    themes: dict[str, Theme]
    """Every theme registered, by name (Textual's own copies its dict at each look)."""
    TITLE = "Threadbench"
    CSS_PATH = [STYLES / name for name in ("app.tcss", "objects.tcss", "human_input.tcss", "compare.tcss")]
    """The screens' own style sheets are their CSS_PATH too (objects: runs, assistants, store,
    crons; human_input: answering the agent, the inbox; compare: compare and fan out). Read with
    the app's, the first of each opens without parsing the stylesheet again and restyling every
    widget of the app (300-400 ms on a loaded 2-core machine). Their rules are scoped to their
    screens' ids and classes."""
    COMMANDS = App.COMMANDS | {threadbench_commands}

    @staticmethod
    def help_owners() -> dict[str, type[DOMNode]]:
        """The help screen's groups for the classes threadbench.ui.screens.help may not import
        (they sit above it)."""
        from .main_screen import MainScreen
        from .regions.inspector import FilterInput, Inspector
        from .regions.thread_sidebar import ThreadSidebar

        return {
            "Main screen": MainScreen,
            "Thread list pane": ThreadSidebar,
            "Inspector, over the chat": Inspector,
            "State filter": FilterInput,
        }

    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit", tooltip="Quit Threadbench"),
        Binding("f1,question_mark", "help", "Help", id="app.help", tooltip="Help: every key"),
        Binding(
            "ctrl+p",
            "command_palette",
            "palette",
            show=False,
            priority=True,
            id="app.palette",
            tooltip="Command palette: threads and actions",
        ),
        Binding("ctrl+o", "connect", "Connect", show=False, id="app.connect", tooltip="Connect to another server"),
        Binding(
            "ctrl+s",
            "export_thread",
            "Export",
            show=False,
            id="app.export",
            tooltip="Export the thread to Markdown or JSON",
        ),
        Binding(
            "f8",
            "toggle_recording",
            "Record runs",
            show=False,
            id="app.record",
            tooltip="Record every run to the recordings folder (on, off)",
        ),
        Binding(
            "f9",
            "replay_recording",
            "Replay a recording",
            show=False,
            id="app.replay",
            tooltip="Replay a recorded run, with no server",
        ),
        Binding("ctrl+t", "change_theme", "Theme", show=False, id="app.theme", tooltip="Change the theme (remembered)"),
        Binding(
            "f4",
            "edit_in_editor",
            "Edit in $EDITOR",
            show=False,
            priority=True,
            id="app.editor",
            tooltip="Edit the focused text box in $EDITOR",
        ),
        Binding(
            "y",
            "copy_reply",
            "Copy reply",
            show=False,
            id="app.copy_reply",
            tooltip="Copy the last reply to the clipboard",
        ),
    ]

    def __init__(
        self,
        settings: Settings,
        *,
        backend_kind: str = "langgraph",
        clock: Callable[[], datetime] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        wrap_backend: Callable[[Backend], Backend] | None = None,
        backend: Backend | None = None,
    ) -> None:
        """`backend`: one made by the caller (a recording to replay); else the app makes it
        from the settings (the embedded server, or settings.url)."""
        super().__init__()
        self.settings = settings
        self.session = Session(settings, backend_kind)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.monotonic = monotonic
        """Wall clock and elapsed-time source; snapshot tests freeze both."""
        self.wrap_backend = wrap_backend or (lambda backend: backend)
        """The caller's wrapper of every backend made (tests, bench)."""
        self._given_backend = backend
        self.typed_keys = TypedKeys(self)
        self.connections = Connections(self)
        self.embedded = EmbeddedHost(self)
        heap.one_arena()
        self.collector = Collector()
        textual_compat.install()
        self.kept_screens = KeptScreens(self, {})
        """The kept dialogs (their modules load behind the first frame: see _main_screen_loaded)."""
        self.keymap: dict[str, str] = dict(settings.keymap)
        self._theme_ready = False
        self.log_path = setup_logging(
            settings.data_dir,
            settings.debug,
            secrets=[settings.effective_api_key() or "", settings.effective_password() or ""],
        )

    def register_theme(self, theme: Theme) -> None:
        super().register_theme(theme)  # (called by App.__init__, before ours)
        self.themes = {**getattr(self, "themes", {}), theme.name: theme}

    def unregister_theme(self, theme_name: str) -> None:
        super().unregister_theme(theme_name)
        self.themes = {name: theme for name, theme in self.themes.items() if name != theme_name}

    def get_theme(self, theme_name: str) -> Theme | None:
        """Textual's, without copying the dict of every theme twice per call: it is called
        for each line rendered, and the copies were a tenth of a streamed frame."""
        for name in theme_name.split(","):
            theme = self.themes.get(name.strip())
            if theme is not None:
                return theme
        return None

    def on_mount(self) -> None:
        self.collector.start()
        self.set_interval(CHECK_SECONDS, self.when_idle)
        if not apply_config(self):
            return
        self._theme_ready = True
        self.set_timer(WARM_UP_AFTER, self.warm_up)
        if self._given_backend is None and self.settings.embedded and not self.embedded.start():
            return
        if main_screen_loaded():
            self._main_screen_loaded()
        else:
            waiting = f"connecting to {self.settings.url}…" if self._given_backend is None else "loading…"
            self.push_screen(ShellScreen(self.embedded.starting_text or waiting, self.session.settings.data_dir))
            # A timer, not call_after_refresh: that waits for the outline's first refresh, and
            # a palette opened before it (ctrl+p typed ahead) held the load until it closed.
            self.set_timer(KEYS_PAUSE, self._load_when_keys_pause)

    def _load_when_keys_pause(self) -> None:
        """Load the main screen once no key came for KEYS_PAUSE."""
        wait = self.typed_keys.last_key + KEYS_PAUSE - time.monotonic()
        if wait > 0:
            self.set_timer(wait, self._load_when_keys_pause)
        else:
            self._load_main_screen()

    @work(thread=True, group="start")
    def _load_main_screen(self) -> None:
        """The main screen's modules (and the backend's, for a server given by URL), off the
        event loop (shell.py)."""
        load_main_screen()
        if self._given_backend is None and not self.settings.embedded:
            from ..backends.detect import backend_module

            importlib.import_module(backend_module(self.session.backend_kind))
        if not get_current_worker().is_cancelled:  # (the app quit meanwhile)
            self.call_from_thread(self._main_screen_loaded)

    def _main_screen_loaded(self) -> None:
        """The main screen in place of the shell (once any dialog over it is closed), handed
        the keys the shell held."""
        from .main_screen import MainScreen
        from .regions.objects import KEPT_SCREENS

        self.kept_screens = KeptScreens(self, KEPT_SCREENS)
        if self._given_backend is not None:
            self.session.backend = self._given_backend
        elif not self.settings.embedded:
            from ..backends.base import BackendError
            from ..backends.detect import make_backend

            assert self.settings.url is not None
            try:
                backend = make_backend(
                    self.session.backend_kind,
                    self.settings.url,
                    self.settings.effective_api_key(),
                    self.settings.credentials(),
                )
            except BackendError as error:  # a key no header can carry: say so, do not crash
                self.fail(error.with_hint().strip())
                return
            self.session.backend = self.connections.wrap(backend)
        if not check_keymap(self):
            return
        shell = next((screen for screen in self.screen_stack if isinstance(screen, ShellScreen)), None)
        if shell is None:
            self.push_screen(MainScreen())
        else:
            shell.replace_with(MainScreen)

    @property
    def main_screen(self) -> MainScreen | None:
        """The main screen, under any dialogs; None while its modules load (shell.py)."""
        if not main_screen_loaded():
            return None
        from .main_screen import find_main_screen

        return find_main_screen(self)

    def when_idle(self) -> None:
        """Every CHECK_SECONDS: a full collection if one is due, else, the user idle, one kept
        dialog built ahead (each is a pause of its own: one per check)."""
        if self.collector.tick() or not self.collector.user_idle:
            return
        main = self.main_screen
        backend = self.session.backend
        if backend is not None and main is not None and main is self.screen:
            self.kept_screens.build_ahead(backend)

    @work(thread=True, exit_on_error=False, group="warm-up")
    def warm_up(self) -> None:
        """Compile the syntax highlighters code blocks use most, off the event loop: the
        first code block a reply streams would otherwise stall the screen for ~200 ms."""
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound

        for language in WARM_LEXERS:
            with contextlib.suppress(ClassNotFound):
                get_lexer_by_name(language)

    def crash_secrets(self) -> list[str]:
        return [s for h in log.handlers for f in h.filters if isinstance(f, RedactSecrets) for s in f.secrets]

    def fail(self, text: str) -> None:
        """Exit with status 2 and one clear paragraph (shown after the screen is restored), as
        every bad start-up input does (start_checks.py)."""
        log.error("%s", text)
        self.exit(return_code=EXIT_USAGE, message=Text(f"threadbench: {whole_sentences(text)}"))

    def log_error(self, text: str) -> None:
        log.warning("%s", text)

    def push_screen(self, screen, *args, **kwargs):
        self.typed_keys.screen_pushed(screen)
        return super().push_screen(screen, *args, **kwargs)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseEvent)):
            self.collector.input_seen()
        if isinstance(event, events.Key):
            await self.typed_keys.route(event, super().on_event)
        else:
            if isinstance(event, events.Paste):  # (into whichever field has the focus)
                event.text = pasted(event.text)
            await super().on_event(event)

    async def on_unmount(self) -> None:
        self.collector.stop()
        if self.session.backend is not None:
            await self.session.backend.close()
        self.embedded.stop()

    # -- config: keymap, theme, problems ----------------------------------------------------------

    def watch_theme(self, theme: str) -> None:
        if self._theme_ready:
            save_theme(self, theme)

    # -- help, palette, theme ----------------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's palette commands but those the app's own list has (theme, quit), once
        that list is there: each is listed once."""
        ours = main_screen_loaded()
        for command in super().get_system_commands(screen):
            if not (ours and command.title in OWN_SYSTEM_COMMANDS):
                yield command

    def action_help(self) -> None:
        from .main_screen import find_main_screen
        from .screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        else:
            main = find_main_screen(self)
            self.push_screen(HelpScreen(main.conversation.run_status.full_text if main is not None else ""))

    # -- connections, recording and replay (connecting.py) ----------------------------------------

    def action_connect(self) -> None:
        self.connections.choose()

    def action_toggle_recording(self) -> None:
        self.connections.toggle_recording()

    def action_replay_recording(self) -> None:
        self.connections.choose_replay()

    # -- the thread out of the app, the editor ---------------------------------------------------

    def action_export_thread(self) -> None:
        export_open_thread(self)

    def action_copy_reply(self) -> None:
        copy_last_reply(self)

    def action_edit_in_editor(self) -> None:
        edit_focused(self)
