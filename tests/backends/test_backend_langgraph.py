"""LangGraphBackend against the real LangGraph server (the session fixture in conftest.py).

The graphs are in tests/graphs/backend_graphs.py ("be_*"): a scripted streaming chat model
with a tool, an interrupt(), a slow graph, a subgraph and a failing node. Every run waits
about a second in the server's queue, so independent runs are started together.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio
from langgraph_sdk import get_client
from support.waiting import eventually
from threadbench.backends.base import (
    Backend,
    BackendError,
    Conflict,
    Invalid,
    NotFound,
    ServerError,
    Unauthorized,
    Unreachable,
)
from threadbench.backends.langgraph import LangGraphBackend, StreamPosition
from threadbench.embedded.launcher import free_port
from threadbench.models import Interrupt, RunEvent, RunRequest, ThreadQuery
from threadbench.normalize import run_event_from_part


def say(text: str, graph: str = "be_chat", **options: object) -> RunRequest:
    return RunRequest(assistant_id=graph, input={"messages": [{"role": "user", "content": text}]}, **options)


async def collect(events: AsyncIterator[RunEvent]) -> list[RunEvent]:
    return [event async for event in events]


def kinds(events: list[RunEvent]) -> list[str]:
    return [event.kind for event in events]


def human(text: str) -> dict:
    return {"updates": [{"values": {"messages": [{"type": "human", "content": text}]}, "as_node": "model"}]}


async def wait_for_run(backend: LangGraphBackend, thread_id: str, timeout: float = 10.0) -> str:
    return await eventually(lambda: backend.active_run(thread_id), timeout, what="the run to become active")


async def wait_for_event(events: list[RunEvent], kind: str, timeout: float = 10.0) -> None:
    await eventually(lambda: any(event.kind == kind for event in events), timeout, what=f"a {kind} event")


@pytest_asyncio.fixture
async def backend(server_url: str) -> AsyncIterator[LangGraphBackend]:
    client = LangGraphBackend(server_url)
    try:
        yield client
    finally:
        await client.close()


@pytest_asyncio.fixture(scope="module")
async def runs(server_url: str) -> dict[str, tuple[str, list[RunEvent]]]:
    """The independent streamed runs, started together: {name: (thread_id, events)}."""
    backend = LangGraphBackend(server_url)
    scenarios = {
        "chat": ("be_chat", say("hello there"), {}),
        "tool": ("be_chat", say("tool abc"), {}),
        "agent": ("agent", say("hello", graph="agent"), {}),
        "nested": ("be_nested", say("hi", graph="be_nested", subgraphs=True), {}),
        "fail": ("be_fail", say("hi", graph="be_fail"), {}),
        "ask": ("be_ask", say("hi", graph="be_ask"), {}),
    }

    async def one(graph: str, request: RunRequest) -> tuple[str, list[RunEvent]]:
        thread = await backend.create_thread(graph_id=graph, metadata={"suite": "runs"})
        return thread.thread_id, await collect(backend.stream_run(thread.thread_id, request))

    try:
        results = await asyncio.gather(*(one(graph, request) for graph, request, _ in scenarios.values()))
        yield dict(zip(scenarios, results, strict=True))
    finally:
        await backend.close()


# --- server -----------------------------------------------------------------------------------


@pytest.mark.server
async def test_is_a_backend_and_check(backend: LangGraphBackend) -> None:
    assert isinstance(backend, Backend)
    info = await backend.check()
    assert info["version"]
    assert backend.capabilities.history and backend.capabilities.fork and backend.capabilities.name == "LangGraph"


@pytest.mark.server
async def test_unreachable_server_is_reported_fast() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    backend = LangGraphBackend(url)
    try:
        started = time.monotonic()
        with pytest.raises(Unreachable) as caught:
            await backend.check()
        assert time.monotonic() - started < 3
        assert url in str(caught.value) and "Traceback" not in str(caught.value)
        with pytest.raises(Unreachable, match="list the threads"):
            await backend.search_threads(ThreadQuery())
        with pytest.raises(Unreachable):
            await collect(backend.stream_run(str(uuid.uuid4()), say("x")))
    finally:
        await backend.close()


@pytest.mark.server
async def test_check_on_something_that_is_not_langgraph(server_url: str) -> None:
    backend = LangGraphBackend(server_url + "/nothing-here")
    try:
        with pytest.raises(Invalid, match="not as a LangGraph Agent Server"):
            await backend.check()
    finally:
        await backend.close()


# --- threads ----------------------------------------------------------------------------------


@pytest.mark.server
async def test_thread_lifecycle(backend: LangGraphBackend) -> None:
    suite = uuid.uuid4().hex
    thread_id = str(uuid.uuid4())
    created = await backend.create_thread(
        thread_id=thread_id,
        metadata={"suite": suite, "n": 1},
        graph_id="be_chat",
        supersteps=[human("What is the   answer\nto everything?")],
    )
    assert created.thread_id == thread_id and created.graph_id == "be_chat"
    assert created.title == "What is the answer to everything?"
    other = await backend.create_thread(metadata={"suite": suite, "n": 2}, graph_id="be_ask")

    got = await backend.get_thread(thread_id)
    assert (got.thread_id, got.status, got.graph_id) == (thread_id, "idle", "be_chat")
    assert got.title == "What is the answer to everything?" and not got.has_title_channel
    assert got.created_at is not None and got.updated_at is not None
    assert got.metadata["n"] == 1

    everything = await backend.search_threads(ThreadQuery(metadata={"suite": suite}))
    assert {t.thread_id for t in everything} == {thread_id, other.thread_id}
    by_graph = await backend.search_threads(ThreadQuery(metadata={"suite": suite}, graph_id="be_ask"))
    assert [t.thread_id for t in by_graph] == [other.thread_id]
    by_id = await backend.search_threads(ThreadQuery(ids=[thread_id]))
    assert [t.thread_id for t in by_id] == [thread_id]
    oldest_first = await backend.search_threads(
        ThreadQuery(metadata={"suite": suite}, sort_by="created_at", sort_order="asc", limit=1)
    )
    assert [t.thread_id for t in oldest_first] == [thread_id]
    second_page = await backend.search_threads(
        ThreadQuery(metadata={"suite": suite}, sort_by="created_at", sort_order="asc", limit=1, offset=1)
    )
    assert [t.thread_id for t in second_page] == [other.thread_id]
    assert await backend.search_threads(ThreadQuery(metadata={"suite": suite}, status="busy")) == []
    assert await backend.count_threads(ThreadQuery(metadata={"suite": suite})) == 2
    assert await backend.count_threads(ThreadQuery(metadata={"suite": suite}, graph_id="be_chat")) == 1
    assert await backend.count_threads(ThreadQuery(ids=[thread_id, other.thread_id])) == 2

    updated = await backend.update_metadata(thread_id, {"n": 5, "label": "x"})
    assert updated.metadata["n"] == 5 and updated.metadata["suite"] == suite and updated.metadata["label"] == "x"

    await backend.delete_thread(thread_id)
    with pytest.raises(NotFound):
        await backend.get_thread(thread_id)
    with pytest.raises(NotFound, match="delete thread"):
        await backend.delete_thread(thread_id)
    assert await backend.count_threads(ThreadQuery(metadata={"suite": suite})) == 1


@pytest.mark.server
async def test_titles_from_title_channel_and_after_a_system_message(backend: LangGraphBackend) -> None:
    suite = uuid.uuid4().hex
    titled = await backend.create_thread(
        metadata={"suite": suite},
        graph_id="be_chat",
        supersteps=[
            {
                "updates": [
                    {
                        "values": {
                            "title": "Research session",
                            "messages": [{"type": "human", "content": "ignored for the title"}],
                        },
                        "as_node": "model",
                    }
                ]
            }
        ],
    )
    system_first = await backend.create_thread(
        metadata={"suite": suite},
        graph_id="be_chat",
        supersteps=[
            {
                "updates": [
                    {
                        "values": {
                            "messages": [
                                {"type": "system", "content": "You are terse."},
                                {"type": "human", "content": "Second, but human"},
                            ]
                        },
                        "as_node": "model",
                    }
                ]
            }
        ],
    )
    empty = await backend.create_thread(metadata={"suite": suite})
    rows = {t.thread_id: t for t in await backend.search_threads(ThreadQuery(metadata={"suite": suite}))}
    assert rows[titled.thread_id].title == "Research session" and rows[titled.thread_id].has_title_channel
    assert rows[system_first.thread_id].title == "Second, but human"
    assert rows[empty.thread_id].title == "" and rows[empty.thread_id].display_title == empty.thread_id
    assert backend._extract, "the server supports `extract`: rows must not carry full values"


@pytest.mark.server
async def test_titles_of_a_graph_that_keeps_its_conversation_under_its_own_key(backend: LangGraphBackend) -> None:
    # ok_ledger (tests/graphs/own_key_graphs.py) keeps its messages under `transcript`
    suite = uuid.uuid4().hex

    async def ledger(*transcript: dict) -> str:
        steps = [{"updates": [{"values": {"transcript": list(transcript)}, "as_node": "book"}]}]
        thread = await backend.create_thread(metadata={"suite": suite}, graph_id="ok_ledger", supersteps=steps)
        return thread.thread_id

    lunch = await ledger({"type": "human", "content": "Lunch 12.50"}, {"type": "ai", "content": "Booked 12.50."})
    after_system = await ledger({"type": "system", "content": "In euros."}, {"type": "human", "content": "Taxi 30"})
    empty = (await backend.create_thread(metadata={"suite": suite}, graph_id="ok_ledger")).thread_id
    chat = (await backend.create_thread(metadata={"suite": suite}, graph_id="be_chat")).thread_id
    rows = {t.thread_id: t for t in await backend.search_threads(ThreadQuery(metadata={"suite": suite}))}
    assert rows[lunch].title == "Lunch 12.50"
    assert rows[after_system].title == "Taxi 30"
    assert rows[empty].title == "" and rows[chat].title == ""
    assert backend._graph_keys == {"ok_ledger": "transcript", "be_chat": "messages"}  # each graph's schemas asked once


@pytest.mark.server
async def test_thread_errors(backend: LangGraphBackend) -> None:
    with pytest.raises(Invalid, match="must be a UUID") as caught:
        await backend.create_thread(thread_id="my-thread")
    assert "my-thread" in str(caught.value)
    thread = await backend.create_thread()
    with pytest.raises(Conflict, match="already exists"):
        await backend.create_thread(thread_id=thread.thread_id)
    unknown = str(uuid.uuid4())
    with pytest.raises(NotFound, match="not found"):
        await backend.get_state(unknown)
    with pytest.raises(NotFound):
        await backend.get_thread(unknown)
    with pytest.raises(NotFound):
        await backend.update_metadata(unknown, {"a": 1})
    with pytest.raises(Invalid, match="Invalid thread ID"):
        await backend.get_thread("not-a-uuid")
    assert backend._extract, "a bad id must not turn off `extract`"
    with pytest.raises(Invalid, match="Superstep 1"):
        await backend.create_thread(supersteps=[{"values": {}}])


@pytest.mark.server
async def test_copy_thread(backend: LangGraphBackend) -> None:
    original = await backend.create_thread(
        graph_id="be_chat", metadata={"kind": "original"}, supersteps=[human("copy me")]
    )
    copy = await backend.copy_thread(original.thread_id)
    assert copy.thread_id != original.thread_id and copy.metadata.get("kind") == "original"
    history = await backend.get_history(copy.thread_id, limit=5)
    assert history and history[0].thread_id == copy.thread_id
    with pytest.raises(NotFound, match="no such thread"):
        await backend.copy_thread(str(uuid.uuid4()))


# --- state and history ---------------------------------------------------------------------


@pytest.mark.server
async def test_state_history_paging_and_fork(backend: LangGraphBackend) -> None:
    thread = await backend.create_thread(graph_id="be_chat")
    written = []
    for number in range(5):
        written.append(
            await backend.update_state(
                thread.thread_id, {"messages": [{"type": "human", "content": f"m{number}"}]}, as_node="model"
            )
        )
    assert all(written) and len(set(written)) == 5

    head = await backend.get_state(thread.thread_id)
    assert head.checkpoint_id == written[-1] and head.parent_checkpoint_id == written[-2]
    assert [m.text for m in head.messages] == ["m0", "m1", "m2", "m3", "m4"]
    assert head.source == "update" and head.step == 4 and head.thread_id == thread.thread_id

    pages, before = [], None
    while True:
        page = await backend.get_history(thread.thread_id, limit=2, before=before)
        if not page:
            break
        pages.append([state.checkpoint_id for state in page])
        before = page[-1].checkpoint_id
    seen = [checkpoint for page in pages for checkpoint in page]
    assert [len(page) for page in pages][:2] == [2, 2]
    assert seen[:5] == written[::-1] and len(seen) == len(set(seen))

    older = await backend.get_state(thread.thread_id, checkpoint_id=written[1])
    assert older.checkpoint_id == written[1] and [m.text for m in older.messages] == ["m0", "m1"]

    fork = await backend.update_state(
        thread.thread_id,
        {"messages": [{"type": "human", "content": "branch"}]},
        as_node="model",
        checkpoint_id=written[1],
    )
    new_head = await backend.get_state(thread.thread_id)
    assert new_head.checkpoint_id == fork and new_head.parent_checkpoint_id == written[1]
    assert [m.text for m in new_head.messages] == ["m0", "m1", "branch"]

    with pytest.raises(Invalid, match="Node nope does not exist"):
        await backend.update_state(thread.thread_id, {"messages": []}, as_node="nope")
    with pytest.raises(NotFound):
        await backend.get_history(str(uuid.uuid4()))


@pytest.mark.server
async def test_checkpoints_share_the_messages_they_repeat(backend: LangGraphBackend) -> None:
    """Every checkpoint holds the whole conversation: each message is read once and held once."""
    thread = await backend.create_thread(graph_id="be_chat")
    for number in range(3):
        await backend.update_state(
            thread.thread_id, {"messages": [{"type": "human", "content": f"m{number}"}]}, as_node="model"
        )
    history = [state for state in await backend.get_history(thread.thread_id, limit=10) if state.messages]
    head = await backend.get_state(thread.thread_id)
    assert [len(state.messages) for state in history] == [3, 2, 1]
    first, first_dict = history[-1].messages[0], history[-1].values["messages"][0]
    for state in [head, *history]:
        assert state.messages[0] is first and state.values["messages"][0] is first_dict
    assert head.messages[2] is history[0].messages[2] and head.messages[2].text == "m2"


@pytest.mark.server
async def test_title_written_through_update_state(backend: LangGraphBackend) -> None:
    thread = await backend.create_thread(graph_id="be_chat", supersteps=[human("first words")])
    await backend.update_state(thread.thread_id, {"title": "Named by hand"}, as_node="model")
    row = await backend.get_thread(thread.thread_id)
    assert (row.title, row.has_title_channel) == ("Named by hand", True)
    assert (await backend.get_state(thread.thread_id)).title == "Named by hand"


# --- runs -----------------------------------------------------------------------------------


def check_run_shape(events: list[RunEvent]) -> str:
    """Every stream starts with metadata, ends with exactly one end; all carry the run id."""
    assert events[0].kind == "metadata" and events[0].run_id
    assert events[-1].kind == "end" and kinds(events).count("end") == 1
    run_id = events[0].run_id
    assert all(event.run_id == run_id for event in events)
    return run_id


@pytest.mark.server
async def test_stream_run_tokens_values_and_end(runs: dict, backend: LangGraphBackend) -> None:
    thread_id, events = runs["chat"]
    check_run_shape(events)
    tokens = [event for event in events if event.kind == "token"]
    assert len(tokens) > 5 and all(t.node == "model" and t.message_type == "ai" for t in tokens)
    assert tokens[0].reasoning == "Thinking it over." and tokens[0].text == ""
    assert tokens[-1].last and not any(t.last for t in tokens[:-1])
    text = "".join(t.text for t in tokens)
    assert text == "You said hello there. Here is a reply of several words."
    assert len({t.message_id for t in tokens}) == 1 and all(t.size >= len(t.text) for t in tokens)
    values = [event for event in events if event.kind == "values"]
    assert values and values[-1].data["messages"][-1]["content"] == text and values[-1].size > 0
    assert any(event.kind == "updates" and event.node == "model" for event in events)
    state = await backend.get_state(thread_id)
    assert state.messages[-1].text == text and state.messages[-1].reasoning == "Thinking it over."


@pytest.mark.server
async def test_stream_run_tool_call_chunks_and_tool_message(runs: dict) -> None:
    _, events = runs["tool"]
    check_run_shape(events)
    chunks = [c for event in events if event.kind == "token" for c in event.tool_call_chunks]
    assert chunks[0].name == "lookup" and chunks[0].id == "call_1"
    assert "".join(c.args for c in chunks) == '{"query": "abc"}'
    tool = [event for event in events if event.kind == "message" and event.message_type == "tool"]
    assert tool and tool[0].message is not None and tool[0].message.text == "found abc"
    assert tool[0].message.tool_call_id == "call_1" and tool[0].node == "tools"
    assert "".join(e.text for e in events if e.kind == "token").endswith("The tool said found abc. Done.")


@pytest.mark.server
async def test_stream_run_on_the_demo_agent(runs: dict) -> None:
    _, events = runs["agent"]
    check_run_shape(events)
    assert "values" in kinds(events)
    assert "token" in kinds(events) or "message" in kinds(events)


@pytest.mark.server
async def test_stream_run_subgraph_events_have_a_namespace(runs: dict) -> None:
    _, events = runs["nested"]
    check_run_shape(events)
    inner = [event for event in events if event.namespace]
    assert inner and all(event.namespace.startswith("outer:") for event in inner)
    assert {"values", "updates"} <= set(kinds(inner))
    assert any(event.kind == "updates" and event.node == "inner" for event in inner)
    assert any(event.kind == "values" and not event.namespace for event in events)


@pytest.mark.server
async def test_stream_run_failure_ends_with_error_then_end(runs: dict, backend: LangGraphBackend) -> None:
    thread_id, events = runs["fail"]
    check_run_shape(events)
    assert kinds(events)[-2] == "error"
    assert events[-2].text == "ValueError: boom: the test graph failed on purpose"
    assert (await backend.get_thread(thread_id)).status == "error"


@pytest.mark.server
async def test_interrupt_and_resume(runs: dict, backend: LangGraphBackend) -> None:
    thread_id, events = runs["ask"]
    check_run_shape(events)
    interrupts = [event for event in events if event.kind == "interrupt"]
    assert len(interrupts) == 1
    (item,) = interrupts[0].data
    assert isinstance(item, Interrupt) and item.id
    assert item.value == {"question": "Which colour?", "options": ["red", "blue"]}

    state = await backend.get_state(thread_id)
    assert state.next == ["ask"] and len(state.interrupts) == 1
    assert (state.interrupts[0].id, state.interrupts[0].node) == (item.id, "ask")
    assert state.interrupts[0].task_id == state.tasks[0].id
    row = await backend.get_thread(thread_id)
    assert row.status == "interrupted" and [i.id for i in row.interrupts] == [item.id]
    assert row.interrupts[0].task_id == state.tasks[0].id
    waiting = await backend.search_threads(ThreadQuery(status="interrupted", ids=[thread_id]))
    assert [t.thread_id for t in waiting] == [thread_id]

    resumed = await collect(
        backend.stream_run(thread_id, RunRequest(assistant_id="be_ask", command={"resume": "blue"}))
    )
    check_run_shape(resumed)
    assert "interrupt" not in kinds(resumed)
    final = await backend.get_state(thread_id)
    assert final.messages[-1].text == "You picked blue" and final.interrupts == [] and final.next == []
    assert (await backend.get_thread(thread_id)).status == "idle"


@pytest.mark.server
async def test_stream_run_errors(backend: LangGraphBackend) -> None:
    with pytest.raises(NotFound, match="run be_chat on thread"):
        await collect(backend.stream_run(str(uuid.uuid4()), say("hi")))
    thread = await backend.create_thread()
    with pytest.raises(BackendError) as caught:
        await collect(backend.stream_run(thread.thread_id, say("hi", graph="no-such-graph")))
    assert isinstance(caught.value, (NotFound, Invalid)) and "\n" not in str(caught.value)


@pytest.mark.server
async def test_join_stream_cancel_and_active_run(backend: LangGraphBackend) -> None:
    async def join_running_run() -> None:
        thread = await backend.create_thread(graph_id="be_slow")
        assert await backend.active_run(thread.thread_id) is None
        assert kinds(await collect(backend.join_stream(thread.thread_id))) == ["end"]
        seen: list[RunEvent] = []

        async def watch() -> None:
            async for event in backend.stream_run(
                thread.thread_id,
                RunRequest(
                    assistant_id="be_slow", input={"steps": 12}, stream_modes=["values", "custom"], resumable=True
                ),
            ):
                seen.append(event)

        task = asyncio.create_task(watch())
        run_id = await wait_for_run(backend, thread.thread_id)
        await wait_for_event(seen, "custom")
        joined = await collect(backend.join_stream(thread.thread_id))  # the active run
        await task
        check_run_shape(seen)
        assert joined[-1].kind == "end" and kinds(joined).count("end") == 1
        assert joined[0].run_id == run_id and all(e.run_id == run_id for e in joined)
        steps = [e.data["step"] for e in joined if e.kind == "custom"]
        assert steps and steps[-1] == 11 and steps == sorted(steps)
        assert [e.data for e in joined if e.kind == "values"][-1] == {"steps": 12, "done": 12}
        # resumable: replay from an event id, with the run id given
        custom = [e for e in seen if e.kind == "custom"]
        assert all(e.event_id for e in seen if e.kind != "end")
        replay = await collect(backend.join_stream(thread.thread_id, run_id, last_event_id=custom[2].event_id))
        assert [e.data["step"] for e in replay if e.kind == "custom"] == list(range(3, 12))

    async def cancel(action: str) -> tuple[str, list[RunEvent]]:
        thread = await backend.create_thread(graph_id="be_slow")
        seen: list[RunEvent] = []

        async def watch() -> None:
            async for event in backend.stream_run(
                thread.thread_id, RunRequest(assistant_id="be_slow", input={"steps": 100}, stream_modes=["custom"])
            ):
                seen.append(event)

        task = asyncio.create_task(watch())
        run_id = await wait_for_run(backend, thread.thread_id)
        await wait_for_event(seen, "custom")
        await backend.cancel_run(thread.thread_id, run_id, action)
        await asyncio.wait_for(task, 10)
        assert seen[-1].kind == "end" and len(seen) < 100
        assert await backend.active_run(thread.thread_id) is None
        with pytest.raises(NotFound, match="finished already"):
            await backend.cancel_run(thread.thread_id, run_id, action)
        return (await backend.get_thread(thread.thread_id)).status, seen

    _, (interrupted, _), (rolled_back, _) = await asyncio.gather(
        join_running_run(), cancel("interrupt"), cancel("rollback")
    )
    assert interrupted == "interrupted" and rolled_back == "idle"
    with pytest.raises(Invalid, match="interrupt"):
        await backend.cancel_run(str(uuid.uuid4()), str(uuid.uuid4()), "explode")


def trace(events: list[RunEvent]) -> list[tuple]:
    """What tells two streams' events apart: id, name, and everything they carry."""
    return [
        (
            e.event_id,
            e.event,
            e.kind,
            e.message_id,
            e.text,
            e.reasoning,
            json.dumps(e.data, default=str, sort_keys=True),
        )
        for e in events
        if e.kind != "end"
    ]


