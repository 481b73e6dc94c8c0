"""The footer of key bindings, rebuilt only when the keys it shows change."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's Footer rebuilds itself (a new, freshly styled widget per key) each time
    the screen's bindings may have changed: every focus change, whether or not the keys
    it shows change. That cost 25-30 ms a time, in the first paint of the main screen
    and in the opening of the command palette among others."""

    _shown: tuple | None = None
    """What the keys were last built from (None: not built yet)."""

    def bindings_changed(self, screen: Screen) -> None:
        rebuilds = screen.app.app_focus and self.is_attached and screen is self.screen
        if rebuilds:
            shown = self._keys_shown(screen)
            if shown == self._shown:
                return
            self._shown = shown
        super().bindings_changed(screen)

    @staticmethod
    def _keys_shown(screen: Screen) -> tuple:
        """What `compose` builds the keys from."""
        bindings = screen.active_bindings
        shown = tuple(
            (binding, enabled, tooltip) for (_, binding, enabled, tooltip) in bindings.values() if binding.show
        )
        palette = bindings.get(screen.app.COMMAND_PALETTE_BINDING)
        return shown, palette[1:] if palette is not None else None
