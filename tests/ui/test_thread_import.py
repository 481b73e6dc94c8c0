"""A thread pre-filled from a file (issue 19): this app's JSON export, or a plain list of
messages, replayed as supersteps so the checkpoints come back too; and a thread sent to another
server (M). Against real servers (a second one for the sending)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, notices, wait_for, wait_ready
from support.servers import GRAPHS_CONFIG, served
from textual.widgets import Input, OptionList, Static
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.config import Profile
from threadbench.export import fetch_history, thread_json
from threadbench.models import RunRequest
from threadbench.thread_import import (
    ImportProblem,
    agent_node_of,
    move_thread,
    parse_import,
    supersteps_for,
    supersteps_from_messages,
)
from threadbench.ui.screens.choose import ChooseScreen
from threadbench.ui.screens.new_thread import NewThreadScreen
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server

MESSAGES = [
    {"type": "human", "content": "What is the capital of France?", "id": "h1"},
    {"type": "ai", "content": "Paris.", "id": "a1"},
    {"type": "human", "content": "And of Italy?", "id": "h2"},
    {"type": "ai", "content": "Rome.", "id": "a2"},
]


def say(text: str) -> RunRequest:
    return RunRequest(assistant_id="agent", input={"messages": [{"role": "user", "content": text}]})


async def two_turns(backend: LangGraphBackend) -> str:
    thread = await backend.create_thread(graph_id="agent")
    for text in ("hello", "plan a report"):
        async for _ in backend.stream_run(thread.thread_id, say(text)):
            pass
    return thread.thread_id


# -- reading the file -------------------------------------------------------------------------


def test_a_list_of_messages_or_a_state_is_read_as_messages() -> None:
    assert parse_import(json.dumps(MESSAGES)).messages == MESSAGES
    assert parse_import(json.dumps({"messages": MESSAGES, "title": "x"})).kind == "messages"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "Not valid JSON in the file"),
        ('{"format": "threadbench-thread"}', "not a thread this app exported"),
        ('[{"content": "no type"}]', "Message 1 of the file has no type"),
        ('{"a": 1}', "neither a thread exported by this app"),
        ("[]", "neither a thread exported by this app"),
    ],
)
def test_a_file_that_cannot_pre_fill_a_thread_says_why(text: str, says: str) -> None:
    with pytest.raises(ImportProblem, match=says):
        parse_import(text)


def test_a_persons_messages_start_and_the_agents_are_written_as_its_node() -> None:
    steps = supersteps_from_messages([*MESSAGES, {"type": "tool", "content": "42", "tool_call_id": "c"}], "model")
    assert [(s["updates"][0]["as_node"], len(s["updates"][0]["values"]["messages"])) for s in steps] == [
        ("__start__", 1),
        ("model", 1),
        ("__start__", 1),
        ("model", 2),  # the agent's reply and the tool result: one step
    ]
    assert agent_node_of(["__start__", "model", "__end__"]) == "model"
    assert agent_node_of(["__start__", "agent", "tools", "__end__"]) == ""


# -- on the real server ------------------------------------------------------------------------------


async def test_an_exported_thread_comes_back_with_its_state_and_checkpoints(server_url: str) -> None:
    backend = LangGraphBackend(server_url)
    try:
        original_id = await two_turns(backend)
        summary, state = await backend.get_thread(original_id), await backend.get_state(original_id)
        history = await fetch_history(backend, original_id)
        source = parse_import(thread_json(summary, state, history))
        assert source.kind == "export" and source.graph_id == "agent"
        steps = await supersteps_for(backend, source, source.graph_id, "")
        copy = await backend.create_thread(graph_id="agent", supersteps=steps)
        copied = await backend.get_state(copy.thread_id)
        assert [(m.type, m.text) for m in copied.messages] == [(m.type, m.text) for m in state.messages]
        for key in ("title", "todos", "artifacts"):
            assert copied.values[key] == state.values[key]
        assert len(await backend.get_history(copy.thread_id, limit=100)) >= len(steps)
        # The imported thread goes on like the original: the agent answers the next message.
        async for _ in backend.stream_run(copy.thread_id, say("hello again")):
            pass
        after = await backend.get_state(copy.thread_id)
        assert after.messages[-1].type == "ai" and len(after.messages) == len(state.messages) + 2
    finally:
        await backend.close()


async def test_messages_into_a_graph_of_several_nodes_need_the_node_named(server_url: str) -> None:
    backend = LangGraphBackend(server_url)
    try:
        source = parse_import(json.dumps(MESSAGES))
        with pytest.raises(ImportProblem, match="the graph's nodes: agent, tools, research, title"):
            await supersteps_for(backend, source, "agent", "")
        steps = await supersteps_for(backend, source, "agent", "agent")
        thread = await backend.create_thread(graph_id="agent", supersteps=steps)
        state = await backend.get_state(thread.thread_id)
        assert [m.text for m in state.messages] == [m["content"] for m in MESSAGES]
    finally:
        await backend.close()


async def test_messages_go_where_the_graph_keeps_its_conversation(server_url: str) -> None:
    """tests/graphs/own_key_graphs.py's ledger keeps them under `transcript` (its state schema
    says so): written under "messages", the server refused the step."""
    backend = LangGraphBackend(server_url)
    try:
        steps = await supersteps_for(backend, parse_import(json.dumps(MESSAGES)), "ok_ledger", "")
        assert steps[0]["updates"][0]["values"] == {"transcript": [MESSAGES[0]]}
        thread = await backend.create_thread(graph_id="ok_ledger", supersteps=steps)
        state = await backend.get_state(thread.thread_id)
        assert state.messages_key == "transcript"
        assert [m.text for m in state.messages] == [m["content"] for m in MESSAGES]
    finally:
        await backend.close()


# -- from the new-thread dialog ----------------------------------------------------------------------


async def open_dialog(pilot) -> NewThreadScreen:
    app = pilot.app
    await wait_ready(pilot)
    app.screen.query_one("#thread-list").focus()
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen) and app.screen.focused is not None)
    return app.screen


async def test_the_dialog_pre_fills_a_thread_from_a_file(server_url: str, tmp_path: Path) -> None:
    path = tmp_path / "conversation.json"
    path.write_text(json.dumps(MESSAGES))
    tag = uuid.uuid4().hex
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        screen = await open_dialog(pilot)
        screen.query_one("#new-thread-metadata").load_text(json.dumps({"import_tag": tag}))
        screen.query_one("#new-thread-file", Input).value = str(path)
        await pilot.press("ctrl+s")
        # Several nodes: the dialog asks which writes the agent's messages, and keeps what was typed.
        await wait_for(pilot, lambda: "Name the node" in screen.error_text, what="the node question")
        assert screen.query_one("#new-thread-file", Input).value == str(path)
        screen.query_one("#new-thread-node", Input).value = "agent"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, NewThreadScreen), what="created")
        threads = app.screen.query_one("#thread-list", ThreadList)
        await wait_for(pilot, lambda: bool(threads.threads), what="the new row")
    (row,) = await get_client(url=server_url).threads.search(metadata={"import_tag": tag})
    state = await get_client(url=server_url).threads.get_state(row["thread_id"])
    assert [m["content"] for m in state["values"]["messages"]] == [m["content"] for m in MESSAGES]


async def test_a_file_that_is_missing_is_said_and_nothing_is_created(server_url: str, tmp_path: Path) -> None:
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        screen = await open_dialog(pilot)
        typed = str(tmp_path / "nope.json")
        screen.query_one("#new-thread-file", Input).value = typed
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "No such file" in screen.error_text, what="the error")
        assert app.screen is screen and screen.query_one("#new-thread-file", Input).value == typed
        assert "nope.json" in str(screen.query_one("#new-thread-error", Static).visual)


# -- sending a thread to another server (M) -----------------------------------------------------------


@pytest.fixture(scope="module")
def second_server_url(tmp_path_factory: pytest.TempPathFactory):
    """Another real server with the same graphs (a profile's server)."""
    for server in served(tmp_path_factory, GRAPHS_CONFIG, "second-server"):
        yield server.url


async def test_a_thread_moves_to_another_server_with_its_history(server_url: str, second_server_url: str) -> None:
    source, target = LangGraphBackend(server_url), LangGraphBackend(second_server_url)
    try:
        thread_id = await two_turns(source)
        await source.update_metadata(thread_id, {"project": "penguins"})
        copy, steps = await move_thread(source, thread_id, target)
        original, moved = await source.get_state(thread_id), await target.get_state(copy.thread_id)
        assert [(m.type, m.text) for m in moved.messages] == [(m.type, m.text) for m in original.messages]
        assert moved.values["todos"] == original.values["todos"]
        assert copy.metadata.get("project") == "penguins" and steps > 2
        assert len(await target.get_history(copy.thread_id, limit=100)) >= steps
    finally:
        await source.close()
        await target.close()


async def test_m_sends_the_highlighted_thread_to_a_profiles_server(server_url: str, second_server_url: str) -> None:
    backend = LangGraphBackend(server_url)
    try:
        thread_id = await two_turns(backend)
        tag = uuid.uuid4().hex
        await backend.update_metadata(thread_id, {"send_tag": tag})
    finally:
        await backend.close()
    app = make_app(server_url)
    app.settings.profiles = {"other": Profile(name="other", url=second_server_url)}
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = app.screen.query_one("#thread-list", ThreadList)
        await wait_for(pilot, lambda: threads.thread(thread_id) is not None, what="the thread listed")
        threads.highlight_thread(thread_id)
        threads.focus()
        await pilot.press("M")
        await wait_for(pilot, lambda: isinstance(app.screen, ChooseScreen), what="the servers")
        shown = [str(option.prompt) for option in app.screen.query_one("#choose-list", OptionList).options]
        assert shown == [f"other  {second_server_url}"]
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("Sent to other" in n for n in notices(app)), what="sent")
    (copy,) = await get_client(url=second_server_url).threads.search(metadata={"send_tag": tag})
    state = await get_client(url=second_server_url).threads.get_state(copy["thread_id"])
    assert [m["type"] for m in state["values"]["messages"]][:2] == ["human", "ai"]


async def test_m_without_another_server_says_how_to_add_one(server_url: str) -> None:
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = app.screen.query_one("#thread-list", ThreadList)
        await wait_for(pilot, lambda: bool(threads.threads), what="a thread")
        threads.highlighted = 0
        threads.focus()
        await pilot.press("M")
        await wait_for(pilot, lambda: any("profile" in n for n in notices(app)), what="the hint")
        assert not isinstance(app.screen, ChooseScreen)
