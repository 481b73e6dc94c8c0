"""`work`: Textual's `@work`, whose failure is no crash when the worker's widget is closing.

Textual takes a widget down (the app quitting, a screen closed, ctrl+o replacing the main
screen) before it stops the workers that widget owns: a worker may still get its answer and
fail on the removed widgets it was for. That is no error, and must not quit the app (a
worker's error does, by default). Any other failure is raised as before: Textual's default
applies (the app exits with the crash report; `CompatApp` keeps secrets out of it), but for
a worker declared `exit_on_error=False`, which Textual would let fail unseen (a table left
"Loading…" for ever): its failure is logged and said in a notification.

Every worker of the app's is declared with this `work` (tests/unit/test_code_checks.py keeps
it so); it uses Textual's public API only.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from textual import work as textual_work
from textual.app import App
from textual.dom import DOMNode

from ..logs import log, redact
from .report import unexpected
from .text import clean


def closing(node: DOMNode) -> bool:
    """`node` is being taken down, or the app it belongs to is: its message loop has stopped,
    it is no longer in the app's DOM, or the app is quitting (it stops its own loop first)."""
    try:
        app = node if isinstance(node, App) else node.app
        return not (node.is_running and node.is_attached and app.is_running)
    except RuntimeError:  # (Textual's NoActiveAppError: detached, in a thread worker)
        return True


def dropped(node: DOMNode, error: Exception) -> bool:
    if not closing(node):
        return False
    log.debug("a worker of a closing %s failed: %r", type(node).__name__, error)
    return True


def said(node: DOMNode, error: Exception, doing: str) -> None:
    """A failure no code expected, of a worker that must not quit the app: logged with its
    traceback and told (from the worker's thread too)."""
    log.error("%s failed", doing, exc_info=error)
    text = redact(clean(unexpected(error, doing)))
    notify = functools.partial(node.app.notify, text, severity="error", timeout=8, markup=False)
    try:
        node.app.call_from_thread(notify)
    except RuntimeError:  # (on the app's own thread)
        notify()


def quiet_when_closing(method: Callable[..., Any], doing: str | None = None) -> Callable[..., Any]:
    """`method` (of a DOMNode), its failure dropped when the node is closing; said (and not
    raised) when `doing` names what it does."""

    def failed(self: DOMNode, error: Exception) -> None:
        if dropped(self, error):
            return
        if doing is None:
            raise error
        said(self, error, doing)

    if inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        async def run(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
            try:
                return await method(self, *args, **kwargs)
            except Exception as error:
                failed(self, error)
                return None

        return run

    @functools.wraps(method)
    def call(self: DOMNode, *args: Any, **kwargs: Any) -> Any:  # (a thread worker)
        try:
            return method(self, *args, **kwargs)
        except Exception as error:
            failed(self, error)
            return None

    return call


def work(method: Callable[..., Any] | None = None, **options: Any) -> Any:
    """`textual.work(**options)`, the method's failure dropped while its node is closing
    (and said, with `exit_on_error=False`)."""

    def decorate(method: Callable[..., Any]) -> Any:
        doing = None
        if options.get("exit_on_error") is False:
            doing = options.get("description") or method.__name__.replace("_", " ").strip().capitalize()
        return textual_work(quiet_when_closing(method, doing), **options)

    return decorate if method is None else decorate(method)
