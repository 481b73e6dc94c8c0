"""The app's full collections let go of the widget lines Textual's style cache pins."""

from __future__ import annotations

import gc
import weakref

from textual._styles_cache import StylesCache
from textual.color import Color
from threadbench.ui.textual_caches import collect


def test_a_full_collection_lets_go_of_what_the_style_cache_pinned():
    cache = StylesCache()
    cache.get_inner_outer(Color(10, 20, 30), Color(40, 50, 60))
    pinned = weakref.ref(cache)
    del cache
    gc.collect()
    assert pinned() is not None, "Textual's lru_cache keeps it (if no longer, textual_caches can go)"
    collect(2)
    assert pinned() is None
