"""Pilot: the screens of the server's other objects (runs, assistants, store, crons) on the
real server: reached by their keys and the palette, driven by keys, read from the screen."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, open_tagged, screen_text, tag, wait_for, wait_ready
from textual.command import CommandList, CommandPalette
from threadbench.ui.screens import runs as runs_screen
from threadbench.ui.screens.assistants import AssistantsScreen
from threadbench.ui.screens.cancel_run import CancelRunScreen
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.screens.crons import CronsScreen
from threadbench.ui.screens.object_form import ObjectFormScreen
from threadbench.ui.screens.runs import RunsScreen
from threadbench.ui.screens.store import StoreScreen
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server


def rows(table) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]


async def thread_with_run(url: str, graph: str = "be_chat", text: str = "hello runs", **kwargs) -> tuple[dict, str]:
    client = get_client(url=url)
    metadata = tag()
    thread = await client.threads.create(metadata=metadata, graph_id=graph)
    await client.runs.wait(
        thread["thread_id"], graph, input={"messages": [{"role": "user", "content": text}]}, **kwargs
    )
    return metadata, thread["thread_id"]


async def open_screen(pilot, key: str, screen_type: type) -> None:
    app = pilot.app
    app.screen.query_one("#thread-list").focus()
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(app.screen, screen_type), what=screen_type.__name__)


async def open_runs(pilot, metadata: dict, thread_id: str):
    """The runs screen of the tagged thread, from the app's start; its table."""
    await wait_ready(pilot)
    await open_tagged(pilot, metadata, thread_id)
    await open_screen(pilot, "R", RunsScreen)
    return pilot.app.screen.query_one("#runs-table")


async def test_runs_are_listed_detailed_and_run_again_into_the_chat(server_url):
    metadata, thread_id = await thread_with_run(server_url, context={"flavour": "mint"})
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        table = await open_runs(pilot, metadata, thread_id)
        await wait_for(pilot, lambda: table.row_count == 1, what="the run listed")
        status, graph, *_rest, strategy, modes, run_id = rows(table)[0]
        assert (status, graph, strategy) == ("success", "be_chat", "enqueue")
        details = str(app.screen.query_one("#run-details").visual)
        assert "hello runs" in details and '"flavour": "mint"' in details
        await pilot.press("c")  # over: nothing to cancel, said plainly
        assert "nothing to cancel" in screen_text(app)
        await pilot.press("a")  # a runs the graph: asked first
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_for(
            pilot, lambda: not isinstance(app.screen, (RunsScreen, ConfirmScreen)), what="the runs screen closed"
        )
        runs = get_client(url=server_url).runs
        await wait_for(pilot, lambda: "running again" in screen_text(app), what="the notice in the chat")
        await wait_for(pilot, lambda: not app.screen.conversation.run_in_progress, what="the run again finished")
        again = await runs.list(thread_id)
        assert len(again) == 2
        assert again[0]["kwargs"]["input"] == again[1]["kwargs"]["input"]
        assert again[0]["kwargs"]["context"] == {"flavour": "mint"}


async def test_a_page_after_new_runs_came_skips_the_rows_it_repeats(server_url, monkeypatch):
    """Pages are read by offset: a run that came in at the top since the first page shifts the
    list, so the next page starts with a row already shown. It is skipped (not an error), the
    one after it is listed, and the page after that starts past both."""
    monkeypatch.setattr(runs_screen, "PAGE", 2)
    metadata, thread_id = await thread_with_run(server_url, text="first")
    runs = get_client(url=server_url).runs
    for text in ("second", "third"):
        await runs.wait(thread_id, "be_chat", input={"messages": [{"role": "user", "content": text}]})
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        table = await open_runs(pilot, metadata, thread_id)
        await wait_for(pilot, lambda: table.row_count == 2 and not table.fetching, what="the first page")
        shown = [row[-1] for row in rows(table)]
        await runs.wait(thread_id, "be_chat", input={"messages": [{"role": "user", "content": "fourth"}]})
        await pilot.press("down")
        await wait_for(pilot, lambda: table.row_count == 3 and not table.fetching, what="the next page")
        listed = [run["run_id"] for run in await runs.list(thread_id)]
        assert [row[-1] for row in rows(table)] == [*shown, listed[-1]]
        await pilot.press("end")
        await wait_for(pilot, lambda: table.exhausted, what="the last page")
        assert table.row_count == 3
        assert "3 runs" in screen_text(app) and "error" not in screen_text(app).lower()


