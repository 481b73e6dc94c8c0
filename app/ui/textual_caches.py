"""Two of Textual's caches, made lighter for the collector.

`StylesCache.get_inner_outer`: Textual 8.2.8 decorates this method with functools.lru_cache,
so its keys hold up to 1,024 StylesCache objects (one per widget that painted), each with
every line its widget rendered, long after the widget is gone. In a soak of long replies it
held 56,000 objects after eight replies, a quarter of all the app's; paging up a long
thread, 860 caches of widgets gone (300 `pageup`s), whose lines were freed all at once by
the forced full collection's clear, inside the stall it makes. Its two Styles depend on the
two colours only: `styles_by_colour` caches them by the colours, so a widget's lines go with
the widget.

`Strip`: every rendered line is a Strip, and each Strip made seven little FIFOCaches when it
was built, though most lines are painted once and never cropped, styled or divided again.
They were a quarter of the objects a full collection walked (20,800 of 89,000 after paging
a store). `lazy_strip_caches` makes a Strip's cache when it is first used, as Textual's own
`Content` does with its divide cache.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from textual._styles_cache import StylesCache
from textual.cache import FIFOCache
from textual.color import Color
from textual.strip import Strip
from textual.style import Style

TEXTUAL_INNER_OUTER = StylesCache.get_inner_outer
"""Textual's own, cached by the StylesCache too (kept for the tests)."""


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    return TEXTUAL_INNER_OUTER.__wrapped__(None, base_background, background)


def styles_by_colour() -> None:
    """From now on `StylesCache.get_inner_outer` is cached by its two colours alone (a
    staticmethod: no Python call of ours on the way, it is asked once per line painted)."""
    StylesCache.get_inner_outer = staticmethod(_inner_outer)  # type: ignore[method-assign, assignment]


EAGER_INIT = Strip.__init__
"""Textual's own Strip.__init__, which makes all seven caches at once (kept for the tests)."""
_CACHE_SIZES: dict[str, int] = {}


def _lean_init(self: Strip, segments: Iterable[object], cell_length: int | None = None) -> None:
    self._segments = list(segments)  # type: ignore[arg-type]
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _make_cache(self: Strip, name: str) -> FIFOCache:
    # Called only for an attribute not set yet: a cache slot left empty by _lean_init.
    size = _CACHE_SIZES.get(name)
    if size is None:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
    cache: FIFOCache = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def lazy_strip_caches() -> None:
    """From now on a Strip makes each of its caches when first used (once per process)."""
    if Strip.__init__ is _lean_init:
        return
    # The slots and sizes are read from a Strip built the original way, so a Textual that
    # adds, drops or resizes a cache is followed rather than guessed.
    probe = Strip([])
    sizes = {
        name: cache._maxsize for name in Strip.__slots__ if isinstance(cache := getattr(probe, name, None), FIFOCache)
    }
    plain = {name for name in Strip.__slots__ if name not in sizes}
    if plain != {"_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count"}:
        return  # a Strip this module does not know: leave it as Textual made it
    _CACHE_SIZES.update(sizes)
    Strip.__init__ = _lean_init  # type: ignore[method-assign]
    Strip.__getattr__ = _make_cache  # type: ignore[attr-defined]
