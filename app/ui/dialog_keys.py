"""Keys typed while a dialog is on its way wait for it, and reach it in order.

A key whose action opens a dialog only after a read (the new-thread dialog lists the
assistants first) lost the keys typed right behind it: they reached the screen below, as its
one-letter commands, before the dialog was up. `dialog_worker` holds every key from the
action on and hands the keys to the dialog once it is up, one at a time, the keys typed
meanwhile behind; if no dialog comes (the read failed), to whatever is shown. The palette
handed over to the main screen at start (shell.py) waits the same way.

A screen a key opens at once holds them too, until it is up: they would reach it before
its focus (app.py, push_screen).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, cast

from textual import events, work
from textual.app import App
from textual.dom import DOMNode
from textual.timer import Timer

HOLD_LIMIT = 3.0
"""Seconds the keys wait for the dialog at most; then they go on to whatever is shown."""


class DialogKeys:
    """The app's first look at every key (ThreadbenchApp.on_event): while held, keys wait."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._holding = False
        self._caught: list[events.Key] = []
        self._replaying: events.Key | None = None
        self._through: weakref.WeakSet[events.Key] = weakref.WeakSet()
        """Keys replayed or let through (a key held by KeysInOrder is looked at again)."""
        self._limit: Timer | None = None

    @property
    def holding(self) -> bool:
        return self._holding

    def hold(self, limit: float = HOLD_LIMIT) -> None:
        """From now on every key waits, until `release` or `limit` seconds."""
        self._holding = True
        if self._limit is not None:
            self._limit.stop()
        self._limit = self.app.set_timer(limit, self.release)

    def let_through(self, keys: list[events.Key]) -> None:
        """These keys (posted to the app by whoever held them before) are not held."""
        self._through.update(keys)

    def catch(self, event: events.Key) -> bool:
        """True if `event` is held: while holding, or while the keys held are handed on."""
        if event in self._through:
            return False
        if event is self._replaying:
            self._replaying = None
            self._through.add(event)
            self.app.call_later(self._replay_next)
            return False
        if not (self._holding or self._caught or self._replaying is not None):
            return False
        self._caught.append(event)
        return True

    def dialog_opened(self, screen: DOMNode) -> None:
        """A dialog (or a screen) was pushed: the keys held go to it once it is up and has
        the focus. Not to one that must be read first (a question from the agent)."""
        if self._holding and not getattr(screen, "READ_FIRST", False):
            screen.call_after_refresh(self.release)

    def release(self) -> None:
        """The keys held go on, in order, one at a time."""
        if not self._holding:
            return
        self._holding = False
        if self._limit is not None:
            self._limit.stop()
            self._limit = None
        self._replay_next()

    def _replay_next(self) -> None:
        """Hand on the next key held, once the one before it has been seen. Each is made anew:
        a dialog takes no key typed before it opened (app.py)."""
        if self._holding or self._replaying is not None or not self._caught:
            return
        key = self._caught.pop(0)
        self._replaying = events.Key(key.key, key.character)
        self.app.post_message(self._replaying)


class HasDialogKeys(Protocol):
    dialog_keys: DialogKeys


def dialog_worker(
    method: Callable[..., Coroutine[Any, Any, Any]],
) -> Callable[..., Any]:
    """`@work(group="modal")` for an action that opens a dialog after a read: the keys typed
    from the action on wait for the dialog (or, if none opens, go on when the worker ends)."""

    @work(group="modal")
    @functools.wraps(method)
    async def run(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        finally:
            cast(HasDialogKeys, self.app).dialog_keys.release()

    @functools.wraps(method)
    def start(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
        cast(HasDialogKeys, self.app).dialog_keys.hold()
        return run(self, *args, **kwargs)

    return start
