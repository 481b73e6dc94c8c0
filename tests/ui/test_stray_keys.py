"""Pilot: one stray letter changes no data without the person seeing it. The sequences of
issue 54, typed one key at a time as a person types them: a search ended with enter and a
word typed after it; a word typed in the thread list. Each test checks the real server
afterwards (nothing written, or what was written said and undone) and what the screen shows."""

from __future__ import annotations

import pytest
from langgraph_sdk import get_client
from support.driving import (
    TERMINAL,
    make_app,
    notices,
    open_tagged,
    press_at_once,
    settle,
    tag,
    tagged_threads,
    wait_for,
    wait_ready,
)
from textual.widgets import Input
from threadbench.ui.screens.cancel_run import CancelRunScreen
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.screens.prompt import PromptScreen
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server

WORD = '"secretword7"'


async def server_view(url: str, metadata: dict[str, str]) -> list[tuple[str, str, object]]:
    """What the server holds of the tagged threads: (id, head checkpoint, metadata), newest first."""
    client = get_client(url=url)
    found = []
    for thread in await client.threads.search(metadata=metadata, limit=50):
        state = await client.threads.get_state(thread["thread_id"])
        found.append((thread["thread_id"], state["checkpoint"]["checkpoint_id"], thread["metadata"]))
    return found


async def type_keys(pilot, text: str) -> None:
    for key in text:
        await pilot.press(key)


async def test_a_word_typed_after_enter_in_the_search_goes_to_the_composer_of_the_first_match(server_url):
    metadata = tag()
    newest, older = await tagged_threads(server_url, metadata, count=2)
    before = await server_view(server_url, metadata)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        screen = app.screen
        sort_before = screen.sidebar.sort_index
        await pilot.press("slash")
        await type_keys(pilot, f"suite={metadata['suite']}")
        await pilot.press("enter")
        await type_keys(pilot, WORD)
        composer = screen.query_one(Composer)
        await wait_for(pilot, lambda: composer.text == WORD, what="the word in the composer")
        assert screen.focused is composer
        assert screen.conversation.thread_id == newest  # the first match, opened
        assert screen.sidebar.thread_list.highlighted_thread_id == newest
        assert app.screen is screen  # no dialog opened
        assert screen.sidebar.sort_index == sort_before  # s typed no sort
        assert [t.thread_id for t in screen.sidebar.thread_list.threads] == [newest, older]
    assert await server_view(server_url, metadata) == before  # nothing written


async def test_enter_on_a_search_that_finds_nothing_keeps_the_search_box(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        screen = app.screen
        await pilot.press("slash")
        await type_keys(pilot, f"suite={tag()['suite']}")
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("No thread matches" in n for n in notices(app)), what="the notice")
        await type_keys(pilot, "es")
        box = screen.query_one("#thread-search")
        assert screen.focused is box and box.value.endswith("es")
        assert app.screen is screen


async def test_crash_typed_in_the_list_makes_a_copy_it_names_and_undoes_and_saves_no_title(server_url):
    metadata = tag()
    (thread_id,) = await tagged_threads(server_url, metadata)
    before = await server_view(server_url, metadata)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = app.screen
        threads = screen.sidebar.thread_list
        title = threads.thread(thread_id).title
        assert screen.focused is threads
        await type_keys(pilot, "crash")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen), what="the rename dialog")
        box = app.screen.query_one("#prompt-input", Input)
        await wait_for(pilot, lambda: box.value == title + "ash", what="ash added at the end of the title")
        assert box.cursor_position == len(box.value) and not box.selection.end - box.selection.start
        await wait_for(pilot, lambda: any("ctrl+z deletes it" in n for n in notices(app)), what="the copy said")
        copied = next(n for n in notices(app) if n.startswith("Copied"))
        copy = screen.sidebar.last_copy
        assert copy is not None and copy.thread_id[:8] in copied and title[:20] in copied
        await pilot.press("escape")  # the dialog said what it would do: nothing is saved
        await wait_for(pilot, lambda: app.screen is screen, what="the dialog closed")
        held = {thread: (head, meta) for thread, head, meta in await server_view(server_url, metadata)}
        assert set(held) == {thread_id, copy.thread_id}  # the copy, and the original as it was
        assert [(thread_id, *held[thread_id])] == before
        assert threads.thread(thread_id).title == title
        assert screen.focused is threads
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: any("the copy is undone" in n for n in notices(app)), what="the undo said")
        assert threads.thread(copy.thread_id) is None
    assert await server_view(server_url, metadata) == before  # the copy undone, the title untouched


async def test_a_delete_question_takes_no_key_typed_before_it_was_up(server_url):
    metadata = tag()
    (thread_id,) = await tagged_threads(server_url, metadata)
    before = await server_view(server_url, metadata)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        press_at_once(app, "x", "y")  # a stray y right behind the x
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)  # still asking: the y was typed before it was up
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen), what="the question closed")
    assert await server_view(server_url, metadata) == before


async def test_fork_and_replay_ask_first(server_url):
    metadata = tag()
    (thread_id,) = await tagged_threads(server_url, metadata)
    before = await server_view(server_url, metadata)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        inspector = app.screen.inspector
        await wait_for(pilot, lambda: len(inspector.timeline.checkpoints) > 2, what="the history")
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: inspector.is_past_view, what="the past view")
        for key in ("F", "p"):
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what=f"{key} asks")
            await pilot.press("n")
            await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen), what="the question closed")
        await settle(pilot)
    assert await server_view(server_url, metadata) == before


async def test_the_cancel_question_takes_no_r_typed_behind_ctrl_g(server_url):
    """ctrl+g asks how to stop a run; a stray r behind it would roll the run back (its
    checkpoints deleted): typed before the question was up, it is no answer."""
    metadata = tag()
    (thread_id,) = await tagged_threads(server_url, metadata)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = app.screen
        screen.query_one(Composer).focus()
        await type_keys(pilot, "slow")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.conversation.run_in_progress, what="the slow run")
        press_at_once(app, "ctrl+g", "r")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelRunScreen), what="the question")
        await pilot.pause()
        assert isinstance(app.screen, CancelRunScreen)  # the r was typed before it was up
        await pilot.press("n")  # let it run
        await wait_for(pilot, lambda: app.screen is screen, what="the question closed")
        await wait_for(pilot, lambda: not screen.conversation.run_in_progress, timeout=60, what="the run's end")
    runs = await get_client(url=server_url).runs.list(thread_id)
    assert runs[0]["status"] == "success"  # neither rolled back nor interrupted
