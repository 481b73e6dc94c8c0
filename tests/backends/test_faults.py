"""Faults on real servers: the embedded server dies mid-run, the app restarts it and
follows the run again; a server that is gone is reported, retried, and work resumes."""

from __future__ import annotations

import contextlib
import os
import signal

from langgraph_sdk import get_client
from support.driving import FIXED_NOW, TERMINAL, ai_texts, notices, open_tagged, tag, wait_for, wait_ready
from threadbench.backends.base import Unreachable
from threadbench.config import Settings
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.widgets.chat_entries import MessageEntry
from threadbench.ui.widgets.composer import Composer


def replies(screen) -> list[MessageEntry]:
    """The AI replies the chat shows (a streamed one as far as it came)."""
    return [
        e
        for e in screen.conversation.chat.entries
        if isinstance(e, MessageEntry) and e.kind == "ai" and screen.conversation.chat.shown(e)
    ]


def embedded_app(data_dir) -> ThreadbenchApp:
    return ThreadbenchApp(Settings(data_dir=data_dir), clock=lambda: FIXED_NOW)


async def test_the_embedded_server_dies_mid_stream_and_the_reply_still_ends_right(tmp_path, recwarn):
    app = embedded_app(tmp_path)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot, timeout=90)
        screen = app.screen
        thread = await get_client(url=app.embedded.server.url).threads.create(graph_id="agent")
        screen.sidebar.load_threads()
        await wait_for(
            pilot, lambda: any(t.thread_id == thread["thread_id"] for t in screen.sidebar.thread_list.threads)
        )
        screen.sidebar.thread_list.highlight_thread(thread["thread_id"])
        await wait_for(pilot, lambda: screen.conversation.thread_id == thread["thread_id"])
        screen.query_one(Composer).focus()
        await pilot.pause()
        await pilot.press(*"slow please", "enter")
        await wait_for(pilot, lambda: screen.conversation.run_id and replies(screen), what="the reply starts")
        old_pid = app.embedded.server.process.pid
        os.killpg(old_pid, signal.SIGTERM)  # the server stops (flushing its data), the stream is cut
        await wait_for(pilot, lambda: not screen.connection.online, timeout=30, what="the outage is noticed")
        assert "offline" in str(screen.query_one("#connection").visual)
        await wait_for(pilot, lambda: screen.connection.online, timeout=90, what="the restarted server")
        assert app.embedded.server.process.pid != old_pid
        await wait_for(pilot, lambda: screen.query_one("#run-status").state == "idle", timeout=90, what="the run ends")
        state = await get_client(url=app.embedded.server.url).threads.get_state(thread["thread_id"])
        final = state["values"]["messages"][-1]
        assert final["type"] == "ai"
        shown = ai_texts(app)  # (a finished reply of text draws itself)
        assert shown[-1].strip() == final["content"].strip()  # no lost or doubled tokens
        assert sum(final["content"][:40] in text for text in shown) == 1
    # runs are resumable: the stream is followed again from the last event id, not from "now"
    assert not [w for w in recwarn if "Last-Event-ID" in str(w.message)]


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
        app.embedded.server.stop()
        app.embedded.server.process = None
        await wait_for(pilot, lambda: not screen.connection.online, timeout=30, what="the outage is noticed")
        assert any("Lost the server" in text for text in notices(app, "error"))
        assert composer.text == "draft kept"
        app.embedded.server.start()  # the operator brings it back on the same port
        await wait_for(pilot, lambda: screen.connection.online, timeout=90, what="back online")
        assert composer.text == "draft kept"


class OutageAfterFirstToken:
    """The real backend, but the first run's stream breaks after its first token and the
    server looks gone to the next health check. A stand-in: this is what the app sees when
    a server stays away longer than the SDK's own reconnects (about 17 s), too slow to
    wait for in a test. Every other call, and the rejoin, go to the real server."""

    def __init__(self, backend) -> None:
        self._backend = backend
        self.cut = False
        self.down = False
        self.read: list[str] = []
        self.joins: list[str | None] = []

    def __getattr__(self, name):
        return getattr(self._backend, name)

    async def check(self):
        if self.down:
            self.down = False
            raise Unreachable("Could not reach the server: the test says it is gone")
        return await self._backend.check()

    async def stream_run(self, thread_id, request):
        async with contextlib.aclosing(self._backend.stream_run(thread_id, request)) as events:
            async for event in events:
                self.read.append(event.event_id)
                yield event
                if event.kind == "token" and not self.cut:
                    self.cut = self.down = True
                    raise Unreachable("Could not run: the connection broke")

    def join_stream(self, thread_id, run_id=None, last_event_id=None):
        self.joins.append(last_event_id)
        return self._backend.join_stream(thread_id, run_id, last_event_id)


async def test_a_run_cut_by_an_outage_is_rejoined_from_the_last_event_read(server_url, tmp_path):
    metadata = tag()
    thread = await get_client(url=server_url).threads.create(graph_id="be_chat", metadata=metadata)
    backends: list[OutageAfterFirstToken] = []
    app = ThreadbenchApp(
        Settings(url=server_url, data_dir=tmp_path),
        backend_kind="langgraph",
        clock=lambda: FIXED_NOW,
        wrap_backend=lambda backend: backends.append(OutageAfterFirstToken(backend)) or backends[-1],
    )
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        app.session.run_options.assistant_id = "be_chat"
        await open_tagged(pilot, metadata, thread["thread_id"])
        screen = app.screen
        screen.query_one(Composer).focus()
        await pilot.pause()
        await pilot.press(*"hello there", "enter")
        await wait_for(pilot, lambda: backends[0].cut and replies(screen), what="the reply starts")
        reply = replies(screen)[-1]
        await wait_for(pilot, lambda: backends[0].joins, timeout=30, what="the rejoin after the outage")
        await wait_for(pilot, lambda: screen.query_one("#run-status").state == "idle", timeout=30, what="the run ends")
        assert backends[0].joins == [backends[0].read[-1]] and backends[0].read[-1]
        state = await get_client(url=server_url).threads.get_state(thread["thread_id"])
        assert ai_texts(app)[-1].strip() == state["values"]["messages"][-1]["content"]
        # the rejoined stream went on writing the same reply (no second one was started)
        assert replies(screen)[-1] is reply
