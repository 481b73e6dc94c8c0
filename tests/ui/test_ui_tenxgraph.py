"""Pilot: the same workbench on the real 10xGraph server."""

from __future__ import annotations

import uuid

from support.driving import TERMINAL, ai_texts, make_app, settle, wait_for, wait_ready
from threadbench.backends.tenxgraph import TenXGraphBackend
from threadbench.models import RunRequest
from threadbench.ui.regions.inspector import Inspector
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.screens.human_input import HumanInputScreen
from threadbench.ui.screens.message_log import MessageLogScreen
from threadbench.ui.widgets.composer import Composer
from threadbench.ui.widgets.thread_list import ThreadList


def make_10x_app(url: str):
    app = make_app(url)
    app.session.backend_kind = "10xgraph"
    return app


async def seed_thread(url: str, text: str) -> str:
    backend = TenXGraphBackend(url)
    thread_id = f"tb-{uuid.uuid4().hex[:8]}"
    try:
        request = RunRequest(
            input={"messages": [{"role": "user", "content": text}]}, stream_modes=["values", "updates"]
        )
        async for _ in backend.stream_run(thread_id, request):
            pass
    finally:
        await backend.close()
    return thread_id


async def open_10x(pilot, thread_id: str) -> None:
    app = pilot.app
    await wait_ready(pilot)
    main = app.screen
    threads = main.query_one("#thread-list", ThreadList)
    main.query_one("#thread-search").value = thread_id
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread_id], what="the thread")
    threads.focus()
    if main.conversation.thread_id != thread_id:
        threads.highlighted = 0
    await wait_for(
        pilot, lambda: main.conversation.thread_id == thread_id and main.conversation.thread_state is not None
    )


async def test_list_chat_and_no_timeline_on_10xgraph(tenxgraph_url):
    thread_id = await seed_thread(tenxgraph_url, "first words")
    app = make_10x_app(tenxgraph_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_10x(pilot, thread_id)
        await wait_for(pilot, lambda: any("Echo: first words" in t for t in ai_texts(app)), what="the conversation")
        inspector = app.screen.query_one(Inspector)
        await wait_for(pilot, lambda: inspector.get_tab("tab-timeline").disabled, what="timeline disabled")
        app.screen.query_one(Composer).focus()
        await pilot.pause()
        await pilot.press(*"second words", "enter")
        await wait_for(pilot, lambda: any("Echo: second words" in t for t in ai_texts(app)), what="streamed reply")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state == "idle")
        # one reply each, not doubled by the streamed and the final message
        assert sum("Echo: second words" in t for t in ai_texts(app)) == 1


async def test_answer_an_interrupt_on_10xgraph(tenxgraph_url):
    thread_id = await seed_thread(tenxgraph_url, "please clarify")
    app = make_10x_app(tenxgraph_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_10x(pilot, thread_id)
        await settle(pilot)
        assert not isinstance(app.screen, HumanInputScreen), "a highlighted thread opens quietly"
        app.screen.query_one("#thread-list").focus()
        await pilot.press("enter")  # choosing it (enter) asks the question it waits on
        await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), what="the question")
        answer = app.screen.query_one("#human-input-answer")
        answer.focus()
        await pilot.pause()
        await pilot.press(*"blue", "enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, HumanInputScreen))
        await wait_for(pilot, lambda: any("You chose blue" in t for t in ai_texts(app)), what="resumed reply")


async def test_clear_state_and_delete_a_logged_message_on_10xgraph(tenxgraph_url):
    thread_id = await seed_thread(tenxgraph_url, "keep this")
    backend = TenXGraphBackend(tenxgraph_url)
    await backend.add_messages(thread_id, [{"role": "user", "content": "a logged note"}])
    app = make_10x_app(tenxgraph_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_10x(pilot, thread_id)
        await pilot.press("L")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageLogScreen))
        log = app.screen
        await wait_for(pilot, lambda: any("a logged note" in m.text for m in log.messages), what="the log")
        target = next(i for i, m in enumerate(log.messages) if "a logged note" in m.text)
        log.query_one("#message-log").highlighted = target
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, MessageLogScreen)
                and not any("a logged note" in m.text for m in app.screen.messages)
            ),
            what="deleted",
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, MessageLogScreen))

        app.screen.query_one("#thread-list").focus()
        await pilot.press("K")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        await wait_for(
            pilot,
            lambda: (
                app.screen.conversation.thread_state is not None and not app.screen.conversation.thread_state.messages
            ),
            what="cleared",
        )
    remaining = await backend.list_messages(thread_id)
    assert not any("a logged note" in m.text for m in remaining)
    await backend.close()
