"""Pilot: the workbench on DeerFlow's Gateway (the stand-in of tests/deerflow_gateway_proxy.py
in front of the real server): a reply streams, and what the Gateway cannot do is hidden or
explained, never an error."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from langgraph_sdk import get_client
from support.driving import (
    TERMINAL,
    ai_texts,
    make_app,
    notices,
    open_tagged,
    screen_text,
    shown_messages,
    shown_row,
    tag,
    wait_for,
    wait_ready,
)
from support.long_threads import full_history, turns_and_updates
from threadbench.models import ThreadState
from threadbench.ui.regions.inspector import Inspector
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server


def gateway_app(url: str):
    app = make_app(url)
    app.session.backend_kind = "deerflow-gateway"
    notes: list[tuple[str, str]] = []
    notify = app.notify

    def record(message, *args, **kwargs):  # every notification, also those gone by the end
        notes.append((str(message), kwargs.get("severity", "information")))
        return notify(message, *args, **kwargs)

    app.notify = record
    return app, notes


@contextlib.asynccontextmanager
async def opened_on_gateway(origin: str, graph: str, *texts: str) -> AsyncIterator[tuple[Any, Any, list]]:
    """The app on the Gateway stand-in at `origin`, a thread of `graph` seeded with `texts`
    open: (app, pilot, the notifications)."""
    url = origin + "/api"
    metadata, thread_id = await seeded_thread(url, graph, *texts)
    app, notes = gateway_app(url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        yield app, pilot, notes


async def seeded_thread(url: str, graph: str, *texts: str) -> tuple[dict, str]:
    """A thread of `graph` with one checkpoint per text (each a human message)."""
    metadata = tag()
    client = get_client(url=url)
    thread = await client.threads.create(graph_id=graph, metadata=metadata)
    for text in texts:
        await client.threads.update_state(
            thread["thread_id"], {"messages": [{"type": "human", "content": text}]}, as_node="model"
        )
    return metadata, thread["thread_id"]


async def test_a_reply_streams_on_the_gateway(gateway_origin):
    url = gateway_origin + "/api"
    metadata, thread_id = await seeded_thread(url, "be_chat")
    app, notes = gateway_app(url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        app.session.run_options.assistant_id = "be_chat"
        await open_tagged(pilot, metadata, thread_id)
        screen = app.screen
        screen.query_one(Composer).focus()
        await pilot.pause()
        await pilot.press(*"hello there", "enter")
        reply = "You said hello there. Here is a reply of several words."
        await wait_for(pilot, lambda: reply in ai_texts(app), what="the streamed reply")
        await wait_for(pilot, lambda: screen.query_one("#run-status").state == "idle", what="the run's end")
        # DeerFlow stores the message under another id: it is shown once, not twice
        assert [m.text for m in shown_messages(app, "human")] == ["hello there"]
        assert [m.id.endswith("__user") for m in screen.query_one(ChatLog).messages if m.type == "human"] == [True]
        assert ai_texts(app).count(reply) == 1
        assert "1 thread" in str(screen.query_one("#thread-counts").visual)
    assert not [text for text, severity in notes if severity == "error"]


async def test_a_reply_whose_stream_the_gateway_dropped_shows_whole_when_the_run_ends(gateway_stand_in):
    """The real Gateway keeps a run's last 256 events: a reader that falls further behind gets
    a `gap` and its stream stops while the run goes on (seen with a fast model: no reply
    showed at all, the chat kept a cut one and the run went on unseen). The chat says so,
    follows the run to its end and shows the reply as the server stored it."""
    url = gateway_stand_in.url + "/api"
    metadata, thread_id = await seeded_thread(url, "agent")
    app, notes = gateway_app(url)
    gateway_stand_in.gap_after = 30
    try:
        async with app.run_test(size=TERMINAL) as pilot:
            await wait_ready(pilot)
            await open_tagged(pilot, metadata, thread_id)
            screen = app.screen
            screen.query_one(Composer).focus()
            await pilot.press(*"long 800", "enter")
            chat = screen.query_one(ChatLog)
            await wait_for(pilot, lambda: "dropped part of this run's stream" in chat.text(), what="the gap said")
            await wait_for(pilot, lambda: screen.query_one("#run-status").state == "idle", what="the run's end")
            state = await get_client(url=url).threads.get_state(thread_id)
            stored = state["values"]["messages"][-1]
            assert stored["type"] == "ai" and len(stored["content"]) > 3000
            await wait_for(pilot, lambda: ai_texts(app)[-1:] == [stored["content"]], what="the whole reply")
    finally:
        gateway_stand_in.gap_after = None
    assert not [text for text, severity in notes if severity == "error"]


async def test_what_the_gateway_cannot_do_is_explained_not_an_error(gateway_origin):
    async with opened_on_gateway(gateway_origin, "be_chat", "one", "two", "three") as (app, pilot, notes):
        screen = app.screen
        inspector = screen.query_one(Inspector)
        await wait_for(pilot, lambda: len(inspector.timeline.checkpoints) >= 3, what="the history")
        counts = str(screen.query_one("#thread-counts").visual)
        assert "1 thread" in counts and " of " not in counts  # the Gateway cannot count
        await wait_for(
            pilot,
            lambda: "does not describe its graph" in str(inspector.graph_view.query_one("#graph-drawing").visual),
            what="the graph tab's note",
        )

        screen.sidebar.thread_list.focus()
        await pilot.pause()
        for key, said in (("c", "cannot copy threads"), ("s", "cannot sort threads")):
            await pilot.press(key)
            await wait_for(pilot, lambda: any(said in text for text, _ in notes), what=said)
        await pilot.press("left_square_bracket", "left_square_bracket")
        await wait_for(
            pilot,
            lambda: "keeps the messages of the newest checkpoint only" in screen_text(app),
            what="the past view's note",
        )
        await pilot.press("F")
        await wait_for(pilot, lambda: any("cannot fork" in text for text, _ in notes), what="no fork")
        assert screen.sidebar.sort[:2] == ("updated_at", "desc")
    assert not [text for text, severity in notes if severity == "error"], notes


async def test_the_timeline_walks_a_long_gateway_thread_to_its_first_turn(gateway_origin, server_url):
    """121 checkpoints and 4 human turns: `{` reaches each turn, back to the first (the real
    Gateway answered `before` with the cursor alone: 5 checkpoints were listed, and `{` found
    no earlier turn on a thread of 4)."""
    metadata = tag()
    thread_id = await turns_and_updates(server_url, "be_chat", ["one", "two", "three", "four"], 36, metadata)
    history = await full_history(server_url, thread_id)
    parents = {entry["checkpoint_id"]: entry for entry in history}
    turns = [
        entry["checkpoint_id"]
        for entry in history
        if (parents.get(entry["parent_checkpoint_id"] or "") or {}).get("next") == ["__start__"]
    ]
    assert len(turns) == 4 and len(history) > 100
    app, notes = gateway_app(gateway_origin + "/api")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        timeline = app.screen.query_one(Inspector).timeline
        await wait_for(pilot, lambda: timeline.checkpoints, what="the history")
        app.screen.sidebar.thread_list.focus()
        for turn in turns:
            await pilot.press("left_curly_bracket")
            await wait_for(
                pilot, lambda turn=turn: (timeline.selected or ThreadState()).checkpoint_id == turn, what="the turn"
            )
        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: any("No earlier human turn" in n for n in notices(app)), what="the notice")
        await pilot.press("left_square_bracket")  # the first checkpoint, the input before the first turn
        first = history[-1]["checkpoint_id"]
        await wait_for(pilot, lambda: (timeline.selected or ThreadState()).checkpoint_id == first, what="the start")
        assert [state.checkpoint_id for state in timeline.checkpoints] == [entry["checkpoint_id"] for entry in history]
    assert not [text for text, severity in notes if severity == "error"], notes


async def test_a_row_tells_a_thread_waiting_on_a_clarification_without_opening_it(gateway_origin, server_url):
    """The Gateway's rows hold only the title, and a clarification leaves the thread idle: the
    row read `○ idle` until the thread was opened. The state of the rows shown is read."""
    metadata = tag()
    async with get_client(url=server_url) as client:
        asking = await client.threads.create(graph_id="hi_deerflow", metadata=metadata)
        human = {"messages": [{"type": "human", "content": "deploy it"}]}
        await client.runs.wait(asking["thread_id"], "hi_deerflow", input=human)
        newer = await client.threads.create(graph_id="be_chat", metadata=metadata)
    app, notes = gateway_app(gateway_origin + "/api")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        box = app.screen.query_one("#thread-search")
        box.focus()
        box.value = f"suite={metadata['suite']}"
        await pilot.press("enter")
        rows = app.screen.sidebar.thread_list
        listed = [newer["thread_id"], asking["thread_id"]]
        await wait_for(pilot, lambda: [t.thread_id for t in rows.threads] == listed, what="the two rows")
        rows.highlighted = 0
        await wait_for(pilot, lambda: asking["thread_id"] in rows.waiting, what="the waiting row")
        assert "? waiting" in shown_row(rows, asking["thread_id"])
        assert app.screen.conversation.thread_id == newer["thread_id"]  # the waiting one was not opened


def hint_line(app) -> str:
    return str(app.screen.query_one(".objects-hint").visual)


async def test_the_gateway_searches_its_assistants_and_lists_only_keys_that_act(gateway_origin):
    """The Gateway answers the assistant search (not versions or edits): A lists and searches
    them; its hint line and keys leave out what cannot act, and S and C, which the Gateway
    lacks, list only esc."""
    from threadbench.ui.screens.assistants import AssistantsScreen
    from threadbench.ui.screens.crons import CronsScreen
    from threadbench.ui.screens.store import StoreScreen

    async with opened_on_gateway(gateway_origin, "be_chat", "one") as (app, pilot, notes):
        app.screen.sidebar.thread_list.focus()
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, AssistantsScreen), what="the assistants")
        screen = app.screen
        table = screen.query_one("#assistants-table")
        await wait_for(pilot, lambda: table.row_count > 1, what="the Gateway's assistants")
        text = screen_text(app)
        assert "cannot search" not in text
        assert "DeerFlow's Gateway cannot version, create, edit or delete assistants." in text
        assert hint_line(app) == "/ search · u use for runs · esc close"
        await pilot.press("slash", *"graph:be_chat", "enter")
        await wait_for(
            pilot,
            lambda: table.row_count and {str(table.get_row_at(i)[1]) for i in range(table.row_count)} == {"be_chat"},
            what="the search by graph",
        )
        await pilot.press("n", "e", "d", "v")  # not bound here: no form, no question
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, AssistantsScreen))
        for key, screen_type in (("S", StoreScreen), ("C", CronsScreen)):
            await pilot.press(key)
            await wait_for(pilot, lambda t=screen_type: isinstance(app.screen, t), what=screen_type.__name__)
            assert hint_line(app) == "esc close"
            await pilot.press("escape")
            await wait_for(pilot, lambda t=screen_type: not isinstance(app.screen, t))
    assert not [text for text, severity in notes if severity == "error"], notes


@pytest.mark.parametrize("kind", ["langgraph", "gateway"])
async def test_the_count_follows_deletes_and_creates(kind, request):
    """ "3 of 3 threads" (the Gateway, which cannot count: "3 threads") becomes "2 of 2" after a
    delete and "3 of 3" again after a thread is made here."""
    import json

    from threadbench.ui.main_screen import MainScreen

    if kind == "gateway":
        url = request.getfixturevalue("gateway_origin") + "/api"
        app, notes = gateway_app(url)
    else:
        url = request.getfixturevalue("server_url")
        app, notes = make_app(url), []
    metadata = tag()
    client = get_client(url=url)
    for _ in range(3):
        await client.threads.create(graph_id="be_chat", metadata=metadata)

    def counted(n: int) -> str:
        return f"{n} of {n} threads" if kind == "langgraph" else f"{n} threads"

    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        screen = app.screen
        box = screen.query_one("#thread-search")
        box.focus()
        await pilot.pause()
        box.value = " ".join(f"{key}={value}" for key, value in metadata.items())
        await pilot.press("enter")
        counts = screen.query_one("#thread-counts")
        await wait_for(pilot, lambda: len(screen.sidebar.thread_list.threads) == 3, what="the three threads")
        await wait_for(pilot, lambda: str(counts.visual).startswith(counted(3)), what=counted(3))
        screen.sidebar.thread_list.focus()
        await pilot.press("x")
        await wait_for(pilot, lambda: not isinstance(app.screen, MainScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: len(screen.sidebar.thread_list.threads) == 2, what="the row gone")
        await wait_for(
            pilot, lambda: str(counts.visual).startswith(counted(2)), what=f"{counted(2)}, not {counts.visual}"
        )
        screen.sidebar.thread_list.focus()
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, MainScreen), what="the new-thread dialog")
        app.screen.query_one("#new-thread-metadata").text = json.dumps(metadata)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(screen.sidebar.thread_list.threads) == 3, what="the new row")
        await wait_for(
            pilot, lambda: str(counts.visual).startswith(counted(3)), what=f"{counted(3)}, not {counts.visual}"
        )
    assert not [text for text, severity in notes if severity == "error"], notes


async def test_the_events_tab_offers_only_the_modes_the_gateway_streams(gateway_origin):
    from support.driving import screen_lines

    async with opened_on_gateway(gateway_origin, "be_chat", "one") as (app, pilot, notes):
        await pilot.click("#--content-tab-tab-events")
        inspector = app.screen.query_one(Inspector)
        await wait_for(pilot, lambda: inspector.active == "tab-events", what="the Events tab")
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        for offered in ("values", "updates", "messages", "custom"):
            assert offered in shown
        for refused in ("debug", "tasks"):
            assert refused not in shown
        assert inspector.stream_modes() == ["values", "updates", "messages-tuple", "custom"]
    assert not [text for text, severity in notes if severity == "error"], notes
