"""Search inside conversations (issue 19): quoted words in the search box find the threads whose
messages, tool calls and results or title hold them, through a local SQLite FTS5 index kept
fresh by each thread's updated_at. The index on its own, then against the real server, then
typed into the app."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, shown_row, wait_for, wait_ready
from textual.widgets import Input
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.models import ChatMessage, ThreadState, ThreadSummary, ToolCall
from threadbench.search_index import SearchIndex, fts_query, index_path, refresh
from threadbench.thread_filter import parse_filter
from threadbench.ui.widgets.thread_list import ThreadList


def thread(thread_id: str, stamp: str = "2026-01-01T00:00:00+00:00", title: str = "") -> ThreadSummary:
    return ThreadSummary(thread_id=thread_id, updated_at=stamp, title=title)


def state(*texts: str, calls: list[ToolCall] | None = None) -> ThreadState:
    messages = [ChatMessage(id=f"m{i}", type="human" if i % 2 == 0 else "ai", text=t) for i, t in enumerate(texts)]
    if calls:
        messages.append(ChatMessage(id="c", type="ai", tool_calls=calls))
    return ThreadState(messages=messages)


# -- the index ----------------------------------------------------------------------------------


def test_quoted_words_are_phrases_and_the_rest_stays_as_it_was() -> None:
    flt = parse_filter('status:idle "connection refused" retry \'port 5432\' tag="x y"')
    assert flt.phrases == ["connection refused", "port 5432"]
    assert flt.words == ["retry"] and flt.metadata == {"tag": "x y"} and flt.status == "idle"
    assert not flt.is_empty and parse_filter('""').phrases == []


def test_the_index_finds_words_in_order_across_messages_tool_calls_and_titles(tmp_path: Path) -> None:
    index = SearchIndex(tmp_path / "i.sqlite3")
    index.put(thread("t1", title="Deploy notes"), state("the db said connection refused", "retry later"))
    index.put(thread("t2"), state("refused: connection"))
    index.put(thread("t3"), state("hi", calls=[ToolCall(id="x", name="run_sql", args={"query": "DROP TABLE users"})]))
    assert [h.thread_id for h in index.search(["connection refused"])] == ["t1"]
    assert index.search(["connection refused"])[0].line == "the db said connection refused"
    assert [h.thread_id for h in index.search(["connection refused", "retry"])] == ["t1"]  # two messages
    assert [h.thread_id for h in index.search(["drop table"])] == ["t3"]  # a tool call's arguments
    assert [h.thread_id for h in index.search(["deploy notes"])] == ["t1"]  # the title
    assert index.search(["nowhere said"]) == [] and index.search([""]) == []
    assert fts_query(['say "hi"']) == '"say ""hi"""'
    assert [h.thread_id for h in index.search(['say "hi"'])] == []  # quotes inside are data


def test_the_index_survives_a_restart_and_knows_what_changed(tmp_path: Path) -> None:
    path = index_path(tmp_path, "http://127.0.0.1:2024/")
    assert path == index_path(tmp_path, "http://127.0.0.1:2024")
    index = SearchIndex(path)
    index.put(thread("t1", "2026-01-01T00:00:00+00:00"), state("penguins eat krill"))
    index.close()
    again = SearchIndex(path)
    assert [h.thread_id for h in again.search(["eat krill"])] == ["t1"]
    changed = thread("t1", "2026-01-02T00:00:00+00:00")
    assert again.stale([thread("t1", "2026-01-01T00:00:00+00:00"), changed, thread("t9")]) == [changed, thread("t9")]
    again.put(changed, state("penguins eat fish"))
    assert again.search(["eat krill"]) == [] and again.search(["eat fish"])
    again.drop(["t1"])
    assert again.search(["eat fish"]) == [] and again.indexed() == {}


# -- against the real server --------------------------------------------------------------------


async def seed(client, tag: str, *texts: str) -> str:
    """A thread of `texts` (human, ai, ...), written as supersteps: no run needed."""
    steps = [
        {"updates": [{"values": {"messages": [{"type": kind, "content": text}]}, "as_node": node}]}
        for i, text in enumerate(texts)
        for kind, node in [("human", "__start__") if i % 2 == 0 else ("ai", "agent")]
    ]
    created = await client.threads.create(graph_id="agent", metadata={"fts": tag}, supersteps=steps)
    return created["thread_id"]


