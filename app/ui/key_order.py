"""Keys in the order they were typed, for the actions of priority keys.

Textual runs a priority binding's action as soon as the app receives the key, while the keys
typed just before it may still wait in the focused widget's queue: enter (or ctrl+s) right
after a burst of typing would read the text without its last letters. `after_typed_keys`
runs the action from the focused widget's queue instead, after those keys.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

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