async def test_a_running_run_is_joined_and_another_cancelled(server_url):
    client = get_client(url=server_url)
    metadata = tag()
    thread = await client.threads.create(metadata=metadata, graph_id="be_slow")
    thread_id = thread["thread_id"]
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        await client.runs.create(thread_id, "be_slow", input={"steps": 60})
        await open_screen(pilot, "R", RunsScreen)
        table = app.screen.query_one("#runs-table")
        # the screen refreshes itself while the run moves from pending to running
        await wait_for(pilot, lambda: table.row_count and rows(table)[0][0] == "running", what="running")
        await pilot.press("j")
        await wait_for(pilot, lambda: app.screen.conversation.run_in_progress, what="the run joined in the chat")
        assert "joined the run in progress" in screen_text(app)
        await open_screen(pilot, "R", RunsScreen)
        table = app.screen.query_one("#runs-table")
        await wait_for(pilot, lambda: table.row_count == 1)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelRunScreen), what="asked first")
        await pilot.press("i")
        await wait_for(pilot, lambda: rows(table)[0][0] == "interrupted", what="the run cancelled")


async def test_assistants_searched_created_versioned_used_and_deleted(server_url):
    name = f"ui-{uuid.uuid4().hex[:8]}"
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_screen(pilot, "A", AssistantsScreen)
        screen = app.screen
        table = screen.query_one("#assistants-table")
        await wait_for(pilot, lambda: table.row_count > 5, what="the assistants")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ObjectFormScreen))
        form = app.screen
        form.query_one("#form-graph").value = "agent"
        form.query_one("#form-name").value = name
        form.query_one("#form-context").load_text('{"thinking_enabled": ')  # invalid JSON: refused, kept
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "not valid JSON" in str(form.query_one("#object-form-error").visual))
        assert form.query_one("#form-context").text == '{"thinking_enabled": '
        assert form.query_one("#form-name").value == name
        form.query_one("#form-context").load_text('{"thinking_enabled": "very"}')  # the schema wants a boolean
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "schema refuses" in str(form.query_one("#object-form-error").visual))
        form.query_one("#form-context").load_text('{"thinking_enabled": true}')
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen, what="the assistant made")
        search = screen.query_one("#assistant-search")
        search.focus()
        await pilot.press(*name, "enter")
        await wait_for(pilot, lambda: [r[0] for r in rows(table)] == [name], what="found by name")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ObjectFormScreen))
        app.screen.query_one("#form-name").value = name + "-v2"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: rows(table) and rows(table)[0][2] == "2", what="version 2 in use")
        versions = screen.query_one("#assistant-versions")
        await wait_for(pilot, lambda: versions.row_count == 2, what="two versions")
        await pilot.press("v")
        await pilot.press("down", "enter")  # version 1
        await wait_for(pilot, lambda: rows(table)[0][2] == "1", what="version 1 back in use")
        await pilot.press("u")
        await wait_for(pilot, lambda: not isinstance(app.screen, AssistantsScreen))
        assert app.session.run_options.assistant_id
        assert app.session.run_options.assistant_id in str(app.screen.query_one("#run-options").visual)
        await open_screen(pilot, "A", AssistantsScreen)
        screen, table = app.screen, app.screen.query_one("#assistants-table")
        screen.query_one("#assistant-search").value = name
        await pilot.press("slash", "enter")
        await wait_for(pilot, lambda: table.row_count == 1)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked first")
        await pilot.press("y")
        await wait_for(pilot, lambda: table.row_count == 0 and f"Deleted {name}" in screen_text(app))


