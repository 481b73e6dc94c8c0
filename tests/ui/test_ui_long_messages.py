"""A long reply opened from the server: the chat opens at its end and scrolls to its start;
its text is whole in the chat; one longer than the chat shows (chat_entries.DISPLAY_LIMIT)
shows its first part and a note of how much more there is. Closing the app while a long
reply streams is clean."""

from __future__ import annotations

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, open_tagged, screen_lines, send_in_new_thread, tag, wait_for, wait_ready
from threadbench.models import ChatMessage, ThreadState
from threadbench.ui.widgets.chat_entries import DISPLAY_LIMIT, MessageEntry
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server


async def opened_reply(pilot, server_url: str, request: str) -> tuple[int, str]:
    """A thread whose agent answered `request`, opened: (the reply's entry in the chat, its
    text as the server keeps it)."""
    client = get_client(url=server_url)
    metadata = tag()
    thread = await client.threads.create(metadata=metadata, graph_id="agent")
    await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": request}]})
    state = await client.threads.get_state(thread["thread_id"])
    await wait_ready(pilot)
    await open_tagged(pilot, metadata, thread["thread_id"])
    chat = pilot.app.screen.conversation.chat

    def reply() -> int | None:
        found = [n for n, e in enumerate(chat.entries) if isinstance(e, MessageEntry) and e.kind == "ai"]
        return found[-1] if found else None

    await wait_for(pilot, lambda: reply() is not None, what="the reply")
    await pilot.pause()
    return reply(), state["values"]["messages"][-1]["content"]


def on_screen(app, text: str) -> bool:
    return any(text in line for line in screen_lines(app))


def drawn(chat, index: int) -> list[str]:
    """The reply's lines as the chat draws them (what its rows show after the gutter)."""
    return [line.content.plain.strip() for line in chat.lines_of(index) if line.content.plain.strip()]


async def test_a_long_reply_opens_at_its_end_and_scrolls_to_its_start(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        index, text = await opened_reply(pilot, server_url, "long 2000")
        assert len(text) < DISPLAY_LIMIT, "(shown whole)"
        chat = app.screen.conversation.chat
        assert text.strip() in chat.text()  # nothing lost: the whole reply (copy, find read this)
        lines = drawn(chat, index)
        first, last = lines[0], lines[-1]
        assert on_screen(app, last) and not on_screen(app, first), "opened at its end"
        chat.focus()
        await pilot.press("home")
        await wait_for(pilot, lambda: on_screen(app, first), what="the reply's first line on screen")
        await pilot.press("end")
        await wait_for(pilot, lambda: on_screen(app, last), what="the reply's last line on screen again")


async def test_a_reply_longer_than_the_chat_shows_ends_in_a_note(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        index, text = await opened_reply(pilot, server_url, "long 8000")
        assert len(text) > DISPLAY_LIMIT
        chat = app.screen.conversation.chat
        assert chat.messages[-1].text == text  # the message keeps it all (y, ctrl+s and v read it)
        lines = drawn(chat, index)
        note = next(n for n, line in enumerate(lines) if "more characters not shown" in line)
        assert f"{len(text):,} in all" in " ".join(lines[note:])
        assert all(on_screen(app, line) for line in lines[note:]), "the note at the end, in view"
        assert not on_screen(app, lines[0])
        chat.focus()
        await pilot.press("home")
        await wait_for(pilot, lambda: on_screen(app, lines[0]), what="the reply's first line on screen")


async def test_closing_the_app_while_a_reply_streams_is_clean(server_url):
    """Nothing the stream still brings reaches a chat that is gone (no error on the way out)."""
    for _ in range(3):  # (a race: a few tries)
        app = make_app(server_url)
        async with app.run_test(size=TERMINAL) as pilot:  # raises what the app raised
            await wait_ready(pilot)
            await send_in_new_thread(pilot, "long 5000")
            chat = app.screen.conversation.chat

            def streaming() -> bool:
                replies = [e for e in chat.entries if isinstance(e, MessageEntry) and e.kind == "ai"]
                return bool(replies) and len(replies[-1].source) > 2000 and app.screen.conversation.run_in_progress

            await wait_for(pilot, streaming, what="the reply streaming")


async def test_no_worker_writes_the_threads_messages_out_for_its_name(server_url, monkeypatch):
    """Textual names a worker by the repr of its arguments unless it is given a description:
    a worker handed a 10,000-message thread's messages spent 150 ms writing them out before
    the thread was painted. Opening a thread and a run's end hand workers the messages."""
    written: list[str] = []
    monkeypatch.setattr(ChatMessage, "__repr__", lambda message: written.append(message.id or "") or "ChatMessage")
    monkeypatch.setattr(ThreadState, "__repr__", lambda state: written.append("state") or "ThreadState")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await opened_reply(pilot, server_url, "hello")
        app.screen.query_one(Composer).focus()
        await pilot.press(*"again", "enter")
        await wait_for(pilot, lambda: len(app.screen.conversation.chat.messages) >= 4, what="the second reply")
        await wait_for(pilot, lambda: not app.screen.conversation.run_in_progress, what="the run's end")
        await pilot.pause()
    assert written == []