async def server_record(url: str, thread_id: str, run_id: str) -> list[RunEvent]:
    """Every event the server kept of a resumable run, replayed by the bare SDK: the
    in-memory server replays the events whose ids are above Last-Event-ID, and every id is above "0"."""
    client = get_client(url=url)
    events: list[RunEvent] = []
    async for part in client.runs.join_stream(thread_id, run_id, last_event_id="0"):
        result = run_event_from_part(part.event, part.data, part.id)
        events += result if isinstance(result, list) else [result]
    return events


async def read_until(events: AsyncIterator[RunEvent], count: int) -> list[RunEvent]:
    """The first `count` events; then the client stops reading (the stream is closed)."""
    read: list[RunEvent] = []
    async for event in events:
        read.append(event)
        if len(read) == count:
            break
    await events.aclose()
    return read


@pytest.mark.server
async def test_a_cut_stream_resumes_with_every_event_exactly_once(backend: LangGraphBackend, server_url: str) -> None:
    """The client stops reading mid-reply (it closes the stream; the run goes on) and
    joins the run from the last event it read: what followed arrives once, nothing is lost.

    The in-memory server stamps the events of one millisecond with one id: the second cut
    is made inside such a millisecond, where resuming from the id itself (what the SDK
    does) loses the rest of it. The joins start once the run has ended: joining a run
    still going, that server may send again the last event it replayed (a race in its
    join), which no client can tell from a new event of that millisecond."""
    thread = await backend.create_thread(graph_id="be_chat")
    before = await read_until(backend.stream_run(thread.thread_id, say("many words " * 80)), 10)
    run_id = before[0].run_id
    await get_client(url=server_url).runs.join(thread.thread_id, run_id)  # (the server answers at the run's end)
    record = trace(await server_record(server_url, thread.thread_id, run_id))
    inside = next(k for k in range(len(before), len(record) - 1) if record[k][0] == record[k + 1][0])

    middle = await read_until(
        backend.join_stream(thread.thread_id, run_id, before[-1].event_id), inside + 1 - len(before)
    )
    after = await collect(backend.join_stream(thread.thread_id, run_id, last_event_id=middle[-1].event_id))
    assert after[-1].kind == "end" and all(e.run_id == run_id for e in middle + after)
    assert trace(before) + trace(middle) + trace(after) == record
    text = "".join(e.text for e in before + middle + after if e.kind == "token")
    assert text == (await backend.get_state(thread.thread_id)).messages[-1].text


