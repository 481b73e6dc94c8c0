"""Faults on real servers: the embedded server dies mid-run, the app restarts it and
follows the run again; a server that is gone is reported, retried, and work resumes."""

from __future__ import annotations

import os
import signal

from app.config import Settings
from app.ui.app import ThreadbenchApp
from app.ui.widgets.composer import Composer
from app.ui.widgets.message_views import AIMessageView
from langgraph_sdk import get_client
from ui_support import FIXED_NOW, TERMINAL, wait_for, wait_ready


def embedded_app(data_dir) -> ThreadbenchApp:
    return ThreadbenchApp(Settings(data_dir=data_dir), clock=lambda: FIXED_NOW)


async def test_the_embedded_server_dies_mid_stream_and_the_reply_still_ends_right(tmp_path):
    app = embedded_app(tmp_path)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot, timeout=90)
        screen = app.screen
        thread = await get_client(url=app.server.url).threads.create(graph_id="agent")
        screen.load_threads()
        await wait_for(pilot, lambda: any(t.thread_id == thread["thread_id"] for t in screen.thread_list.threads))
        screen.thread_list.highlighted = screen.thread_list.get_option_index(thread["thread_id"])
        await wait_for(pilot, lambda: screen.thread_id == thread["thread_id"])
        screen.query_one(Composer).focus()
        await pilot.pause()
        await pilot.press(*"slow please", "enter")
        await wait_for(pilot, lambda: screen.run_id and screen.query(AIMessageView), what="the reply starts")
        old_pid = app.server.process.pid
        os.killpg(old_pid, signal.SIGTERM)  # the server stops (flushing its data), the stream is cut
        await wait_for(pilot, lambda: not screen.online, timeout=30, what="the outage is noticed")
        assert "offline" in str(screen.query_one("#connection").visual)
        await wait_for(pilot, lambda: screen.online, timeout=90, what="the restarted server")
        assert app.server.process.pid != old_pid
        await wait_for(pilot, lambda: screen.query_one("#run-status").state == "idle", timeout=90, what="the run ends")
        state = await get_client(url=app.server.url).threads.get_state(thread["thread_id"])
        final = state["values"]["messages"][-1]
        assert final["type"] == "ai"
        shown = [v.markdown.text for v in screen.query(AIMessageView)]
        assert shown[-1].strip() == final["content"].strip()  # no lost or doubled tokens
        assert sum(final["content"][:40] in text for text in shown) == 1


async def test_a_gone_server_is_reported_and_the_app_resumes_when_it_is_back(tmp_path):
    app = embedded_app(tmp_path)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot, timeout=90)
        screen = app.screen
        composer = screen.query_one(Composer)
        composer.focus()
        await pilot.pause()
        await pilot.press(*"draft kept")
        app._server_restarts = 99  # let it stay down: the app must not restart it now
        app.server.stop()
        app.server.process = None
        await wait_for(pilot, lambda: not screen.online, timeout=30, what="the outage is noticed")
        assert any(n.severity == "error" and "Lost the server" in n.message for n in app._notifications)
        assert composer.text == "draft kept"
        app.server.start()  # the operator brings it back on the same port
        await wait_for(pilot, lambda: screen.online, timeout=90, what="back online")
        assert composer.text == "draft kept"
