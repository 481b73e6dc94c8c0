"""AnswerBox: where the person types an answer to the agent (HumanInputScreen).

While it is empty and the question has numbered options, a digit is not text: it picks
that option (AnswerBox.Picked, for the dialog). Up and down go to the dialog too (they move
through the options), not to the scrolling body around the box.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message

from .safe_input import SafeInput


class AnswerBox(SafeInput):
    BINDINGS = [
        Binding("down", "screen.move_option(1)", "Next option", show=False),
        Binding("up", "screen.move_option(-1)", "Previous option", show=False),
    ]

    def __init__(self, *, options: int = 0, **kwargs) -> None:
        # (a key typed elsewhere in the dialog brings the focus here: selecting the text then
        # let the next key replace it)
        super().__init__(select_on_focus=False, **kwargs)
        self.options = options
        """How many numbered options the question has (their digits pick while the box is empty)."""

    def picks(self, character: str | None) -> bool:
        """Whether `character`, typed now, picks an option rather than being text."""
        return (
            not self.value
            and character is not None
            and character.isdigit()
            and 1 <= int(character) <= min(9, self.options)
        )

    class Picked(Message):
        """A digit typed in the empty box: the option of that number is picked."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def on_key(self, event: events.Key) -> None:
        if event.character is not None and self.picks(event.character):
            event.stop()
            event.prevent_default()  # (not typed)
            self.post_message(self.Picked(int(event.character)))
