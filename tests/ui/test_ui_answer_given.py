"""An answer is what the person gave (issue 40): the whole app on the real server, keys pressed.

The shapes: the demo agent's ask_clarification (interrupt() in a tool), LangGraph's
interrupt() with options (hi_clarify), DeerFlow's ask_clarification ToolMessage
(hi_deerflow), LangChain's HITL approvals (hi_hitl: two tool calls; the demo's delete_file:
one).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, ai_texts, make_app, screen_text, settle, tag, wait_for, wait_ready
from textual.widgets import Input, Static
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.human_input import HumanInputScreen
from threadbench.ui.screens.prompt import PromptScreen
from threadbench.ui.widgets.decision_picker import DecisionPicker

pytestmark = pytest.mark.server

QUESTIONS = {
    # graph: (the first message, the reply to the answer "Purple please")
    "agent": ("please clarify", "You chose: Purple please."),
    "hi_clarify": ("go", "You chose: Purple please."),
    "hi_deerflow": ("deploy", "Going with Purple please."),
}


async def waiting_thread(url: str, graph: str, text: str) -> tuple[dict, str]:
    """A thread of `graph` that asks a person something, tagged: (its tag, its id)."""
    metadata = tag()
    client = get_client(url=url)
    thread = await client.threads.create(metadata=metadata, graph_id=graph)
    await client.runs.wait(thread["thread_id"], graph, input={"messages": [{"type": "human", "content": text}]})
    return metadata, thread["thread_id"]


@contextlib.asynccontextmanager
async def waiting_app(url: str, graph: str, text: str) -> AsyncIterator[tuple[Any, Any]]:
    """The app on `url`, with a thread of `graph` that asks something open: (app, pilot)."""
    metadata, thread_id = await waiting_thread(url, graph, text)
    app = make_app(url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_waiting(pilot, metadata, thread_id)
        yield app, pilot


async def open_waiting(pilot, metadata: dict, thread_id: str) -> None:
    """Search the tag, highlight the thread (it opens, asking nothing), then focus the list."""
    app = pilot.app
    box = app.screen.query_one("#thread-search")
    box.focus()
    await pilot.pause()
    box.value = f"suite={metadata['suite']}"
    await pilot.press("enter")
    threads = app.screen.sidebar.thread_list
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread_id], what="the tagged thread")
    threads.focus()
    threads.highlighted = 0
    await wait_for(
        pilot, lambda: app.screen.conversation.run_status.state == "waiting", what="the thread open, waiting"
    )


async def ask(pilot, key: str = "enter") -> HumanInputScreen:
    """Open the question with `key` on the thread list (enter, or a)."""
    app = pilot.app
    if not app.screen.sidebar.thread_list.has_focus:
        app.screen.sidebar.thread_list.focus()
        await pilot.pause()
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen) and app.screen.focused, what="the dialog")
    return app.screen


def error_text(screen: HumanInputScreen) -> str:
    return str(screen.query_one("#human-input-error", Static).visual)


def chat_text(app) -> str:
    return screen_text(app)


# -- 1. type to answer; 6. the answer stands in the chat -------------------------------------------


@pytest.mark.parametrize("graph", list(QUESTIONS))
async def test_typed_words_reach_the_agent_verbatim_and_stand_in_the_chat(server_url, graph):
    first, reply = QUESTIONS[graph]
    async with waiting_app(server_url, graph, first) as (app, pilot):
        await ask(pilot)
        await pilot.press(*"Purple please", "enter")  # typed as the dialog opened: no click, no tab
        await wait_for(pilot, lambda: any(reply in t for t in ai_texts(app)), what=f"the reply {reply!r}")
        await wait_for(pilot, lambda: "You answered: Purple please" in chat_text(app), what="the answer in the chat")
        if graph == "hi_deerflow":  # kept in the thread: it stands there when the thread is shown again
            await pilot.press("ctrl+r")
            await settle(pilot)
            assert "You answered: Purple please" in chat_text(app)


async def test_keys_typed_on_the_buttons_go_to_the_answer_box(server_url):
    async with waiting_app(server_url, "hi_clarify", "go") as (app, pilot):
        dialog = await ask(pilot)
        await pilot.press("tab")
        assert dialog.focused is dialog.query_one("#human-input-submit")
        await pilot.press(*"in 2 weeks")  # (a digit after words is text)
        box = dialog.query_one("#human-input-answer", Input)
        assert box.value == "in 2 weeks" and box.has_focus
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("You chose: in 2 weeks." in t for t in ai_texts(app)), what="the reply")


# -- 2. nothing is sent that the person did not choose --------------------------------------------


@pytest.mark.parametrize("graph", list(QUESTIONS))
async def test_enter_with_nothing_chosen_sends_nothing_then_an_arrow_chooses(server_url, graph):
    first, _reply = QUESTIONS[graph]
    metadata, thread_id = await waiting_thread(server_url, graph, first)
    client = get_client(url=server_url)
    before = await client.threads.get_state(thread_id)
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_waiting(pilot, metadata, thread_id)
        dialog = await ask(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "pick an option (1-3) or type your answer" in error_text(dialog), what="why")
        await settle(pilot)
        assert app.screen is dialog
        assert (await client.threads.get_state(thread_id))["checkpoint"] == before["checkpoint"]
        chosen = dialog.pending.options[1].label
        await pilot.press("down", "down", "enter")  # the second option, chosen with the arrows
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), what="the dialog closed")
        await wait_for(pilot, lambda: f"You answered: {chosen}" in chat_text(app), what="the option in the chat")


# -- 3. approvals -----------------------------------------------------------------------------------


async def test_tool_calls_start_undecided_and_enter_goes_to_the_first_without_a_decision(server_url):
    async with waiting_app(server_url, "hi_hitl", "go") as (app, pilot):
        dialog = await ask(pilot)
        pickers = list(dialog.query(DecisionPicker))
        assert [p.value for p in pickers] == [None, None]
        assert "A approve all" in str(dialog.query_one("#human-input-hint", Static).visual)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "decide delete_file (1 of 2) first" in error_text(dialog), what="why not")
        assert app.screen is dialog and dialog.focused is pickers[0]
        await pilot.press("a", "enter")
        await wait_for(pilot, lambda: "decide send_email (2 of 2) first" in error_text(dialog), what="the second")
        assert dialog.focused is pickers[1]
        await pilot.press("r", "enter")
        await wait_for(
            pilot,
            lambda: any("delete_file: approve; send_email: reject" in t for t in ai_texts(app)),
            what="the decisions given",
        )


async def test_shift_a_approves_every_tool_call_and_enter_sends(server_url):
    async with waiting_app(server_url, "hi_hitl", "go") as (app, pilot):
        dialog = await ask(pilot)
        await pilot.press("r", "A")  # (A overrides a decision given before it)
        assert [p.value for p in dialog.query(DecisionPicker)] == ["approve", "approve"]
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: any("delete_file: approve; send_email: approve" in t for t in ai_texts(app)),
            what="both approved",
        )


async def test_a_and_enter_approve_the_demo_agents_one_tool_call(server_url):
    async with waiting_app(server_url, "agent", "delete the old draft") as (app, pilot):
        dialog = await ask(pilot)
        assert dialog.query_one(DecisionPicker).value is None
        await pilot.press("enter")  # one enter alone approves nothing
        await wait_for(pilot, lambda: "Nothing sent: decide delete_file first" in error_text(dialog), what="why")
        await pilot.press("a", "enter")
        await wait_for(pilot, lambda: "You answered: approve delete_file" in chat_text(app), what="the decision")


# -- 4. the dialog opens only on the person's key -----------------------------------------------


async def test_refresh_and_rename_do_not_open_the_question(server_url):
    metadata, thread_id = await waiting_thread(server_url, "hi_clarify", "go")
    app = make_app(server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_waiting(pilot, metadata, thread_id)
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen), "ctrl+r opened the question"
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen), what="the rename dialog")
        await pilot.press("ctrl+u", *"renamed", "enter")  # (the cursor is at the title's end: cleared first)
        await wait_for(
            pilot, lambda: app.screen.sidebar.thread_list.thread(thread_id).title == "renamed", what="the new title"
        )
        await settle(pilot)
        assert isinstance(app.screen, MainScreen), "the rename opened the question"
        assert app.screen.conversation.run_status.state == "waiting"
        await ask(pilot, "a")  # the person's key still opens it


# -- 5. what was typed survives ------------------------------------------------------------------


async def test_escape_keeps_the_typed_answer_and_a_brings_it_back(server_url):
    async with waiting_app(server_url, "hi_deerflow", "deploy") as (app, pilot):
        await ask(pilot)
        await pilot.press(*"staging, but", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), what="left for later")
        dialog = await ask(pilot, "a")
        box = dialog.query_one("#human-input-answer", Input)
        assert box.value == "staging, but"
        await pilot.press(*" after noon", "enter")
        await wait_for(pilot, lambda: any("Going with staging, but after noon." in t for t in ai_texts(app)))


async def test_escape_keeps_the_decisions_of_a_review(server_url):
    async with waiting_app(server_url, "hi_hitl", "go") as (app, pilot):
        await ask(pilot)
        await pilot.press("r", "tab", *"not now", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), what="left for later")
        dialog = await ask(pilot, "a")
        assert [p.value for p in dialog.query(DecisionPicker)] == ["reject", None]
        assert dialog.query_one("#human-input-message-0", Input).value == "not now"
