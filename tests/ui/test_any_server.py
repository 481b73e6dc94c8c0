"""Servers this project did not write: graphs not called `agent`, several graphs, assistants
hidden by auth (tests/graphs/any_server), one graph on an empty server (one_graph), and
DeerFlow's way of storing a sent message (lead_agent). Every test here failed before the
run target was found on the server (app/run_target.py)."""

from __future__ import annotations

import uuid
from contextlib import asynccontextmanager

import pytest
from langgraph_sdk import get_client
from support.driving import (
    TERMINAL,
    ai_texts,
    make_app,
    notices,
    open_tagged,
    screen_text,
    settle,
    shown_messages,
    shown_row,
    submit_search,
    tag,
    wait_for,
    wait_ready,
)
from textual import events
from threadbench.backends.base import Invalid, graphs_in_refusal
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.models import RunRequest, ThreadSummary
from threadbench.run_target import refused_assistant, server_graphs, thread_graph
from threadbench.thread_filter import parse_filter
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.assistants import AssistantsScreen
from threadbench.ui.screens.human_input import HumanInputScreen
from threadbench.ui.screens.pick_graph import PickGraphScreen
from threadbench.ui.screens.run_options import RunOptionsScreen
from threadbench.ui.widgets.composer import Composer


async def run_on(url: str, graph: str, text: str, metadata: dict | None = None) -> str:
    """A thread on `graph` made by another client, with one run; returns its id."""
    client = get_client(url=url)
    thread = await client.threads.create(metadata=metadata)
    await client.runs.wait(thread["thread_id"], graph, input={"messages": [{"type": "human", "content": text}]})
    return thread["thread_id"]


async def search(pilot, metadata: dict) -> None:
    """Search the list for threads carrying `metadata`, and wait for the answer."""
    screen = pilot.app.screen
    box = screen.query_one("#thread-search")
    box.focus()
    box.value = " ".join(f"{k}={v}" for k, v in metadata.items())
    await submit_search(pilot)
    await wait_for(
        pilot,
        lambda: (
            screen.sidebar.filter.metadata == metadata
            and not any(w.group == "threads" and not w.is_finished for w in screen.workers)
        ),
        what="the search",
    )


