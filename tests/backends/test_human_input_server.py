"""Every shape of question, detected from a real server's state, answered, the run finished.

The graphs are in tests/graphs/human_input_graphs.py (graph ids hi_*).
"""

from __future__ import annotations

import asyncio
import json

import pytest
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.human_input import (
    Decision,
    HumanResponse,
    detect_pending,
    drain,
    gather_inbox,
    option_response,
    submit_answer,
)
from threadbench.models import RunRequest

pytestmark = pytest.mark.server


@pytest.fixture
async def backend(server_url):
    backend = LangGraphBackend(server_url)
    yield backend
    await backend.close()


async def start(backend: LangGraphBackend, graph: str, text: str = "go") -> str:
    """A new thread of `graph`, run once with `text` until it stops."""
    thread = await backend.create_thread(graph_id=graph, metadata={"suite": "human-input-server"})
    request = RunRequest(assistant_id=graph, input={"messages": [{"type": "human", "content": text}]})
    await drain(backend.stream_run(thread.thread_id, request))
    return thread.thread_id


async def answer(backend, thread_id, pending, response, graph) -> tuple[str, str]:
    events = await submit_answer(backend, thread_id, pending, response, assistant_id=graph)
    return await drain(events)


async def last_text(backend, thread_id) -> str:
    state = await backend.get_state(thread_id)
    return state.messages[-1].text


async def test_clarification_interrupt(backend):
    thread_id = await start(backend, "hi_clarify")
    thread = await backend.get_thread(thread_id)
    assert thread.status == "interrupted"
    [pending] = detect_pending(await backend.get_state(thread_id), thread.status)
    assert pending.kind == "clarification" and pending.interrupt_id and not pending.keyed
    assert pending.kind_label == "approach choice"
    assert [o.label for o in pending.options] == ["A short summary", "A detailed report", "A bullet list"]
    assert await answer(backend, thread_id, pending, option_response(pending, 2), "hi_clarify") == ("idle", "")
    assert await last_text(backend, thread_id) == "You chose: A detailed report."
    assert detect_pending(await backend.get_state(thread_id)) == []


async def test_clarification_free_text(backend):
    thread_id = await start(backend, "hi_clarify")
    [pending] = detect_pending(await backend.get_state(thread_id))
    await answer(backend, thread_id, pending, HumanResponse(text="a haiku"), "hi_clarify")
    assert await last_text(backend, thread_id) == "You chose: a haiku."


async def test_hitl_decisions_in_order(backend):
    thread_id = await start(backend, "hi_hitl")
    [pending] = detect_pending(await backend.get_state(thread_id))
    assert pending.kind == "hitl"
    assert [a.name for a in pending.actions] == ["delete_file", "send_email"]
    assert pending.actions[1].args_schema is not None
    response = HumanResponse(
        decisions=[
            Decision(type="reject", message="keep it"),
            Decision(type="edit", args={"to": "me@example.com", "subject": "Re"}),
        ]
    )
    assert (await answer(backend, thread_id, pending, response, "hi_hitl"))[0] == "idle"
    assert await last_text(backend, thread_id) == (
        'Decisions: delete_file: reject (keep it); send_email: edit {"subject": "Re", "to": "me@example.com"}'
    )


async def test_agent_inbox_list(backend):
    thread_id = await start(backend, "hi_inbox")
    [pending] = detect_pending(await backend.get_state(thread_id))
    assert pending.kind == "agent_inbox"
    assert pending.actions[0].allowed == ["approve", "edit", "respond", "ignore"]
    response = HumanResponse(decisions=[Decision(type="edit", args={"path": "other.md", "content": "hi"})])
    await answer(backend, thread_id, pending, response, "hi_inbox")
    assert await last_text(backend, thread_id) == (
        'Inbox said edit: {"action": "write_file", "args": {"content": "hi", "path": "other.md"}}'
    )


async def test_deerflow_clarification_is_answered_like_its_ui(backend):
    thread_id = await start(backend, "hi_deerflow", "deploy the app")
    thread = await backend.get_thread(thread_id)
    assert thread.status == "idle"  # DeerFlow does not interrupt: the run ended
    state = await backend.get_state(thread_id)
    assert state.next == [] and state.interrupts == []
    [pending] = detect_pending(state, thread.status)
    assert pending.kind == "deerflow" and pending.structured
    assert pending.request_id == pending.message_id == f"clarification:{pending.tool_call_id}"
    assert pending.kind_label == "risk confirmation"
    assert [o.id for o in pending.options] == ["option-1", "option-2", "option-3"]
    assert await answer(backend, thread_id, pending, option_response(pending, 2), "hi_deerflow") == ("idle", "")
    state = await backend.get_state(thread_id)
    human = state.messages[-2]
    assert human.type == "human" and human.hidden
    assert human.text == 'For your clarification "Which environment should I deploy to?", my answer is: staging'
    assert human.additional_kwargs["human_input_response"] == {
        "version": 1,
        "kind": "human_input_response",
        "source": "ask_clarification",
        "request_id": pending.request_id,
        "response_kind": "option",
        "option_id": "option-2",
        "value": "staging",
    }
    assert state.messages[-1].text == "Going with staging."
    assert detect_pending(state) == []


