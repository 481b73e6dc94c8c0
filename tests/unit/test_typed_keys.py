"""The input service's contract (threadbench.ui.typed_keys). Keys in order: every priority key
that sends what was typed (enter in the composer, ctrl+s in a dialog) runs its action after the
letters typed before it (`after_typed_keys`): a priority action runs as soon as the app reads its
key, so without it the last letters of a fast typist are lost (tests/ui/test_typing.py shows the
loss on the composer). Keys typed behind a tab go to the field it moved to."""

from __future__ import annotations

import asyncio
import importlib
import pkgutil

import threadbench.ui
from support.driving import press_at_once, until
from support.waiting import eventually
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Input
from threadbench.ui.typed_keys import ORDER_LIMIT, TypedKeys

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


class Gated(App):
    """Keys routed as ThreadbenchApp routes them."""

    def __init__(self) -> None:
        super().__init__()
        self.typed_keys = TypedKeys(self)

    def compose(self) -> ComposeResult:
        yield Stuck(id="stuck")
        yield Input(id="one")
        yield Input(id="two")

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            await self.typed_keys.route(event, super().on_event)
        else:
            await super().on_event(event)


class Stuck(Input):
    """An input whose x moves the focus on, then keeps its own queue busy until let go (the
    marker behind the x waits in this queue all that time)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.let_go = asyncio.Event()

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "x":
            event.stop()
            self.screen.query_one("#one").focus()
            await self.let_go.wait()
            return
        await super()._on_key(event)


async def test_keys_typed_behind_a_tab_go_to_the_field_it_moved_to():
    app = Gated()
    async with app.run_test() as pilot:
        app.query_one("#one").focus()
        press_at_once(app, "a", "b", "tab", "c", "d")
        await until(lambda: app.query_one("#two", Input).value == "cd", pilot.pause, 5, "cd in the second field")
        assert app.query_one("#one", Input).value == "ab"


async def test_keys_held_behind_a_key_stuck_on_its_way_go_on_after_the_limit():
    app = Gated()
    async with app.run_test():
        stuck = app.query_one("#stuck", Stuck)
        stuck.focus()
        press_at_once(app, "x", "a", "b", "c")
        typed = app.query_one("#one", Input)
        try:
            # (not Pilot.pause: that waits for the stuck queue too)
            await eventually(lambda: typed.value == "abc", 2, "abc, in order, let go in time")
        finally:
            stuck.let_go.set()  # (else the app waits for it as it closes)
        assert ORDER_LIMIT < 2
