"""Keys reach what the user typed them for, in the order typed: the app's one input service.

The app hands every key here first (ThreadbenchApp.on_event) and tells it of every screen
pushed (push_screen). Textual alone loses a fast typist's keys in four ways, each mended here
on public events only:

- **Across a focus change.** Textual hands a key to the focused widget at once, and a key that
  widget does not take (tab, a binding of the screen) climbs to the app through the queue of
  each widget above. Keys typed right behind it went to the old widget meanwhile: "ab<tab>cd"
  typed fast put "abcd" in the first field. So once a key is handed on, the keys after it wait
  until a marker posted behind it has climbed the same queues (ORDER_LIMIT at most).
- **A dialog on its way.** A key whose action opens a dialog only after a read (the new-thread
  dialog lists the assistants first) lost the keys typed behind it to the screen below, as its
  one-letter commands. `dialog_worker` holds every key from the action on and hands them to the
  dialog once it is up, one at a time, in order; if none comes, to whatever is shown
  (DIALOG_LIMIT at most). A screen a key opens at once holds them too, until it has the focus.
- **A dialog to be read first** (the agent's question, a question before a delete: READ_FIRST)
  takes no key typed before it opened: the key that opened it, say, is no answer, nor a key
  held behind it for a dialog on its way.
- **A sending key.** Textual runs a priority binding's action as soon as the app reads its key,
  while the letters typed just before it may still wait in the focused widget's queue: enter
  right after a burst of typing read the text without its last letters. `after_typed_keys`
  runs the action from the focused widget's queue instead, after those letters.
"""

from __future__ import annotations

import functools
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, TypeVar, cast

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.timer import Timer

from .workers import work

ORDER_LIMIT = 0.5
"""Seconds a key waits at most for the one before it (whose marker waits in a busy queue)."""
DIALOG_LIMIT = 3.0
"""Seconds the keys wait for a dialog at most; then they go on to whatever is shown."""

Node = TypeVar("Node", bound=DOMNode)
Deliver = Callable[[events.Event], Awaitable[None]]


