"""TenXGraphBackend and detect_backend_kind against a real 10xGraph server.

The server (support/tenxgraph.py) runs the deterministic graph in tenxgraph_server.py:
"Echo: <text>. That is all." streamed a word at a time, an interrupt on "clarify", a tool
call on "tool ...", a failure on "fail", a slow reply on "slow".
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from support.tenxgraph_server import free_port
from threadbench.backends.base import Backend, Conflict, Invalid, NotFound, Unauthorized, Unreachable
from threadbench.backends.detect import detect_backend_kind, make_backend
from threadbench.backends.tenxgraph import TenXGraphBackend, to_client_message
from threadbench.models import RunEvent, RunRequest, ThreadQuery


def new_id(prefix: str = "tb") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def say(text: str) -> RunRequest:
    return RunRequest(input={"messages": [{"role": "user", "content": text}]})


async def run(backend: TenXGraphBackend, thread_id: str, request: RunRequest) -> list[RunEvent]:
    return [event async for event in backend.stream_run(thread_id, request)]


def tokens(events: list[RunEvent]) -> str:
    return "".join(e.text for e in events if e.kind == "token")


@pytest.fixture
async def backend(tenxgraph_url: str):
    client = TenXGraphBackend(tenxgraph_url)
    try:
        yield client
    finally:
        await client.close()


# --- server and threads -------------------------------------------------------------------


async def test_is_a_backend_and_check(backend: TenXGraphBackend) -> None:
    assert isinstance(backend, Backend)
    info = await backend.check()
    assert info["kind"] == "10xgraph"
    assert info["graph"]["state_fields"] == ["context", "context_summary", "execution_meta"]
    caps = backend.capabilities
    assert caps.name == "10xGraph" and not caps.history and not caps.fork
    assert caps.clear_state and caps.delete_message and caps.add_message
    assert "history" in caps.reason


async def test_stream_reply_tokens_then_end(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    human_id = str(uuid.uuid4())
    request = RunRequest(input={"messages": [{"type": "human", "content": "hello there", "id": human_id}]})
    events = await run(backend, thread_id, request)
    kinds = [e.kind for e in events]
    assert kinds[0] == "metadata" and events[0].run_id
    assert kinds[-1] == "end"
    # The human message comes back whole, with the id we gave it.
    human = next(e for e in events if e.kind == "message" and e.message_type == "human")
    assert human.message_id == human_id and human.message.text == "hello there"
    # The reply streams as deltas: several tokens, one message id, closed by a last token.
    stream = [e for e in events if e.kind == "token"]
    assert len(stream) >= 6
    assert "".join(e.text for e in stream) == "Echo: hello there. That is all."
    assert stream[0].text == "Echo: "
    assert len({e.message_id for e in stream}) == 1
    assert stream[-1].last and not any(e.last for e in stream[:-1])
    assert all(e.node == "agent" and e.message_type == "ai" for e in stream)
    # Then the whole reply, saying which streamed message it replaces.
    whole = next(e for e in events if e.kind == "message" and e.message_type == "ai")
    assert whole.message.text == "Echo: hello there. That is all."
    assert whole.data == {"replaces": stream[0].message_id}
    assert kinds.index("message", kinds.index("token")) > kinds.index("token")
    assert "values" in kinds and "updates" in kinds
    values = [e for e in events if e.kind == "values"]
    assert values[-1].data["execution_meta"]["status"] == "completed"

    state = await backend.get_state(thread_id)
    assert [m.type for m in state.messages] == ["human", "ai"]
    assert state.messages[0].id == human_id
    assert state.messages[1].text == "Echo: hello there. That is all."
    assert state.messages[1].id == whole.message_id
    assert state.next == [] and state.interrupts == []
    assert state.values["context_summary"] is None
    assert state.step == 2

    thread = await backend.get_thread(thread_id)
    assert thread.thread_id == thread_id
    assert thread.status == "idle"
    assert thread.title == "hello there"
    assert thread.updated_at is not None


async def test_search_threads_pages_and_search(backend: TenXGraphBackend) -> None:
    marker = uuid.uuid4().hex[:10]
    ids = [f"page-{marker}-{i}" for i in range(3)]
    for thread_id in ids:
        await run(backend, thread_id, say("hi"))
    found = await backend.search_threads(ThreadQuery(search=marker, limit=10))
    assert sorted(t.thread_id for t in found) == ids
    first = await backend.search_threads(ThreadQuery(search=marker, limit=2))
    rest = await backend.search_threads(ThreadQuery(search=marker, limit=2, offset=2))
    assert len(first) == 2 and len(rest) == 1
    assert {t.thread_id for t in first + rest} == set(ids)
    assert all(t.metadata.get("user_id") == "anonymous" for t in found)
    # Unsupported filters are ignored (capabilities say so), not refused.
    same = await backend.search_threads(ThreadQuery(search=marker, limit=10, status="error", metadata={"a": 1}))
    assert len(same) == 3
    by_ids = await backend.search_threads(ThreadQuery(ids=[ids[0], "no-such-thread"]))
    assert [t.thread_id for t in by_ids] == [ids[0]]
    everything = await backend.search_threads(ThreadQuery(limit=1000))
    assert set(ids) <= {t.thread_id for t in everything}
    assert await backend.count_threads(ThreadQuery()) is None


async def test_unknown_thread(backend: TenXGraphBackend) -> None:
    with pytest.raises(NotFound):
        await backend.get_thread(new_id("missing"))
    with pytest.raises(NotFound):
        await backend.delete_thread(new_id("missing"))
    # No state yet is an empty state (a thread created here has none until its first run).
    state = await backend.get_state(new_id("missing"))
    assert state.messages == [] and state.values == {}
    assert await backend.get_history(new_id("missing")) == []


async def test_validation_errors_are_readable(backend: TenXGraphBackend) -> None:
    with pytest.raises(Invalid) as err:
        await backend.search_threads(ThreadQuery(offset=-1))
    assert str(err.value) == "offset must be >= 0" and err.value.status == 422
    with pytest.raises(Invalid, match="limit must be > 0"):
        await backend.search_threads(ThreadQuery(limit=0))
    # A FastAPI validation error (details list) becomes "field: problem".
    with pytest.raises(Invalid) as err:
        await backend._call("GET", "/v1/threads", params={"limit": "many"})
    assert str(err.value) == "limit: Input should be a valid integer, unable to parse string as an integer"
    # Whitespace ids are refused before they reach the server.
    with pytest.raises(Invalid):
        await backend.get_thread("  ")


async def test_create_thread_is_local_until_the_first_run(backend: TenXGraphBackend) -> None:
    summary = await backend.create_thread()
    uuid.UUID(summary.thread_id)
    with pytest.raises(NotFound):
        await backend.get_thread(summary.thread_id)
    await run(backend, summary.thread_id, say("first"))
    assert (await backend.get_thread(summary.thread_id)).title == "first"
    with pytest.raises(Conflict):
        await backend.create_thread(thread_id=summary.thread_id)
    chosen = new_id("chosen")
    assert (await backend.create_thread(thread_id=chosen)).thread_id == chosen
    with pytest.raises(Invalid):
        await backend.create_thread(metadata={"a": 1})
    with pytest.raises(Invalid):
        await backend.create_thread(supersteps=[{"updates": []}])


async def test_delete_thread(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    await run(backend, thread_id, say("bye"))
    await backend.delete_thread(thread_id)
    with pytest.raises(NotFound):
        await backend.get_thread(thread_id)
    with pytest.raises(NotFound):
        await backend.delete_thread(thread_id)


async def test_unsupported_features_say_so(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    with pytest.raises(Invalid, match="copy"):
        await backend.copy_thread(thread_id)
    with pytest.raises(Invalid, match="metadata"):
        await backend.update_metadata(thread_id, {"a": 1})
    with pytest.raises(Invalid, match="checkpoint"):
        await backend.get_state(thread_id, checkpoint_id="abc")
    with pytest.raises(Invalid, match="checkpoint"):
        await run(backend, thread_id, RunRequest(input={"messages": []}, checkpoint_id="abc"))
    with pytest.raises(Invalid, match="Nothing to run"):
        await run(backend, thread_id, RunRequest(input={"messages": []}))
    with pytest.raises(Invalid, match="goto"):
        await run(backend, thread_id, RunRequest(command={"goto": "agent"}))
    assert [e async for e in backend.join_stream(thread_id)] == []
    assert await backend.active_run(thread_id) is None


# --- runs ---------------------------------------------------------------------------------


async def test_interrupt_then_resume(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    events = await run(backend, thread_id, say("please clarify"))
    assert events[-1].kind == "end"
    asks = [e for e in events if e.kind == "interrupt"]
    assert len(asks) == 1
    (pending,) = asks[0].data
    assert pending.value == {"question": "Which colour?", "options": ["red", "blue"]}
    assert pending.node == "agent" and pending.id.startswith("int_")
    assert tokens(events) == ""

    state = await backend.get_state(thread_id)
    assert state.next == ["agent"]
    assert [i.id for i in state.interrupts] == [pending.id]
    assert state.interrupts[0].value["question"] == "Which colour?"
    assert (await backend.get_thread(thread_id)).status == "interrupted"

    events = await run(backend, thread_id, RunRequest(command={"resume": "blue"}))
    assert tokens(events) == "You chose blue."
    assert not [e for e in events if e.kind == "interrupt"]
    state = await backend.get_state(thread_id)
    assert state.interrupts == [] and state.next == []
    assert state.messages[-1].text == "You chose blue."
    assert (await backend.get_thread(thread_id)).status == "idle"


async def test_tool_call_and_result(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    events = await run(backend, thread_id, say("tool weather"))
    whole = [e.message for e in events if e.kind == "message"]
    call = next(m for m in whole if m.type == "ai" and m.tool_calls)
    assert call.tool_calls[0].name == "lookup"
    assert call.tool_calls[0].args == {"query": "tool weather"}
    result = next(m for m in whole if m.type == "tool")
    assert result.tool_call_id == call.tool_calls[0].id
    assert result.text == "result for tool weather" and result.status == "success"
    assert tokens(events) == "The tool said: result for tool weather"
    state = await backend.get_state(thread_id)
    assert [m.type for m in state.messages] == ["human", "ai", "tool", "ai"]
    assert state.messages[1].tool_calls[0].id == "call_1"


async def test_run_error(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    events = await run(backend, thread_id, say("please fail"))
    errors = [e for e in events if e.kind == "error"]
    assert len(errors) == 1
    assert "boom: the node failed on purpose" in errors[0].text
    assert events[-1].kind == "end"
    assert (await backend.get_thread(thread_id)).status == "error"


async def test_cancel_run_and_busy_thread(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    stream = backend.stream_run(thread_id, say("slow please"))
    first = None
    async for event in stream:
        if event.kind == "token":
            first = event
            break
    assert first is not None
    # Mid-run the server cannot show the state: the thread reads as busy.
    assert (await backend.get_thread(thread_id)).status == "busy"
    with pytest.raises(Conflict, match="running"):
        await backend.get_state(thread_id)
    await backend.cancel_run(thread_id, first.run_id)
    rest = [event async for event in stream]
    assert rest[-1].kind == "end"
    state = await backend.get_state(thread_id)
    assert state.metadata["stop_current_execution"] == "stop_requested"
    # Nothing running: stopping is harmless.
    await backend.cancel_run(thread_id, "")


# --- state --------------------------------------------------------------------------------


async def test_update_state(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    await run(backend, thread_id, say("remember"))
    assert await backend.update_state(thread_id, {"context_summary": "a summary"}) == ""
    state = await backend.get_state(thread_id)
    assert state.values["context_summary"] == "a summary"
    assert len(state.messages) == 2

    # An editor sends the whole state back: unchanged keys and messages are not re-sent.
    values = dict(state.values)
    values["context_summary"] = "edited"
    await backend.update_state(thread_id, values)
    state = await backend.get_state(thread_id)
    assert state.values["context_summary"] == "edited" and len(state.messages) == 2

    # New trailing messages are appended.
    values = dict(state.values)
    values["context"] = [*values["context"], {"role": "user", "content": "added later"}]
    await backend.update_state(thread_id, values)
    state = await backend.get_state(thread_id)
    assert [m.text for m in state.messages][-1] == "added later"
    assert len(state.messages) == 3

    context = [dict(m) for m in state.values["context"]]
    context[0]["content"] = [{"type": "text", "text": "rewritten"}]
    with pytest.raises(Invalid, match="only append"):
        await backend.update_state(thread_id, {"context": context})
    with pytest.raises(Invalid, match="no field nope"):
        await backend.update_state(thread_id, {"nope": 1})
    with pytest.raises(Invalid, match="execution_meta"):
        await backend.update_state(thread_id, {"execution_meta": {"status": "completed"}})
    with pytest.raises(Invalid, match="node"):
        await backend.update_state(thread_id, {"context_summary": "x"}, as_node="agent")
    with pytest.raises(Invalid, match="checkpoint"):
        await backend.update_state(thread_id, {"context_summary": "x"}, checkpoint_id="c1")


async def test_clear_state(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    await run(backend, thread_id, say("forget me"))
    await backend.clear_state(thread_id)
    state = await backend.get_state(thread_id)
    assert state.messages == []
    assert (await backend.get_thread(thread_id)).thread_id == thread_id
    events = await run(backend, thread_id, say("again"))
    assert tokens(events) == "Echo: again. That is all."
    assert (await backend.get_state(thread_id)).messages[0].text == "again"


# --- the message log ----------------------------------------------------------------------


async def test_add_messages_without_running(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    await run(backend, thread_id, say("hello log"))
    await backend.add_messages(
        thread_id,
        [{"role": "system", "content": "be nice"}, {"type": "ai", "content": "noted"}],
    )
    log = await backend.list_messages(thread_id)
    assert [(m.type, m.text) for m in log][-2:] == [("system", "be nice"), ("ai", "noted")]
    # The log is not the graph's context: the state is unchanged.
    assert len((await backend.get_state(thread_id)).messages) == 2
    found = await backend.list_messages(thread_id, search="nice")
    assert [m.text for m in found] == ["be nice"]
    page = await backend.list_messages(thread_id, offset=1, limit=2)
    assert [m.text for m in page] == [m.text for m in log[1:3]]
    with pytest.raises(Invalid, match="offset"):
        await backend.list_messages(thread_id, offset=-1)
    with pytest.raises(Invalid):
        await backend.add_messages(thread_id, [])


async def test_get_and_delete_message(backend: TenXGraphBackend) -> None:
    thread_id = new_id()
    await run(backend, thread_id, say("keep this"))
    log = await backend.list_messages(thread_id)
    first = log[0]
    assert (await backend.get_message(thread_id, first.id)).text == "keep this"

    # An unknown message is a plain-text 500 and a reset connection on the server's side:
    # NotFound here, and the next calls still work.
    with pytest.raises(NotFound, match="not found"):
        await backend.get_message(thread_id, "no-such-message")
    assert (await backend.get_thread(thread_id)).thread_id == thread_id
    with pytest.raises(NotFound):
        await backend.delete_message(thread_id, "no-such-message")
    assert (await backend.get_thread(thread_id)).thread_id == thread_id
    assert len(await backend.list_messages(thread_id)) == len(log)

    await backend.delete_message(thread_id, first.id)
    with pytest.raises(NotFound):
        await backend.get_message(thread_id, first.id)
    assert [m.id for m in await backend.list_messages(thread_id)] == [m.id for m in log[1:]]


# --- graph --------------------------------------------------------------------------------


async def test_graph_assistants_and_schemas(backend: TenXGraphBackend) -> None:
    graph = await backend.get_graph("agent")
    assert {n.id for n in graph.nodes} == {"__start__", "__end__", "agent", "tools"}
    edges = {(e.source, e.target): e.conditional for e in graph.edges}
    assert edges == {
        ("__start__", "agent"): False,
        ("agent", "tools"): True,
        ("agent", "__end__"): True,
        ("tools", "agent"): False,
    }
    (assistant,) = await backend.list_assistants()
    assert assistant.assistant_id == "agent" and "4 nodes" in assistant.description
    schemas = await backend.get_schemas("agent")
    assert "context" in schemas["state"]["properties"]


# --- errors and auth ----------------------------------------------------------------------


async def test_unreachable() -> None:
    client = TenXGraphBackend(f"http://127.0.0.1:{free_port()}")
    try:
        with pytest.raises(Unreachable):
            await client.check()
        with pytest.raises(Unreachable):
            await run(client, "t", say("hi"))
    finally:
        await client.close()


async def test_auth(tenxgraph_jwt) -> None:
    url, make_token = tenxgraph_jwt
    anonymous = TenXGraphBackend(url)
    forged = TenXGraphBackend(url, make_token("alice", secret="not-the-server-secret-" * 3))
    alice = TenXGraphBackend(url, make_token("alice"))
    bob = TenXGraphBackend(url, make_token("bob"))
    try:
        with pytest.raises(Unauthorized) as err:
            await anonymous.check()
        assert err.value.status == 401 and "wants a token" in str(err.value)
        with pytest.raises(Unauthorized):
            await anonymous.search_threads(ThreadQuery())
        with pytest.raises(Unauthorized) as err:
            await forged.search_threads(ThreadQuery())
        assert err.value.status == 401
        with pytest.raises(Unauthorized):
            await run(anonymous, new_id(), say("hi"))

        await alice.check()
        thread_id = new_id("alice")
        assert tokens(await run(alice, thread_id, say("mine"))) == "Echo: mine. That is all."
        assert thread_id in {t.thread_id for t in await alice.search_threads(ThreadQuery())}
        assert thread_id not in {t.thread_id for t in await bob.search_threads(ThreadQuery())}
        with pytest.raises(Unauthorized) as err:
            await bob.get_state(thread_id)
        assert err.value.status == 403 and "another user" in str(err.value)
        with pytest.raises(Unauthorized, match="another user"):
            await run(bob, thread_id, say("not yours"))
        with pytest.raises(Unauthorized, match="another user"):
            await bob.delete_thread(thread_id)
        assert (await alice.get_thread(thread_id)).title == "mine"
    finally:
        for client in (anonymous, forged, alice, bob):
            await client.close()


# --- detection ----------------------------------------------------------------------------


async def test_detect_tenxgraph(tenxgraph_url: str, tenxgraph_jwt) -> None:
    assert await detect_backend_kind(tenxgraph_url) == "10xgraph"
    assert await detect_backend_kind(tenxgraph_url + "/") == "10xgraph"
    url, make_token = tenxgraph_jwt
    assert await detect_backend_kind(url) == "10xgraph"
    assert await detect_backend_kind(url, make_token("alice")) == "10xgraph"
    backend = make_backend("10xgraph", url, make_token("alice"))
    try:
        assert isinstance(backend, TenXGraphBackend) and backend.api_key
        await backend.check()
    finally:
        await backend.close()


async def test_detect_langgraph(server_url: str) -> None:
    assert await detect_backend_kind(server_url) == "langgraph"
    pytest.importorskip("threadbench.backends.langgraph")
    backend = make_backend("langgraph", server_url, None)
    try:
        assert type(backend).__name__ == "LangGraphBackend"
    finally:
        await backend.close()


async def test_detect_nothing_there() -> None:
    with pytest.raises(Unreachable, match="Nothing answers"):
        await detect_backend_kind(f"http://127.0.0.1:{free_port()}", timeout=2)
    with pytest.raises(Invalid):
        make_backend("postgres", "http://x", None)


# --- request shapes (no server) -----------------------------------------------------------


def test_langchain_input_becomes_10xgraph_messages() -> None:
    backend = TenXGraphBackend("http://127.0.0.1:1")
    body = backend.run_body(
        "t1",
        RunRequest(
            input={
                "messages": [
                    {"type": "human", "content": "hi", "id": "m1"},
                    {"role": "system", "content": [{"type": "text", "text": "be brief"}, "!"]},
                ],
                "context_summary": "so far",
            },
            configurable={"recursion_limit": 500, "user_tz": "UTC"},
        ),
    )
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "hi"}], "message_id": "m1"},
        {
            "role": "system",
            "content": [{"type": "text", "text": "be brief"}, {"type": "text", "text": "!"}],
        },
    ]
    assert body["initial_state"] == {"context_summary": "so far"}
    assert body["config"] == {"user_tz": "UTC", "thread_id": "t1"}
    assert body["recursion_limit"] == 100
    assert body["response_granularity"] == "full"
    resume = backend.run_body("t1", RunRequest(command={"resume": None}))
    assert resume["resume"] is None and resume["messages"] == []
    low = backend.run_body("t1", RunRequest(input={"messages": ["x"]}, stream_modes=["messages"]))
    assert low["response_granularity"] == "low"
    assert to_client_message({"role": "tool", "content": "42", "tool_call_id": "c1"}) == {
        "role": "tool",
        "content": [{"type": "tool_result", "call_id": "c1", "output": "42"}],
    }
    with pytest.raises(Invalid, match="role"):
        to_client_message({"role": "wizard", "content": "x"})
    asyncio.run(backend.close())
