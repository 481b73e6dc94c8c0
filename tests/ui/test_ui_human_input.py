"""HumanInputScreen and InboxScreen: Pilot tests against the real server, and snapshots.

The screens are hosted in a small App with the real stylesheet: the modal behaviour
(option keys, local validation, refusals, the inbox) is tested here; opening the modal
from MainScreen is MainScreen's own test.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, wait_for
from support.payloads import DEERFLOW_FORM
from support.waiting import eventually
from textual import work
from textual.app import App
from textual.widgets import Input, OptionList, Static, TextArea
from threadbench.human_input import (
    HumanResponse,
    InboxItem,
    PendingInput,
    answer_submitter,
    detect_pending,
    gather_inbox,
    parse_human_input_request,
    pending_from_value,
)
from threadbench.models import RunRequest, ThreadSummary
from threadbench.styles import STYLES
from threadbench.ui.screens.human_input import HumanInputScreen
from threadbench.ui.screens.inbox import InboxScreen
from threadbench.ui.widgets.decision_picker import DecisionPicker

CLARIFY = {
    "question": "Which kind of answer would help you most?",
    "clarification_type": "approach_choice",
    "context": 'You asked: "summarise the incident". It can be answered in several ways.',
    "options": ["A short summary", "A detailed report", "A bullet list"],
}

HITL = {
    "action_requests": [
        {
            "name": "delete_file",
            "args": {"path": "/tmp/old.md"},
            "description": "Delete /tmp/old.md? This cannot be undone.",
        },
        {"name": "send_email", "args": {"to": "ops@example.com", "subject": "Done"}, "description": "Send the report"},
    ],
    "review_configs": [
        {"action_name": "delete_file", "allowed_decisions": ["approve", "reject"]},
        {
            "action_name": "send_email",
            "allowed_decisions": ["approve", "edit", "reject"],
            "args_schema": {"type": "object", "required": ["to", "subject"], "properties": {"to": {"type": "string"}}},
        },
    ],
}


class Host(App[None]):
    """A bare app showing one modal screen over an empty background, with the app's CSS."""

    CSS_PATH = [STYLES / "app.tcss"]

    def __init__(self, make_screen) -> None:
        super().__init__()
        self.make_screen = make_screen
        self.results: list = []

    def on_mount(self) -> None:
        self.push_screen(self.make_screen(), callback=self.results.append)


def modal_ready(app) -> bool:
    """The modal is composed and mounted (its on_mount has set the focus)."""
    return isinstance(app.screen, HumanInputScreen) and app.screen.focused is not None


def deerflow_form() -> PendingInput:
    parsed = parse_human_input_request(DEERFLOW_FORM)
    assert parsed is not None
    return parsed


# -- snapshots (no server: fixed payloads) -------------------------------------------------------


async def wait_for_modal(pilot) -> None:
    await wait_for(pilot, lambda: modal_ready(pilot.app))


def test_snapshot_clarification_with_options(snap_compare):
    pending = pending_from_value(CLARIFY)
    app = Host(lambda: HumanInputScreen(pending, thread_title="Incident review", position=(1, 2)))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=wait_for_modal)


def test_snapshot_enter_with_nothing_chosen(snap_compare):
    async def enter(pilot):
        await wait_for(pilot, lambda: modal_ready(pilot.app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: str(pilot.app.screen.query_one("#human-input-error").visual).strip())

    app = Host(lambda: HumanInputScreen(pending_from_value(CLARIFY), thread_title="Incident review"))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=enter)


def test_snapshot_hitl_review_sent_with_an_action_undecided(snap_compare):
    async def approve_one(pilot):
        await wait_for(pilot, lambda: modal_ready(pilot.app))
        await pilot.press("a", "enter")
        await wait_for(pilot, lambda: str(pilot.app.screen.query_one("#human-input-error").visual).strip())

    app = Host(lambda: HumanInputScreen(pending_from_value(HITL), thread_title="Cleanup"))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=approve_one)


