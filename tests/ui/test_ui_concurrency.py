"""Runs never mix into the wrong chat: fast switching while a reply streams, and another
workbench (here the SDK, as a second client) running on the same thread."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, ai_texts, make_app, notices, until, wait_for, wait_ready, working
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.composer import Composer
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server

SLOW_WORDS = "Taking it slowly"


async def two_threads(url: str) -> tuple[str, str, str]:
    client = get_client(url=url)
    suite = uuid.uuid4().hex[:10]
    first = await client.threads.create(metadata={"suite": suite, "n": 1}, graph_id="agent")
    second = await client.threads.create(metadata={"suite": suite, "n": 2}, graph_id="agent")
    await client.threads.update_state(
        second["thread_id"], {"messages": [{"type": "human", "content": "quiet thread"}]}, as_node="title"
    )
    return suite, first["thread_id"], second["thread_id"]


async def show(pilot, suite: str, thread_id: str) -> None:
    app = pilot.app
    threads = app.screen.query_one("#thread-list", ThreadList)
    if len(threads.threads) != 2:
        app.screen.query_one("#thread-search").value = f"suite={suite}"
        await wait_for(pilot, lambda: len(threads.threads) == 2)
    threads.focus()
    threads.highlight_thread(thread_id)
    await wait_for(
        pilot,
        lambda: (
            app.screen.conversation.thread_id == thread_id
            and app.screen.conversation.thread_state is not None
            and app.screen.conversation.thread_state.thread_id == thread_id
        ),
        what="the thread",
    )


async def test_switching_threads_while_a_reply_streams_never_mixes_chats(server_url):
    suite, first, second = await two_threads(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await show(pilot, suite, first)
        app.screen.query_one(Composer).focus()
        await pilot.pause()
        await pilot.press(*"slow", "enter")
        await wait_for(pilot, lambda: any(SLOW_WORDS in t for t in ai_texts(app)), what="the reply streams")
        for _ in range(3):  # back and forth while it streams
            await show(pilot, suite, second)
            # the first thread's stream is cut and nothing of it is waiting to be applied
            await wait_for(pilot, lambda: not working(app, "run", "open"), what="the first stream let go")
            chat = app.screen.query_one(ChatLog)
            assert [m.text for m in chat.messages] == ["quiet thread"]
            assert not any(SLOW_WORDS in t for t in ai_texts(app))
            await show(pilot, suite, first)
            await wait_for(pilot, lambda: any(SLOW_WORDS in t for t in ai_texts(app)), what="rejoined")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state == "idle", timeout=30, what="the end")
        await show(pilot, suite, second)
        await wait_for(pilot, lambda: not working(app, "run", "open"), what="the second thread shown")
        assert [m.text for m in app.screen.query_one(ChatLog).messages] == ["quiet thread"]
    state = await get_client(url=server_url).threads.get_state(second)
    assert [m["content"] for m in state["values"]["messages"]] == ["quiet thread"]


async def test_a_run_started_elsewhere_on_the_thread_refuses_ours_with_a_reason(server_url):
    suite, first, _ = await two_threads(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await show(pilot, suite, first)
        client = get_client(url=server_url)
        await client.runs.create(first, "agent", input={"messages": [{"type": "human", "content": "slow"}]})
        composer = app.screen.query_one(Composer)
        composer.focus()
        await pilot.pause()
        await pilot.press(*"mine", "enter")
        await wait_for(pilot, lambda: notices(app, "error"), what="the refusal")
        message = notices(app, "error")[0]
        assert "busy" in message.lower() or "conflict" in message.lower() or "running" in message.lower()
        assert composer.text == "mine"  # nothing lost


async def test_an_answer_that_comes_while_the_app_closes_is_dropped(server_url):
    """Textual takes the widgets down before it stops the workers that own them: an answer
    that came in between reached a removed timeline and crashed the quit (a clean-clone
    failure). Now such a failure of a closing widget's worker is dropped. The server cannot be
    made to answer at that moment, so the history call here waits until the timeline is gone
    and then answers."""
    suite, first, _ = await two_threads(server_url)
    await get_client(url=server_url).threads.update_state(  # (a thread with no checkpoint has no page)
        first, {"messages": [{"type": "human", "content": "one checkpoint"}]}, as_node="title"
    )
    app = make_app(server_url)
    fetched, answered = [], []
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await show(pilot, suite, first)
        inspector = app.screen.query_one("#inspector")
        timeline = inspector.query_one("#timeline")
        backend = app.session.live_backend
        real_history = backend.get_history

        async def late_history(*args, **kwargs):
            page = await real_history(*args, **kwargs)
            fetched.append(page)
            await until(
                lambda: not inspector.query("#timeline"), lambda: asyncio.sleep(0), what="the timeline taken down"
            )
            answered.append(page)
            return page

        await wait_for(pilot, lambda: timeline.checkpoints, what="the first page")
        backend.get_history = late_history  # (after the first page: only the next one answers late)
        inspector.load_more_history(first, timeline.checkpoints[-1].checkpoint_id)
        await wait_for(pilot, lambda: fetched, what="the server's answer")
    assert answered, "the answer came after the timeline was gone, and the app closed cleanly"