@pytest.mark.server
async def test_refresh_reads_only_what_changed_and_drops_what_is_gone(server_url: str, tmp_path: Path) -> None:
    client = get_client(url=server_url)
    tag = uuid.uuid4().hex
    words = f"zebra{tag[:8]}"
    first = await seed(client, tag, f"the {words} crossed the road", "ok")
    second = await seed(client, tag, "nothing here", f"but {words} again")
    backend = LangGraphBackend(server_url)
    index = SearchIndex(tmp_path / "i.sqlite3")
    try:
        read, listed = await refresh(index, backend)
        assert read == listed >= 2
        assert {h.thread_id for h in index.search([words])} == {first, second}
        assert index.search([f"{words} crossed"])[0].thread_id == first
        assert (await refresh(index, backend))[0] == 0  # nothing changed
        await client.threads.update_state(second, {"messages": [{"type": "ai", "content": "now purple"}]})
        await client.threads.delete(first)
        assert (await refresh(index, backend))[0] == 1  # only the changed one is read again
        assert {h.thread_id for h in index.search([words])} == {second}
        assert [h.thread_id for h in index.search(["now purple"])] == [second]
    finally:
        await backend.close()


@pytest.mark.server
async def test_quoted_words_in_the_search_box_list_the_threads_that_said_them(server_url: str, tmp_path: Path) -> None:
    client = get_client(url=server_url)
    tag = uuid.uuid4().hex
    said = f"connection refused {tag[:6]}"
    match = await seed(client, tag, "deploy please", f"It failed: {said} on port 5432.")
    await seed(client, tag, "deploy please", "It worked.")
    app = make_app(server_url, tmp_path)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = app.screen.query_one("#thread-list", ThreadList)
        search = app.screen.query_one("#thread-search", Input)
        search.focus()
        search.value = f'fts={tag} "{said}"'
        await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [match], what="the one match")
        row = shown_row(threads, match)
        assert "“It failed: connection refused" in row  # the matching line, under the row
        search.value = f'fts={tag} "never said {tag[:6]}"'
        counts = app.screen.query_one("#thread-counts")
        await wait_for(pilot, lambda: "no conversation says" in str(counts.visual), what="no match")
        assert threads.threads == []
    assert any((tmp_path / "search").glob("*.sqlite3"))  # kept in the data dir


@pytest.mark.server
async def test_a_scoped_refresh_reads_only_the_threads_the_search_can_list(server_url: str, tmp_path: Path) -> None:
    client = get_client(url=server_url)
    tag = uuid.uuid4().hex
    mine = await seed(client, tag, "only here: walrus", "ok")
    backend = LangGraphBackend(server_url)
    index = SearchIndex(tmp_path / "i.sqlite3")
    try:
        read, listed = await refresh(index, backend, scope=parse_filter(f"fts={tag}").query("updated_at", "desc", 1, 0))
        assert (read, listed) == (1, 1) and set(index.indexed()) == {mine}
    finally:
        await backend.close()


@pytest.mark.server
async def test_a_search_answers_from_the_index_at_once_and_again_when_the_refresh_finds_more(
    server_url: str, tmp_path: Path, monkeypatch
) -> None:
    """Once indexed, a quoted search does not wait for the server to be read again: it lists
    what the index holds, and lists again when the refresh behind it found a new thread."""
    import asyncio

    from threadbench import search_index

    client = get_client(url=server_url)
    tag = uuid.uuid4().hex
    said = f"otter {tag[:6]}"
    old = await seed(client, tag, f"an {said} here", "ok")
    gate = asyncio.Event()

    class SlowToRead:
        """The server, with the new thread's state held back until the test has looked."""

        def __init__(self, backend) -> None:
            self._backend = backend

        def __getattr__(self, name):
            return getattr(self._backend, name)

        async def get_state(self, thread_id, checkpoint_id=None):
            if thread_id != old:
                await gate.wait()
            return await self._backend.get_state(thread_id, checkpoint_id)

    gate.set()
    app = make_app(server_url, tmp_path, wrap_backend=SlowToRead)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = app.screen.query_one("#thread-list", ThreadList)
        search = app.screen.query_one("#thread-search", Input)
        search.focus()
        search.value = f'fts={tag} "{said}"'
        await wait_for(pilot, lambda: list(threads.found_lines) == [old], what="the index built")
        gate.clear()
        new = await seed(client, tag, "and", f"another {said}")
        monkeypatch.setattr(search_index, "REFRESH_SECONDS", 0.0)
        search.value = f"fts={tag}"
        await wait_for(pilot, lambda: len(threads.threads) == 2, what="both threads, by their tag alone")
        search.value = f'fts={tag} "{said}"'
        await wait_for(pilot, lambda: list(threads.found_lines) == [old], what="the index's answer at once")
        await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [old], what="its row alone")
        gate.set()
        await wait_for(pilot, lambda: set(threads.found_lines) == {old, new}, what="the refreshed answer")
        await wait_for(pilot, lambda: {t.thread_id for t in threads.threads} == {old, new}, what="both rows")