def test_snapshot_hitl_review(snap_compare):
    pending = pending_from_value(HITL)
    app = Host(lambda: HumanInputScreen(pending, thread_title="Cleanup"))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=wait_for_modal)


def test_snapshot_hitl_edit_with_invalid_json(snap_compare):
    pending = pending_from_value(HITL)

    async def edit_badly(pilot):
        await wait_for(pilot, lambda: modal_ready(pilot.app))
        await pilot.press("a", "tab")  # approve the first; to the second action's decision
        await pilot.press("e")
        editor = pilot.app.screen.query_one("#human-input-args-1", TextArea)
        editor.load_text('{"to": "ops@example.com", "subject": ')
        await pilot.press("ctrl+s")
        await pilot.pause()

    app = Host(lambda: HumanInputScreen(pending, thread_title="Cleanup"))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=edit_badly)


def test_snapshot_agent_inbox_respond(snap_compare):
    value = [
        {
            "action_request": {"action": "write_file", "args": {"path": "notes.md", "content": "hello"}},
            "config": {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": True},
            "description": "Write notes.md",
        }
    ]

    async def respond(pilot):
        await wait_for(pilot, lambda: modal_ready(pilot.app))
        await pilot.press("p")
        await pilot.pause()

    app = Host(lambda: HumanInputScreen(pending_from_value(value)))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=respond)


def test_snapshot_generic_json(snap_compare):
    value = {"kind": "budget_check", "limits": [10, 20], "note": "[bold]not markup[/bold]", "nested": {"ok": True}}
    app = Host(lambda: HumanInputScreen(pending_from_value(value), thread_title="Budget"))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=wait_for_modal)


def test_snapshot_deerflow_form(snap_compare):
    app = Host(lambda: HumanInputScreen(deerflow_form(), thread_title="Expenses"))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=wait_for_modal)


def test_snapshot_refused_answer(snap_compare):
    async def refuse(pending, response):
        return (
            "The server refused the answer: thread 0000 is busy [bold]not markup[/bold]\n"
            "The thread is busy or the id exists already: wait, or cancel the run."
        )

    async def answer(pilot):
        await wait_for(pilot, lambda: modal_ready(pilot.app))
        await pilot.press(*"Use the staging cluster", "enter")
        await wait_for(
            pilot,
            lambda: (
                not pilot.app.screen.sending and str(pilot.app.screen.query_one("#human-input-error").visual).strip()
            ),
        )

    pending = pending_from_value({"question": "Which cluster should I use?", "clarification_type": "missing_info"})
    app = Host(lambda: HumanInputScreen(pending, submit=refuse, thread_title="Deploy"))
    assert snap_compare(app, terminal_size=TERMINAL, run_before=answer)


def inbox_items() -> list[InboxItem]:
    moment = datetime(2026, 1, 1, tzinfo=UTC)

    def thread(n: int, title: str, graph: str, status: str) -> ThreadSummary:
        return ThreadSummary(
            thread_id=str(uuid.UUID(int=n)), title=title, graph_id=graph, status=status, updated_at=moment
        )

    clarify = pending_from_value(CLARIFY)
    review = pending_from_value(HITL)
    form = deerflow_form()
    parallel = [pending_from_value({"question": "Which colour?"}), pending_from_value({"question": "Which size?"})]
    return [
        InboxItem(thread=thread(1, "Incident review", "agent", "interrupted"), pending=[clarify]),
        InboxItem(thread=thread(2, "Cleanup old drafts", "hi_hitl", "interrupted"), pending=[review]),
        InboxItem(thread=thread(3, "Expenses for March", "lead_agent", "idle"), pending=[form]),
        InboxItem(thread=thread(4, "", "hi_parallel", "interrupted"), pending=parallel),
    ]


def test_snapshot_inbox(snap_compare):
    async def gather():
        return inbox_items()

    async def loaded(pilot):
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, InboxScreen) and pilot.app.screen.loaded)

    app = Host(lambda: InboxScreen(None, gather=gather))  # type: ignore[arg-type]
    assert snap_compare(app, terminal_size=TERMINAL, run_before=loaded)


