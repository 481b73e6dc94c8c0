"""A worker cancelled while it removes widgets (an exclusive worker replaced by the next one)
must not leave those widgets half removed: `uninterrupted` lets the removal finish."""

from __future__ import annotations

import asyncio
import contextlib

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static
from textual.worker import WorkerCancelled
from threadbench.models import ChatMessage
from threadbench.ui.uninterrupted import uninterrupted
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.message_views import MessageView

MOMENTS = range(8)
"""Loop turns between the removal starting and the cancel: the harm needs the cancel to land
while a removed box waits for its own children to go, a turn or two in."""


class Boxes(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical(id="outer"):
            for number in range(20):
                with Vertical(classes="box"):
                    yield Static(str(number))


async def cancel_mid_removal(removal, moment: int) -> tuple[int, int]:
    """Remove every box in a worker, cancel the worker `moment` turns later, then take the
    boxes' parent down: how many boxes had their task killed, and how many are still there."""
    app = Boxes()
    async with app.run_test():
        outer = app.query_one("#outer")
        boxes = list(app.query(".box"))
        started = asyncio.Event()

        async def remove_boxes() -> None:
            started.set()
            await removal(outer.remove_children())

        worker = app.run_worker(remove_boxes(), exit_on_error=False)
        await started.wait()
        for _ in range(moment):
            await asyncio.sleep(0)
        worker.cancel()
        with contextlib.suppress(WorkerCancelled):
            await worker.wait()
        for _ in range(100):  # (the removal may go on after the worker stopped)
            if all(box._task is None or box._task.done() for box in boxes):
                break
            await asyncio.sleep(0.01)  # (not pilot.pause: it waits for every widget, the dead ones too)
        killed = sum(1 for box in boxes if box._task is not None and box._task.cancelled())
        left = len(app.query(".box"))
        if not killed:
            await asyncio.wait_for(outer.remove(), timeout=10)
    return killed, left


async def test_a_cancelled_worker_lets_its_removal_finish():
    for moment in MOMENTS:
        assert await cancel_mid_removal(uninterrupted, moment) == (0, 0), f"cancelled {moment} turns in"


async def test_a_bare_removal_is_broken_off_by_the_cancel():
    """Why `uninterrupted` exists (if Textual stops doing this, it can go): awaiting the
    removal in the worker itself kills the removed boxes' tasks and leaves them in the DOM,
    and the app then fails to close (the clean-clone failure, CancelledError)."""

    async def bare(removal) -> None:
        await removal

    broken = 0
    for moment in MOMENTS:
        try:
            killed, left = await cancel_mid_removal(bare, moment)
        except asyncio.CancelledError:  # the app's own close, failing on the dead tasks
            broken += 1
        else:
            broken += bool(killed and left)
    assert broken


def conversation(name: str, turns: int = 10) -> list[ChatMessage]:
    messages = []
    for turn in range(turns):
        messages.append(ChatMessage(id=f"{name}-h{turn}", type="human", text=f"{name}: question {turn}"))
        answer = f"{name}: answer {turn}\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |"
        messages.append(ChatMessage(id=f"{name}-a{turn}", type="ai", text=answer))
    return messages


class Chat(App[None]):
    def compose(self) -> ComposeResult:
        yield ChatLog()


async def test_the_chat_shown_again_waits_for_the_removals_a_cancelled_open_left_running():
    """Thread A, then B opened and cancelled mid-way by opening A again: the cancelled open's
    removals still run, and the next open must not keep a view they are about to remove (it
    raised MountError, or left the chat empty)."""
    first, second = conversation("A"), conversation("B")
    for moment in range(1, 24):  # (from 1: a worker cancelled before it starts never runs)
        app = Chat()
        async with app.run_test(size=(100, 40)):
            chat = app.query_one(ChatLog)
            await chat.show_messages(first)
            worker = app.run_worker(chat.show_messages(second), exit_on_error=False)
            for _ in range(moment):
                await asyncio.sleep(0)
            worker.cancel()
            with contextlib.suppress(WorkerCancelled):
                await worker.wait()
            await chat.show_messages(first)
            shown = [view.message.id for view in chat.query(MessageView)]
            assert shown and shown == [m.id for m in first][-len(shown) :], f"cancelled {moment} turns in"
