"""The connection indicator (#connection): asks the server if it is there, backs off while it
is not, and posts Restored when it is back (the screen reloads and rejoins a cut run)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from ...backends.base import BackendError, Unauthorized
from ..text import clean
from ..workers import work

HEALTH_SECONDS = 3.0
"""How often the server is asked if it is there; after a failure, retries back off."""
MAX_BACKOFF_SECONDS = 30.0


if TYPE_CHECKING:
    from ..app import ThreadbenchApp


class ConnectionIndicator(Static):
    app: ThreadbenchApp

    @dataclass
    class Restored(Message):
        """The server answers again after an outage."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.online = True
        self._backoff = 0.0
        self._next_check = 0.0

    def start(self) -> None:
        """The backend is ready: show it, and check on it from now on."""
        self.show()
        self.set_interval(HEALTH_SECONDS, self.check_health)

    def show(self, detail: str = "") -> None:
        backend = self.app.session.backend
        where = backend.url.split("://", 1)[-1] if backend is not None else ""
        if self.online:
            content = Content.assemble(("● ", "$success"), (clean(where), "dim"))
        else:
            content = Content.assemble(("○ offline ", "bold $error"), (clean(detail), "dim"))
        if self.app.connections.is_recording:
            content = Content.assemble(("◉ rec ", "bold $error"), content)
        self.update(content)

    @work(exclusive=True, group="health", exit_on_error=False)
    async def check_health(self) -> None:
        """Notice a server that went away, retry with backoff, and resume when it is back."""
        app = self.app
        backend = app.session.backend
        now = app.monotonic()
        if backend is None or now < self._next_check:
            return
        try:
            await backend.check()
        except Unauthorized:
            pass  # the server is there but refuses the key: the failed request said so
        except BackendError as error:
            self._backoff = min(MAX_BACKOFF_SECONDS, max(HEALTH_SECONDS, self._backoff * 2))
            self._next_check = now + self._backoff
            if self.online:
                self.online = False
                self.notify(
                    f"Lost the server: {error}. Retrying; your work is kept.",
                    severity="error",
                    timeout=10,
                    markup=False,
                )
            app.embedded.revive()
            self.show(f"retrying every {self._backoff:.0f}s")
            return
        if not self.online:
            self.online, self._backoff, self._next_check = True, 0.0, 0.0
            self.show()
            self.notify("The server is back.", timeout=4)
            self.post_message(self.Restored())
