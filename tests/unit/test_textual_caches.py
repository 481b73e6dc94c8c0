"""Textual's inner/outer style cache pins no StylesCache (nor the lines it holds)."""

from __future__ import annotations

import gc
import weakref

from textual._styles_cache import StylesCache
from textual.color import Color
from threadbench.ui.textual_caches import TEXTUAL_INNER_OUTER, styles_by_colour


def test_textual_s_own_cache_pins_the_styles_cache():
    """Why styles_by_colour exists: if this fails, Textual no longer pins it and it can go."""
    cache = StylesCache()
    TEXTUAL_INNER_OUTER(cache, Color(10, 20, 30), Color(40, 50, 60))
    pinned = weakref.ref(cache)
    del cache
    gc.collect()
    assert pinned() is not None
    TEXTUAL_INNER_OUTER.cache_clear()


def test_a_styles_cache_goes_with_its_widget_and_the_styles_are_textual_s():
    styles_by_colour()
    base, background = Color(10, 20, 30), Color(40, 50, 60, 0.5)
    cache = StylesCache()
    inner, outer = cache.get_inner_outer(base, background)
    assert (inner, outer) == TEXTUAL_INNER_OUTER.__wrapped__(cache, base, background)
    assert StylesCache().get_inner_outer(base, background) == (inner, outer)
    gone = weakref.ref(cache)
    del cache
    assert gone() is None  # by its reference count, with no collection