async def test_the_store_tree_items_put_refusals_and_delete(server_url):
    root = f"ui-{uuid.uuid4().hex[:8]}"
    store = get_client(url=server_url).store
    await asyncio.gather(*(store.put_item([root, "notes"], f"n{i:03d}", {"i": i, "kind": "note"}) for i in range(120)))
    await store.put_item([root, "prefs"], "theme", {"dark": True, "kind": "pref"})
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_screen(pilot, "S", StoreScreen)
        screen = app.screen
        tree = screen.query_one("#store-tree")
        await wait_for(pilot, lambda: any(n.data == [root, "notes"] for n in _nodes(tree)), what="the tree")
        node = next(n for n in _nodes(tree) if n.data == [root, "notes"])
        tree.move_cursor(node)
        await pilot.press("enter")
        table = screen.query_one("#store-items")
        await wait_for(pilot, lambda: table.row_count == 50, what="the first page")
        table.focus()
        table.move_cursor(row=49)
        await wait_for(pilot, lambda: table.row_count == 100, what="the next page, from the server")
        screen.query_one("#store-filter").value = '{"i": 7}'
        screen.query_one("#store-filter").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: [r[0] for r in rows(table)] == ["n007"], what="filtered")
        assert '"kind": "note"' in str(screen.query_one("#store-value").visual)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ObjectFormScreen))
        form = app.screen
        assert form.query_one("#form-key").value == "n007"
        error = form.query_one("#object-form-error")
        form.query_one("#form-namespace").value = f"{root}/a.b"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "may not contain a dot" in str(error.visual))
        form.query_one("#form-namespace").value = f"{root}//notes"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "empty part" in str(error.visual))
        form.query_one("#form-namespace").value = f"{root}/notes"
        form.query_one("#form-value").load_text('{"i": 7, "kind": "edited"')
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "not valid JSON" in str(error.visual))
        assert form.query_one("#form-value").text == '{"i": 7, "kind": "edited"'
        form.query_one("#form-value").load_text('{"i": 7, "kind": "edited"}')
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen, what="put")
        assert (await store.get_item([root, "notes"], "n007"))["value"]["kind"] == "edited"
        await wait_for(pilot, lambda: '"kind": "edited"' in str(screen.query_one("#store-value").visual))
        table.focus()
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked first")
        await pilot.press("y")
        await wait_for(pilot, lambda: table.row_count == 0, what="deleted")
        assert await store.get_item([root, "notes"], "n007") is None


def _nodes(tree):
    found, todo = [], [tree.root]
    while todo:
        node = todo.pop()
        found.append(node)
        todo.extend(node.children)
    return found


async def test_crons_created_refused_and_deleted(server_url):
    metadata, thread_id = await thread_with_run(server_url)
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        await open_screen(pilot, "C", CronsScreen)
        screen = app.screen
        table = screen.query_one("#crons-table")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ObjectFormScreen))
        form = app.screen
        assert form.query_one("#form-thread").value == thread_id
        assert form.query_one("#form-assistant").value == "be_chat"
        form.query_one("#form-schedule").value = "every monday"
        await pilot.press("ctrl+s")
        error = form.query_one("#object-form-error")
        await wait_for(pilot, lambda: "Invalid cron schedule" in str(error.visual), what="the server's refusal")
        assert form.query_one("#form-schedule").value == "every monday"
        form.query_one("#form-schedule").value = "0 9 * * 1"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen, what="made")
        await wait_for(pilot, lambda: any(r[2] == f"thread {thread_id}" for r in rows(table)), what="listed")
        index = next(i for i, r in enumerate(rows(table)) if r[2] == f"thread {thread_id}")
        table.move_cursor(row=index)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: all(r[2] != f"thread {thread_id}" for r in rows(table)), what="deleted")