def test_a_stream_position_drops_what_was_read_and_resumes_below_its_id() -> None:
    position = StreamPosition()
    assert [position.admit(i) for i in ("5-0", "6-0", "6-0", None)] == [True] * 4
    assert (position.event_id, position.count) == ("6-0", 2)
    # the server went back: what was read comes again, then what is new
    assert [position.admit(i) for i in ("5-0", "6-0", "6-0", "6-0", "7-0")] == [False, False, False, True, True]
    position = StreamPosition("1797-0", 2)
    assert position.resume() == f"1796-{2**64 - 1}"
    assert [position.admit(i) for i in ("1797-0", "1797-0", "1797-0")] == [False, False, True]
    assert StreamPosition("1797-5", 1).resume() == "1797-4"
    assert StreamPosition("abc", 1).resume() == "abc"  # not a stream id: after it, as SSE does


# --- assistants and graphs -----------------------------------------------------------------


@pytest.mark.server
async def test_assistants_graphs_and_schemas(backend: LangGraphBackend) -> None:
    assistants = await backend.list_assistants()
    by_graph = {a.graph_id: a for a in assistants}
    assert {"agent", "be_chat", "be_ask"} <= set(by_graph)
    assert by_graph["be_chat"].name == "be_chat" and uuid.UUID(by_graph["be_chat"].assistant_id)

    graph = await backend.get_graph("be_chat")
    assert {"__start__", "model", "tools", "__end__"} <= {node.id for node in graph.nodes}
    edges = {(edge.source, edge.target): edge for edge in graph.edges}
    assert edges[("model", "tools")].conditional and not edges[("tools", "model")].conditional
    assert {n.id for n in (await backend.get_graph("be_nested", xray=True)).nodes} >= {"outer:inner"}
    assert "outer" in {n.id for n in (await backend.get_graph("be_nested")).nodes}
    assert (await backend.get_graph(by_graph["be_chat"].assistant_id)).nodes

    by_name = await backend.get_schemas("be_chat")
    by_uuid = await backend.get_schemas(by_graph["be_chat"].assistant_id)
    assert by_name == by_uuid and "title" in by_name["state_schema"]["properties"]
    with pytest.raises(NotFound, match="no-such-graph"):
        await backend.get_schemas("no-such-graph")
    with pytest.raises(BackendError):
        await backend.get_graph("no-such-graph")


