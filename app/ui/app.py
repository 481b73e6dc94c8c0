"""The Threadbench application: owns the settings, the backend and the embedded server.

Screens do the work of each view; the app starts the embedded server in the background
(the UI is interactive at once and says so while it boots) and hands screens a ready
backend. App-level keys: help (f1, ?), the command palette (ctrl+p), another server
(ctrl+o, switch_server), export (ctrl+s), theme (ctrl+t, remembered in the config file),
$EDITOR for the focused text box (f4), copy the last reply (y), record runs (f8) and replay
a recording (f9).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, work
from textual.app import App, InvalidThemeError
from textual.binding import Binding
from textual.content import Content
from textual.dom import DOMNode
from textual.theme import Theme
from textual.worker import NoActiveWorker, WorkerFailed, get_current_worker

from ..config import Settings
from ..embedded.launcher import EmbeddedServer, LaunchError
from ..logs import RedactSecrets, log, setup_logging
from ..run_options import RunOptions
from ..settings_file import remember_theme
from ..styles import STYLES
from . import (
    key_characters,  # noqa: F401  (names six keys for Textual: see the module)
    textual_compat,
)
from .collector import CHECK_SECONDS, Collector
from .editor import EditorError, edit_in_editor
from .kept_screens import KeptScreens
from .shell import ShellScreen, load_main_screen, main_screen_loaded
from .text import clean, one_line, relative_time
from .textual_compat.app_hooks import CompatApp
from .typed_keys import TypedKeys

if TYPE_CHECKING:  # (imported where used: they load behind the first frame, see shell.py)
    from textual.command import Provider

    from ..backends.base import Backend, Credentials
    from ..models import ThreadSummary
    from .main_screen import MainScreen
    from .screens.connection import Connection

MAX_SERVER_RESTARTS = 3
KEYS_PAUSE = 0.1
"""Seconds with no key, after the outline is mounted, before the main screen loads: the first
frame and a key pressed at first sight (ctrl+p) are answered first; the loading thread would
take half the interpreter's time from the event loop meanwhile."""
WARM_UP_AFTER = 1.0
"""Seconds after start before the highlighters are compiled (the first frames come first)."""
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
        from .regions.inspector import FilterInput

        return {"Main screen": MainScreen, "State filter": FilterInput}

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
        self.backend_kind = backend_kind
        self.clock = clock or (lambda: datetime.now(UTC))
        self.monotonic = monotonic
        """Wall clock and elapsed-time source; snapshot tests freeze both."""
        self._wrap = wrap_backend or (lambda backend: backend)
        self.recording_to: Path | None = settings.record_dir
        """The folder every run is written to (--record DIR, or F8), or None."""
        self._given_backend = backend
        self.backend: Backend | None = None
        self.run_options = run_options_from(settings.run_options)
        self.typed_keys = TypedKeys(self)
        self.graphs: list[str] = []
        """The graphs the server runs, as far as it lets us see (threadbench.run_target)."""
        self.graphs_complete = False
        """True when `graphs` is all of them (the assistants said so, or a refusal listed them)."""
        self.thread_targets: dict[str, str] = {}
        """Thread id -> the assistant or graph the user picked for it (new thread, picker)."""
        self.server: EmbeddedServer | None = None
        self.starting_text = ""
        self.connection_url: str | None = settings.url
        self.connection_profile: str | None = settings.profile
        self._switched = False
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

    @property
    def assistant_id(self) -> str:
        """The user's pick of assistant or graph for every run ("": each thread's own)."""
        return self.run_options.assistant_id

    @assistant_id.setter
    def assistant_id(self, value: str) -> None:
        self.run_options.assistant_id = value

    @property
    def live_backend(self) -> Backend:
        """The backend, for code that runs only once connected (a thread is open, a run began)."""
        if self.backend is None:
            raise RuntimeError("Not connected to a server yet.")
        return self.backend

    def assistant_of(self, thread: ThreadSummary | None, thread_id: str | None = None) -> str:
        """Where a run on a thread goes: the user's pick, the graph picked for this thread,
        the thread's own graph, else the server's only graph ("": unknown, ask the user)."""
        from ..run_target import thread_graph

        thread_id = thread.thread_id if thread is not None else thread_id
        only = self.graphs[0] if len(self.graphs) == 1 and self.graphs_complete else ""
        picked = self.thread_targets.get(thread_id or "", "")
        return self.run_options.assistant_id or picked or thread_graph(thread) or only

    def on_mount(self) -> None:
        self._server_restarts = 0
        self.collector.start()
        self.set_interval(CHECK_SECONDS, self.when_idle)
        self.apply_config()
        self.set_timer(WARM_UP_AFTER, self.warm_up)
        if self._given_backend is None and self.settings.embedded:
            self.server = EmbeddedServer(self.settings.data_dir, graph=self.settings.graph, config=self.settings.config)
            self.starting_text = "starting embedded server…"
            try:
                self.server.start()
            except (LaunchError, OSError) as error:
                self.fail(str(error))
                return
            self.wait_for_server()
        if main_screen_loaded():
            self._main_screen_loaded()
        else:
            waiting = f"connecting to {self.settings.url}…" if self._given_backend is None else "loading…"
            self.push_screen(ShellScreen(self.starting_text or waiting))
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

            importlib.import_module(backend_module(self.backend_kind))
        if not get_current_worker().is_cancelled:  # (the app quit meanwhile)
            self.call_from_thread(self._main_screen_loaded)

    def _main_screen_loaded(self) -> None:
        """The main screen in place of the shell (once any dialog over it is closed), handed
        the keys the shell held."""
        from .main_screen import MainScreen
        from .regions.objects import KEPT_SCREENS

        self.kept_screens = KeptScreens(self, KEPT_SCREENS)
        if self._given_backend is not None:
            self.backend = self._given_backend
        elif not self.settings.embedded:
            from ..backends.base import BackendError
            from ..backends.detect import make_backend

            assert self.settings.url is not None
            try:
                backend = make_backend(
                    self.backend_kind, self.settings.url, self.settings.effective_api_key(), self.settings.credentials()
                )
            except BackendError as error:  # a key no header can carry: say so, do not crash
                self.fail(error.with_hint().strip())
                return
            self.backend = self._wrap_backend(backend)
        self._check_keymap()
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
        if self.backend is not None and main is not None and main is self.screen:
            self.kept_screens.build_ahead(self.backend)

    @work(thread=True, exit_on_error=False, group="warm-up")
    def warm_up(self) -> None:
        """Compile the syntax highlighters code blocks use most, off the event loop: the
        first code block a reply streams would otherwise stall the screen for ~200 ms."""
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound

        for language in WARM_LEXERS:
            with contextlib.suppress(ClassNotFound):
                get_lexer_by_name(language)

    @work(thread=True, exit_on_error=False)
    def wait_for_server(self) -> None:
        assert self.server is not None
        try:
            self.server.wait_ready(timeout=120)
        except LaunchError as error:
            if self.is_running:  # (else the app is quitting, and stopped the server itself)
                self.call_from_thread(self.fail, str(error))
            return
        log.info("embedded server ready at %s", self.server.url)
        # here, not on the event loop: a 200 ms stall
        from ..backends.detect import backend_module

        importlib.import_module(backend_module("langgraph"))

        self.call_from_thread(self._server_ready)

    def _server_ready(self) -> None:
        assert self.server is not None
        self.starting_text = ""
        if self._switched:
            return  # the user connected elsewhere meanwhile; the server stays for ctrl+o
        from ..backends.detect import make_backend

        self.backend = self._wrap_backend(make_backend("langgraph", self.server.url, None))
        self.connection_url = self.server.url
        main = self.main_screen
        if main is not None:  # (else the main screen finds the backend when it is mounted)
            main.backend_ready()

    def crash_secrets(self) -> list[str]:
        return [s for h in log.handlers for f in h.filters if isinstance(f, RedactSecrets) for s in f.secrets]

    def fail(self, text: str) -> None:
        """Exit with status 2 and one clear paragraph (shown after the screen is restored)."""
        log.error("%s", text)
        self.exit(return_code=2, message=Text(f"threadbench: {text}"))

    def log_error(self, text: str) -> None:
        log.warning("%s", text)

    def revive_embedded_server(self) -> None:
        """Restart the embedded server if it died (a bounded number of times)."""
        server = self.server
        if server is None or self._switched or server.process is None or server.process.poll() is None:
            return
        status = server.process.returncode
        if self._server_restarts >= MAX_SERVER_RESTARTS:
            if self._server_restarts == MAX_SERVER_RESTARTS:
                self._server_restarts += 1
                self.notify(
                    f"The embedded server keeps stopping; not restarting it again. Its log: {server.log_path}",
                    severity="error",
                    timeout=30,
                    markup=False,
                )
            return
        self._server_restarts += 1
        log.warning("embedded server exited with status %s; restart %d", status, self._server_restarts)
        self.notify(
            f"The embedded server stopped (status {status}): restarting it "
            f"({self._server_restarts} of {MAX_SERVER_RESTARTS}). Your threads are kept.",
            severity="warning",
            timeout=8,
            markup=False,
        )
        try:
            server.start()  # the same port, so the backend's URL stays right
        except (LaunchError, OSError) as error:
            self.notify(f"Could not restart the embedded server: {error}", severity="error", markup=False)

    def stop_embedded_server(self) -> None:
        if self.server is not None:
            self.server.stop()

    def push_screen(self, screen, *args, **kwargs):
        self.typed_keys.screen_pushed(screen)
        return super().push_screen(screen, *args, **kwargs)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseEvent)):
            self.collector.input_seen()
        if isinstance(event, events.Key):
            await self.typed_keys.route(event, super().on_event)
        else:
            await super().on_event(event)

    def quiet_failure(self, error: Exception) -> bool:
        """A worker whose widget is being taken down (the app quitting, a screen closed) may
        still get its answer, and fail on the removed widgets it was for: that is no error.
        Textual stops such workers only after the widgets are gone."""
        if isinstance(error, WorkerFailed):
            with contextlib.suppress(NoActiveWorker):
                if not get_current_worker().node.is_running:
                    log.debug("a worker of a closing widget failed: %r", error.error)
                    return True
        return False

    async def on_unmount(self) -> None:
        self.collector.stop()
        if self.backend is not None:
            await self.backend.close()
        self.stop_embedded_server()

    # -- config: keymap, theme, problems ----------------------------------------------------------

    def apply_config(self) -> None:
        problems = list(self.settings.config_problems)
        if self.keymap:
            self.set_keymap(self.keymap)
        if self.settings.theme:
            try:
                self.theme = self.settings.theme
            except InvalidThemeError:
                problems.append(f"unknown theme {self.settings.theme!r}: pick one with ctrl+t")
        self._theme_ready = True
        for problem in problems:
            self._config_problem(problem)

    def _check_keymap(self) -> None:
        """Say which ids in the keymap no binding has (once every screen's module is loaded)."""
        from .screens.help import all_binding_ids

        unknown = sorted(set(self.keymap) - all_binding_ids(type(self))) if self.keymap else []
        if unknown:
            self._config_problem("[keymap] unknown binding ids (see the help screen, f1): " + ", ".join(unknown))

    def _config_problem(self, problem: str) -> None:
        log.warning("config: %s", problem)
        self.notify(problem, title="Config file", severity="warning", timeout=8, markup=False)

    def watch_theme(self, theme: str) -> None:
        """Remember the theme the user picks (ctrl+t or the palette) in the config file."""
        if not self._theme_ready or theme == self.settings.theme:
            return
        self.settings.theme = theme
        path = self.settings.config_path
        if path is None:
            return
        try:
            remember_theme(path, theme)
        except (OSError, ValueError) as error:
            self.notify(f"Could not save the theme in {path}: {error}", severity="warning", markup=False)
        else:
            log.info("theme %s saved in %s", theme, path)

    # -- help, palette, theme ----------------------------------------------------------------------

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        else:
            self.push_screen(HelpScreen())

    # -- connection ----------------------------------------------------------------------------------

    def action_connect(self) -> None:
        from .screens.connection import ConnectionScreen

        self.push_screen(
            ConnectionScreen(
                self.settings.profiles,
                current_url=self.connection_url or "",
                current_kind=self.backend_kind if self.backend is not None else "",
                current_profile=self.connection_profile,
                embedded_url=self.server.url if self.server is not None and self.server.process else None,
            ),
            callback=self._connection_chosen,
        )

    def _connection_chosen(self, connection: Connection | None) -> None:
        if connection is not None:
            self.run_worker(
                self.switch_server(
                    connection.url,
                    connection.api_key,
                    connection.kind,
                    profile=connection.profile,
                    credentials=connection.credentials,
                ),
                group="connect",
                exclusive=True,
                exit_on_error=False,
            )

    async def open_backend(
        self, url: str, api_key: str | None, kind: str = "auto", credentials: Credentials | None = None
    ) -> tuple[Backend, str]:
        """A checked backend for `url` and its kind (detected when "auto"); raises BackendError."""
        from ..backends.base import BackendError
        from ..backends.detect import detect_backend_kind, make_backend

        if kind == "auto":
            kind = await detect_backend_kind(url, api_key, credentials=credentials)
        backend = self._wrap_backend(make_backend(kind, url, api_key, credentials))
        try:
            await backend.check()
        except BackendError:
            await backend.close()
            raise
        return backend, kind

    async def switch_server(
        self,
        url: str,
        api_key: str | None = None,
        kind: str = "auto",
        *,
        profile: str | None = None,
        credentials: Credentials | None = None,
    ) -> bool:
        """Connect to `url` (logging in with `credentials`, if given); on success the old
        backend is closed and the main screen reloads. On failure nothing changes and the
        user is told why. The key and the password are never logged."""
        from ..backends.base import BackendError

        self._redact(api_key)
        self._redact(credentials.password if credentials else None)
        self.notify(f"Connecting to {url}…", timeout=2, markup=False)
        try:
            backend, kind = await self.open_backend(url, api_key, kind, credentials)
        except BackendError as error:
            log.warning("cannot connect to %s: %s", url, error)
            text = f"Cannot connect to {url}: " + error.with_hint("\n")
            self.notify(clean(text), severity="error", timeout=8, markup=False)
            return False
        await self.use_backend(backend, kind, url, profile)
        log.info("connected to %s (%s%s)", url, kind, f", profile {profile}" if profile else "")
        self.notify(f"Connected to {url} ({kind}).", timeout=3, markup=False)
        return True

    async def use_backend(self, backend: Backend, kind: str, url: str, profile: str | None = None) -> None:
        """Show `backend` from now on: the old one is closed and the main screen made again."""
        from .main_screen import MainScreen

        old, self.backend = self.backend, backend
        self.backend_kind = kind
        self.connection_url = url
        self.connection_profile = profile
        self._switched = True
        chosen = self.settings.profiles.get(profile) if profile else None
        # a pick of assistant was for the old server's graphs
        self.run_options.assistant_id = run_options_from(self.settings.run_options).assistant_id
        self.graphs, self.graphs_complete, self.thread_targets = [], False, {}
        if chosen is not None and chosen.assistant_id:
            self.run_options.assistant_id = chosen.assistant_id
        while len(self.screen_stack) > 2:
            await self.pop_screen()
        self.kept_screens.drop()  # (they show the old server's objects)
        for screen in self.screen_stack:  # its requests went to the old server: a reply that
            if isinstance(screen, MainScreen):  # came back while it was being replaced crashed the app
                for node in screen.walk_children(with_self=True):  # the regions own their workers
                    self.workers.cancel_node(node)
        if isinstance(self.screen, MainScreen):
            await self.switch_screen(MainScreen())
        else:
            await self.push_screen(MainScreen())
        if old is not None:
            try:
                await old.close()
            except Exception as error:  # a dead server: nothing to close politely
                log.info("closing the old backend: %s", error)

    def _wrap_backend(self, backend: Backend) -> Backend:
        """The caller's wrapper (tests, bench), then the recorder while runs are recorded."""
        backend = self._wrap(backend)
        return backend if self.recording_to is None else self._recorder(backend, self.recording_to)

    def _recorder(self, backend: Backend, folder: Path) -> Backend:
        from ..backends.recording import RecordingBackend
        from ..logs import redact

        return RecordingBackend(backend, folder, redact)

    # -- recording and replay ----------------------------------------------------------------------

    @property
    def is_recording(self) -> bool:
        """The runs of the backend in use are being written (a replay is never recorded)."""
        from ..backends.recording import RecordingBackend

        return isinstance(self.backend, RecordingBackend)

    @property
    def recordings_folder(self) -> Path:
        return self.recording_to or self.settings.record_dir or self.settings.data_dir / "recordings"

    def action_toggle_recording(self) -> None:
        from ..backends.recording import RecordingBackend
        from ..backends.replay import ReplayBackend

        backend = self.backend
        if isinstance(backend, ReplayBackend):
            self.notify("This is a replay: there is no server run to record.", severity="warning", timeout=3)
            return
        folder = self.recordings_folder
        if self.recording_to is not None:
            self.recording_to = None
            written = 0
            if isinstance(backend, RecordingBackend):  # a run streaming now finishes its file
                written, self.backend = len(backend.written), backend.inner
            runs = "1 run" if written == 1 else f"{written} runs"
            self.notify(f"Recording stopped: {runs} written to {folder}", timeout=4, markup=False)
        else:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                self.notify(f"Cannot record to {folder}: {error.strerror or error}", severity="error", markup=False)
                return
            self.recording_to = folder
            if backend is not None:
                self.backend = self._recorder(backend, folder)
            self.notify(f"Recording every run to {folder} (F8 stops, F9 replays)", timeout=4, markup=False)
        main = self.main_screen
        if main is not None:
            main.connection.show()

    def action_replay_recording(self) -> None:
        from ..recording import list_recordings

        folder = self.recordings_folder
        found = list_recordings(folder)
        if not found:
            self.notify(
                f"No recordings in {folder}. F8 records the runs you make; "
                "`threadbench replay FILE` replays a file from elsewhere.",
                timeout=6,
                markup=False,
            )
            return
        now = self.clock()
        choices = [
            (
                str(info.path),
                one_line(info.sent, 48),
                f"{one_line(info.thread_title, 30)} · {relative_time(info.recorded_at, now)} · {info.server}",
            )
            for info in found
        ]
        text = f"Newest first, from {folder}. A replay needs no server: ctrl+o connects to one again."
        from .screens.choose import ChooseScreen

        self.push_screen(ChooseScreen("Replay a recording", text, choices), callback=self._replay_chosen)

    def _replay_chosen(self, path: str | None) -> None:
        if path:
            self.run_worker(self.replay(Path(path)), group="connect", exclusive=True, exit_on_error=False)

    async def replay(self, path: Path) -> bool:
        """Show the run recorded in `path` in place of the server (its thread, to open and watch)."""
        from ..backends.replay import ReplayBackend
        from ..recording import RecordingError, load_recording

        try:
            recording = await asyncio.to_thread(load_recording, path)
        except RecordingError as error:
            self.notify(str(error), severity="error", timeout=8, markup=False)
            return False
        backend = ReplayBackend(recording, path)
        await self.use_backend(backend, "replay", backend.url)
        self.notify(f"Replaying {path.name}: open its thread (enter) to watch the run.", timeout=4, markup=False)
        return True

    def _redact(self, secret: str | None) -> None:
        if not secret:
            return
        for handler in log.handlers:
            for found in handler.filters:
                if isinstance(found, RedactSecrets) and secret not in found.secrets:
                    found.secrets.append(secret)

    # -- export, clipboard, editor --------------------------------------------------------------------

    def action_export_thread(self) -> None:
        main = self.main_screen
        if main is None or self.backend is None:
            return
        thread_id = main.thread_id or main.thread_list.highlighted_thread_id
        if thread_id is None:
            self.notify("Open a thread first.", severity="warning", timeout=2)
            return
        self.export_thread(thread_id)

    @work(group="export", exclusive=True, exit_on_error=False)
    async def export_thread(self, thread_id: str) -> None:
        from ..backends.base import BackendError
        from ..export import default_file_name, fetch_history, thread_json, thread_markdown
        from ..models import ThreadState
        from .screens.confirm import ConfirmScreen
        from .screens.export import ExportScreen

        backend = self.backend
        main = self.main_screen
        assert backend is not None and main is not None
        summary = main.thread_list.thread(thread_id)
        stem = default_file_name(summary, ThreadState(thread_id=thread_id), "md").removesuffix(".md")
        title = summary.display_title if summary else thread_id
        request = await self.push_screen_wait(
            ExportScreen(title, thread_id, stem, history=backend.capabilities.history)
        )
        if request is None:
            return
        if request.path.exists():
            question = Content.assemble("Replace ", (str(request.path), "bold"), "?")
            if not await self.push_screen_wait(ConfirmScreen(question, confirm_label="Replace")):
                return
        try:
            state = await backend.get_state(thread_id)
            history = await fetch_history(backend, thread_id) if request.include_history else None
        except BackendError as error:
            self.notify(clean(f"Export failed: {error}"), severity="error", timeout=8, markup=False)
            return
        if request.format == "json":
            text = thread_json(summary, state, history)
        else:
            text = thread_markdown(summary, state, history, include_state=request.include_state)
        try:
            request.path.write_text(text, encoding="utf-8")
        except OSError as error:
            self.notify(f"Cannot write {request.path}: {error.strerror or error}", severity="error", markup=False)
            return
        log.info("exported thread %s to %s", thread_id, request.path)
        self.notify(f"Exported to {request.path}", timeout=4, markup=False)

    def action_copy_reply(self) -> None:
        main = self.main_screen
        state = main.thread_state if main is not None else None
        messages = state.messages if state is not None else []
        reply = next((m for m in reversed(messages) if m.type == "ai" and m.text.strip()), None)
        if reply is None:
            self.notify("No reply to copy.", timeout=2)
            return
        self.copy_to_clipboard(reply.text)
        self.notify(f"Copied the last reply ({len(reply.text):,} characters).", timeout=2)

    def action_edit_in_editor(self) -> None:
        """Edit the focused text box (the composer, the state editor, an answer) in $EDITOR."""
        from textual.widgets import Input, TextArea

        widget = self.focused
        if isinstance(widget, TextArea):
            text, suffix = widget.text, ".json" if widget.language == "json" else ".md"
        elif isinstance(widget, Input) and not widget.password:
            text, suffix = widget.value, ".txt"
        else:
            self.notify("Focus a text box first: the composer (i), the state editor, an answer.", timeout=3)
            return
        try:
            edited = edit_in_editor(self, text, suffix)
        except EditorError as error:
            self.notify(str(error), severity="warning", timeout=5, markup=False)
            return
        if edited is None or (isinstance(widget, TextArea) and widget.read_only):
            return
        edited = edited.removesuffix("\n")
        if isinstance(widget, TextArea):
            widget.load_text(edited)
            widget.move_cursor(widget.document.end)
        else:
            widget.value = " ".join(edited.splitlines())
        widget.focus()


def run_options_from(config: dict) -> RunOptions:
    """The config file's [run_options]: assistant_id, send_as, and option values."""
    values = dict(config)
    options = RunOptions()
    assistant = values.pop("assistant_id", None)
    if isinstance(assistant, str) and assistant:
        options.assistant_id = assistant
    send_as = values.pop("send_as", None)
    if send_as in ("context", "configurable"):
        options.send_as = send_as
    options.values = values
    return options