@asynccontextmanager
async def opened(url: str, metadata: dict, thread_id: str):
    """The app on `url`, each run on its thread's own graph, with `thread_id` open (found by
    its tag)."""
    app = make_app(url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        yield app, pilot


def human_texts(app) -> list[str]:
    """What the person's messages say, as the chat shows them (not an answer given)."""
    return [m.text for m in shown_messages(app, "human") if not m.hidden]


# -- finding the graph ---------------------------------------------------------------------------


def test_a_refusal_names_the_graphs():
    message = (
        "Could not run agent on thread x: Invalid assistant: 'agent'. Must be either: "
        "- A valid assistant UUID, or - One of the registered graphs: lead_agent, support_bot"
    )
    assert refused_assistant(message)
    assert graphs_in_refusal(message) == ["lead_agent", "support_bot"]
    assert graphs_in_refusal("Could not run: the thread is busy") == []


def test_a_threads_own_graph_reads_as_its_name():
    default = "bee7d354-5df5-5f26-a978-10ea053f620d"  # lead_agent's own assistant on every server
    assert thread_graph(ThreadSummary(thread_id="t", graph_id="lead_agent", assistant_id=default)) == "lead_agent"
    custom = str(uuid.uuid4())
    assert thread_graph(ThreadSummary(thread_id="t", graph_id="lead_agent", assistant_id=custom)) == custom
    assert thread_graph(ThreadSummary(thread_id="t")) == ""


async def test_the_server_says_its_graphs_when_it_refuses_one(any_server_url):
    backend = LangGraphBackend(any_server_url)
    try:
        thread = await backend.create_thread()
        with pytest.raises(Invalid) as refused:
            async for _ in backend.stream_run(thread.thread_id, RunRequest(assistant_id="agent", input={})):
                pass
        assert graphs_in_refusal(refused.value.message) == ["lead_agent", "support_bot"], refused.value.message
    finally:
        await backend.close()


async def test_graphs_are_found_when_auth_hides_the_assistants(any_server_url):
    await run_on(any_server_url, "support_bot", "hello")
    client = get_client(url=any_server_url)
    threads_before = await client.threads.count()
    backend = LangGraphBackend(any_server_url)
    try:
        assert await backend.list_assistants() == []
        assert await server_graphs(backend) == (["lead_agent", "support_bot"], True)
    finally:
        await backend.close()
    assert await client.threads.count() == threads_before  # asking made nothing


async def test_graphs_seen_on_threads_are_not_taken_for_all_of_them(any_server_url):
    """A server that neither lists its assistants nor names its graphs when refusing one:
    the graphs its threads ran on are some of them, never "the only graph"."""
    await run_on(any_server_url, "support_bot", "hello")

    class Silent(LangGraphBackend):
        async def registered_graphs(self) -> list[str]:
            return []

    backend = Silent(any_server_url)
    try:
        graphs, complete = await server_graphs(backend)
        assert "support_bot" in graphs and not complete
    finally:
        await backend.close()


# -- sending -------------------------------------------------------------------------------------


async def test_a_thread_runs_on_its_own_graph(any_server_url):
    thread_id = await run_on(any_server_url, "support_bot", "first", metadata := tag())
    async with opened(any_server_url, metadata, thread_id) as (app, pilot):
        app.screen.query_one(Composer).focus()
        await pilot.press(*"second", "enter")
        await wait_for(pilot, lambda: "Support here. You said: second" in ai_texts(app), what="support_bot's reply")
        assert "Invalid assistant" not in screen_text(app)


async def test_options_and_assistants_say_why_where_auth_hides_the_assistants(any_server_url):
    """The graph's schemas are read through its assistant; hidden, the dialog says why its
    fields are not the graph's own, where it used to report the graph as gone."""
    thread_id = await run_on(any_server_url, "support_bot", "first", metadata := tag())
    async with opened(any_server_url, metadata, thread_id) as (app, pilot):
        app.screen.sidebar.thread_list.focus()
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, RunOptionsScreen), what="the run options")
        await settle(pilot)
        note = str(app.screen.query_one("#run-options-note").visual)
        assert "shows no assistant of support_bot" in note
        assert not notices(app, "error")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), what="the dialog closed")

        await pilot.press("A")  # the assistants: none shown, and the screen says why
        await wait_for(pilot, lambda: isinstance(app.screen, AssistantsScreen), what="the assistants")
        status = app.screen.query_one(".objects-status")
        await wait_for(pilot, lambda: "shows no assistants" in str(status.visual), what="why none")
        assert "lead_agent" in str(status.visual) and "support_bot" in str(status.visual)


async def test_a_new_message_on_a_server_of_several_graphs_asks_which(any_server_url):
    app = make_app(any_server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        screen = app.screen
        await search(pilot, tag())  # nothing listed, then no thread open: the message starts one
        if screen.conversation.thread_id:
            await screen._forget_thread(screen.conversation.thread_id)
        screen.query_one(Composer).focus()
        await pilot.press(*"hello lead", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PickGraphScreen), what="the graph picker")
        app.screen.query_one("#pick-graph-typed").focus()
        await pilot.press(*"lead_agent", "enter")
        await wait_for(pilot, lambda: "Lead agent here. You said: hello lead" in ai_texts(app), what="the reply")
        # DeerFlow stored the text under "<id>__user": shown once, not twice
        await wait_for(pilot, lambda: not screen.conversation.run_in_progress, what="the run's end")
        assert human_texts(app).count("hello lead") == 1
        thread = await get_client(url=any_server_url).threads.get(screen.conversation.thread_id)
        assert thread["metadata"]["graph_id"] == "lead_agent"


async def test_a_refused_graph_asks_again_and_keeps_the_message(any_server_url):
    metadata = tag()
    thread_id = await run_on(any_server_url, "support_bot", "first", metadata)
    app = make_app(any_server_url, assistant="agent")  # the user's pick, from another server
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        app.screen.query_one(Composer).focus()
        await pilot.press(*"keep me", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PickGraphScreen), what="the graph picker")
        assert "One of the registered graphs: lead_agent, support_bot" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.screen.query_one(Composer).text == "keep me"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PickGraphScreen), what="the picker again")
        await pilot.press("down", "enter")  # support_bot, listed from the refusal
        await wait_for(pilot, lambda: "Support here. You said: keep me" in ai_texts(app), what="the reply")
        assert app.session.run_options.assistant_id == ""