class TypedKeys:
    def __init__(self, app: App) -> None:
        self.app = app
        self.last_key = 0.0
        """When the newest key came (time.monotonic)."""
        self._in_hand: events.Key | None = None
        """The key being handed on now (a priority binding's action may be running)."""
        self._dialog_since = 0.0
        """Keys typed up to then (Textual's event clock) are not for the newest dialog."""
        # in order across a focus change
        self._waiting: deque[events.Key] = deque()
        self._climbing: object | None = None
        self._climbing_key: events.Key | None = None
        self._since = 0.0
        self._passing: events.Key | None = None
        self._order_timer_set = False
        self._when_idle: list[Callable[[], Any]] = []
        # held for a dialog
        self._holding = False
        self._caught: list[events.Key] = []
        self._replaying: events.Key | None = None
        self._through: weakref.WeakSet[events.Key] = weakref.WeakSet()
        """Keys replayed or let through (a key waiting for the one before it is looked at again)."""
        self._dialog_timer: Timer | None = None

    # -- the app's two calls -------------------------------------------------------------------

    async def route(self, event: events.Key, deliver: Deliver) -> None:
        """Hand `event` on with `deliver` (Textual's App.on_event) when and where it belongs."""
        self.last_key = time.monotonic()
        if event.is_forwarded:  # (a key climbing back up from a widget)
            await deliver(event)
            return
        if self._catch(event) or self._wait_in_order(event):
            return
        if event.time <= self._dialog_since and isinstance(self.app.screen, ModalScreen):
            return  # typed before the dialog opened (the key that opened it, say): not an answer
        start = self.app.focused or self.app.screen
        self._in_hand = event
        try:
            await deliver(event)
        finally:
            self._in_hand = None
        self._handed_on(start, event)

    def screen_pushed(self, screen: DOMNode) -> None:
        """A screen a key opens takes the keys typed after that key, held until it is up (they
        would reach it before its focus); a dialog to be read first takes none typed before it."""
        read_first = getattr(screen, "READ_FIRST", False)
        opener = None if read_first else self._in_hand or self._climbing_key_now
        if isinstance(screen, ModalScreen):
            self._dialog_since = opener.time if opener is not None else events.Event().time
        if read_first:
            self._caught.clear()  # held behind the key that opened it (a dialog worker's): no answer
            self.release()
            return
        if opener is not None:
            self.hold()
        if self._holding:
            screen.call_after_refresh(self.release)

    # -- keys held for a dialog ----------------------------------------------------------------

    @property
    def holding(self) -> bool:
        return self._holding

    def hold(self, limit: float = DIALOG_LIMIT) -> None:
        """From now on every key waits, until `release` or `limit` seconds."""
        self._holding = True
        if self._dialog_timer is not None:
            self._dialog_timer.stop()
        self._dialog_timer = self.app.set_timer(limit, self.release)

    def release(self) -> None:
        """The keys held go on, in order, one at a time."""
        if not self._holding:
            return
        self._holding = False
        if self._dialog_timer is not None:
            self._dialog_timer.stop()
            self._dialog_timer = None
        self._replay_next()

    def let_through(self, keys: list[events.Key]) -> None:
        """These keys (posted to the app by whoever held them before) are not held."""
        self._through.update(keys)

    def _catch(self, event: events.Key) -> bool:
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

    def _replay_next(self) -> None:
        """Hand on the next key held, once the one before it has been seen. Each is made anew:
        a dialog takes no key typed before it opened."""
        if self._holding or self._replaying is not None or not self._caught:
            return
        key = self._caught.pop(0)
        self._replaying = events.Key(key.key, key.character)
        self.app.post_message(self._replaying)

    # -- keys in order across a focus change ------------------------------------------------

    @property
    def _idle(self) -> bool:
        """No key on its way, none waiting."""
        return self._climbing is None and not self._waiting

    @property
    def _climbing_key_now(self) -> events.Key | None:
        return self._climbing_key if self._climbing is not None else None

    def when_idle(self, callback: Callable[[], Any]) -> None:
        """Call `callback` once every key seen so far has gone all the way."""
        if self._idle:
            self.app.call_later(callback)
        else:
            self._when_idle.append(callback)

    def _wait_in_order(self, event: events.Key) -> bool:
        """True if `event` must wait for the keys before it (it waits, in order)."""
        if event is self._passing or self._idle:
            return False
        self._waiting.append(event)
        self._let_go_later()
        return True

    def _handed_on(self, start: DOMNode, key: events.Key) -> None:
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

    def _let_go_later(self) -> None:
        """A marker held up on its way (a handler that keeps its queue busy) holds the keys
        ORDER_LIMIT at most."""
        if not self._order_timer_set:
            self._order_timer_set = True
            self.app.set_timer(max(0.0, self._since + ORDER_LIMIT - time.monotonic()), self._let_go)

    async def _let_go(self) -> None:
        self._order_timer_set = False
        if self._climbing is not None and time.monotonic() - self._since >= ORDER_LIMIT:
            self._climbing = None
        await self._next()
        if self._waiting:
            self._let_go_later()

    async def _next(self) -> None:
        while self._waiting and self._climbing is None:
            self._passing = self._waiting.popleft()
            try:
                await self.app.on_event(self._passing)
            finally:
                self._passing = None
        if self._idle:
            for callback in self._when_idle:
                self.app.call_later(callback)
            self._when_idle.clear()


class HasTypedKeys(Protocol):
    typed_keys: TypedKeys


def typed_keys(node: DOMNode) -> TypedKeys:
    """The app's input service (an app without one is no Threadbench app: a test's)."""
    return cast(HasTypedKeys, node.app).typed_keys


def after_typed_keys(action: Callable[[Node], Any]) -> Callable[[Node], None]:
    """A priority action run after the letters typed before its key (see the module's text)."""

    @functools.wraps(action)
    def deferred(self: Node) -> None:
        target = self.app.focused or self
        target.call_later(action, self)

    # (tests/unit/test_typed_keys.py finds the priority actions without it)
    deferred.after_typed_keys = True  # type: ignore[attr-defined]
    return deferred


def dialog_worker(method: Callable[..., Coroutine[Any, Any, Any]]) -> Callable[..., Any]:
    """`@work(group="modal")` for an action that opens a dialog after a read: the keys typed
    from the action on wait for the dialog (or, if none opens, go on when the worker ends)."""

    @work(group="modal")
    @functools.wraps(method)
    async def run(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        finally:
            typed_keys(self).release()

    @functools.wraps(method)
    def start(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
        typed_keys(self).hold()
        return run(self, *args, **kwargs)

    return start