async def test_the_palette_finds_each_screen_and_the_help_lists_them(server_url):
    metadata, thread_id = await thread_with_run(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        for word, screen_type in (
            ("runs", RunsScreen),
            ("store", StoreScreen),
            ("crons", CronsScreen),
            ("assistants", AssistantsScreen),
        ):
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
            await pilot.press(*word)
            hits = app.screen.query_one(CommandList)

            def first_hit(word=word, hits=hits) -> bool:
                return hits.option_count > 0 and word in str(hits.get_option_at_index(0).prompt).lower()

            await wait_for(pilot, first_hit, what=f"{word!r} as the first hit")
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, screen_type), what=f"{word} from the palette")
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, screen_type))
        app.screen.query_one(Composer).focus()
        await pilot.press("R", "A", "S", "C")  # letters typed into the composer stay text
        assert app.screen.query_one(Composer).text.endswith("RASC")
        await pilot.press("f1")

        def help_text() -> str:
            return screen_text(app) + str([r.description for r in getattr(app.screen, "rows", [])])

        listed = ("Runs of the open thread", "Store: namespaces and items", "Crons: runs on a schedule")
        await wait_for(pilot, lambda: all(words in help_text() for words in listed), what="the screens in the help")


async def test_the_gateway_explains_what_it_lacks_and_lists_runs(gateway_origin, tmp_path):
    from support.driving import FIXED_NOW
    from threadbench.config import Settings
    from threadbench.ui.app import ThreadbenchApp

    client = get_client(url=gateway_origin + "/api")
    metadata = tag()
    thread = await client.threads.create(metadata=metadata)
    await client.runs.wait(thread["thread_id"], "be_chat", input={"messages": [{"role": "user", "content": "hi gw"}]})
    settings = Settings(url=gateway_origin + "/api", data_dir=tmp_path)
    app = ThreadbenchApp(settings, backend_kind="deerflow-gateway", clock=lambda: FIXED_NOW, monotonic=lambda: 0.0)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread["thread_id"])
        await open_screen(pilot, "R", RunsScreen)  # the Gateway lists and describes runs
        table = app.screen.query_one("#runs-table")
        await wait_for(pilot, lambda: table.row_count == 1, what="the run on the Gateway")
        assert rows(table)[0][0] == "success"
        assert "hi gw" in str(app.screen.query_one("#run-details").visual)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, RunsScreen))
        for key, screen_type, words in (
            ("S", StoreScreen, "DeerFlow's Gateway cannot keep a store."),
            ("C", CronsScreen, "DeerFlow's Gateway cannot run anything on a schedule (it has no crons)."),
        ):  # (its assistants: tests/ui/test_ui_gateway.py)
            await open_screen(pilot, key, screen_type)
            assert words in screen_text(app)
            assert not app.screen.query_one(".objects-body").display
            await pilot.press("n", "p", "d")  # the missing actions do nothing, and nothing fails
            assert isinstance(app.screen, screen_type)
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, screen_type))


async def test_a_server_without_the_protocols_says_so(tmp_path):
    """10xGraph keeps no runs list, assistants, store or crons: each screen says so, and
    asks nothing of the server (the URL here answers nothing)."""
    from textual.app import App
    from threadbench.backends.tenxgraph.client import TenXGraphBackend

    backend = TenXGraphBackend("http://127.0.0.1:9")
    app = App()
    async with app.run_test(size=TERMINAL) as pilot:
        for screen, words in (
            (RunsScreen(backend, "t-1"), "10xGraph cannot list a thread's runs."),
            (AssistantsScreen(backend), "10xGraph cannot search, version or edit assistants."),
            (StoreScreen(backend), "10xGraph cannot keep a store."),
            (CronsScreen(backend), "10xGraph cannot run anything on a schedule (it has no crons)."),
        ):
            app.push_screen(screen)
            await wait_for(pilot, lambda s=screen: s.is_mounted)
            await pilot.pause()
            assert words in screen_text(app)
            app.pop_screen()
            await pilot.pause()
    await backend.close()


