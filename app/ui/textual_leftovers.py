"""Four of Textual's leftovers, emptied when Textual replaces them, so they are not garbage
only the cyclic collector can free (and the app holds full collections off while the user
is busy: collector.py).

`Compositor`: each layout builds a map of every widget on the screen to its geometry (a
region, a clip, sizes: 1,500 widgets and 100,000 objects on a chat scrolled through a long
thread) through a function that calls itself, so the map and the sets of widgets it fills
stay in a reference cycle with that function after the compositor has swapped them for the
next layout's. They are emptied when swapped out: the cycle left behind holds nothing. The
map built anew when asked for after a layout for a scroll comes with a set of its widgets
that Textual drops at once: it is emptied too (it kept every widget of the screen, removed
ones included, for the collector: 12,000 objects of garbage in 300 pageups up a long thread).

`Stylesheet._process_component_classes`: each time a widget with component classes is
styled, Textual styles a throwaway node per component class and keeps those nodes' styles
in place of the last ones; each node is a cycle (its styles point back at it). The nodes
replaced are emptied, which breaks their cycles.

`LRUCache`: its entries are a circular list (the first entry links to itself), so a cache
cleared or dropped stays a cycle with every value it held (a widget's box models: most of
what a removed widget left). `clear()` now unlinks the entries; teardown.py empties the
caches of the widgets it takes apart.

`Strip`: a line divided at its own end, or cropped and extended to itself, is cached in
its own cache as itself; the line is then a cycle, freed by the collector only. Those are
not cached: they are the line itself, found again at no cost.

With teardown.py, a load of 30 older messages of a long thread leaves 3,900 objects for the
collector, not 66,000 (README, Performance).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.style import Style
from textual._compositor import Compositor, CompositorMap, ReflowResult
from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

_REFLOW = Compositor.reflow
_REFLOW_VISIBLE = Compositor.reflow_visible
_FULL_MAP = Compositor.full_map.fget  # type: ignore[attr-defined]
_ARRANGE_ROOT = Compositor._arrange_root
_PROCESS_COMPONENT_CLASSES = Stylesheet._process_component_classes
_LRU_CLEAR = LRUCache.clear
_DIVIDE = Strip.divide
_CROP_EXTEND = Strip.crop_extend


def _reflow(self: Compositor, parent: Widget, size: Size) -> ReflowResult:
    old_map, old_widgets = self._full_map, self.widgets
    result = _REFLOW(self, parent, size)
    _empty_replaced(self, old_map, old_widgets)
    return result


def _reflow_visible(self: Compositor, parent: Widget, size: Size) -> set[Widget]:
    old_map, old_widgets = self._visible_map, self.widgets
    result = _REFLOW_VISIBLE(self, parent, size)
    _empty_replaced(self, old_map, old_widgets)
    return result


def _arrange_root(
    self: Compositor, root: Widget, size: Size, visible_only: bool = True
) -> tuple[CompositorMap, set[Widget]]:
    map, widgets = _ARRANGE_ROOT(self, root, size, visible_only)
    self._arranged = widgets  # type: ignore[attr-defined]
    return map, widgets


def _full_map(self: Compositor) -> CompositorMap:
    old_map = self._full_map
    assert _FULL_MAP is not None
    result = _FULL_MAP(self)
    _empty_replaced(self, old_map, self.widgets)
    # the widgets of a map built anew, which Textual drops (the compositor's own set is kept)
    _empty_replaced(self, None, self.__dict__.pop("_arranged", set()))
    return result


def _empty_replaced(compositor: Compositor, old_map: CompositorMap | None, old_widgets: set[Widget]) -> None:
    """Empty the map and the set of widgets the compositor no longer holds."""
    if old_map is not None and old_map is not compositor._full_map and old_map is not compositor._visible_map:
        old_map.clear()
    if old_widgets is not compositor.widgets:
        old_widgets.clear()


def _process_component_classes(self: Stylesheet, node: DOMNode) -> None:
    old = list(node._component_styles.values())
    _PROCESS_COMPONENT_CLASSES(self, node)
    if old:
        kept = set(map(id, node._component_styles.values()))
        for styles in old:
            if id(styles) not in kept and styles.node is not None:
                styles.node.__dict__.clear()


def _divide(self: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    cuts = list(cuts)
    if [cut for cut in cuts if cut <= self.cell_length] == [self.cell_length]:
        return [self]  # (what Textual returns, not kept in the strip's own cache)
    return _DIVIDE(self, cuts)


def _crop_extend(self: Strip, start: int, end: int, style: Style | None) -> Strip:
    strip = _CROP_EXTEND(self, start, end, style)
    if strip is self:
        self._crop_extend_cache._cache.pop((start, end, style), None)
    return strip


def empty_lru_cache(cache: LRUCache[Any, Any]) -> None:
    """`cache.clear()`, its entries unlinked first (each is a [previous, next, key, value] list)."""
    for entry in cache._cache.values():
        entry.clear()
    _LRU_CLEAR(cache)


def empty_replaced_leftovers() -> None:
    """From now on, Textual's replaced layouts and component nodes are emptied (once per process)."""
    if Compositor.reflow is _reflow:
        return
    Compositor.reflow = _reflow  # type: ignore[method-assign]
    Compositor.reflow_visible = _reflow_visible  # type: ignore[method-assign]
    Compositor._arrange_root = _arrange_root  # type: ignore[method-assign]
    Compositor.full_map = property(_full_map)  # type: ignore[method-assign,assignment]
    Stylesheet._process_component_classes = _process_component_classes  # type: ignore[method-assign]
    LRUCache.clear = empty_lru_cache  # type: ignore[method-assign,assignment]
    Strip.divide = _divide  # type: ignore[method-assign]
    Strip.crop_extend = _crop_extend  # type: ignore[method-assign]
