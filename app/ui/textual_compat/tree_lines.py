"""A Tree's rendered lines let go of when its labels change (threadbench.ui.widgets.state_tree).

A Tree keeps each line it drew in a cache of 1,024, keyed by the label's version: a label set
again makes a new key, and the old line stays until the cache is full. The state tree sets its
labels at each step of a run, so a long session filled the cache with lines never shown again
(a megabyte by the 60th run of bench/soak.py). Only a change of the tree's nodes or of its
expansion empties it, and that lays out the screen. Without this (compat not active) the cache
still stops at its 1,024 lines.
"""

from __future__ import annotations

from textual.widgets import Tree

from . import active


def forget_drawn_lines(tree: Tree) -> None:
    """Empty `tree`'s cache of rendered lines; the lines in view are drawn again. (Not through
    Tree._clear_line_cache: that also drops the list of lines, whose rebuilding sets the
    tree's virtual size, and a new width lays out the screen.)"""
    if active():
        tree._line_cache.clear()  # compat: Textual 8.2.8's Tree._line_cache