async def test_first_launch_on_an_empty_server_types_into_the_composer(fresh_one_graph_url):
    app = make_app(fresh_one_graph_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await wait_for(pilot, lambda: "Welcome to Threadbench" in screen_text(app), what="the welcome")
        # (said again once the server's graphs are listed, which may come after)
        await wait_for(pilot, lambda: "on support_bot" in screen_text(app), what="where a first message goes")
        assert isinstance(app.focused, Composer)
        await pilot.press(*"hello essay", "enter")  # (`o` and `s` are keys of the thread list)
        await wait_for(pilot, lambda: "Support here. You said: hello essay" in ai_texts(app), what="the reply")
        assert "Welcome to Threadbench" not in screen_text(app)


# -- answering only when asked -------------------------------------------------------------------


async def test_a_waiting_thread_asks_only_on_enter_and_the_enter_does_not_answer(any_server_url):
    metadata = tag()
    other = await run_on(any_server_url, "support_bot", "nothing to approve", metadata)
    waiting = await run_on(any_server_url, "support_bot", "approve the refund", metadata)
    app = make_app(any_server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await search(pilot, metadata)
        screen = app.screen
        await wait_for(
            pilot,
            lambda: [t.thread_id for t in screen.sidebar.thread_list.threads] == [waiting, other],
            what="both threads listed",
        )
        screen.sidebar.thread_list.focus()
        screen.sidebar.thread_list.highlighted = 1
        await wait_for(pilot, lambda: screen.conversation.thread_id == other, what="the other thread open")
        # up then enter, as a terminal sends them: one event after the other, no pause
        for key in ("up", "enter", "enter"):
            app.post_message(events.Key(key, "\r" if key == "enter" else None))
        await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), what="the question")
        await settle(pilot)  # an answer sent by mistake would be on its way: let it arrive
        assert isinstance(app.screen, HumanInputScreen) and not app.screen.sending
        state = await get_client(url=any_server_url).threads.get_state(waiting)
        assert state["next"] == ["reply"], "the question was answered without the user"
        await pilot.press("2", "enter")
        await wait_for(pilot, lambda: "Done: Refund half." in ai_texts(app), what="the answer's reply")


async def test_highlighting_a_waiting_thread_does_not_pop_its_question(any_server_url):
    waiting = await run_on(any_server_url, "support_bot", "approve it", metadata := tag())
    async with opened(any_server_url, metadata, waiting) as (app, pilot):
        await wait_for(pilot, lambda: app.screen.conversation.run_status.state == "waiting", what="the waiting status")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert "? waiting" in shown_row(
            app.screen.sidebar.thread_list, app.screen.sidebar.thread_list.threads[0].thread_id
        )


async def paused_thread(url: str, metadata: dict) -> str:
    """A support_bot thread forked before its reply: interrupted, with nothing asked."""
    paused = await run_on(url, "support_bot", "hello", metadata)
    client = get_client(url=url)
    history = await client.threads.get_history(paused, limit=10)
    before_reply = next(h for h in history if h["next"] == ["reply"])
    await client.threads.update_state(
        paused, {"ticket": {"forked": True}}, checkpoint_id=before_reply["checkpoint_id"], as_node="__input__"
    )
    return paused


async def test_rows_tell_a_question_from_a_pause(any_server_url):
    """A DeerFlow clarification leaves the thread idle: its row still says it waits. A fork
    before a node leaves it interrupted with nothing asked: its row says paused."""
    metadata = tag()
    asking = await run_on(any_server_url, "lead_agent", "please clarify", metadata)
    paused = await paused_thread(any_server_url, metadata)
    backend = LangGraphBackend(any_server_url)
    try:
        query = parse_filter(" ".join(f"{k}={v}" for k, v in metadata.items())).query("updated_at", "desc", 10, 0)
        rows = {t.thread_id: t for t in await backend.search_threads(query)}
    finally:
        await backend.close()
    assert (rows[asking].status, rows[asking].phase) == ("idle", "waiting")
    assert rows[paused].phase == "paused", rows[paused]


async def test_an_open_paused_thread_says_paused_as_its_row_does(any_server_url):
    """The chat's header names the thread's state as the list does: a fork before a node is
    "paused", not the server's "interrupted" (seen in tmux: the row said paused, the header
    interrupted)."""
    metadata = tag()
    paused = await paused_thread(any_server_url, metadata)
    app = make_app(any_server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, paused)
        header = str(app.screen.query_one("#chat-header").visual)
        assert " · paused · " in header and "interrupted" not in header, header
        assert "‖ paused" in shown_row(app.screen.sidebar.thread_list, paused)


