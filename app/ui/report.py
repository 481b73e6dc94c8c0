"""How every region tells the user that a server call failed."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.dom import DOMNode
from textual.widget import Widget

from ..backends.base import BackendError, LoginFailed, LoginRequired, Unauthorized
from ..logs import redact
from .text import clean

if TYPE_CHECKING:
    from .app import ThreadbenchApp


def report(node: Widget, error: BaseException, doing: str, then: str = "") -> None:
    """Tell the user what failed and what to do (`then`, else the error's hint); never
    crash on a server error. A key the app knows never shows."""
    if isinstance(error, BackendError):
        text = f"{doing} failed: {error}"
        then = then or error.hint
        if isinstance(error, Unauthorized) and not isinstance(error, (LoginFailed, LoginRequired)):
            then += " Or press ctrl+o to connect with another key."
        if then:
            text += f"\n{then.strip()}"
    else:
        text = unexpected(error, doing)
    cast("ThreadbenchApp", node.app).log_error(text)
    node.notify(redact(clean(text)), severity="error", timeout=8, markup=False)


def unexpected(error: BaseException, doing: str) -> str:
    """How a failure that is no server's is said."""
    return f"{doing} failed: {type(error).__name__}: {error}"


def gone(node: DOMNode) -> bool:
    """The app is closing, or ctrl+o replaced the screen: a late answer is dropped (the app
    takes the widgets down before it stops the workers that wait for answers)."""
    return not node.is_attached or not node.app.is_running
