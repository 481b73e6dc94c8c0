"""A bracketed paste is text: an escape character inside one reaches Textual's parser as its
visible stand-in (␛), as every other control character of a paste is shown (ThreadbenchApp.on_event).

Textual 8.2.8's XTermParser reads an escape inside a bracketed paste as the start of a key's
sequence: what follows it is kept out of the pasted text and, at the next escape (the paste's
end), sent as keys, the escape itself as "^". A paste of "a␛c" typed "^" and "c" as keys, and
one of "␛␇" ran ctrl+g (the cancel key). No public hook sees the terminal's input before the
parser does.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual._xterm_parser import XTermParser  # compat: the parser the drivers build
from textual.message import Message

TEXTUAL_FEED = XTermParser.feed
ESC = "\x1b"
START, END = "\x1b[200~", "\x1b[201~"


class PasteGuard:
    """Fed the terminal's input as it is read; gives it back with every escape inside a
    bracketed paste made visible. A paste's start or end split between two reads is found."""

    def __init__(self) -> None:
        self.pasting = False
        self.seen = ""  # outside a paste: the last characters read (a start split in two)
        self.held = ""  # inside one: what may be the start of its end, until the next read

    def __call__(self, data: str) -> str:
        given: list[str] = []
        while data:
            if not self.pasting:
                look = self.seen + data
                found = look.find(START)
                if found < 0:
                    self.seen = look[-(len(START) - 1) :]
                    given.append(data)
                    break
                cut = found + len(START) - len(self.seen)
                given.append(data[:cut])
                data, self.pasting, self.seen = data[cut:], True, ""
                continue
            data, self.held = self.held + data, ""
            found = data.find(END)
            if found < 0:
                keep = next((n for n in range(min(len(END) - 1, len(data)), 0, -1) if END.startswith(data[-n:])), 0)
                body, self.held = data[: len(data) - keep], data[len(data) - keep :]
                given.append(body.replace(ESC, "␛"))
                break
            given.append(data[:found].replace(ESC, "␛") + END)
            data, self.pasting = data[found + len(END) :], False
        return "".join(given)


def guard_pastes() -> None:
    """From now on every parser of the terminal's input reads pastes through a PasteGuard (once per process)."""
    if XTermParser.feed is not TEXTUAL_FEED:
        return

    def guarded(parser: XTermParser, data: str) -> Iterable[Message]:
        guard = parser.__dict__.setdefault("threadbench_pastes", PasteGuard())
        return TEXTUAL_FEED(parser, guard(data))

    XTermParser.feed = guarded  # type: ignore[method-assign,assignment]
