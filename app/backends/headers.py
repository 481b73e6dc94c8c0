"""What can be sent in an HTTP header: checked before a request is made (no imports, so the
command line and the connection screen can use it without loading a client)."""

from __future__ import annotations


def api_key_problem(key: str | None) -> str | None:
    """Why `key` cannot be sent in an HTTP header (None if it can): a key pasted with a
    space, a line break or a typographic dash in it. The reason never quotes the key."""
    if not key:
        return None
    for position, char in enumerate(key, 1):
        if not 0x21 <= ord(char) <= 0x7E:
            what = "a space" if char == " " else f"the character U+{ord(char):04X}"
            return (
                f"has {what} at position {position} of {len(key)}, which cannot be sent in an "
                "HTTP header (was it pasted with a line break, a space or a typographic dash?)"
            )
    return None
