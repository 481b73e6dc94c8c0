"""The Threadbench application: owns the settings, the backend and the embedded server.

Screens do the work of each view; the app starts the embedded server in the background
(the UI is interactive at once and says so while it boots) and hands screens a ready
backend.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import App
from textual.binding import Binding

from app.backends.base import Backend
from app.backends.detect import make_backend
from app.config import Settings
from app.embedded.launcher import EmbeddedServer, LaunchError
from app.logs import log, setup_logging
from app.run_options import RunOptions
from app.ui.screens.main import MainScreen

STYLES = Path(__file__).resolve().parent.parent / "styles"


class ThreadbenchApp(App[None]):
    TITLE = "Threadbench"
    CSS_PATH = [STYLES / "app.tcss"]
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
    ]

    def __init__(
        self,
        settings: Settings,
        *,
        backend_kind: str = "langgraph",
        clock: Callable[[], datetime] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        wrap_backend: Callable[[Backend], Backend] | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.backend_kind = backend_kind
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.monotonic = monotonic
        self._wrap_backend = wrap_backend or (lambda backend: backend)
        """Wall clock and elapsed-time source; snapshot tests freeze both."""
        self.backend: Backend | None = None
        self.run_options = RunOptions()
        self.server: EmbeddedServer | None = None
        self.starting_text = ""
        self.log_path = setup_logging(
            settings.data_dir, settings.debug, secrets=[settings.effective_api_key() or ""]
        )

    @property
    def assistant_id(self) -> str:
        return self.run_options.assistant_id

    @assistant_id.setter
    def assistant_id(self, value: str) -> None:
        self.run_options.assistant_id = value

    def on_mount(self) -> None:
        if self.settings.embedded:
            self.server = EmbeddedServer(
                self.settings.data_dir, graph=self.settings.graph, config=self.settings.config
            )
            self.starting_text = "starting embedded server…"
            try:
                self.server.start()
            except (LaunchError, OSError) as error:
                self.fail(str(error))
                return
            self.push_screen(MainScreen())
            self.wait_for_server()
        else:
            assert self.settings.url is not None
            self.backend = self._wrap_backend(
                make_backend(self.backend_kind, self.settings.url, self.settings.effective_api_key())
            )
            self.push_screen(MainScreen())

    @work(thread=True, exit_on_error=False)
    def wait_for_server(self) -> None:
        assert self.server is not None
        try:
            self.server.wait_ready(timeout=120)
        except LaunchError as error:
            self.call_from_thread(self.fail, str(error))
            return
        log.info("embedded server ready at %s", self.server.url)
        self.call_from_thread(self._server_ready)

    def _server_ready(self) -> None:
        assert self.server is not None
        self.backend = self._wrap_backend(make_backend("langgraph", self.server.url, None))
        self.starting_text = ""
        if isinstance(self.screen, MainScreen):
            self.screen.backend_ready()
        else:
            for screen in self.screen_stack:
                if isinstance(screen, MainScreen):
                    screen.backend_ready()

    def fail(self, text: str) -> None:
        """Exit with status 2 and one clear paragraph (shown after the screen is restored)."""
        log.error("%s", text)
        self.exit(return_code=2, message=Text(f"threadbench: {text}"))

    def log_error(self, text: str) -> None:
        log.warning("%s", text)

    def stop_embedded_server(self) -> None:
        if self.server is not None:
            self.server.stop()

    async def on_unmount(self) -> None:
        if self.backend is not None:
            await self.backend.close()
        self.stop_embedded_server()