async def test_keys_typed_while_the_app_starts_are_a_message_not_commands(any_server_url):
    await run_on(any_server_url, "support_bot", "a thread to list")
    app = make_app(any_server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        # as soon as the screen is up, before its first page of threads is in
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.is_mounted, what="the screen")
        for char in "so hello":  # `s` sorts and `o` opens the run options in the thread list
            app.post_message(events.Key(char, char) if char != " " else events.Key("space", " "))
        await wait_ready(pilot)
        screen = app.screen
        await wait_for(pilot, lambda: screen.query_one(Composer).text == "so hello", what="the typed text")
        assert screen.query_one("#thread-search").value == ""
        assert isinstance(app.screen, MainScreen) and screen.sidebar.sort[:2] == ("updated_at", "desc")
        assert isinstance(app.focused, Composer)  # typing has begun: the focus stays


# -- what a thread's changes leave on screen ---------------------------------------------------


async def test_a_deleted_thread_leaves_no_panel_behind(any_server_url):
    thread_id = await run_on(any_server_url, "lead_agent", "to be deleted", metadata := tag())
    async with opened(any_server_url, metadata, thread_id) as (app, pilot):
        screen = app.screen
        await wait_for(pilot, lambda: screen.inspector.timeline.checkpoints, what="the timeline")
        screen.sidebar.thread_list.focus()
        await pilot.press("x")
        await wait_for(pilot, lambda: not isinstance(app.screen, MainScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: screen.conversation.thread_id is None and not screen.sidebar.thread_list.threads,
            what="the delete",
        )
        assert screen.inspector.timeline.checkpoints == []
        assert screen.inspector.live_state is None
        assert "to be deleted" not in screen_text(app)


async def test_a_new_thread_joins_a_search_only_if_it_matches(any_server_url):
    listed = await run_on(any_server_url, "support_bot", "listed", metadata := tag())
    async with opened(any_server_url, metadata, listed) as (app, pilot):
        screen = app.screen
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, MainScreen), what="the new-thread dialog")
        await pilot.press("ctrl+s")  # no metadata: the search `suite=…` does not list it
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, MainScreen) and screen.conversation.thread_id not in (None, listed),
            what="the new thread open",
        )
        assert [t.thread_id for t in screen.sidebar.thread_list.threads] == [listed]


async def test_text_being_typed_stays_when_its_thread_reloads(any_server_url):
    thread_id = await run_on(any_server_url, "support_bot", "hello", metadata := tag())
    async with opened(any_server_url, metadata, thread_id) as (app, pilot):
        composer = app.screen.query_one(Composer)
        composer.focus()
        await pilot.press(*"hello again")
        opens = app.screen.conversation.opens
        await pilot.press("ctrl+r")  # reloads the list and the open thread, as a fork or an edit does
        await wait_for(pilot, lambda: app.screen.conversation.opens > opens, what="the thread reloaded")
        await pilot.press(*" after the fork")
        assert composer.text == "hello again after the fork"


async def test_a_deerflow_clarification_is_asked_and_answered_in_the_chat(any_server_url):
    thread_id = await run_on(any_server_url, "lead_agent", "hello", metadata := tag())
    async with opened(any_server_url, metadata, thread_id) as (app, pilot):
        app.screen.query_one(Composer).focus()
        await pilot.press(*"please clarify", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), what="the clarification")
        await wait_for(pilot, lambda: "Which region should the report cover?" in screen_text(app), what="the question")
        await pilot.press("2", "enter")
        await wait_for(pilot, lambda: "Covering Asia." in ai_texts(app), what="the answer's reply")
        assert human_texts(app).count("please clarify") == 1


async def test_a_question_left_for_later_leaves_the_row_once_a_run_moves_on(any_server_url):
    waiting = await run_on(any_server_url, "support_bot", "approve the refund", metadata := tag())
    async with opened(any_server_url, metadata, waiting) as (app, pilot):
        screen = app.screen
        screen.sidebar.thread_list.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), what="the question")
        await pilot.press("escape")  # later
        row = lambda: shown_row(screen.sidebar.thread_list, screen.sidebar.thread_list.threads[0].thread_id)  # noqa: E731
        await wait_for(pilot, lambda: "? waiting" in row(), what="the row waiting")
        screen.query_one(Composer).focus()
        await pilot.press(*"never mind", "enter")
        await wait_for(pilot, lambda: "Support here. You said: never mind" in ai_texts(app), what="the reply")
        await wait_for(pilot, lambda: "? waiting" not in row(), what="the row no longer waiting")