# --- the server's traps ---------------------------------------------------------------------


@pytest.mark.server
async def test_a_500_does_not_break_the_next_request_nor_a_running_stream(backend: LangGraphBackend) -> None:
    await backend.create_thread()  # a thread with null values makes search(values=...) fail
    thread = await backend.create_thread(graph_id="be_slow")
    seen: list[RunEvent] = []

    async def watch() -> None:
        async for event in backend.stream_run(
            thread.thread_id, RunRequest(assistant_id="be_slow", input={"steps": 10}, stream_modes=["custom"])
        ):
            seen.append(event)

    task = asyncio.create_task(watch())
    await wait_for_event(seen, "custom")
    for _ in range(2):
        with pytest.raises(ServerError, match="the server failed"):
            await backend._call("search by values", lambda c: c.threads.search(values={"x": 1}))
        # a non-idempotent call right after: on the old connection it got httpx.ReadError
        assert (await backend.create_thread()).thread_id
    assert len(backend._retired) == 1, "the streaming client is kept until its stream ends"
    await asyncio.wait_for(task, 10)
    assert [e.data["step"] for e in seen if e.kind == "custom"] == list(range(10)) and seen[-1].kind == "end"
    with pytest.raises(ServerError):
        await backend._call("search by values", lambda c: c.threads.search(values={"x": 1}))
    assert backend._retired == []


