"""A Textual cache that keeps removed widgets' lines alive, and the full collection that empties it.

Textual 8.2.8 decorates the method `StylesCache.get_inner_outer` with functools.lru_cache, so
its keys hold up to 1,024 StylesCache objects (one per widget that painted), each with every
line its widget rendered, long after the widget is gone. In a soak of long replies it held
56,000 objects after eight replies, a quarter of all the app's, and went on filling. Its
values are two Styles, quick to make again.
"""

from __future__ import annotations

import gc

from textual._styles_cache import StylesCache


def collect(generation: int) -> int:
    """`gc.collect`, after the cache lets go of what it pinned (the app's full collections)."""
    StylesCache.get_inner_outer.cache_clear()
    return gc.collect(generation)
