"""SafeInput: an Input that never sends a control character to the terminal.

Textual's Input draws its value as given, so an escape sequence in it (a thread title
being renamed, a message being edited, text pasted into the search box) would reach the
terminal raw. SafeInput draws control characters as the visible stand-ins of
threadbench.ui.text.clean (one character for one, so the cursor stays where it should) and keeps
the value itself exactly as it is: nothing typed or given is changed.
"""

from __future__ import annotations

from typing import Any

from rich.highlighter import Highlighter
from rich.text import Text

from ..text import clean
from ..textual_compat.input_cursor import CleanCursorInput


class CleanText(Highlighter):
    """Shows control characters as their stand-ins, then highlights with `inner`, if any."""

    def __init__(self, inner: Highlighter | None = None) -> None:
        self.inner = inner

    def highlight(self, text: Text) -> None:
        text.plain = clean(text.plain)  # (one for one: the styles stay on their characters)
        if self.inner is not None:
            self.inner.highlight(text)


class SafeInput(CleanCursorInput):
    def __init__(
        self, value: str | None = None, placeholder: str = "", highlighter: Highlighter | None = None, **kwargs: Any
    ) -> None:
        super().__init__(value, placeholder, CleanText(highlighter), **kwargs)