# -- Pilot: the modal on its own -------------------------------------------------------------------


async def test_digits_pick_options_while_the_answer_box_is_empty_else_they_are_text():
    pending = pending_from_value(CLARIFY)
    app = Host(lambda: HumanInputScreen(pending))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        answer = app.screen.query_one("#human-input-answer", Input)
        assert answer.has_focus and app.screen.query_one("#human-input-options", OptionList).highlighted is None
        await pilot.press("i", "n", " ", "2", "4", "h")
        assert answer.value == "in 24h" and isinstance(app.screen, HumanInputScreen)
        await pilot.press(*["backspace"] * 6, "2")
        await wait_for(pilot, lambda: app.results, what="the dismissal")
    assert app.results == [HumanResponse(option_id="option-2")]


async def test_enter_sends_the_typed_answer_and_escape_leaves_it_pending():
    pending = pending_from_value(CLARIFY)
    app = Host(lambda: HumanInputScreen(pending))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        await pilot.press(*"in a table", "enter")
        await pilot.pause()
    assert app.results == [HumanResponse(text="in a table")]
    app = Host(lambda: HumanInputScreen(pending))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [None]


async def test_an_empty_answer_without_options_is_sent_only_on_a_second_enter():
    app = Host(lambda: HumanInputScreen(pending_from_value({"question": "Your name?"})))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HumanInputScreen) and app.results == []
        assert "press enter again to send it empty" in str(app.screen.query_one("#human-input-error", Static).visual)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.results, what="the dismissal")
    assert app.results == [HumanResponse(text="", empty_confirmed=True)]


async def test_hitl_edit_with_invalid_json_is_refused_locally():
    sent: list = []

    async def submit(pending, response):
        sent.append(response)
        return None

    app = Host(lambda: HumanInputScreen(pending_from_value(HITL), submit=submit))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        await pilot.press("r", "tab", "tab")  # reject the first; its message box; the second picker
        assert isinstance(app.focused, DecisionPicker) and app.focused.id == "human-input-decision-1"
        await pilot.press("e")
        editor = app.screen.query_one("#human-input-args-1", TextArea)
        assert not editor.has_class("-hidden")
        editor.load_text('{"to": "x@example.com",')
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(app.screen.query_one("#human-input-error", Static).visual)
        assert "Not valid JSON" in error and "send_email" in error
        assert sent == [] and isinstance(app.screen, HumanInputScreen)
        editor.load_text('{"to": "x@example.com"}')  # valid JSON, but the schema wants a subject
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "missing required key 'subject'" in str(app.screen.query_one("#human-input-error", Static).visual)
        assert sent == []
        editor.load_text('{"to": "x@example.com", "subject": "Re"}')
        app.screen.query_one("#human-input-message-0", Input).value = "keep it"
        await pilot.press("ctrl+s")
        await pilot.pause()
    [response] = sent
    assert [d.type for d in response.decisions] == ["reject", "edit"]
    assert response.decisions[0].message == "keep it"
    assert response.decisions[1].args == {"to": "x@example.com", "subject": "Re"}
    assert app.results == [response]


async def test_a_refused_answer_keeps_the_modal_open_with_the_reason():
    calls: list = []

    async def submit(pending, response):
        calls.append(response)
        return "The server refused the answer: thread is busy" if len(calls) == 1 else None

    app = Host(lambda: HumanInputScreen(pending_from_value(CLARIFY), submit=submit))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        answer = app.screen.query_one("#human-input-answer", Input)
        await pilot.press(*"my words", "enter")
        await wait_for(pilot, lambda: calls and not app.screen.sending, what="the refusal")
        assert isinstance(app.screen, HumanInputScreen)
        assert "thread is busy" in str(app.screen.query_one("#human-input-error", Static).visual)
        assert answer.value == "my words"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.results, what="the dismissal")
    assert app.results == [HumanResponse(text="my words")]


