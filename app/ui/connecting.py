"""Connections: another server (ctrl+o), recording runs (F8) and replaying one (F9).

Each changes the session's backend and makes the main screen again; a failed connection
changes nothing and says why. A key or a password typed here is redacted from the log at once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from ..logs import RedactSecrets, log
from .text import clean, one_line, relative_time

if TYPE_CHECKING:
    from ..backends.base import Backend, Credentials
    from .app import ThreadbenchApp
    from .screens.connection import Connection


class Connections:
    def __init__(self, app: ThreadbenchApp) -> None:
        self.app = app
        self.session = app.session
        self.switched = False
        """The user connected elsewhere (the embedded server, once up, is not taken then)."""

    # -- another server ------------------------------------------------------------------------

    def choose(self) -> None:
        """The connection dialog; a server chosen there is connected to."""
        from .screens.connection import ConnectionScreen

        session, server = self.session, self.app.embedded.server
        self.app.push_screen(
            ConnectionScreen(
                session.settings.profiles,
                current_url=session.connection_url or "",
                current_kind=session.backend_kind if session.backend is not None else "",
                current_profile=session.connection_profile,
                embedded_url=server.url if server is not None and server.process else None,
            ),
            callback=self._chosen,
        )

    def _chosen(self, connection: Connection | None) -> None:
        if connection is not None:
            self.app.run_worker(
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
        backend = self.wrap(make_backend(kind, url, api_key, credentials))
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

        redact(api_key)
        redact(credentials.password if credentials else None)
        self.app.notify(f"Connecting to {url}…", timeout=2, markup=False)
        try:
            backend, kind = await self.open_backend(url, api_key, kind, credentials)
        except BackendError as error:
            log.warning("cannot connect to %s: %s", url, error)
            text = f"Cannot connect to {url}: " + error.with_hint("\n")
            self.app.notify(clean(text), severity="error", timeout=8, markup=False)
            return False
        await self.use_backend(backend, kind, url, profile)
        log.info("connected to %s (%s%s)", url, kind, f", profile {profile}" if profile else "")
        self.app.notify(f"Connected to {url} ({kind}).", timeout=3, markup=False)
        return True

    async def use_backend(self, backend: Backend, kind: str, url: str, profile: str | None = None) -> None:
        """Show `backend` from now on: the old one is closed and the main screen made again."""
        from .main_screen import MainScreen

        app = self.app
        old = self.session.connected_to(backend, kind, url, profile)
        self.switched = True
        while len(app.screen_stack) > 2:
            await app.pop_screen()
        app.kept_screens.drop()  # (they show the old server's objects)
        for screen in app.screen_stack:  # its requests went to the old server: a reply that
            if isinstance(screen, MainScreen):  # came back while it was being replaced crashed the app
                for node in screen.walk_children(with_self=True):  # the regions own their workers
                    app.workers.cancel_node(node)
        if isinstance(app.screen, MainScreen):
            await app.switch_screen(MainScreen())
        else:
            await app.push_screen(MainScreen())
        if old is not None:
            try:
                await old.close()
            except Exception as error:  # a dead server: nothing to close politely
                log.info("closing the old backend: %s", error)

    def wrap(self, backend: Backend) -> Backend:
        """The caller's wrapper (tests, bench), then the recorder while runs are recorded."""
        backend = self.app.wrap_backend(backend)
        folder = self.session.recording_to
        return backend if folder is None else recorder(backend, folder)

    # -- recording and replay ------------------------------------------------------------------

    @property
    def is_recording(self) -> bool:
        """The runs of the backend in use are being written (a replay is never recorded)."""
        from ..backends.recording import RecordingBackend

        return isinstance(self.session.backend, RecordingBackend)

    def toggle_recording(self) -> None:
        from ..backends.recording import RecordingBackend
        from ..backends.replay import ReplayBackend

        app, session = self.app, self.session
        backend = session.backend
        if isinstance(backend, ReplayBackend):
            app.notify("This is a replay: there is no server run to record.", severity="warning", timeout=3)
            return
        folder = session.recordings_folder
        if session.recording_to is not None:
            session.recording_to = None
            written = 0
            if isinstance(backend, RecordingBackend):  # a run streaming now finishes its file
                written, session.backend = len(backend.written), backend.inner
            runs = "1 run" if written == 1 else f"{written} runs"
            app.notify(f"Recording stopped: {runs} written to {folder}", timeout=4, markup=False)
        else:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                app.notify(f"Cannot record to {folder}: {error.strerror or error}", severity="error", markup=False)
                return
            session.recording_to = folder
            if backend is not None:
                session.backend = recorder(backend, folder)
            app.notify(f"Recording every run to {folder} (F8 stops, F9 replays)", timeout=4, markup=False)
        main = app.main_screen
        if main is not None:
            main.connection.show()

    def choose_replay(self) -> None:
        from ..recording import list_recordings
        from .screens.choose import ChooseScreen

        folder = self.session.recordings_folder
        found = list_recordings(folder)
        if not found:
            self.app.notify(
                f"No recordings in {folder}. F8 records the runs you make; "
                "`threadbench replay FILE` replays a file from elsewhere.",
                timeout=6,
                markup=False,
            )
            return
        now = self.app.clock()
        choices = [
            (
                str(info.path),
                one_line(info.sent, 48),
                f"{one_line(info.thread_title, 30)} · {relative_time(info.recorded_at, now)} · {info.server}",
            )
            for info in found
        ]
        text = f"Newest first, from {folder}. A replay needs no server: ctrl+o connects to one again."
        self.app.push_screen(ChooseScreen("Replay a recording", text, choices), callback=self._replay_chosen)

    def _replay_chosen(self, path: str | None) -> None:
        if path:
            self.app.run_worker(self.replay(Path(path)), group="connect", exclusive=True, exit_on_error=False)

    async def replay(self, path: Path) -> bool:
        """Show the run recorded in `path` in place of the server (its thread, to open and watch)."""
        from ..backends.replay import ReplayBackend
        from ..recording import RecordingError, load_recording

        try:
            recording = await asyncio.to_thread(load_recording, path)
        except RecordingError as error:
            self.app.notify(str(error), severity="error", timeout=8, markup=False)
            return False
        backend = ReplayBackend(recording, path)
        await self.use_backend(backend, "replay", backend.url)
        self.app.notify(f"Replaying {path.name}: open its thread (enter) to watch the run.", timeout=4, markup=False)
        return True


def recorder(backend: Backend, folder: Path) -> Backend:
    from ..backends.recording import RecordingBackend
    from ..logs import redact as redact_text

    return RecordingBackend(backend, folder, redact_text)


def redact(secret: str | None) -> None:
    """From now on `secret` is written nowhere in the log."""
    if not secret:
        return
    for handler in log.handlers:
        for found in handler.filters:
            if isinstance(found, RedactSecrets) and secret not in found.secrets:
                found.secrets.append(secret)
