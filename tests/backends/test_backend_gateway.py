"""GatewayBackend through the stand-in for DeerFlow's Gateway (tests/deerflow_gateway_proxy.py),
which serves the real LangGraph test server under /api with the Gateway's measured
differences. Runs use graphs of tests/graphs (be_chat, be_slow), named explicitly."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from langgraph_sdk import get_client
from support.long_threads import full_history, turns_and_updates
from test_backend_langgraph import collect, kinds, read_until, wait_for_event, wait_for_run
from threadbench.backends.base import Conflict, Invalid, NotFound
from threadbench.backends.deerflow.gateway import GatewayBackend
from threadbench.backends.detect import detect_backend_kind, make_backend, normalize_kind
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.models import RunEvent, RunRequest, ThreadQuery, ThreadState
from threadbench.timeline import TimelineModel

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def gateway_url(gateway_origin: str) -> str:
    return gateway_origin + "/api"


@pytest_asyncio.fixture
async def backend(gateway_url: str) -> AsyncIterator[GatewayBackend]:
    client = make_backend("deerflow-gateway", gateway_url)
    assert isinstance(client, GatewayBackend)
    try:
        yield client
    finally:
        await client.close()


def human(text: str) -> dict:
    return {"messages": [{"type": "human", "content": text}]}


# --- detection ---------------------------------------------------------------------------------


async def test_the_gateway_is_detected_under_api_and_api_langgraph(gateway_origin: str, server_url: str) -> None:
    assert await detect_backend_kind(gateway_origin + "/api") == "deerflow-gateway"
    assert await detect_backend_kind(gateway_origin + "/api/langgraph") == "deerflow-gateway"
    assert await detect_backend_kind(server_url) == "langgraph"  # /ok wins over anything else
    assert normalize_kind("gateway") == normalize_kind("Deer-Flow-Gateway") == "deerflow-gateway"


async def test_check_asks_the_origins_health_and_says_what_is_missing(
    backend: GatewayBackend, gateway_url: str
) -> None:
    assert (await backend.check())["service"] == "deer-flow-gateway"
    capabilities = backend.capabilities
    assert capabilities.name == "DeerFlow's Gateway" and capabilities.history and capabilities.join_stream
    assert not (
        capabilities.count
        or capabilities.copy_thread
        or capabilities.sort
        or capabilities.fork
        or capabilities.graph
        or capabilities.past_messages
    )
    plain = LangGraphBackend(gateway_url)  # the Gateway has no /info
    try:
        with pytest.raises(Invalid, match="not as a LangGraph Agent Server"):
            await plain.check()
    finally:
        await plain.close()


# --- threads -----------------------------------------------------------------------------------


async def test_threads_listed_got_and_created(backend: GatewayBackend, gateway_url: str) -> None:
    suite = uuid.uuid4().hex
    first = await backend.create_thread(metadata={"suite": suite, "n": 1}, graph_id="be_chat")
    second = await backend.create_thread(metadata={"suite": suite, "n": 2}, graph_id="be_chat")
    await backend.update_state(first.thread_id, {"title": "Named", **human("hi")}, as_node="model")

    listed = await backend.search_threads(ThreadQuery(metadata={"suite": suite}))
    assert [t.thread_id for t in listed] == [first.thread_id, second.thread_id]  # last updated first
    assert listed[0].title == "Named" and listed[0].has_title_channel and listed[1].title == ""
    assert [
        t.thread_id for t in await backend.search_threads(ThreadQuery(metadata={"suite": suite}, limit=1, offset=1))
    ] == [second.thread_id]
    got = await backend.get_thread(first.thread_id)
    assert (got.thread_id, got.title, got.status, got.metadata["n"]) == (first.thread_id, "Named", "idle", 1)

    # the Gateway answers a search by ids with other threads: ids are asked one by one
    raw = await get_client(url=gateway_url).threads.search(ids=[second.thread_id], limit=5)
    assert any(row["thread_id"] != second.thread_id for row in raw)
    by_id = await backend.search_threads(ThreadQuery(ids=[second.thread_id, str(uuid.uuid4())]))
    assert [t.thread_id for t in by_id] == [second.thread_id]
    assert await backend.search_threads(ThreadQuery(ids=[second.thread_id], metadata={"n": 1})) == []

    assert await backend.count_threads(ThreadQuery(metadata={"suite": suite})) is None
    with pytest.raises(Conflict, match="already exists"):  # the Gateway itself answers 200
        await backend.create_thread(thread_id=first.thread_id)
    with pytest.raises(Invalid, match="supersteps"):
        await backend.create_thread(supersteps=[{"updates": [{"values": human("x"), "as_node": "model"}]}])
    with pytest.raises(Invalid, match="cannot copy"):
        await backend.copy_thread(first.thread_id)
    with pytest.raises(Invalid, match="last update only"):
        await backend.search_threads(ThreadQuery(sort_by="created_at"))
    with pytest.raises(NotFound):
        await backend.get_thread(str(uuid.uuid4()))


# --- state and history ------------------------------------------------------------------------


async def test_state_update_and_history_with_messages_only_at_the_newest(backend: GatewayBackend) -> None:
    thread = await backend.create_thread(graph_id="be_chat")
    written = [await backend.update_state(thread.thread_id, human(f"m{n}"), as_node="model") for n in range(4)]
    head = await backend.get_state(thread.thread_id)
    assert (head.checkpoint_id, head.parent_checkpoint_id) == (written[-1], written[-2])
    assert [m.text for m in head.messages] == ["m0", "m1", "m2", "m3"]

    newest = await backend.get_history(thread.thread_id, limit=2)
    assert [s.checkpoint_id for s in newest] == written[:-3:-1]
    assert [len(s.messages) for s in newest] == [4, 0]  # the Gateway keeps them at the newest only
    older = await backend.get_history(thread.thread_id, limit=500, before=newest[-1].checkpoint_id)  # a string
    assert [s.checkpoint_id for s in older][:2] == [written[1], written[0]]
    with pytest.raises(Invalid, match="past checkpoint"):
        await backend.get_state(thread.thread_id, checkpoint_id=written[0])


async def test_history_pages_from_the_head_to_the_first_checkpoint(backend: GatewayBackend, server_url: str) -> None:
    """The real Gateway answers `before` with that checkpoint alone: paging by the last id of
    a page stopped after the first page (5 of 121 listed). Every checkpoint is reached, once,
    in order, and the human turns are found without the past messages the Gateway drops."""
    turns = ["one", "two", "three", "four"]
    thread_id = await turns_and_updates(server_url, "be_chat", turns, 36, {"suite": uuid.uuid4().hex})
    expected = [entry["checkpoint_id"] for entry in await full_history(server_url, thread_id)]
    assert len(expected) > 100  # past the Gateway's largest page

    walked: list[ThreadState] = []
    page = await backend.get_history(thread_id, limit=5)
    while page:
        walked += page
        if len(page) < 30 and len(walked) > 5:
            break
        page = await backend.get_history(thread_id, limit=30, before=walked[-1].checkpoint_id)
    assert [state.checkpoint_id for state in walked] == expected

    model = TimelineModel()
    model.append(walked)
    assert len([row for row in model.rows if model.human_turn(row.index)]) == len(turns)


# --- runs --------------------------------------------------------------------------------------


async def test_a_reply_streams_without_the_modes_the_gateway_refuses(backend: GatewayBackend) -> None:
    thread = await backend.create_thread(graph_id="be_chat")
    request = RunRequest(
        assistant_id="be_chat",
        input={"messages": [{"type": "human", "content": "hello", "id": "m-1"}]},
        stream_modes=["messages", "messages-tuple", "values", "events", "updates"],
        multitask_strategy="enqueue",
    )
    events = await collect(backend.stream_run(thread.thread_id, request))
    assert kinds(events)[0] == "metadata" and kinds(events)[-1] == "end" and "error" not in kinds(events)
    assert all(e.event_id for e in events if e.kind != "end")
    text = "".join(e.text for e in events if e.kind == "token")
    assert text == "You said hello. Here is a reply of several words."
    state = await backend.get_state(thread.thread_id)
    assert [(m.id, m.type) for m in state.messages][0] == ("m-1__user", "human")  # how DeerFlow stores it
    assert state.messages[-1].text == text


async def test_a_run_option_the_server_refuses_is_left_out_and_the_run_sent_again(gateway_url: str) -> None:
    """The real Gateway answers `stream_resumable: true` with a 422 naming the option (its
    words, recorded): a backend that does not know it learns it from the refusal."""
    async with get_client(url=gateway_url) as sdk:
        thread = await sdk.threads.create(graph_id="be_chat")
        with pytest.raises(Exception) as refused:
            async for _ in sdk.runs.stream(thread["thread_id"], "be_chat", input=human("hi"), stream_resumable=True):
                pass
    assert refused.value.response.status_code == 422
    plain = LangGraphBackend(gateway_url)
    try:
        request = RunRequest(assistant_id="be_chat", input=human("hello"), stream_modes=["messages-tuple", "values"])
        events = await collect(plain.stream_run(thread["thread_id"], request))
        assert "error" not in kinds(events)
        assert "".join(e.text for e in events if e.kind == "token").startswith("You said")
        assert plain.refused_run_options == {"stream_resumable"}
        await collect(plain.stream_run(thread["thread_id"], request))  # asked once, remembered
    finally:
        await plain.close()


async def test_a_refusal_says_the_servers_own_words(gateway_url: str) -> None:
    plain = LangGraphBackend(gateway_url)
    try:
        thread = await plain.create_thread(graph_id="be_chat")
        request = RunRequest(assistant_id="be_chat", input=human("hello"), stream_modes=["values", "events"])
        with pytest.raises(Invalid) as refused:
            await collect(plain.stream_run(thread.thread_id, request))
        assert "body.stream_mode: Unsupported stream mode(s): events" in str(refused.value)
        assert "its words are above" in refused.value.hint and "what you typed" not in refused.value.hint
    finally:
        await plain.close()


async def test_a_second_run_is_refused_plainly_and_a_busy_thread_is_found_and_followed(backend: GatewayBackend) -> None:
    suite = uuid.uuid4().hex
    thread = await backend.create_thread(graph_id="be_slow", metadata={"suite": suite})
    seen: list[RunEvent] = []
    slow = RunRequest(assistant_id="be_slow", input={"steps": 15}, stream_modes=["values", "custom"])

    async def watch() -> None:
        async for event in backend.stream_run(thread.thread_id, slow):
            seen.append(event)

    task = asyncio.create_task(watch())
    run_id = await wait_for_run(backend, thread.thread_id)
    await wait_for_event(seen, "custom")
    busy = await backend.search_threads(ThreadQuery(metadata={"suite": suite}, status="busy"))
    assert [(t.thread_id, t.status) for t in busy] == [(thread.thread_id, "busy")]  # the Gateway says running
    with pytest.raises(Conflict, match="a run is in progress there") as caught:
        await collect(backend.stream_run(thread.thread_id, slow))
    assert "runs one at a time" in str(caught.value)
    joined = await collect(backend.join_stream(thread.thread_id))  # the active run, not the thread's stream
    await task
    assert joined[0].run_id == run_id and [e.data["step"] for e in joined if e.kind == "custom"][-1] == 14
    with pytest.raises(NotFound, match="finished already"):  # the Gateway answers 409
        await backend.cancel_run(thread.thread_id, run_id)


async def test_a_cut_stream_resumes_from_the_last_event_id(backend: GatewayBackend) -> None:
    thread = await backend.create_thread(graph_id="be_slow")
    request = RunRequest(assistant_id="be_slow", input={"steps": 10}, stream_modes=["custom"])
    before = await read_until(backend.stream_run(thread.thread_id, request), 4)
    after = await collect(backend.join_stream(thread.thread_id, before[0].run_id, before[-1].event_id))
    steps = [e.data["step"] for e in before + after if e.kind == "custom"]
    assert steps == list(range(10))


async def test_graph_and_schemas_are_empty_without_an_error(backend: GatewayBackend) -> None:
    assert (await backend.get_graph("be_chat")).nodes == []
    assert await backend.get_schemas("be_chat") == {}
    assert {a.graph_id for a in await backend.list_assistants()} >= {"be_chat"}


# --- the command ---------------------------------------------------------------------------------


def test_threadbench_starts_on_the_gateway(gateway_url: str, tmp_path, monkeypatch) -> None:
    """`threadbench --url http://host:8001/api` probes the Gateway and starts (it exited 2)."""
    from threadbench.__main__ import main
    from threadbench.ui.app import ThreadbenchApp

    made: list[ThreadbenchApp] = []
    monkeypatch.setattr(ThreadbenchApp, "run", lambda self, *a, **k: made.append(self))
    assert main(["--url", gateway_url, "--data-dir", str(tmp_path)]) == 0
    assert made[0].session.backend_kind == "deerflow-gateway"
    assert main(["--url", gateway_url + "/", "--backend", "deerflow-gateway", "--data-dir", str(tmp_path)]) == 0