async def test_enter_on_a_decision_sends_the_review():
    value = {"action_requests": [{"name": "deploy", "args": {"env": "staging"}}], "review_configs": []}
    app = Host(lambda: HumanInputScreen(pending_from_value(value)))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        assert isinstance(app.focused, DecisionPicker) and app.focused.value is None
        await pilot.press("right", "right", "right", "left")  # undecided -> approve -> edit -> reject -> edit
        assert app.focused.value == "edit"
        await pilot.press("a", "enter")
        await pilot.pause()
    assert app.results == [HumanResponse(decisions=[{"type": "approve"}])]


async def test_a_review_without_actions_still_opens():
    app = Host(lambda: HumanInputScreen(pending_from_value({"action_requests": [], "review_configs": []})))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        await pilot.press("ctrl+s", "ctrl+s")  # nothing to decide: an empty answer, confirmed
        await wait_for(pilot, lambda: app.results, what="the dismissal")
    assert app.results == [HumanResponse(empty_confirmed=True)]


async def test_form_required_fields_are_enforced():
    sent: list = []

    async def submit(pending, response):
        sent.append(response)
        return None

    app = Host(lambda: HumanInputScreen(deerflow_form(), submit=submit))
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        await pilot.press(*"Taxi", "enter")
        await pilot.pause()
        error = str(app.screen.query_one("#human-input-error", Static).visual)
        assert "Amount: required" in error and "Category: required" in error
        assert sent == []
        app.screen.query_one("#human-input-field-1", Input).value = "12"
        app.screen.query_one("#human-input-field-2").value = "meals"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.results, what="the dismissal")
    assert sent[0].form["title"] == "Taxi" and sent[0].form["category"] == "meals"


# -- Pilot against the real server ---------------------------------------------------------------


pytest_server = pytest.mark.server


async def new_thread(url: str, graph: str, text: str = "go", thread_id: str | None = None) -> str:
    client = get_client(url=url)
    thread = await client.threads.create(graph_id=graph, thread_id=thread_id, metadata={"suite": "human-input-ui"})
    await client.runs.wait(thread["thread_id"], graph, input={"messages": [{"type": "human", "content": text}]})
    return thread["thread_id"]


class RunHost(App[None]):
    """Starts a run, opens HumanInputScreen when it stops for a human, resumes, shows the reply."""

    CSS_PATH = [STYLES / "app.tcss"]

    def __init__(self, url: str, graph: str, answer_with: str = "") -> None:
        super().__init__()
        from threadbench.backends.langgraph import LangGraphBackend

        self.backend = LangGraphBackend(url)
        self.graph = graph
        self.answer_with = answer_with
        """Resume on another assistant (a wrong one makes the server refuse)."""
        self.thread_id = ""
        self.outcome = ""

    def compose(self):
        yield Static(id="reply")

    def on_mount(self) -> None:
        self.start()

    async def on_unmount(self) -> None:
        await self.backend.close()

    @property
    def reply(self) -> Static:
        return self.query_one("#reply", Static)

    async def _run(self, events) -> None:
        last = ""
        async for event in events:
            if event.kind == "values" and isinstance(event.data, dict):
                messages = event.data.get("messages") or []
                if messages and messages[-1].get("type") == "ai":
                    last = str(messages[-1].get("content"))
        self.reply.update(last)
        await self.ask()

    @work(exclusive=True)
    async def start(self) -> None:
        summary = await self.backend.create_thread(graph_id=self.graph)
        self.thread_id = summary.thread_id
        request = RunRequest(assistant_id=self.graph, input={"messages": [{"type": "human", "content": "go"}]})
        await self._run(self.backend.stream_run(self.thread_id, request))

    async def ask(self) -> None:
        state = await self.backend.get_state(self.thread_id)
        pending = detect_pending(state)
        if not pending:
            self.outcome = "done"
            return
        submit = answer_submitter(
            self.backend,
            self.thread_id,
            lambda events: self.run_worker(self._run(events), exclusive=True),
            assistant_id=self.answer_with or self.graph,
        )
        self.push_screen(HumanInputScreen(pending[0], submit=submit))