async def test_deerflow_form(backend):
    thread_id = await start(backend, "hi_deerflow", "fill a form")
    [pending] = detect_pending(await backend.get_state(thread_id))
    assert pending.is_form and [f.type for f in pending.fields] == [
        "text",
        "number",
        "select",
        "multi_select",
        "checkbox",
        "date",
        "textarea",
    ]
    form = {
        "title": "Taxi",
        "amount": "12",
        "category": "travel",
        "receipts": ["A-2"],
        "urgent": True,
        "day": "",
        "note": "",
    }
    await answer(backend, thread_id, pending, HumanResponse(form=form), "hi_deerflow")
    value = "Title: Taxi; Amount: 12; Category: travel; Receipts: A-2; Urgent: yes"
    value += ' [values: {"title":"Taxi","amount":12,"category":"travel","receipts":["A-2"],"urgent":true}]'
    assert await last_text(backend, thread_id) == f"Going with {value}."


async def test_deerflow_plain_message_closes_the_request(backend):
    thread_id = await start(backend, "hi_deerflow", "deploy")
    request = RunRequest(
        assistant_id="hi_deerflow", input={"messages": [{"type": "human", "content": "staging please"}]}
    )
    await drain(backend.stream_run(thread_id, request))
    state = await backend.get_state(thread_id)
    assert state.messages[-1].text == "Noted: staging please"
    assert detect_pending(state) == []


async def test_seed_form_update_state_then_run(backend):
    thread_id = await start(backend, "hi_seed")
    thread = await backend.get_thread(thread_id)
    state = await backend.get_state(thread_id)
    assert state.next == ["ask_human"] and state.interrupts == []
    [pending] = detect_pending(state, thread.status)
    assert pending.kind == "seed_clarification"
    assert pending.question == "Which city should the trip start from?"
    assert pending.as_node == "ask_human" and pending.tool_call_id == "call_seed"
    assert (await answer(backend, thread_id, pending, option_response(pending, 2), "hi_seed"))[0] == "idle"
    state = await backend.get_state(thread_id)
    assert [m.type for m in state.messages[-2:]] == ["human", "ai"]
    assert state.messages[-2].text == "Berlin"
    assert state.messages[-1].text == "Starting from Berlin."
    assert state.next == [] and detect_pending(state) == []


async def test_generic_value_resumed_with_json_or_text(backend):
    thread_id = await start(backend, "hi_generic")
    [pending] = detect_pending(await backend.get_state(thread_id))
    assert pending.kind == "generic" and pending.raw["kind"] == "budget_check"
    await answer(backend, thread_id, pending, HumanResponse(text='{"limit": 15}'), "hi_generic")
    assert await last_text(backend, thread_id) == 'Resumed with {"limit": 15} (dict).'
    thread_id = await start(backend, "hi_generic")
    [pending] = detect_pending(await backend.get_state(thread_id))
    await answer(backend, thread_id, pending, HumanResponse(text="fifteen"), "hi_generic")
    assert await last_text(backend, thread_id) == 'Resumed with "fifteen" (str).'


async def test_parallel_interrupts_answered_by_id(backend):
    thread_id = await start(backend, "hi_parallel")
    pending = detect_pending(await backend.get_state(thread_id))
    assert sorted(p.question for p in pending) == ["Which colour?", "Which size?"]
    assert all(p.keyed for p in pending)
    colour = next(p for p in pending if p.question == "Which colour?")
    outcome, _ = await answer(backend, thread_id, colour, HumanResponse(text="red"), "hi_parallel")
    assert outcome == "waiting"
    [size] = detect_pending(await backend.get_state(thread_id))
    assert size.question == "Which size?" and not size.keyed
    await answer(backend, thread_id, size, HumanResponse(text="L"), "hi_parallel")
    assert await last_text(backend, thread_id) == "Answers: colour=red, size=L"


async def test_refused_answer_raises_before_streaming(backend):
    from threadbench.backends.base import BackendError

    thread_id = await start(backend, "hi_clarify")
    [pending] = detect_pending(await backend.get_state(thread_id))
    with pytest.raises(BackendError):
        await submit_answer(backend, thread_id, pending, HumanResponse(text="x"), assistant_id="no_such_graph")
    assert (await backend.get_thread(thread_id)).status == "interrupted"


async def test_inbox_gathers_interrupted_and_deerflow_threads(backend):
    ids = await asyncio.gather(
        start(backend, "hi_clarify"),
        start(backend, "hi_hitl"),
        start(backend, "hi_deerflow", "deploy"),
        start(backend, "hi_seed"),
    )
    done = await start(backend, "hi_deerflow", "deploy")
    request = RunRequest(assistant_id="hi_deerflow", input={"messages": [{"type": "human", "content": "prod"}]})
    await drain(backend.stream_run(done, request))
    items = {item.thread.thread_id: item for item in await gather_inbox(backend)}
    kinds = {thread_id: items[thread_id].first.kind for thread_id in ids if thread_id in items}
    assert kinds == {ids[0]: "clarification", ids[1]: "hitl", ids[2]: "deerflow", ids[3]: "seed_clarification"}
    assert done not in items
    assert json.loads(json.dumps(items[ids[0]].first.raw))["question"].startswith("Which kind")
