"""The embedded server, when no server is given: started with the app (the UI is interactive at
once and says so while it boots), restarted if it dies (MAX_RESTARTS at most), stopped with the
app. Its backend is the session's once it answers, unless the user connected elsewhere first."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..embedded.launcher import EmbeddedServer, LaunchError
from ..logs import log

if TYPE_CHECKING:
    from .app import ThreadbenchApp

MAX_RESTARTS = 3
READY_SECONDS = 120


class EmbeddedHost:
    def __init__(self, app: ThreadbenchApp) -> None:
        self.app = app
        self.server: EmbeddedServer | None = None
        self.starting_text = ""
        self.restarts = 0

    def start(self) -> bool:
        """Start the server and wait for it off the event loop; False (the app failed) if it
        cannot be started."""
        settings = self.app.session.settings
        self.server = EmbeddedServer(settings.data_dir, graph=settings.graph, config=settings.config)
        self.starting_text = "starting embedded server…"
        try:
            self.server.start()
        except (LaunchError, OSError) as error:
            self.app.fail(str(error))
            return False
        self.app.run_worker(self._wait_ready, thread=True, exit_on_error=False)
        return True

    def _wait_ready(self) -> None:
        assert self.server is not None
        try:
            self.server.wait_ready(timeout=READY_SECONDS)
        except LaunchError as error:
            if self.app.is_running:  # (else the app is quitting, and stopped the server itself)
                self.app.call_from_thread(self.app.fail, str(error))
            return
        log.info("embedded server ready at %s", self.server.url)
        from ..backends.detect import backend_module

        importlib.import_module(backend_module("langgraph"))  # here, not on the event loop: a 200 ms stall
        self.app.call_from_thread(self._ready)

    def _ready(self) -> None:
        assert self.server is not None
        self.starting_text = ""
        if self.app.connections.switched:
            return  # the user connected elsewhere meanwhile; the server stays for ctrl+o
        from ..backends.detect import make_backend

        session = self.app.session
        session.backend = self.app.connections.wrap(make_backend("langgraph", self.server.url, None))
        session.connection_url = self.server.url
        main = self.app.main_screen
        if main is not None:  # (else the main screen finds the backend when it is mounted)
            main.backend_ready()

    def revive(self) -> None:
        """Restart the server if it died (MAX_RESTARTS times at most)."""
        server, app = self.server, self.app
        if server is None or app.connections.switched or server.process is None or server.process.poll() is None:
            return
        status = server.process.returncode
        if self.restarts >= MAX_RESTARTS:
            if self.restarts == MAX_RESTARTS:
                self.restarts += 1
                app.notify(
                    f"The embedded server keeps stopping; not restarting it again. Its log: {server.log_path}",
                    severity="error",
                    timeout=30,
                    markup=False,
                )
            return
        self.restarts += 1
        log.warning("embedded server exited with status %s; restart %d", status, self.restarts)
        app.notify(
            f"The embedded server stopped (status {status}): restarting it "
            f"({self.restarts} of {MAX_RESTARTS}). Your threads are kept.",
            severity="warning",
            timeout=8,
            markup=False,
        )
        try:
            server.start()  # the same port, so the backend's URL stays right
        except (LaunchError, OSError) as error:
            app.notify(f"Could not restart the embedded server: {error}", severity="error", markup=False)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
