"""What a dialog does while the screen behind it sends what was typed to the server."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Static


async def refusal_of(
    dialog: Screen, button: str, status: str, busy: str, submit: Callable[[], Awaitable[str | None]]
) -> str | None:
    """Await `submit()` with the dialog's button disabled and `busy` shown: why the server
    refused (None: done). The dialog's fields stay as typed whatever happens."""
    send = dialog.query_one(button, Button)
    send.disabled = True
    dialog.query_one(status, Static).update(Content.styled(busy, "$text-muted"))
    try:
        return await submit()
    except Exception as error:  # the callback should return text, but never lose what was typed
        return f"{type(error).__name__}: {error}"
    finally:
        send.disabled = False
