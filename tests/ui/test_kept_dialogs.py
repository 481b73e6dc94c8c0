"""Pilot: the store and the assistants are built while the user is idle, kept between opens,
reopen where they were left with their data fetched again, and belong to one connection."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from langgraph_sdk import get_client
from support.compat import needs_compat
from support.driving import TERMINAL, make_app, screen_text, settle, wait_for, wait_ready
from threadbench.ui.screens.assistants import AssistantsScreen
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.screens.store import StoreScreen
from threadbench.ui.widgets.paged_table import PagedTable

pytestmark = pytest.mark.server


async def open_with(pilot, key: str, kind: type):
    app = pilot.app
    app.screen.query_one("#thread-list").focus()
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(app.screen, kind), what=kind.__name__)
    return app.screen


async def close(pilot, kind: type) -> None:
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(pilot.app.screen, kind), what=f"{kind.__name__} closed")


def tree_node(tree, data: list[str]):
    todo = [tree.root]
    while todo:
        node = todo.pop()
        if node.data == data:
            return node
        todo.extend(node.children)
    return None


async def test_the_store_reopens_where_it_was_left_with_its_items_fetched_again(server_url):
    root = f"kept-{uuid.uuid4().hex[:8]}"
    store = get_client(url=server_url).store
    await asyncio.gather(*(store.put_item([root, "notes"], f"n{i}", {"kind": "note"}) for i in range(3)))
    await store.put_item([root, "notes"], "other", {"kind": "other"})
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        screen = await open_with(pilot, "S", StoreScreen)
        tree, table = screen.namespace_tree, screen.table
        await wait_for(pilot, lambda: tree_node(tree, [root, "notes"]) is not None, what="the namespaces")
        tree.move_cursor(tree_node(tree, [root, "notes"]))
        await pilot.press("enter")
        await wait_for(pilot, lambda: table.row_count == 4, what="the items")
        screen.query_one("#store-filter").value = '{"kind": "note"}'
        screen.query_one("#store-filter").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: table.row_count == 3, what="filtered")
        await pilot.press("down")
        await close(pilot, StoreScreen)

        await store.put_item([root, "notes"], "n9", {"kind": "note"})  # (another client, meanwhile)
        again = await open_with(pilot, "S", StoreScreen)
        assert again is screen
        await wait_for(pilot, lambda: table.row_count == 4, what="the items fetched again, still filtered")
        assert screen.query_one("#store-filter").value == '{"kind": "note"}'
        assert app.focused is table and table.cursor_row == 1
        assert f"Store  ·  {root}/notes" in screen_text(app)
        assert "4 items in" in screen_text(app)
        await wait_for(pilot, lambda: tree.cursor_node is not None and tree.cursor_node.data == [root, "notes"])


async def test_a_question_of_the_store_closing_fetches_nothing_again(server_url):
    root = f"kept-{uuid.uuid4().hex[:8]}"
    await get_client(url=server_url).store.put_item([root], "only", {"v": 1})
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        screen = await open_with(pilot, "S", StoreScreen)
        await wait_for(pilot, lambda: tree_node(screen.namespace_tree, [root]) is not None, what="the namespaces")
        screen.open_namespace([root])
        await wait_for(pilot, lambda: screen.table.row_count == 1, what="the item")
        fetched: list[object] = []
        listing = app.session.backend.store_namespaces

        async def counted(*args, **kwargs):
            fetched.append(args)
            return await listing(*args, **kwargs)

        app.session.backend.store_namespaces = counted  # (counts the calls; the server answers)
        screen.table.focus()
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked first")
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen, what="the question closed")
        await pilot.pause()  # the screen's resume handled,
        await settle(pilot)  # and any fetch it started answered
        assert fetched == [] and screen.table.row_count == 1
        await close(pilot, StoreScreen)
        await open_with(pilot, "S", StoreScreen)
        await wait_for(pilot, lambda: len(fetched) == 1, what="fetched again when opened again")


@needs_compat  # (built unseen: textual_compat.screens)
async def test_both_are_built_while_the_user_is_idle_and_shown_as_built(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        built = app.kept_screens.ready  # composed, mounted, styled and laid out, unseen
        await wait_for(pilot, lambda: len(built()) == 2, timeout=30, what="both built ahead")
        store, assistants = built()["store"], built()["assistants"]
        assert len(store.namespace_tree.root.children) == 0, "nothing is fetched before it is opened"
        assert assistants.table.row_count == 0
        assert await open_with(pilot, "S", StoreScreen) is store
        await wait_for(pilot, lambda: len(store.namespace_tree.root.children) > 0, what="fetched when opened")
        await close(pilot, StoreScreen)
        assert await open_with(pilot, "A", AssistantsScreen) is assistants
        await wait_for(pilot, lambda: assistants.table.row_count > 0, what="fetched when opened")
        assert app.focused is assistants.table


async def test_a_new_connection_gets_new_dialogs_and_the_old_ones_go(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        first = await open_with(pilot, "A", AssistantsScreen)
        await wait_for(pilot, lambda: first.query_one("#assistants-table", PagedTable).row_count > 0)
        first.query_one("#assistant-search").value = "graph:agent"
        await close(pilot, AssistantsScreen)
        assert await app.connections.switch_server(server_url, kind="langgraph")
        await wait_ready(pilot)
        second = await open_with(pilot, "A", AssistantsScreen)
        assert second is not first
        assert second.query_one("#assistant-search").value == ""
        await wait_for(pilot, lambda: not first.is_running, what="the old dialog removed")


async def test_the_app_closing_while_a_dialog_is_built_ahead_is_clean(server_url):
    """The app closed in the moment a kept dialog was being built (the user idle, then
    ctrl+q): its widgets went before its setup ran, which raised (CI, 2026-12-02)."""
    for name in ("store", "assistants"):
        app = make_app(server_url)
        async with app.run_test(size=TERMINAL) as pilot:  # raises what the app raised
            await wait_ready(pilot)
            while app.kept_screens.build_ahead(app.session.backend) and name not in app.kept_screens._screens:
                await pilot.pause()
            # the app closes at once: the dialog is still composing
