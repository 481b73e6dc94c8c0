"""Where an Input's cursor is drawn, counted on the text it shows (threadbench.ui.widgets.safe_input).

SafeInput shows a control character as a visible stand-in, one character for one; Textual counts
the cursor's cell on the value itself, where a control character takes no cell, so the cursor
would be drawn left of where it is. No public hook places it.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.expand_tabs import expand_tabs_inline
from textual.widgets import Input

from ..text import clean
from . import active


class CleanCursorInput(Input):
    def _position_to_cell(self, position: int) -> int:  # compat: Textual 8.2.8's Input
        if not active():
            return super()._position_to_cell(position)  # compat
        return cell_len(expand_tabs_inline(clean(self.value[:position]), 4))