@pytest_server
async def test_modal_after_the_run_stops_pressing_2_resumes_and_the_reply_appears(server_url):
    app = RunHost(server_url, "hi_clarify")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        assert "Which kind of answer" in str(app.screen.query_one("#human-input-question", Static).visual)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.outcome == "done", what="the run to finish")
        assert str(app.reply.visual) == "You chose: A detailed report."


@pytest_server
async def test_a_server_refusal_keeps_the_answer_and_shows_the_reason(server_url):
    app = RunHost(server_url, "hi_clarify", answer_with="no_such_graph")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_for(pilot, lambda: modal_ready(app), what="the modal")
        modal = app.screen
        await pilot.press(*"keep me", "enter")
        await wait_for(
            pilot, lambda: str(modal.query_one("#human-input-error", Static).visual).strip(), what="the reason"
        )
        assert app.screen is modal
        assert "The server refused the answer" in str(modal.query_one("#human-input-error", Static).visual)
        assert modal.query_one("#human-input-answer", Input).value == "keep me"
        app.answer_with = ""  # the same modal, answered again, now accepted
        modal.submit_callback = answer_submitter(
            app.backend,
            app.thread_id,
            lambda events: app.run_worker(app._run(events), exclusive=True),
            assistant_id="hi_clarify",
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.outcome == "done", what="the run to finish")
        assert str(app.reply.visual) == "You chose: keep me."


@pytest_server
async def test_inbox_lists_three_waiting_threads_and_answering_one_removes_it(server_url):
    ids = await asyncio.gather(
        new_thread(server_url, "hi_clarify"),
        new_thread(server_url, "hi_generic"),
        new_thread(server_url, "hi_deerflow", "deploy"),
    )
    from threadbench.backends.langgraph import LangGraphBackend

    backend = LangGraphBackend(server_url)

    async def gather():  # only this test's threads: the server is shared with other tests
        return [item for item in await gather_inbox(backend) if item.thread.thread_id in ids]

    answered: list[str] = []
    app = Host(lambda: InboxScreen(backend, gather=gather, on_answered=answered.append))
    try:
        async with app.run_test(size=TERMINAL) as pilot:
            await wait_for(pilot, lambda: app.screen.loaded, what="the inbox")
            inbox = app.screen
            assert {item.thread.thread_id for item in inbox.items} == set(ids)
            assert inbox.option_list.option_count == 3
            target = next(i for i, item in enumerate(inbox.items) if item.thread.thread_id == ids[0])
            inbox.option_list.highlighted = target
            await pilot.press("enter")
            await wait_for(pilot, lambda: modal_ready(app), what="the modal")
            await pilot.press("3")
            await wait_for(pilot, lambda: app.screen is inbox, what="back in the inbox")
            assert answered == [ids[0]]
            assert {item.thread.thread_id for item in inbox.items} == {ids[1], ids[2]}
            assert inbox.option_list.option_count == 2
            await wait_for(
                pilot, lambda: "finished" in str(inbox.query_one("#inbox-status", Static).visual), what="the run"
            )
            # the next one, without leaving the inbox: the DeerFlow clarification
            deer = next(i for i, item in enumerate(inbox.items) if item.thread.thread_id == ids[2])
            inbox.option_list.highlighted = deer
            await pilot.press("enter")
            await wait_for(pilot, lambda: modal_ready(app), what="the second modal")
            await pilot.press("2")
            await wait_for(pilot, lambda: app.screen is inbox and inbox.option_list.option_count == 1, what="removed")
    finally:
        await backend.close()
    client = get_client(url=server_url)
    state = await client.threads.get_state(ids[0])
    assert state["values"]["messages"][-1]["content"] == "You chose: A bullet list."

    async def answered() -> dict | None:
        state = await client.threads.get_state(ids[2])
        return state if state["values"]["messages"][-1]["type"] == "ai" and not state["next"] else None

    state = await eventually(answered, 10, what="the DeerFlow thread's run to end with a reply")
    assert state["values"]["messages"][-1]["content"] == "Going with staging."
