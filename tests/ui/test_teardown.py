"""Widgets the chat removes are freed by reference counting, with the cyclic collector off:
their cycles are broken once Textual is done with them (threadbench.ui.teardown)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, open_tagged, screen_text, tag, wait_for, wait_ready
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.selection import Selection
from textual.widgets import Markdown, Static
from threadbench.ui import teardown
from threadbench.ui.widgets.fold import Fold, FoldBody
from threadbench.ui.widgets.message_views import AIMessageView, DrawnAIMessageView, MessageView


@contextlib.contextmanager
def no_cyclic_collector():
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def conversation(turns: int) -> list[dict]:
    messages: list[dict] = []
    for n in range(turns):
        messages.append({"type": "human", "id": f"h{n}", "content": f"question {n}"})
        if n % 4 == 1:  # a tool call and its result: folds
            call = {"id": f"c{n}", "name": "search", "args": {"q": n}}
            messages.append({"type": "ai", "id": f"t{n}", "content": "", "tool_calls": [call]})
            result = {"type": "tool", "id": f"r{n}", "tool_call_id": f"c{n}", "name": "search", "content": "found"}
            messages.append(result)
        answer = f"**Answer {n}.** A paragraph.\n\n- one point\n- another point\n\nAnd `code` to close {n}."
        if n % 3 == 0:  # (drawn by one widget, markdown_drawing.py; with a code block, Textual's widgets)
            answer += "\n\n```\nls\n```"
        messages.append({"type": "ai", "id": f"a{n}", "content": answer})
    return messages


@pytest.mark.server
async def test_messages_the_chat_lets_go_are_freed_without_the_cyclic_collector(server_url):
    client = get_client(url=server_url)
    metadata = tag()
    thread = await client.threads.create(metadata=metadata, graph_id="agent")
    await client.threads.update_state(thread["thread_id"], {"messages": conversation(150)})
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread["thread_id"])
        chat = app.screen.chat
        await wait_for(pilot, lambda: "Answer 149." in screen_text(app), what="the newest answer")
        views = list(chat.query_children(MessageView))
        folds = [fold for view in views for fold in view.query(Fold)]
        folds[-1].collapsed = False  # one open: its body goes too
        await pilot.pause()
        removed = [widget for view in views for widget in view.walk_children(with_self=True)]
        assert any(isinstance(widget, Markdown) for widget in removed)
        assert any(isinstance(widget, DrawnAIMessageView) for widget in removed)
        assert any(isinstance(widget, FoldBody) for widget in removed)
        # a widget a view made and never mounted is not taken apart: there must be none
        removed += [view._markdown for view in views if isinstance(view, AIMessageView) and view._markdown is not None]
        with no_cyclic_collector():
            # What the removed widgets hold, in cycles with them: their styles, and the
            # nodes their component classes were styled with.
            held = [weakref.ref(widget.styles) for widget in removed]
            held += [weakref.ref(styles.node) for widget in removed for styles in widget._component_styles.values()]
            chat.focus()
            await pilot.press("home")  # the first messages mounted in place of the newest
            await wait_for(pilot, lambda: "question 0" in screen_text(app), what="the first message")
            await wait_for(
                pilot,
                lambda: all(ref() is None for ref in held),
                timeout=10,
                what="what the removed held freed",
            )
        assert views[-1].message.id == "a149" and views[-1].parent is None  # the removed views still answer
        await pilot.press("end")
        await wait_for(pilot, lambda: "Answer 149." in screen_text(app), what="the newest answer again")


class Host(App):
    def compose(self) -> ComposeResult:
        yield Vertical(Vertical(Static("inside", id="inside"), id="removed"), id="box")


async def test_a_widget_textual_still_holds_waits_until_it_lets_go(monkeypatch):
    """A removed widget in a text selection (or a screen's layout, the focus, under the
    mouse) is left whole until Textual lets go of it."""
    monkeypatch.setattr(teardown, "DELAY", 0.05)
    app = Host()
    async with app.run_test() as pilot:
        box = app.query_one("#box")
        box.TEAR_DOWN_REMOVED = True  # type: ignore[attr-defined]
        parts = teardown.Teardown(app)
        removed, inside = app.query_one("#removed"), app.query_one("#inside")
        with no_cyclic_collector():
            freed = weakref.ref(inside)
            parts.removing([removed])
            await removed.remove()
            app.screen.selections = {inside: Selection(None, None)}
            del inside
            await asyncio.sleep(0.3)
            assert freed() is not None and freed().__dict__, "taken apart while selected"
            app.screen.selections = {}
            await wait_for(pilot, lambda: freed() is None or not freed().__dict__, timeout=5, what="taken apart")
            assert removed.id == "removed" and "styles" not in removed.__dict__  # what says which it is stays


async def test_a_selection_cleared_just_before_a_try_is_told_before_its_widgets_go(monkeypatch):
    """Clearing a selection tells the widgets it held through a watcher that runs later: a try
    in between took the widget apart, and the watcher's refresh of it broke the app (CI)."""
    monkeypatch.setattr(teardown, "DELAY", 60)  # no timed try: the test makes each one
    app = Host()
    async with app.run_test() as pilot:
        app.query_one("#box").TEAR_DOWN_REMOVED = True  # type: ignore[attr-defined]
        parts = teardown.Teardown(app)
        removed, inside = app.query_one("#removed"), app.query_one("#inside")
        parts.removing([removed])
        await removed.remove()
        app.screen.selections = {inside: Selection(None, None)}
        await pilot.pause()
        app.screen.selections = {}
        parts._run()  # before the watcher of the change has told `inside`
        await pilot.pause()  # it has now, and the app still runs
        assert inside.__dict__, "taken apart at the first try that found it unused"
        parts._run()
        assert not inside.__dict__ and "styles" not in removed.__dict__
