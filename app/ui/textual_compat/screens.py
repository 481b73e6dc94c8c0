"""A screen built and laid out before it is first shown (threadbench.ui.kept_screens).

Textual composes, mounts and styles a screen when it is first pushed, and lays it out when it
is shown at a size it was not laid out at; no public call does either for a screen not shown.
Without these (compat not active) a kept screen is built at its first opening instead.
"""

from __future__ import annotations

from textual.app import App
from textual.geometry import Size
from textual.screen import Screen

from . import active


def build(app: App, screen: Screen) -> bool:
    """Compose, mount and style `screen` unseen (what push_screen does first); False if not done."""
    if not active():
        return False
    app._register(app, screen)  # compat: Textual 8.2.8's App._register
    return True


def lay_out(screen: Screen, size: Size) -> bool:
    """Lay `screen` out at `size` unseen (what its first ScreenResume does); False if not done."""
    if not active():
        return False
    screen._refresh_layout(size)  # compat: Textual 8.2.8's Screen._refresh_layout
    return True
