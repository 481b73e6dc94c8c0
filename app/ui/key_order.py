"""Keys in the order they were typed: for the actions of priority keys, and for the widget
each key goes to.

Textual runs a priority binding's action as soon as the app receives the key, while the keys
typed just before it may still wait in the focused widget's queue: enter (or ctrl+s) right
after a burst of typing would read the text without its last letters. `after_typed_keys`
runs the action from the focused widget's queue instead, after those keys. `KeysInOrder`
hands a key to the focused widget only once the key before it has gone all the way.
"""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from textual import events
from textual.app import App
from textual.dom import DOMNode

Node = TypeVar("Node", bound=DOMNode)


def after_typed_keys(action: Callable[[Node], Any]) -> Callable[[Node], None]:
    @functools.wraps(action)
    def deferred(self: Node) -> None:
        target = self.app.focused or self
        target.call_later(action, self)

    # (tests/unit/test_key_order.py finds the priority actions without it)
    deferred.after_typed_keys = True  # type: ignore[attr-defined]
    return deferred


HOLD_LIMIT = 0.5
"""Seconds a key waits at most for the one before it (whose marker waits in a busy queue)."""


class KeysInOrder:
    """Each key goes to the widget focused once the key before it has gone all the way.

    The app hands a key to the focused widget at once, and a key that widget does not take
    (tab, a binding of the screen) climbs to the app through the queue of each widget above.
    Keys typed right behind it went to the old widget meanwhile: "ab<tab>cd" typed fast put
    "abcd" in the first field. So once a key is handed on, the keys after it are held until
    a marker posted behind it has climbed the same queues to the app.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self._held: deque[events.Key] = deque()
        self._climbing: object | None = None
        self._climbing_key: events.Key | None = None
        self._since = 0.0
        self._passing: events.Key | None = None
        self._timer_set = False
        self._when_idle: list[Callable[[], Any]] = []

    @property
    def _idle(self) -> bool:
        """No key on its way, none held."""
        return self._climbing is None and not self._held

    def when_idle(self, callback: Callable[[], Any]) -> None:
        """Call `callback` once every key seen so far has gone all the way."""
        if self._idle:
            self.app.call_later(callback)
        else:
            self._when_idle.append(callback)

    def hold(self, event: events.Key) -> bool:
        """True if `event` must wait for the keys before it (it is held, in order)."""
        if event is self._passing or self._idle:
            return False
        self._held.append(event)
        self._release_later()
        return True

    @property
    def climbing(self) -> events.Key | None:
        """The key handed on whose handlers have not all run yet, if any."""
        return self._climbing_key if self._climbing is not None else None

    def handed_on(self, start: DOMNode, key: events.Key) -> None:
        """`key` was handed to `start` (or run as the app's own binding): follow it up."""
        self._climbing_key = key
        marker = self._climbing = object()
        self._since = time.monotonic()
        self._climb(start, marker)

    def _climb(self, node: DOMNode | None, marker: object) -> None:
        while node is not None and node is not self.app:
            if node.call_later(self._climb, node.parent, marker):
                return
            node = node.parent  # (a widget that stopped: on to the one above)
        self.app.call_later(self._arrived, marker)

    async def _arrived(self, marker: object) -> None:
        if marker is self._climbing:
            self._climbing = None
            await self._next()

    def _release_later(self) -> None:
        """A marker held up on its way (a handler that keeps its queue busy) holds the keys
        HOLD_LIMIT at most."""
        if not self._timer_set:
            self._timer_set = True
            self.app.set_timer(max(0.0, self._since + HOLD_LIMIT - time.monotonic()), self._release)

    async def _release(self) -> None:
        self._timer_set = False
        if self._climbing is not None and time.monotonic() - self._since >= HOLD_LIMIT:
            self._climbing = None
        await self._next()
        if self._held:
            self._release_later()

    async def _next(self) -> None:
        while self._held and self._climbing is None:
            self._passing = self._held.popleft()
            try:
                await self.app.on_event(self._passing)
            finally:
                self._passing = None
        if self._idle:
            for callback in self._when_idle:
                self.app.call_later(callback)
            self._when_idle.clear()
