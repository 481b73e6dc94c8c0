"""A Strip makes each of its caches when first used.

Every rendered line is a Strip, and each Strip made seven little FIFOCaches when it was built,
though most lines are painted once and never cropped, styled or divided again. They were a
quarter of the objects a full collection walked (20,800 of 89,000 after paging a store).
`lazy_strip_caches` makes a Strip's cache when it is first used, as Textual's own `Content`
does with its divide cache. The slots and sizes are read from a Strip built Textual's way, so a
Strip that adds, drops or resizes a cache is followed; one with other plain slots is left alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.cache import FIFOCache
from textual.strip import Strip

EAGER_INIT = Strip.__init__
"""Textual's own Strip.__init__, which makes all seven caches at once (kept for the tests)."""
PLAIN = ("_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count")  # compat: Strip's slots
_CACHE_SIZES: dict[str, int] = {}


def _lean_init(self: Strip, segments: Iterable[object], cell_length: int | None = None) -> None:
    for name, value in zip(PLAIN, (list(segments), cell_length, None, None, None), strict=True):
        setattr(self, name, value)


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
    probe = Strip([])
    caches = {name: cache for name in Strip.__slots__ if isinstance(cache := getattr(probe, name, None), FIFOCache)}
    if set(Strip.__slots__) - set(caches) != set(PLAIN):
        return  # a Strip this module does not know: leave it as Textual made it
    _CACHE_SIZES.update({name: cache._maxsize for name, cache in caches.items()})  # compat: no public size
    Strip.__init__ = _lean_init  # type: ignore[method-assign]
    Strip.__getattr__ = _make_cache  # type: ignore[attr-defined]
