"""Every typed backend error, driven from the UI against a real server: the user reads
what failed and what to do, nothing typed is lost, and the app keeps running.

Conflict, Invalid and ServerError here come from the real LangGraph server, Unauthorized
from the real 10xGraph server with JWT auth, NotFound from a thread deleted by another
client. (Unreachable is driven in test_faults.py and test_ui_polish.py.)
"""

from __future__ import annotations

import uuid

import pytest
from langgraph_sdk import get_client
from support.driving import (
    FIXED_NOW,
    TERMINAL,
    make_app,
    notices,
    screen_text,
    shown_messages,
    tag,
    wait_for,
    wait_ready,
)
from textual.widgets import Input, TextArea
from threadbench.config import Settings
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.connection import ConnectionScreen
from threadbench.ui.screens.edit_state import EditStateScreen
from threadbench.ui.screens.new_thread import NewThreadScreen
from threadbench.ui.widgets.composer import Composer
from threadbench.ui.widgets.thread_list import ThreadList


def thread_ids(app) -> list[str]:
    main = next(s for s in app.screen_stack if isinstance(s, MainScreen))
    return [t.thread_id for t in main.query_one("#thread-list", ThreadList).threads]


async def show_suite(pilot, metadata: dict, expected: list[str]) -> None:
    """Filter the list to this test's threads (the server is shared)."""
    box = pilot.app.screen.query_one("#thread-search", Input)
    box.focus()
    box.value = f"suite={metadata['suite']}"
    await wait_for(pilot, lambda: sorted(thread_ids(pilot.app)) == sorted(expected), what="this test's threads")


async def open_row(pilot, thread_id: str) -> None:
    """Move to the row (which opens it), or press enter if the cursor is on it already."""
    threads = pilot.app.screen.query_one("#thread-list", ThreadList)
    threads.focus()
    await pilot.pause()
    index = threads.index_of(thread_id)
    if threads.highlighted == index:
        await pilot.press("enter")
    else:
        threads.highlighted = index
    await pilot.pause()


# -- Conflict: the new-thread dialog keeps what was typed -------------------------------------


@pytest.mark.server
async def test_a_refused_new_thread_keeps_the_dialog_open_with_what_was_typed(server_url):
    metadata = tag()
    client = get_client(url=server_url)
    taken = (await client.threads.create(metadata=metadata, graph_id="agent"))["thread_id"]
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await show_suite(pilot, metadata, [taken])
        app.screen.query_one(ThreadList).focus()
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen) and app.screen.focused is not None)
        dialog = app.screen
        id_box = dialog.query_one("#new-thread-id", Input)
        assert dialog.focused is id_box
        await pilot.press(*taken)
        typed_metadata = f'{{"suite": "{metadata["suite"]}", "note": "[bold]kept[/]"}}'
        metadata_box = dialog.query_one("#new-thread-metadata", TextArea)
        metadata_box.focus()
        metadata_box.clear()
        await pilot.pause()
        metadata_box.insert(typed_metadata)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "already exists" in dialog.error_text, what="the refusal in the dialog")

        assert app.screen is dialog, "the dialog stays open"
        assert dialog.error_text.count("create the thread") == 1  # said once, not twice
        assert "Change the id, or leave it empty" in dialog.error_text
        assert id_box.value == taken
        assert metadata_box.text == typed_metadata
        assert thread_ids(app) == [taken]

        wanted = str(uuid.uuid4())
        id_box.focus()
        id_box.value = ""
        await pilot.press(*wanted)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, NewThreadScreen), what="the dialog closes")
        await wait_for(pilot, lambda: thread_ids(app)[:1] == [wanted], what="the new thread in the list")
        assert "Thread created." in notices(app)
    thread = await client.threads.get(wanted)
    assert thread["metadata"]["suite"] == metadata["suite"] and thread["metadata"]["note"] == "[bold]kept[/]"


# -- NotFound: a thread deleted by another client --------------------------------------------


@pytest.mark.server
async def test_opening_a_thread_deleted_elsewhere_says_so_and_drops_its_row(server_url):
    metadata = tag()
    client = get_client(url=server_url)
    kept = (await client.threads.create(metadata=metadata, graph_id="agent"))["thread_id"]
    gone = (await client.threads.create(metadata=metadata, graph_id="agent"))["thread_id"]
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await show_suite(pilot, metadata, [kept, gone])
        await open_row(pilot, kept)
        screen = app.screen
        await wait_for(
            pilot, lambda: screen.conversation.thread_id == kept and screen.conversation.thread_state is not None
        )
        composer = screen.query_one(Composer)
        composer.load_text("a draft for the kept thread")
        await client.threads.delete(gone)  # another client deletes it after the list loaded

        await open_row(pilot, gone)
        await wait_for(pilot, lambda: gone not in thread_ids(app), what="the stale row dropped")
        message = next(n for n in notices(app, "error") if "Opening the thread failed" in n)
        assert ("not found" in message or "no such thread" in message) and "removed from the list" in message
        assert thread_ids(app) == [kept]
        # the cursor goes to the row left (as after a delete), which opens, with its draft
        await wait_for(pilot, lambda: screen.conversation.thread_id == kept, what="the row left opened")
        assert composer.text == "a draft for the kept thread"
        assert app.is_running