async def test_a_deployment_without_crons_or_store_says_so():
    """A LangGraph deployment with crons or the store turned off answers 404 to their
    routes: the screens say the server has none, not that listing failed."""
    from textual.app import App
    from threadbench.backends.base import NotFound
    from threadbench.models import Capabilities

    class NoCronsNoStore:
        capabilities = Capabilities(name="LangGraph")

        async def list_crons(self, **kwargs):
            raise NotFound("Could not list the crons: Not Found", status=404)

        async def create_cron(self, *args, **kwargs): ...
        async def delete_cron(self, cron_id): ...

        async def store_namespaces(self, *args, **kwargs):
            raise NotFound("Could not list the store's namespaces: Not Found", status=404)

        async def store_items(self, *args, **kwargs): ...
        async def store_put(self, *args): ...
        async def store_delete(self, *args): ...

    app = App()
    async with app.run_test(size=TERMINAL) as pilot:
        for screen, words in (
            (CronsScreen(NoCronsNoStore()), "LangGraph at this address has no crons (it answered 404"),
            (StoreScreen(NoCronsNoStore()), "LangGraph at this address has no store (it answered 404"),
        ):
            app.push_screen(screen)
            await wait_for(pilot, lambda s=screen, w=words: s.is_mounted and w in screen_text(app), what=words)
            assert "failed" not in screen_text(app)
            app.pop_screen()
            await pilot.pause()


async def test_a_store_query_ranks_by_meaning_where_the_server_has_an_index(semantic_store_url, server_url):
    store = get_client(url=semantic_store_url).store
    await store.put_item(["docs"], "penguins", {"text": "penguins swim in cold water"})
    await store.put_item(["docs"], "noise", {"text": "zzz xyz"})
    await get_client(url=server_url).store.put_item(["plain-docs"], "penguins", {"text": "penguins swim"})
    for url, namespace, first, indexed in (
        (semantic_store_url, ["docs"], "penguins", True),
        (server_url, ["plain-docs"], "penguins", False),
    ):
        app = make_app(url)
        async with app.run_test(size=TERMINAL) as pilot:
            await wait_ready(pilot)
            await open_screen(pilot, "S", StoreScreen)
            screen = app.screen
            tree = screen.query_one("#store-tree")
            await wait_for(pilot, lambda n=namespace: any(x.data == n for x in _nodes(tree)), what="the namespace")
            screen.open_namespace(namespace)
            table = screen.query_one("#store-items")
            await wait_for(pilot, lambda: table.row_count >= 1, what="the items")
            screen.query_one("#store-query").value = "penguin water"
            screen.query_one("#store-query").focus()
            await pilot.press("enter")
            if indexed:
                await wait_for(pilot, lambda: rows(table) and rows(table)[0][3] not in ("", "None"), what="scores")
                assert [r[0] for r in rows(table)] == ["penguins", "noise"]
                assert float(rows(table)[0][3]) > float(rows(table)[1][3])
                assert "no semantic index" not in screen_text(app)
            else:
                await wait_for(pilot, lambda: "no semantic index" in screen_text(app), what="the explanation")
                assert rows(table)[0][0] == first and rows(table)[0][3] == ""


async def test_a_failed_run_shows_its_error(server_url):
    client = get_client(url=server_url)
    metadata = tag()
    thread = await client.threads.create(metadata=metadata, graph_id="be_fail")
    with pytest.raises(Exception, match="boom"):
        await client.runs.wait(thread["thread_id"], "be_fail", input={"messages": [{"role": "user", "content": "x"}]})
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread["thread_id"])
        await open_screen(pilot, "R", RunsScreen)
        details = app.screen.query_one("#run-details")
        await wait_for(pilot, lambda: "boom: the test graph failed on purpose" in str(details.visual), what="the error")
        assert rows(app.screen.query_one("#runs-table"))[0][0] == "error"
