"""When a Pilot wait times out, say which widgets did not get through their messages and what
each one's message loop is waiting on.

Textual's WaitForScreenTimeout says only that some widget did not process a callback within
30 s, "most likely some kind of deadlock in the app code". This names the widgets and prints
the stack of each one's task, which is where the deadlock is.
"""

from __future__ import annotations

import asyncio

import pytest
from textual.pilot import Pilot, WaitForScreenTimeout


def awaiting(task: asyncio.Task) -> list[str]:
    """Where a suspended task waits: each coroutine in the chain it awaits through, as
    `file:line in function` (asyncio's own stack shows only the outermost frame)."""
    lines = []
    node = task.get_coro()
    while node is not None:
        frame = getattr(node, "cr_frame", None) or getattr(node, "gi_frame", None)
        if frame is not None:
            code = frame.f_code
            lines.append(f"{code.co_filename}:{frame.f_lineno} in {code.co_name}")
        following = getattr(node, "cr_await", None) or getattr(node, "gi_yieldfrom", None)
        if following is None and frame is None:
            lines.append(repr(node)[:200])
        node = following
    return lines


def describe(widgets) -> str:
    lines = []
    for widget in widgets:
        lines.append(f"- {widget!r} (queue: {widget._message_queue.qsize()} messages)")
        if widget._task is not None:
            lines.extend("    " + line for line in awaiting(widget._task))
    return "\n".join(lines)


@pytest.fixture(autouse=True)
def name_stuck_widgets(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Pilot._wait_for_screen

    async def wait_for_screen(self: Pilot, timeout: float = 30.0) -> bool:
        try:
            screen = self.app.screen
        except Exception:
            return False
        waiting: dict[int, object] = {}
        for child in (self.app, *screen.walk_children(with_self=True)):

            def done(child=child) -> None:
                waiting.pop(id(child), None)

            if child.call_later(done):
                waiting[id(child)] = child
        try:
            return await original(self, timeout)
        except WaitForScreenTimeout:
            await asyncio.sleep(0)
            raise WaitForScreenTimeout(
                "Timed out while waiting for widgets to process pending messages. Stuck:\n"
                + describe(list(waiting.values()))
            ) from None

    monkeypatch.setattr(Pilot, "_wait_for_screen", wait_for_screen)
