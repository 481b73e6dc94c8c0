"""Runs, assistants, the store and crons through LangGraphBackend, against the real server;
and what the other servers lack (DeerFlow's Gateway, 10xGraph) said, not failed on."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from threadbench.backends.base import (
    EditsAssistants,
    HasCrons,
    HasStore,
    Invalid,
    ListsRuns,
    NotFound,
    SearchesAssistants,
    lacks,
)
from threadbench.backends.deerflow.gateway import GatewayBackend
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.models import RunRequest
from threadbench.object_input import TypedWrong, parse_json_object, parse_namespace, rerun_request, schema_of


@pytest_asyncio.fixture
async def backend(server_url: str) -> AsyncIterator[LangGraphBackend]:
    client = LangGraphBackend(server_url)
    try:
        yield client
    finally:
        await client.close()


def test_the_langgraph_client_has_every_ability_and_the_gateway_says_what_it_lacks() -> None:
    plain = LangGraphBackend("http://127.0.0.1:1")
    for ability in (ListsRuns, SearchesAssistants, EditsAssistants, HasStore, HasCrons):
        assert isinstance(plain, ability)
        assert lacks(plain, ability, "do it") == ""
    gateway = GatewayBackend("http://127.0.0.1:1/api")
    assert lacks(gateway, ListsRuns, "list runs") == ""
    assert lacks(gateway, HasStore, "keep a store") == "DeerFlow's Gateway cannot keep a store."
    assert lacks(gateway, HasCrons, "run crons") == "DeerFlow's Gateway cannot run crons."
    assert lacks(gateway, EditsAssistants, "edit assistants")
    assert lacks(gateway, SearchesAssistants, "search assistants") == ""  # it answers the search


async def test_runs_are_listed_with_their_options_and_run_again(backend: LangGraphBackend) -> None:
    thread = await backend.create_thread()
    request = RunRequest(
        assistant_id="be_chat",
        input={"messages": [{"role": "user", "content": "hello runs"}]},
        context={"flavour": "mint"},
        stream_modes=["values"],
    )
    [event async for event in backend.stream_run(thread.thread_id, request)]
    runs = await backend.list_runs(thread.thread_id)
    assert len(runs) == 1
    run = runs[0]
    assert run.status == "success"
    assert run.graph_id == "be_chat"
    assert run.input == request.input
    assert run.context == {"flavour": "mint"}
    assert run.stream_modes == ["values"]
    assert run.duration is not None and run.duration >= 0
    assert (await backend.get_run(thread.thread_id, run.run_id)).run_id == run.run_id
    again = rerun_request(run, ["values"])
    assert again.input == request.input and again.context == {"flavour": "mint"}
    assert not any(key.startswith(("langgraph_", "__")) or key == "run_id" for key in again.configurable)
    [event async for event in backend.stream_run(thread.thread_id, again)]
    assert len(await backend.list_runs(thread.thread_id)) == 2


async def test_assistants_are_created_versioned_and_deleted(backend: LangGraphBackend) -> None:
    name = f"objects-{uuid.uuid4().hex[:8]}"
    made = await backend.create_assistant("be_chat", name=name, config={"configurable": {}}, metadata={"team": name})
    assert made.version == 1 and made.graph_id == "be_chat"
    found = await backend.search_assistants(metadata={"team": name})
    assert [a.assistant_id for a in found] == [made.assistant_id]
    assert [a.assistant_id for a in await backend.search_assistants(name=name)] == [made.assistant_id]
    edited = await backend.update_assistant(made.assistant_id, name=name + "-2")
    assert edited.version == 2
    versions = await backend.assistant_versions(made.assistant_id)
    assert [v.version for v in versions] == [2, 1]
    back = await backend.set_assistant_version(made.assistant_id, 1)
    assert back.version == 1 and back.name == name
    await backend.delete_assistant(made.assistant_id)
    assert await backend.search_assistants(metadata={"team": name}) == []


async def test_the_store_lists_namespaces_pages_items_and_filters(backend: LangGraphBackend) -> None:
    root = f"objects-{uuid.uuid4().hex[:8]}"
    await asyncio.gather(
        *(backend.store_put([root, "notes"], f"k{n:02d}", {"n": n, "even": n % 2 == 0}) for n in range(12))
    )
    await backend.store_put([root, "prefs"], "theme", {"dark": True})
    assert await backend.store_namespaces([root]) == [[root, "notes"], [root, "prefs"]]
    first = await backend.store_items([root, "notes"], limit=5)
    second = await backend.store_items([root, "notes"], limit=5, offset=5)
    assert len(first) == 5 and len(second) == 5
    assert not {i.key for i in first} & {i.key for i in second}
    evens = await backend.store_items([root, "notes"], filter={"even": True}, limit=50)
    assert sorted(i.value["n"] for i in evens) == list(range(0, 12, 2))
    await backend.store_delete([root, "prefs"], "theme")
    assert await backend.store_items([root, "prefs"]) == []
    with pytest.raises(Invalid):
        await backend.store_put([root, "a.b"], "k", {})


async def test_crons_are_created_listed_refused_and_deleted(backend: LangGraphBackend) -> None:
    thread = await backend.create_thread()
    assistant = (await backend.search_assistants(graph_id="be_chat", limit=1))[0].assistant_id
    cron = await backend.create_cron(
        "0 3 * * *", assistant_id=assistant, thread_id=thread.thread_id, input={"messages": []}
    )
    assert cron.thread_id == thread.thread_id and cron.schedule == "0 3 * * *"
    assert cron.cron_id in {c.cron_id for c in await backend.list_crons(limit=200)}
    with pytest.raises(Invalid, match="Invalid cron schedule"):
        await backend.create_cron("every day", assistant_id=assistant)
    for_assistant = await backend.create_cron("*/15 * * * *", assistant_id=assistant, input={"messages": []})
    assert for_assistant.thread_id is None and for_assistant.assistant_id == assistant
    await backend.delete_cron(for_assistant.cron_id)
    await backend.delete_cron(cron.cron_id)
    assert cron.cron_id not in {c.cron_id for c in await backend.list_crons(limit=200)}
    with pytest.raises(NotFound):
        await backend.delete_cron(cron.cron_id)


def test_typed_namespaces_and_json_are_checked() -> None:
    assert parse_namespace(" users / alice ") == ["users", "alice"]
    with pytest.raises(TypedWrong, match="empty part"):
        parse_namespace("users//alice")
    with pytest.raises(TypedWrong, match="dot"):
        parse_namespace("users/a.b")
    with pytest.raises(TypedWrong, match="line 1, column"):
        parse_json_object('{"a": ', "value")
    schema = {"type": "object", "properties": {"model": {"type": "string"}}}
    with pytest.raises(TypedWrong, match="schema refuses the context"):
        parse_json_object('{"model": 3}', "context", schema=schema)
    assert parse_json_object("", "context", empty={}) == {}
    schemas = {"config_schema": {"properties": {"configurable": {"type": "object"}}}, "context_schema": schema}
    assert schema_of(schemas, "context") == schema
    assert schema_of(schemas, "config") == {"type": "object", "properties": {"configurable": {"type": "object"}}}


async def test_a_failed_run_is_described_with_its_error(backend: LangGraphBackend) -> None:
    thread = await backend.create_thread()
    request = RunRequest(assistant_id="be_fail", input={"messages": [{"role": "user", "content": "x"}]})
    [event async for event in backend.stream_run(thread.thread_id, request)]
    [run] = await backend.list_runs(thread.thread_id)
    assert run.status == "error" and run.error == ""  # the list keeps no error
    described = await backend.get_run(thread.thread_id, run.run_id)
    assert described.error == "ValueError: boom: the test graph failed on purpose"
    assert described.details()["error"] == described.error