# --- error mapping (no server needed) ------------------------------------------------------


def status_error(status: int, body: bytes = b'{"detail": "the detail"}') -> httpx.HTTPStatusError:
    request = httpx.Request("GET", "http://x/threads")
    response = httpx.Response(status, request=request, content=body)
    return httpx.HTTPStatusError("boom", request=request, response=response)


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (404, NotFound),
        (409, Conflict),
        (400, Invalid),
        (422, Invalid),
        (401, Unauthorized),
        (403, Unauthorized),
        (500, ServerError),
        (503, ServerError),
    ],
)
async def test_status_errors_map_to_typed_errors(status: int, kind: type) -> None:
    backend = LangGraphBackend("http://127.0.0.1:9")
    try:
        error = backend._error(status_error(status), "do the thing")
        assert type(error) is kind and error.status == status
        assert str(error).startswith("Could not do the thing") and "the detail" in str(error)
    finally:
        await backend.close()


async def test_other_failures_map_to_typed_errors() -> None:
    backend = LangGraphBackend("http://127.0.0.1:9")
    try:
        request = httpx.Request("GET", "http://x")
        assert isinstance(backend._error(httpx.ConnectError("refused", request=request), "go"), Unreachable)
        assert isinstance(backend._error(httpx.ReadError("", request=request), "go"), Unreachable)
        assert isinstance(backend._error(httpx.RemoteProtocolError("bye", request=request), "go"), Unreachable)
        bare = backend._error(Exception("Run failed"), "wait for the run")
        assert isinstance(bare, ServerError) and str(bare) == "Could not wait for the run: Exception: Run failed"
        plain = backend._error(status_error(404, b"not json\nsecond line"), "go")
        assert str(plain) == "Could not go: not json second line"  # the whole message, on one line
        empty = backend._error(status_error(502, b""), "go")
        assert "502" in str(empty)
    finally:
        await backend.close()


async def test_a_url_without_scheme_is_invalid_not_unreachable() -> None:
    backend = LangGraphBackend("localhost:2024")
    try:
        with pytest.raises(Invalid, match="not a usable"):
            await backend.check()
    finally:
        await backend.close()
