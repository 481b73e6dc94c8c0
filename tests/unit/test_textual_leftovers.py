"""Textual's replaced layouts and component-class nodes are emptied when replaced, so they
leave nothing for the cyclic collector (threadbench.ui.textual_leftovers)."""

from __future__ import annotations

import gc
import weakref

from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.widgets import Markdown, Static
from threadbench.ui.textual_leftovers import empty_replaced_leftovers


class Host(App):
    def compose(self) -> ComposeResult:
        yield Static("one", id="one")
        yield Markdown("*some* **markdown**", id="markdown")


async def test_a_replaced_layout_is_emptied() -> None:
    empty_replaced_leftovers()
    app = Host()
    async with app.run_test() as pilot:
        compositor = app.screen._compositor
        old_map, old_widgets = compositor._full_map, compositor.widgets
        assert app.query_one("#one") in old_map
        await app.screen.mount(Static("two"))
        await pilot.pause()
        assert compositor._full_map is not old_map and not old_map and not old_widgets
        assert app.query_one("#one") in compositor._full_map and "two" in str(app.screen.query(Static).last().render())


async def test_the_widgets_of_a_map_built_anew_after_a_scroll_are_emptied(monkeypatch) -> None:
    """After a layout for a scroll, Textual builds the map of every widget again when it is
    asked for, and drops the set of widgets it built with it: that set stayed in the cycle
    of the function that fills it, holding every widget of the screen (removed ones too)."""
    from threadbench.ui import textual_leftovers

    empty_replaced_leftovers()
    built: list[set] = []

    def arrange_root(*args, **kwargs):
        map, widgets = arrange(*args, **kwargs)
        built.append(widgets)
        return map, widgets

    arrange = textual_leftovers._ARRANGE_ROOT
    monkeypatch.setattr(textual_leftovers, "_ARRANGE_ROOT", arrange_root)
    app = Host()
    async with app.run_test() as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        compositor._full_map_invalidated = True  # as a layout for a scroll leaves it
        built.clear()
        assert app.query_one("#one") in compositor.full_map
        assert len(built) == 1 and built[0] is not compositor.widgets and not built[0]
        assert app.query_one("#one") in compositor.widgets  # the compositor's own set is whole


async def test_the_nodes_a_restyle_replaces_are_emptied() -> None:
    empty_replaced_leftovers()
    app = Host()
    async with app.run_test() as pilot:
        markdown = app.query_one("#markdown")
        paragraph = markdown.query_one("MarkdownParagraph")
        old = [styles.node for styles in paragraph._component_styles.values()]
        assert old and all(node.__dict__ for node in old)
        app.stylesheet.apply(paragraph)  # as a change of class or theme does
        await pilot.pause()
        new = [styles.node for styles in paragraph._component_styles.values()]
        assert all(node not in new and not node.__dict__ for node in old)
        assert all(node.__dict__ for node in new) and paragraph.get_component_rich_style("em")


class Value:
    pass


def test_a_cleared_lru_cache_lets_go_of_its_values_without_the_collector() -> None:
    empty_replaced_leftovers()
    cache: LRUCache[int, Value] = LRUCache(10)
    values = [Value() for _ in range(3)]
    for key, value in enumerate(values):
        cache.set(key, value)
    held = [weakref.ref(value) for value in values]
    del values, value
    gc.collect()
    gc.disable()
    try:
        cache.clear()
        assert all(ref() is None for ref in held)
    finally:
        gc.enable()
    cache.set(7, Value())
    assert cache.get(7) is not None and len(cache) == 1


def test_a_strip_is_not_kept_in_its_own_caches() -> None:
    """Divided at its own end, or cropped and extended to itself, a line is itself: not
    cached in itself, so freeing it needs no collector."""
    from rich.segment import Segment
    from textual.strip import Strip

    empty_replaced_leftovers()
    strip = Strip([Segment("hello "), Segment("world")], 11)
    assert strip.divide([11]) == [strip] and strip.divide([11, 20]) == [strip]
    assert strip.crop_extend(0, 11, None) is strip
    assert [str(part.text) for part in strip.divide([5, 11])] == ["hello", " world"]
    assert strip.crop_extend(0, 13, None).cell_length == 13
    line = Strip([Segment("a line")], 6)
    line.divide([6])
    line.crop_extend(0, 6, None)
    held = [*line._divide_cache._cache.values(), *line._crop_extend_cache._cache.values()]
    assert not any(value is line or (isinstance(value, list) and any(v is line for v in value)) for value in held)
