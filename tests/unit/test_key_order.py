"""Every priority key that sends what was typed (enter in the composer, ctrl+s in a dialog) runs
its action after the letters typed before it (`after_typed_keys`): a priority action runs as
soon as the app reads its key, so without it the last letters of a fast typist are lost
(tests/ui/test_typing.py shows the loss on the composer)."""

from __future__ import annotations

import importlib
import pkgutil

import threadbench.ui
from textual.binding import Binding
from textual.dom import DOMNode

SENDING_KEYS = {"enter", "ctrl+s"}


def every_class() -> set[type[DOMNode]]:
    for module in pkgutil.walk_packages(threadbench.ui.__path__, "threadbench.ui."):
        importlib.import_module(module.name)
    found: set[type[DOMNode]] = set()
    todo: list[type[DOMNode]] = [DOMNode]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return {cls for cls in found if cls.__module__.startswith("threadbench.")}


def test_priority_sending_keys_wait_for_the_typed_letters() -> None:
    checked, missing = [], []
    for cls in every_class():
        for binding in cls.__dict__.get("BINDINGS", []):
            if not isinstance(binding, Binding) or not binding.priority:
                continue
            if not SENDING_KEYS & set(binding.key.split(",")):
                continue
            action = getattr(cls, f"action_{binding.action}", None)
            checked.append(f"{cls.__name__}.{binding.action}")
            if not getattr(action, "after_typed_keys", False):
                missing.append(f"{cls.__qualname__} ({cls.__module__}): action_{binding.action}")
    assert len(checked) >= 9, checked  # the composer and the eight dialogs: the walk found them
    assert not missing, "priority keys that may read the text before its last letters: " + ", ".join(missing)
