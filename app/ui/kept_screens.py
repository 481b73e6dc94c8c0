"""Dialogs built once per connection and kept: the store and the assistants.

Opening one cost 150-200 ms on a 2-core machine, most of it Textual composing, mounting and
styling its widgets before the first paint. A kept dialog is only pushed again and painted (25-90 ms),
and reopens where the user left it (the namespace, the search, the cursor), its data
fetched again (ObjectsScreen.opened). They are built ahead, one at a time, while the user
is idle after start, so the first open is quick too. A kept dialog belongs to the backend
it was built for: a new connection (or a recording's wrapper) gets new ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeVar

from textual.screen import Screen

from .textual_compat import screens as unseen

if TYPE_CHECKING:
    from textual.app import App

    from ..backends.base import Backend

Build = Callable[["Backend"], Screen]
S = TypeVar("S", bound=Screen)


class KeptScreens:
    def __init__(self, app: App, builds: Mapping[str, Build]) -> None:
        self._app = app
        self._builds = builds
        self._screens: dict[str, Screen] = {}
        self._backend: Backend | None = None

    def get(self, name: str, backend: Backend, kind: type[S]) -> S:
        """The kept screen `name` for `backend`, built now if it was not built ahead."""
        screen = self._get(name, backend)
        assert isinstance(screen, kind)
        return screen

    def _get(self, name: str, backend: Backend) -> Screen:
        if backend is not self._backend:
            self.drop()
            self._backend = backend
        screen = self._screens.get(name)
        if screen is None:
            screen = self._screens[name] = self._builds[name](backend)
            self._app.install_screen(screen, f"kept-{name}")
        return screen

    def build_ahead(self, backend: Backend) -> bool:
        """One step of building the screens unseen, done by Textual when a screen is first
        pushed: compose, mount and style one, or lay one out (Textual lays a screen out only
        when it is pushed at a size it was not laid out at). False when all are done, or
        when Textual cannot be asked to (textual_compat not active: built when first opened)."""
        size = self._app.size
        for name in self._builds:
            screen = self._screens.get(name) if backend is self._backend else None
            if screen is None or not screen.is_running:
                return unseen.build(self._app, self._get(name, backend))
            if screen.is_mounted and not self._laid_out(screen):
                return unseen.lay_out(screen, size)
        return False

    def ready(self) -> dict[str, Screen]:
        """The kept screens built and laid out at the app's size: an open is a push and a paint."""
        return {name: screen for name, screen in self._screens.items() if self._laid_out(screen)}

    @property
    def all_ready(self) -> bool:
        """Every screen kept is built and laid out (build_ahead has nothing left to do)."""
        return len(self.ready()) == len(self._builds)

    def _laid_out(self, screen: Screen) -> bool:
        return screen.is_mounted and screen.outer_size == self._app.size

    def drop(self) -> None:
        """Let every kept screen go (not one on the screen stack: it goes when it is closed)."""
        screens, self._screens, self._backend = self._screens, {}, None
        for screen in screens.values():
            if screen in self._app.screen_stack:
                continue  # (not from the UI: a kept screen is opened from the main screen, and closed first)
            self._app.uninstall_screen(screen)
            if screen.is_running:
                screen.remove()
