"""A Strip makes its caches when first used, and draws exactly as one that made them at once."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from support.compat import needs_compat
from textual.color import Color
from textual.filter import Monochrome
from textual.strip import Strip
from threadbench.ui.textual_compat.lean_strips import EAGER_INIT, lazy_strip_caches

pytestmark = needs_compat

SEGMENTS = [
    Segment("plain ", Style()),
    Segment("bold red", Style(bold=True, color="red")),
    Segment(" 宽字 ", Style(bgcolor="blue")),
    Segment("link", Style(link="https://example.com")),
    Segment(" tail " * 3, Style(dim=True)),
]
CACHES = (
    "_divide_cache",
    "_crop_cache",
    "_style_cache",
    "_filter_cache",
    "_line_length_cache",
    "_crop_extend_cache",
    "_offsets_cache",
)


def eager_strip() -> Strip:
    strip = Strip.__new__(Strip)
    EAGER_INIT(strip, SEGMENTS)
    return strip


def made(strip: Strip) -> set[str]:
    return {name for name in CACHES if _is_set(strip, name)}


def _is_set(strip: Strip, name: str) -> bool:
    try:
        Strip.__dict__[name].__get__(strip, Strip)  # the slot itself, not the lazy maker
    except AttributeError:
        return False
    return True


def operations(strip: Strip) -> list[object]:
    style = Style(bgcolor="green", italic=True)
    return [
        strip.cell_length,
        strip.text,
        strip.crop(2, 17),
        strip.crop(2, 17),  # from the cache the first made
        strip.crop(5),
        strip.crop_extend(3, 40, style),
        strip.divide([4, 9, 30]),
        strip.apply_style(style),
        strip.apply_filter(Monochrome(), Color(0, 0, 0)),
        strip.adjust_cell_length(10, style),
        strip.adjust_cell_length(50, style),
        strip.extend_cell_length(45, style),
        strip.apply_offsets(3, 4),
        strip.simplify(),
        strip.discard_meta(),
        strip.link_ids,
        strip.index_to_cell_position(8),
    ]


def test_a_strip_makes_no_cache_until_one_is_used():
    lazy_strip_caches()
    strip = Strip(SEGMENTS)
    assert made(strip) == set()
    strip.crop(1, 5)
    assert made(strip) == {"_crop_cache"}
    assert strip._crop_cache._maxsize == eager_strip()._crop_cache._maxsize


def test_lazy_and_eager_strips_give_the_same_results():
    lazy_strip_caches()
    lazy, eager = Strip(SEGMENTS), eager_strip()
    for got, expected in zip(operations(lazy), operations(eager), strict=True):
        if isinstance(expected, Strip):
            assert isinstance(got, Strip)
            assert list(got) == list(expected)
            assert got.cell_length == expected.cell_length
        elif isinstance(expected, list):
            assert [list(part) for part in got] == [list(part) for part in expected]
        else:
            assert got == expected
    assert made(lazy) == set(CACHES)


def test_an_unknown_attribute_is_still_an_attribute_error():
    lazy_strip_caches()
    strip = Strip(SEGMENTS)
    try:
        strip.no_such_thing  # noqa: B018
    except AttributeError as error:
        assert "no_such_thing" in str(error)
    else:
        raise AssertionError("an unknown attribute was made")
