"""The chat's find bar (#chat-find): ctrl+f anywhere on the main screen opens it (the
conversation's main.find); what is typed is marked in the whole thread, enter goes to the next
match (shift+enter or ctrl+p the previous), and escape closes it, takes the marks away and gives
the focus back to where ctrl+f was pressed (n and N go on from the chat while it is open)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from .safe_input import SafeInput


class ChatFind(Horizontal):
    DEFAULT_CSS = """
    ChatFind {
        height: 1;
        display: none;
        background: $panel;
        &.-open { display: block; }
        & > SafeInput, & > SafeInput:focus { width: 1fr; height: 1; border: none; padding: 0 1; background: $panel; }
        & > #chat-find-count { width: auto; padding: 0 1; color: $text-muted; }
    }
    """
    BINDINGS = [
        Binding("shift+enter,ctrl+p", "step(-1)", "Previous match", show=False),
        Binding("escape", "close", "Close find", show=False),
    ]

    @dataclass
    class Changed(Message):
        query: str

    @dataclass
    class Step(Message):
        step: int

    class Closed(Message):
        pass

    def compose(self) -> ComposeResult:
        yield SafeInput(placeholder="find in this thread", id="chat-find-input")
        yield Static(id="chat-find-count")

    @property
    def input(self) -> SafeInput:
        return self.query_one(SafeInput)

    def open(self) -> None:
        self.add_class("-open")
        self.input.focus()
        if self.input.value:
            self.post_message(self.Changed(self.input.value))

    def show_count(self, current: int, count: int) -> None:
        if not self.input.value:
            text = Content("")
        elif not count:
            text = Content.styled("no match", "$text-warning")
        else:
            text = Content(f"{current} of {count}" if current else f"{count} match{'es' if count > 1 else ''}")
        self.query_one("#chat-find-count", Static).update(text)

    def on_input_changed(self, event: SafeInput.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(event.value))

    def on_input_submitted(self, event: SafeInput.Submitted) -> None:
        event.stop()
        self.post_message(self.Step(1))

    def action_step(self, step: int) -> None:
        self.post_message(self.Step(step))

    def action_close(self) -> None:
        self.remove_class("-open")
        self.post_message(self.Closed())
