"""Pilot tests of the main screen against the real LangGraph server.

Each test tags the threads it makes with its own metadata value and types that filter
into the search box, so tests sharing the server never see each other's threads.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import pytest
from langgraph_sdk import get_client
from langgraph_sdk.errors import NotFoundError
from support.driving import (
    TERMINAL,
    ai_texts,
    make_app,
    notices,
    screen_lines,
    screen_text,
    settle,
    shown_messages,
    shown_row,
    shown_tool_calls,
    submit_search,
    tag,
    wait_for,
    wait_ready,
)
from support.waiting import eventually
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.screens.new_thread import NewThreadScreen
from threadbench.ui.screens.pick_graph import PickGraphScreen
from threadbench.ui.screens.prompt import PromptScreen
from threadbench.ui.widgets.composer import Composer
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server


async def seed_threads(url: str, metadata: dict, count: int, **values) -> list[str]:
    client = get_client(url=url)
    ids: list[str] = []
    for start in range(0, count, 50):
        batch = await asyncio.gather(
            *(
                client.threads.create(metadata={**metadata, "n": i}, graph_id="agent")
                for i in range(start, min(count, start + 50))
            )
        )
        ids.extend(t["thread_id"] for t in batch)
    if values:
        for thread_id in ids:
            await client.threads.update_state(thread_id, values, as_node="title")
    return ids


async def search(pilot, text: str) -> None:
    box = pilot.app.screen.query_one("#thread-search")
    box.focus()
    await pilot.pause()
    box.value = text
    await submit_search(pilot)


async def open_fresh_thread(pilot, url: str) -> str:
    """A new empty thread of the demo agent, opened (the newest thread on a shared server
    may be anything another test left behind)."""
    metadata = tag()
    thread = await get_client(url=url).threads.create(metadata=metadata, graph_id="agent")
    await search(pilot, f"suite={metadata['suite']}")
    app = pilot.app
    threads = thread_list(app)
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread["thread_id"]])
    if app.screen.conversation.thread_id != thread["thread_id"]:
        threads.highlighted = 0
    await wait_for(pilot, lambda: app.screen.conversation.thread_id == thread["thread_id"], what="the fresh thread")
    app.screen.query_one(Composer).focus()
    await pilot.pause()
    return thread["thread_id"]


def thread_list(app) -> ThreadList:
    return app.screen.query_one("#thread-list", ThreadList)


async def test_create_a_thread_send_hello_and_read_the_streamed_reply(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        thread_list(app).focus()
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, NewThreadScreen))
        created = thread_list(app).threads[0].thread_id
        await wait_for(pilot, lambda: app.screen.conversation.thread_id == created, what="the new thread opens")
        composer = app.screen.query_one(Composer)
        await wait_for(pilot, lambda: composer.has_focus, what="the composer, to write the first message")
        await pilot.press(*"hello", "enter")
        await wait_for(pilot, lambda: any("Hello" in t for t in ai_texts(app)), what="the reply")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state == "idle", what="run end")
        assert app.screen.query_one(Composer).text == ""
        assert [m.text for m in shown_messages(app, "human")] == ["hello"]
        # the thread is titled by the first exchange
        await wait_for(pilot, lambda: thread_list(app).thread(created).title.lower() == "hello", what="title")
    state = await get_client(url=server_url).threads.get_state(created)
    assert state["values"]["messages"][-1]["content"].startswith("Hello")


async def test_a_tool_call_is_rendered_and_todos_reach_the_state_tree(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_fresh_thread(pilot, server_url)
        await pilot.press(*"make a plan", "enter")
        await wait_for(pilot, lambda: shown_tool_calls(app), what="a tool call")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state == "idle", what="run end")
        call = shown_tool_calls(app)[0]
        assert call.name == "write_todos"
        assert isinstance(call.args, dict) and call.args
        assert any("▶ tool call write_todos" in line for line in screen_lines(app))  # its fold, closed
        await pilot.press("ctrl+r")
        tree = app.screen.query_one("#state-tree")
        await wait_for(pilot, lambda: any("todos" in str(n.label) for n in tree.root.children), what="todos")


async def test_a_refused_send_keeps_the_draft_and_says_why(server_url):
    """An unknown graph: the server's whole refusal is shown in the graph picker; leaving it
    sends nothing and keeps the message."""
    app = make_app(server_url, assistant="no-such-graph")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        composer = app.screen.query_one(Composer)
        composer.focus()
        await pilot.pause()
        await pilot.press(*"keep me", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PickGraphScreen), what="the graph picker")
        assert "Invalid assistant: 'no-such-graph'" in screen_text(app)
        assert "registered graphs: agent, be_chat" in screen_text(app)  # the whole message
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state == "error", what="refusal")
        assert composer.text == "keep me"
        assert "keep me" not in [m.text for m in shown_messages(app, "human")]
        assert any("your message is kept" in text for text in notices(app))


async def test_page_through_500_threads(server_url):
    metadata = tag()
    await seed_threads(server_url, metadata, 500)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await search(pilot, f"suite={metadata['suite']}")
        threads = thread_list(app)
        await wait_for(pilot, lambda: len(threads.threads) == 50, what="first page")
        counts = str(app.screen.query_one("#thread-counts").visual)
        await wait_for(pilot, lambda: "500" in str(app.screen.query_one("#thread-counts").visual), what=counts)
        threads.focus()
        for _ in range(40):
            await pilot.press("end")
            await settle(pilot)
            if threads.exhausted:
                break
        await wait_for(pilot, lambda: threads.exhausted, what="all pages")
        assert len(threads.threads) == 500
        assert len({t.thread_id for t in threads.threads}) == 500


@pytest.mark.parametrize("word", ["", "odd"], ids=["server-filter", "local-filter"])
async def test_the_list_holds_a_window_and_fetches_dropped_rows_again(server_url, monkeypatch, word):
    """Going down to the last row keeps at most MAX_ROWS rows; going back up fetches the
    dropped rows again (the same server ranges, also when free text filters them here)
    without moving the highlighted row on screen; home from a dropped top goes to the first."""
    import threadbench.ui.regions.thread_sidebar as sidebar_module
    import threadbench.ui.widgets.thread_list as thread_list_module

    monkeypatch.setattr(ThreadList, "MAX_ROWS", 30)
    monkeypatch.setattr(sidebar_module, "PAGE_SIZE", 10)
    monkeypatch.setattr(thread_list_module, "PREFETCH_ROWS", 3)
    metadata = tag()
    client = get_client(url=server_url)
    for n in range(80):  # one at a time: distinct updated_at, so the order is the same on every fetch
        await client.threads.create(
            graph_id="agent", metadata={**metadata, "title": f"{'odd' if n % 2 else 'even'} {n}"}
        )
    found = await client.threads.search(metadata=metadata, sort_by="updated_at", sort_order="desc", limit=100)
    order = [t["thread_id"] for t in found if word in t["metadata"]["title"]]

    def counted(shown: int) -> str:  # a free word filters here: the server's count is not the total
        return f"{shown} threads" if word else f"{shown} of 80 threads"

    app = make_app(server_url)
    async with app.run_test(size=(140, 18)) as pilot:  # a list of 7 rows: the window is four screens
        await wait_ready(pilot)
        screen, threads = app.screen, thread_list(app)
        await search(pilot, f"suite={metadata['suite']} {word}")
        await wait_for(pilot, lambda: [t.thread_id for t in threads.threads][:10] == order[:10], what="first page")
        threads.focus()
        threads.highlighted = 0
        await wait_for(pilot, lambda: screen.conversation.thread_id == order[0], what="first thread open")

        # Pages that come or go must not move the highlighted row on screen.
        landed: list[tuple[tuple, tuple]] = []

        def where() -> tuple:
            if threads.highlighted is None:
                return (None, None)
            return (threads.highlighted_thread_id, threads.row_region(threads.highlighted).y - threads.scroll_y)

        def watched(land):
            def landing(*args, **kwargs) -> bool:
                before = where()
                done = land(*args, **kwargs)
                landed.append((before, where()))
                return done

            return landing

        monkeypatch.setattr(threads, "append_threads", watched(threads.append_threads))
        monkeypatch.setattr(threads, "prepend_threads", watched(threads.prepend_threads))

        async def step(key: str, position: int) -> None:
            await pilot.press(key)
            await wait_for(
                pilot, lambda: not screen.sidebar.loading_more and not screen.sidebar.loading_earlier, what="pages"
            )
            assert threads.highlighted_thread_id == order[position]
            assert len(threads.threads) <= 30

        for position in range(1, len(order)):
            await step("down", position)
        await wait_for(pilot, lambda: threads.exhausted, what="the last page")
        assert [t.thread_id for t in threads.threads] == order[-len(threads.threads) :]
        assert not threads.window.at_top
        assert counted(len(order)) in str(screen.query_one("#thread-counts").visual)
        going_down = len(landed)
        assert going_down > 0

        for position in reversed(range(len(order) - 1)):
            await step("up", position)
        await wait_for(pilot, lambda: threads.window.at_top, what="the top again")
        assert [t.thread_id for t in threads.threads] == order[: len(threads.threads)]
        assert len(landed) > going_down
        assert all(before == after for before, after in landed), landed
        assert counted(len(threads.threads)) in str(screen.query_one("#thread-counts").visual)
        await wait_for(pilot, lambda: screen.conversation.thread_id == order[0], what="the first thread open again")

        await pilot.press("end")
        await wait_for(pilot, lambda: not threads.window.at_top, what="the top dropped")
        await pilot.press("home")
        await wait_for(pilot, lambda: threads.window.at_top and threads.highlighted == 0, what="home")
        assert threads.highlighted_thread_id == order[0]
        await wait_for(pilot, lambda: screen.conversation.thread_id == order[0], what="the first thread open")


async def test_filter_by_status_and_metadata(server_url):
    metadata = tag()
    client = get_client(url=server_url)
    idle = await client.threads.create(metadata={**metadata, "kind": "idle"})
    waiting = await client.threads.create(metadata={**metadata, "kind": "waiting"})
    await client.runs.wait(
        waiting["thread_id"], "agent", input={"messages": [{"type": "human", "content": "please clarify"}]}
    )
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = thread_list(app)
        await search(pilot, f"suite={metadata['suite']} status:interrupted")
        await wait_for(
            pilot, lambda: [t.thread_id for t in threads.threads] == [waiting["thread_id"]], what="interrupted only"
        )
        assert threads.threads[0].status == "interrupted"
        await search(pilot, f"suite={metadata['suite']} kind=idle")
        await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [idle["thread_id"]], what="metadata")


async def test_rename_copy_and_delete_with_confirmation(server_url):
    metadata = tag()
    client = get_client(url=server_url)
    thread = await client.threads.create(metadata=metadata)
    await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": "hello"}]})
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        threads = thread_list(app)
        await search(pilot, f"suite={metadata['suite']}")
        await wait_for(pilot, lambda: len(threads.threads) == 1)
        threads.focus()
        threads.highlighted = 0

        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("#prompt-input").value = "Penguin research"
        await pilot.press("enter")
        await wait_for(pilot, lambda: threads.threads and threads.threads[0].title == "Penguin research", what="rename")
        state = await client.threads.get_state(thread["thread_id"])
        assert state["values"]["title"] == "Penguin research"  # the demo graph has a title channel

        await pilot.press("c")
        # (the copy's row may first come from a list refresh, untitled: a fresh copy has no values on the server)
        await wait_for(pilot, lambda: len(threads.threads) == 2 and threads.threads[0].title, what="copy")
        copy = threads.threads[0]
        assert copy.thread_id != thread["thread_id"] and copy.title == "Penguin research"

        threads.highlight_thread(thread["thread_id"])
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # changed my mind: nothing is deleted
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen), what="the dialog closed")
        await settle(pilot)
        assert len(threads.threads) == 2
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: len(threads.threads) == 1, what="delete")
        assert threads.threads[0].thread_id == copy.thread_id
        with pytest.raises(NotFoundError):
            await client.threads.get(thread["thread_id"])


async def test_new_thread_with_custom_id_and_metadata(server_url):
    metadata = tag()
    wanted = str(uuid.uuid4())
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        thread_list(app).focus()
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen))
        app.screen.query_one("#new-thread-id").value = "not-a-uuid"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, NewThreadScreen)  # refused locally, text kept
        assert "not a UUID" in str(app.screen.query_one("#new-thread-error").visual)
        app.screen.query_one("#new-thread-id").value = wanted
        app.screen.query_one("#new-thread-metadata").load_text(f'{{"suite": "{metadata["suite"]}"}}')
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, NewThreadScreen))
        await wait_for(pilot, lambda: thread_list(app).threads and thread_list(app).threads[0].thread_id == wanted)
    thread = await get_client(url=server_url).threads.get(wanted)
    assert thread["metadata"]["suite"] == metadata["suite"]


async def test_a_created_thread_counts_in_the_list(server_url):
    metadata = tag()
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await search(pilot, f"suite={metadata['suite']}")
        counts = app.screen.query_one("#thread-counts")
        await wait_for(pilot, lambda: str(counts.visual).startswith("0 of 0"), what="an empty list")
        thread_list(app).focus()
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen))
        app.screen.query_one("#new-thread-metadata").load_text(f'{{"suite": "{metadata["suite"]}"}}')
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(thread_list(app).threads) == 1, what="the new row")
        await wait_for(pilot, lambda: str(counts.visual).startswith("1 of 1"), what=f"the counts, not {counts.visual}")


async def test_run_options_from_the_schema_reach_the_agent(server_url):
    from threadbench.ui.screens.run_options import RunOptionsScreen

    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_fresh_thread(pilot, server_url)
        thread_list(app).focus()
        await pilot.press("o")
        await wait_for(
            pilot, lambda: isinstance(app.screen, RunOptionsScreen) and app.screen.query("#option-model_name")
        )
        app.screen.query_one("#option-is_plan_mode").value = True
        app.screen.query_one("#option-model_name").value = "demo-large"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, RunOptionsScreen))
        assert "plan_mode" in str(app.screen.query_one("#run-options").visual)
        app.screen.query_one(Composer).focus()
        await pilot.pause()
        await pilot.press(*"hello", "enter")
        await wait_for(pilot, lambda: any("demo-large" in t for t in ai_texts(app)), what="model name in reply")
        assert shown_tool_calls(app)[0].name == "write_todos"


async def test_the_question_modal_opens_when_the_run_stops_and_option_2_resumes_it(server_url):
    from threadbench.ui.screens.human_input import HumanInputScreen

    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_fresh_thread(pilot, server_url)
        await pilot.press(*"please clarify", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), timeout=20, what="the modal")
        modal = app.screen
        assert modal.pending.options and len(modal.pending.options) >= 2
        chosen = modal.pending.options[1].label
        await pilot.press("2")
        await wait_for(pilot, lambda: not isinstance(app.screen, HumanInputScreen), what="modal closed")
        await wait_for(
            pilot, lambda: any(f"You chose: {chosen}" in t for t in ai_texts(app)), timeout=20, what="final reply"
        )


async def test_escape_leaves_the_question_pending_and_the_thread_marked_waiting(server_url):
    from threadbench.ui.screens.human_input import HumanInputScreen

    metadata = tag()
    client = get_client(url=server_url)
    thread = await client.threads.create(metadata=metadata)
    await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": "clarify"}]})
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await search(pilot, f"suite={metadata['suite']}")
        threads = thread_list(app)
        await wait_for(pilot, lambda: len(threads.threads) == 1)
        threads.focus()
        threads.highlighted = 0
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), what="modal on open")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HumanInputScreen))
        assert app.screen.query_one("#run-status").state == "waiting"
        assert "waiting" in shown_row(threads, thread["thread_id"])
        threads.focus()
        await pilot.press("a")  # ask again
        await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), what="modal again")


async def test_a_busy_thread_is_joined_live_and_interrupt_keeps_what_it_did(server_url):
    from threadbench.ui.screens.cancel_run import CancelRunScreen

    metadata = tag()
    client = get_client(url=server_url)
    thread = await client.threads.create(metadata=metadata, graph_id="agent")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await search(pilot, f"suite={metadata['suite']}")
        threads = thread_list(app)
        await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread["thread_id"]])
        # another client (a chat UI: it streams tokens) starts a run after the list loaded:
        # the row still says idle. (A run made with the default "values" mode shows its reply
        # whole, when it ends: too late to cancel.)
        await client.runs.create(
            thread["thread_id"],
            "agent",
            input={"messages": [{"type": "human", "content": "slow"}]},
            stream_mode=["values", "messages-tuple"],
        )
        await wait_for_status(client, thread["thread_id"], "busy")
        threads.focus()
        threads.highlighted = 0
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state == "running", what="joined")
        await wait_for(pilot, lambda: any(len(t) > 20 for t in ai_texts(app)), what="the live reply")
        assert not any("did not work" in t for t in ai_texts(app)), "(the reply is still streaming)"
        await pilot.press("ctrl+g")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, CancelRunScreen),
            what=f"the cancel dialog; {notices(app)}",
        )
        await pilot.press("i")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state != "running", what="stopped")
    state = await client.threads.get_state(thread["thread_id"])
    assert [m["content"] for m in state["values"]["messages"] if m["type"] == "human"] == ["slow"]


async def test_rollback_undoes_the_run(server_url):
    from threadbench.ui.screens.cancel_run import CancelRunScreen

    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        thread_id = await open_fresh_thread(pilot, server_url)
        await pilot.press(*"slow please", "enter")
        await wait_for(pilot, lambda: any(len(t) > 10 for t in ai_texts(app)), what="the reply starts")
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelRunScreen))
        await pilot.press("r")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state != "running", what="stopped")
    client = get_client(url=server_url)
    await wait_for_status(client, thread_id, "idle")
    state = await client.threads.get_state(thread_id)
    assert not (state.get("values") or {}).get("messages")


async def wait_for_status(client, thread_id: str, status: str, timeout: float = 20.0) -> None:
    async def reached() -> bool:
        return (await client.threads.get(thread_id))["status"] == status

    await eventually(reached, timeout, what=f"the thread {status}")


async def test_a_rows_age_ticks_without_a_fetch(server_url):
    """The age on a row ("10s") moves on as time passes (the row's thread unchanged: the
    status poll draws a row again only when its status or title changes)."""
    from datetime import timedelta

    from support.driving import screen_lines

    metadata = tag()
    await get_client(url=server_url).threads.create(metadata=metadata, graph_id="agent")
    clock: dict = {}
    app = make_app(server_url, clock=lambda: clock["now"])
    async with app.run_test(size=TERMINAL) as pilot:
        listed = thread_list(app)
        clock["now"] = datetime.now(UTC)
        await wait_ready(pilot)
        await search(pilot, f"suite={metadata['suite']}")
        await wait_for(pilot, lambda: len(listed.threads) == 1, what="the thread")
        clock["now"] = listed.threads[0].updated_at + timedelta(seconds=10)
        await wait_for(pilot, lambda: any("idle  10s" in line for line in screen_lines(app)), what="10s")
        clock["now"] += timedelta(minutes=3)
        await wait_for(pilot, lambda: any("idle  3m" in line for line in screen_lines(app)), what="3m")
