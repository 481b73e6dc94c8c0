"""SafeInput: an Input that never sends a control character to the terminal.

Textual's Input draws its value as given, so an escape sequence in it (a thread title
being renamed, a message being edited, text pasted into the search box) would reach the
terminal raw. SafeInput draws control characters as the visible stand-ins of
threadbench.ui.text.clean (one character for one, so the cursor stays where it should) and keeps
the value itself exactly as it is: nothing typed or given is changed.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.expand_tabs import expand_tabs_inline
from textual.widgets import Input

from ..text import clean


class SafeInput(Input):
    @property
    def _value(self) -> Text:
        if self.password:
            return super()._value
        text = Text(clean(self.value), no_wrap=True, overflow="ignore", end="")
        if self.highlighter is not None:
            text = self.highlighter(text)
        return text

    def _position_to_cell(self, position: int) -> int:
        return cell_len(expand_tabs_inline(clean(self.value[:position]), 4))
