"""Removed widgets given back to memory at once, not at the next full collection.

Every Textual widget is a knot of reference cycles (its styles, its child list and its
signal point back at it, and each restyle leaves a throwaway node per component class), so
a removed widget is freed only when the cyclic collector walks the whole heap, and the app
holds full collections off while the user is busy (collector.py). Scrolling up a
10,000-message thread left 8,000 such objects a `pageup`; a minute of it was collected in
one 7.8 s freeze, and RSS grew by nearly 800 MB meanwhile.

So under a container that asks for it (`TEAR_DOWN_REMOVED`: the chat), removed widgets are
taken apart once Textual is done with them (their message loop closed, and no screen's
layout, selection, focus or hover holds them): the widgets below a removed one lose all
their attributes (they are Textual's alone), the removed one its Textual machinery (styles,
caches, signal, bindings) but not what says which it is (id, classes, parent, mounted or
not: the app may still hold it and ask) nor its own class's attributes (a view's message).
That breaks the cycles, and reference counting frees them there and then.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.cache import LRUCache
from textual.dom import DOMNode
from textual.widget import Widget

from .textual_leftovers import empty_lru_cache

if TYPE_CHECKING:
    from textual.app import App

MACHINERY = frozenset([*Widget().__dict__, "_message_queue", "_mounted_event"]) - {
    "_MessagePump__parent",
    "_id",
    "_name",
    "_classes",
    "_nodes",
    "_closed",
    "_closing",
    "_running",
    "_is_mounted",
    "_pruning",
}
"""Textual's attributes of a widget that a removed one can do without."""

Held = tuple[list[Widget], list[DOMNode]]
"""The widgets below a removed one, and the nodes their component classes were styled with."""

DELAY = 1.0
"""Seconds between tries: what a removal removed is taken apart at the second try in a row
that finds Textual no longer uses it."""


def _opted_in(widget: Widget) -> bool:
    return any(getattr(node, "TEAR_DOWN_REMOVED", False) for node in widget.ancestors_with_self)


class Teardown:
    def __init__(self, app: App) -> None:
        self._app = app
        self._held: weakref.WeakKeyDictionary[Widget, Held] = weakref.WeakKeyDictionary()
        """A removed widget -> the widgets that were below it (the removal detaches them) and
        the nodes their component classes were styled with (the removal forgets them); held
        weakly: one the collector frees meanwhile needs no taking apart."""
        self._scheduled = False
        self._unused_once: weakref.WeakSet[Widget] = weakref.WeakSet()
        """Removed widgets found unused at the last try: taken apart if still unused at this
        one. Textual lets go a moment after it says so: clearing a selection tells the
        widgets it held through a watcher that runs later, and a widget taken apart in
        between broke the app."""

    def removing(self, widgets: Iterable[Widget]) -> None:
        """`widgets` are being removed: take them apart once Textual lets go of them."""
        for widget in widgets:
            if _opted_in(widget):
                below = widget.walk_children(Widget, with_self=False)
                styled = [styles.node for node in (widget, *below) for styles in node._component_styles.values()]
                self._held[widget] = below, [node for node in styled if node is not None]
        if self._held:
            self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            self._app.set_timer(DELAY, self._run)

    def _still_used(self) -> set[Widget]:
        """The widgets Textual may still touch: a screen's layout (it tells the ones that
        left it they are hidden), a text selection, the focus, the mouse."""
        used: set[Widget] = set()
        for screen in self._app.screen_stack:
            used.update(screen._compositor._full_map)
            used.update(screen.selections)
            if screen.focused is not None:
                used.add(screen.focused)
        if self._app.mouse_over is not None:
            used.add(self._app.mouse_over)
        return used

    def _run(self) -> None:
        self._scheduled = False
        used = self._still_used()
        for widget, (below, styled) in list(self._held.items()):
            if not widget._closed or any(node in used for node in (widget, *below)):
                self._unused_once.discard(widget)
            elif widget in self._unused_once:
                del self._held[widget]
                take_apart(widget, below, styled)
            else:
                self._unused_once.add(widget)
        if self._held:
            self._schedule()  # another try later


def take_apart(widget: Widget, below: list[Widget], styled: list[DOMNode]) -> None:
    """Break the cycles of a removed `widget`, the widgets that were below it and the nodes
    their component classes were styled with."""
    for node in (*styled, *below):
        _empty_caches(node)
        node.__dict__.clear()
    _empty_caches(widget)
    for name in MACHINERY.intersection(widget.__dict__):
        delattr(widget, name)


def take_apart_unmounted(nodes: Iterable[DOMNode]) -> None:
    """Break the cycles of nodes never mounted, which nothing else holds (parsed Markdown
    blocks the app read and let go: markdown_parsing.py)."""
    for node in nodes:
        _empty_caches(node)
        node.__dict__.clear()


def _empty_caches(node: DOMNode) -> None:
    for value in node.__dict__.values():
        if isinstance(value, LRUCache):
            empty_lru_cache(value)
