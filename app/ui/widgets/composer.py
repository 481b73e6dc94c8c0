"""The message composer (#composer): multi-line, Enter sends, ctrl+j adds a new line.

ctrl+j sends a plain line feed in every terminal, so the newline key works everywhere;
shift+enter and alt+enter also add one where the terminal reports them.

ctrl+u asks to attach a file (TextArea's ctrl+u, delete to the line's start, stays on
super+backspace); the conversation opens the dialog.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import TextArea

from ..typed_keys import after_typed_keys

NEWLINE_KEYS = ("ctrl+j", "shift+enter", "alt+enter")


class Composer(TextArea):
    BINDINGS = [
        Binding("enter", "submit", "Send", id="composer.send", priority=True),
        Binding("ctrl+j", "newline", "New line", id="composer.newline"),
        Binding("ctrl+u", "attach", "Attach a file", id="composer.attach", tooltip="Attach a file to the message"),
    ]

    @dataclass
    class Submitted(Message):
        composer: Composer
        text: str

    @dataclass
    class AttachRequested(Message):
        composer: Composer

    def __init__(self, **kwargs) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus", **kwargs)

    def show_draft(self, text: str) -> None:
        """Put `text` in the composer, the cursor at its end (typing goes on from there)."""
        self.load_text(text)
        self.move_cursor(self.document.end)

    @after_typed_keys
    def action_submit(self) -> None:
        text = self.text.strip()
        if text:
            self.post_message(self.Submitted(self, text))

    def action_attach(self) -> None:
        self.post_message(self.AttachRequested(self))

    def action_newline(self) -> None:
        self.insert("\n")

    def on_key(self, event: events.Key) -> None:
        if event.key in NEWLINE_KEYS:  # (prevent_default: TextArea's own handler is not run)
            event.stop()
            event.prevent_default()
            self.action_newline()
