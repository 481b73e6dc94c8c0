"""Parsed Markdown blocks that are never mounted, given back to memory at once.

Textual's Markdown parses text into block widgets, and a streamed reply parses its last
block again at every frame: the block on screen takes the new one's content and the new one
is let go; a table's rows and cells and a list's items are parsed as widgets too, which the
app only reads (it draws them: markdown_table.py, markdown_list.py). Each widget is a knot
of reference cycles (teardown.py), so each was garbage only the cyclic collector frees:
about 200 widgets and 15,000 objects per 1,000-word reply (measured with gc.DEBUG_SAVEALL).
They are taken apart once nothing can use them. And the widgets share the parsers: Textual
made one per change, 0.3 ms and more cyclic garbage at each frame and each message mounted.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import cast

from markdown_it import MarkdownIt
from markdown_it.token import Token
from textual.widgets._markdown import MarkdownBlock

from ..teardown import take_apart_unmounted


def unmounted_tree(blocks: Iterable[MarkdownBlock]) -> list[MarkdownBlock]:
    """`blocks` never mounted and the blocks parsed below them (none mounted either)."""
    found: list[MarkdownBlock] = []
    todo = [block for block in blocks if block.__dict__ and block.parent is None and not block.is_mounted]
    while todo:
        block = todo.pop()
        found.append(block)
        todo.extend(getattr(block, "_blocks", ()))
    return found


def let_go(blocks: Iterable[MarkdownBlock]) -> None:
    """Take apart `blocks` (and the blocks parsed below them) that were never mounted."""
    take_apart_unmounted(unmounted_tree(blocks))


class ThreadParsers:
    """A MarkdownIt per thread, shared by every Markdown widget: an append parses on the
    event loop's thread, an update in a worker thread (linkify's state is not for two
    threads at once). Textual asks its parser factory for a parser at each change and only
    calls its `parse`."""

    def __init__(self) -> None:
        self._local = threading.local()

    def parse(self, src: str, env: dict | None = None) -> list[Token]:
        parser = getattr(self._local, "parser", None)
        if parser is None:
            parser = self._local.parser = MarkdownIt("gfm-like")
        return parser.parse(src, env)


_PARSERS = ThreadParsers()


def shared_parser() -> MarkdownIt:
    """The parser factory of the chat's Markdown (Textual made a parser per change: 0.3 ms
    and about 100 objects of cyclic garbage each, at each frame of a streamed reply and for
    each message mounted)."""
    return cast(MarkdownIt, _PARSERS)
