"""Pilot, on the real server: a graph that keeps its conversation under a key of its own
(tests/graphs/own_key_graphs.py's ledger: `transcript`, beside a list of dicts that are not
messages). Sent to under "messages", such a graph ignored the message and booked nothing."""

from __future__ import annotations

import pytest
from langgraph_sdk import get_client
from support.driving import (
    TERMINAL,
    ai_texts,
    make_app,
    open_tagged,
    screen_text,
    send_in_new_thread,
    shown_messages,
    shown_row,
    tag,
    wait_for,
    wait_ready,
)
from textual.widgets import Tree
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server

GRAPH = "ok_ledger"


async def test_a_first_message_goes_where_the_graphs_schema_keeps_messages(server_url):
    app = make_app(server_url, assistant=GRAPH)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await send_in_new_thread(pilot, "lunch 42")
        await wait_for(pilot, lambda: "Booked 42.00. Balance: 42.00." in ai_texts(app), what="the booking")
        state = await get_client(url=server_url).threads.get_state(app.screen.conversation.thread_id)
        assert "messages" not in state["values"]
        assert [m["content"] for m in state["values"]["transcript"]] == ["lunch 42", "Booked 42.00. Balance: 42.00."]


async def test_a_thread_of_such_a_graph_reads_and_answers_as_any_other(server_url):
    """Opened: its transcript is the chat and the state tree's messages, its first words its
    title; a message typed goes to the transcript."""
    client = get_client(url=server_url)
    thread = await client.threads.create(metadata=(metadata := tag()))
    thread_id = thread["thread_id"]
    await client.runs.wait(thread_id, GRAPH, input={"transcript": [{"type": "human", "content": "lunch 42"}]})
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        await wait_for(
            pilot,
            lambda: [m.text for m in shown_messages(app)] == ["lunch 42", "Booked 42.00. Balance: 42.00."],
            what="the transcript",
        )
        assert "2 messages" in screen_text(app)
        # (its row had no title: the list asks the server for messages[0])
        await wait_for(
            pilot, lambda: "lunch 42" in shown_row(app.screen.sidebar.thread_list, thread_id), what="a title"
        )
        tree = app.screen.query_one("#state-tree", Tree)
        transcript = next(node for node in tree.root.children if node.data.path == ("transcript",))
        assert transcript.data.kind == "messages"
        app.screen.query_one(Composer).focus()
        await pilot.press(*"taxi 8", "enter")
        await wait_for(pilot, lambda: "Booked 8.00. Balance: 50.00." in ai_texts(app), what="the second booking")
