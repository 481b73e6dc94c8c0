"""A streamed reply of text alone, once its run ends, is put in the chat as the one widget
that draws itself (DrawnAIMessageView), looking as it did; a reply with reasoning or tool
calls stays built of widgets."""

from __future__ import annotations

import pytest
from support.driving import TERMINAL, make_app, screen_lines, send_in_new_thread, settle, wait_for, wait_ready
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.message_views import AIMessageView, DrawnAIMessageView, MessageView

pytestmark = pytest.mark.server


def last_view(app) -> MessageView:
    return list(app.screen.chat.query_children(MessageView))[-1]


async def ran(pilot, text: str) -> None:
    await send_in_new_thread(pilot, text)
    app = pilot.app
    await wait_for(pilot, lambda: app.screen.query_one("#run-status").state == "idle", what="the run's end")
    await settle(pilot)


async def test_a_streamed_reply_of_text_is_drawn_by_one_widget_once_finished_and_looks_the_same(
    server_url, monkeypatch
):
    draw_finished = ChatLog._draw_finished
    held = []

    async def later(self, view, message) -> None:  # (held until the screen of it is taken)
        held.append((self, view, message))

    monkeypatch.setattr(ChatLog, "_draw_finished", later)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await ran(pilot, "hello")
        assert held and isinstance(last_view(app), AIMessageView)
        streamed = screen_lines(app)
        await draw_finished(*held[-1])
        await settle(pilot)
        drawn = last_view(app)
        assert isinstance(drawn, DrawnAIMessageView) and not drawn.children
        assert drawn.message.text.startswith("Hello")
        assert screen_lines(app) == streamed


async def test_a_run_ends_with_its_reply_drawn_unless_it_has_reasoning(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await ran(pilot, "hello")
        assert isinstance(last_view(app), DrawnAIMessageView)
        await ran(pilot, "think about it")
        view = last_view(app)
        assert isinstance(view, AIMessageView) and view.message.reasoning