@pytest.mark.server
async def test_sending_to_a_thread_deleted_elsewhere_keeps_the_message_and_drops_the_row(server_url):
    metadata = tag()
    client = get_client(url=server_url)
    gone = (await client.threads.create(metadata=metadata, graph_id="agent"))["thread_id"]
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await show_suite(pilot, metadata, [gone])
        await open_row(pilot, gone)
        screen = app.screen
        await wait_for(
            pilot, lambda: screen.conversation.thread_id == gone and screen.conversation.thread_state is not None
        )
        composer = screen.query_one(Composer)
        composer.focus()
        await pilot.pause()
        await pilot.press(*"hello after all")
        await client.threads.delete(gone)

        await pilot.press("enter")
        await wait_for(pilot, lambda: gone not in thread_ids(app), what="the stale row dropped")
        assert any("Sending failed" in n and "not found" in n for n in notices(app, "error"))
        warning = next(n for n in notices(app, "warning") if "no longer on the server" in n)
        assert "removed from the list" in warning and "Your message is kept" in warning
        assert composer.text == "hello after all"
        assert "hello after all" not in [m.text for m in shown_messages(app, "human")]
        assert screen.conversation.thread_id is None

        await pilot.press("enter")  # what the warning says: it goes to a new thread
        await wait_for(pilot, lambda: screen.conversation.thread_id not in (None, gone), what="a new thread")
        fresh = screen.conversation.thread_id
        await wait_for(
            pilot,
            lambda: screen.query_one("#run-status").state == "idle" and not screen.conversation.run_in_progress,
            what="the run ends",
        )
        assert composer.text == ""
    state = await client.threads.get_state(fresh)
    assert state["values"]["messages"][0]["content"] == "hello after all"


# -- Invalid and ServerError: the state editor ----------------------------------------------


@pytest.mark.server
async def test_edits_the_server_refuses_or_fails_on_keep_the_json_and_say_why(server_url):
    metadata = tag()
    client = get_client(url=server_url)
    thread_id = (await client.threads.create(metadata=metadata, graph_id="agent"))["thread_id"]
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await show_suite(pilot, metadata, [thread_id])
        await open_row(pilot, thread_id)
        screen = app.screen
        await wait_for(
            pilot, lambda: screen.conversation.thread_id == thread_id and screen.conversation.thread_state is not None
        )
        screen.query_one(ThreadList).focus()
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditStateScreen), what="the state editor")
        editor_screen = app.screen
        editor = editor_screen.editor

        invalid = '{"messages": [{"foo": 1}]}'  # the server's message reducer refuses it: 400
        editor.load_text(invalid)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "refused" in editor_screen.error_text, what="the 400")
        assert "must contain 'role' and 'content'" in editor_screen.error_text
        assert "Check what you typed" in editor_screen.error_text
        assert app.screen is editor_screen and editor.text == invalid

        failing = '{"messages": 5}'  # the reducer raises inside the server: 500
        editor.load_text(failing)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "server failed" in editor_screen.error_text, what="the 500")
        assert "its log may say why" in editor_screen.error_text
        assert app.screen is editor_screen and editor.text == failing

        editor.load_text('{"title": "fixed after a 500"}')  # the next request still works
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen, what="the editor closes")
        await wait_for(pilot, lambda: "State updated." in notices(app))
        assert app.is_running
    state = await client.threads.get_state(thread_id)
    assert state["values"]["title"] == "fixed after a 500"


# -- Unauthorized: a key the 10xGraph server refuses ------------------------------------------


async def test_a_refused_api_key_says_so_and_how_to_give_one_and_never_shows_it(tenxgraph_jwt, tmp_path):
    url, make_token = tenxgraph_jwt
    wrong = make_token("alice", secret="not-the-server-secret-" * 3)  # well formed, wrongly signed
    app = ThreadbenchApp(
        Settings(url=url, api_key=wrong, data_dir=tmp_path),
        backend_kind="10xgraph",
        clock=lambda: FIXED_NOW,
        monotonic=lambda: 0.0,
    )
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: notices(app, "error"), what="the refusal")
        screen = app.screen
        message = notices(app, "error")[0]
        assert "Loading threads failed" in message and "refused the API key" in message
        for way in ("--api-key", "LANGGRAPH_API_KEY", "api_key_env", "ctrl+o"):
            assert way in message
        assert "refused the API key" in str(screen.query_one("#thread-counts").visual)

        screen.connection.check_health()  # the server is there: a refused key is not an outage
        await wait_for(pilot, lambda: not [w for w in screen.workers if w.group == "health" and w.is_running])
        assert screen.connection.online and not [n for n in notices(app) if "Lost the server" in n]
        assert isinstance(app.screen, MainScreen) and app.is_running

        shown = "\n".join([*notices(app), screen_text(app), app.export_screenshot()])
        assert wrong not in shown and wrong[-20:] not in shown

        await pilot.press("ctrl+o")  # what the message says to do
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen) and app.screen.focused is not None)
        app.screen.query_one("#connection-key", Input).value = make_token("alice")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any("Connected to" in n for n in notices(app)), what="connected")
        await wait_ready(pilot)
        assert "thread" in str(app.screen.query_one("#thread-counts").visual)
