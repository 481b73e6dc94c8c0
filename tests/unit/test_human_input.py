"""Detecting what a thread waits for, and building the answer for every shape (no server)."""

from __future__ import annotations

import json

import pytest
from support.payloads import EXPENSE_FIELDS
from threadbench.human_input import (
    Answer,
    AnswerError,
    Decision,
    FormField,
    HumanResponse,
    Option,
    PendingInput,
    build_answer,
    deerflow_message,
    detect_pending,
    form_submission_text,
    open_deerflow_request,
    option_response,
    parse_args_json,
    parse_generic,
    pending_from_value,
    submit_answer,
    validate_args,
    validate_form,
)
from threadbench.models import ChatMessage, Interrupt, RunEvent, RunRequest, TaskInfo, ThreadState, ToolCall

CLARIFY = {
    "question": "Which kind of answer?",
    "clarification_type": "approach_choice",
    "context": "It can be answered in several ways.",
    "options": ["Short", "Detailed", "Bullets"],
}

HITL = {
    "action_requests": [
        {"name": "delete_file", "args": {"path": "/tmp/x"}, "description": "Delete /tmp/x?"},
        {"name": "send_email", "args": {"to": "a@b.c", "subject": "Hi"}},
    ],
    "review_configs": [
        {"action_name": "delete_file", "allowed_decisions": ["approve", "reject"]},
        {
            "action_name": "send_email",
            "allowed_decisions": ["approve", "edit", "reject"],
            "args_schema": {
                "type": "object",
                "properties": {"to": {"type": "string"}, "subject": {"type": "string"}},
                "required": ["to", "subject"],
            },
        },
    ],
}

INBOX = [
    {
        "action_request": {"action": "write_file", "args": {"path": "notes.md"}},
        "config": {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": False},
        "description": "Write notes.md",
    }
]

HUMAN_INPUT = {
    "version": 1,
    "kind": "human_input_request",
    "source": "ask_clarification",
    "request_id": "clarification:call-abc",
    "clarification_type": "risk_confirmation",
    "question": "Which environment should I deploy to?",
    "input_mode": "choice_with_other",
    "context": "Deploying restarts the service.",
    "options": [
        {"id": "option-1", "label": "production", "value": "production"},
        {"id": "option-2", "label": "staging", "value": "staging"},
    ],
    "tool_call_id": "call-abc",
}


def interrupted(*values, ids=None) -> ThreadState:
    ids = ids or [f"{i:032x}" for i in range(1, len(values) + 1)]
    return ThreadState(
        thread_id="t1",
        next=["node"] * len(values),
        interrupts=[Interrupt(id=i, value=v, node="node") for i, v in zip(ids, values, strict=True)],
    )


def tool_request(payload=HUMAN_INPUT, **kw) -> ChatMessage:
    return ChatMessage(
        id=payload["request_id"],
        type="tool",
        name="ask_clarification",
        text="⚠️ Deploying restarts the service.",
        tool_call_id=payload.get("tool_call_id", ""),
        artifact={"human_input": payload},
        **kw,
    )


def ai_asks(call_id="call-abc", args=None) -> ChatMessage:
    return ChatMessage(
        id="ai-1",
        type="ai",
        tool_calls=[
            ToolCall(
                id=call_id,
                name="ask_clarification",
                args=args or {"question": "Which city?", "options": ["Paris", "Berlin"]},
            )
        ],
    )


# -- detection -----------------------------------------------------------------------------------


def test_clarification_interrupt_is_detected_with_options_and_kind():
    [pending] = detect_pending(interrupted(CLARIFY))
    assert pending.kind == "clarification"
    assert pending.question == "Which kind of answer?"
    assert pending.kind_label == "approach choice"
    assert pending.context == "It can be answered in several ways."
    assert [o.label for o in pending.options] == ["Short", "Detailed", "Bullets"]
    assert [o.id for o in pending.options] == ["option-1", "option-2", "option-3"]
    assert pending.interrupt_id == f"{1:032x}" and not pending.keyed
    assert pending.thread_id == "t1" and pending.node == "node"


def test_clarification_with_fields_and_option_dicts():
    value = {"question": "Details?", "options": [{"id": "x", "label": "Ex", "value": 1}], "fields": EXPENSE_FIELDS}
    pending = pending_from_value(value)
    assert pending.options == [Option(id="x", label="Ex", value=1)]
    assert [f.type for f in pending.fields] == ["text", "number", "select", "multi_select", "checkbox", "date"]
    assert pending.fields[2].options[1].value == "meals"
    assert pending.is_form


def test_hitl_request_is_detected_per_action():
    [pending] = detect_pending(interrupted(HITL))
    assert pending.kind == "hitl" and pending.is_review
    assert [a.name for a in pending.actions] == ["delete_file", "send_email"]
    assert pending.actions[0].allowed == ["approve", "reject"]
    assert pending.actions[1].allowed == ["approve", "edit", "reject"]
    assert pending.actions[1].args_schema["required"] == ["to", "subject"]
    assert pending.actions[0].description == "Delete /tmp/x?"
    assert pending.question == "" and pending.summary == "run delete_file, send_email?"


def test_agent_inbox_list_is_detected_with_allowed_decisions():
    [pending] = detect_pending(interrupted(INBOX))
    assert pending.kind == "agent_inbox"
    assert pending.actions[0].name == "write_file"
    assert pending.actions[0].allowed == ["approve", "edit", "respond"]
    assert pending.question == "Write notes.md"


@pytest.mark.parametrize("value", [{"kind": "budget", "limits": [1, 2]}, 42, None, ["a", "b"], {"question": ""}])
def test_other_values_are_generic(value):
    [pending] = detect_pending(interrupted(value))
    assert pending.kind == "generic"
    assert pending.raw == value


def test_string_value_is_generic_with_the_text_as_question():
    pending = pending_from_value("Proceed?")
    assert pending.kind == "generic" and pending.question == "Proceed?"


def test_several_interrupts_are_keyed_by_id():
    state = interrupted({"question": "Which colour?"}, {"question": "Which size?"}, ids=["a" * 32, "b" * 32])
    pending = detect_pending(state)
    assert [p.question for p in pending] == ["Which colour?", "Which size?"]
    assert all(p.keyed for p in pending)
    answer = build_answer(pending[1], HumanResponse(text="L"))
    assert answer.command == {"resume": {"b" * 32: "L"}}


def test_interrupts_from_tasks_when_top_level_is_empty():
    state = ThreadState(
        next=["ask"],
        tasks=[TaskInfo(id="task1", name="ask", interrupts=[Interrupt(id="c" * 32, value=CLARIFY)])],
    )
    [pending] = detect_pending(state)
    assert pending.interrupt_id == "c" * 32 and pending.node == "ask"


def test_busy_thread_waits_for_nothing():
    assert detect_pending(interrupted(CLARIFY), status="busy") == []


def test_deerflow_open_request_on_an_idle_thread():
    messages = [
        ChatMessage(id="h1", type="human", text="deploy it"),
        ai_asks(),
        tool_request(),
    ]
    [pending] = detect_pending(ThreadState(thread_id="t2", messages=messages))
    assert pending.kind == "deerflow" and pending.structured
    assert pending.request_id == "clarification:call-abc"
    assert pending.tool_call_id == "call-abc"
    assert pending.question == "Which environment should I deploy to?"
    assert pending.kind_label == "risk confirmation"
    assert [o.id for o in pending.options] == ["option-1", "option-2"]
    assert pending.thread_id == "t2"


def test_deerflow_request_answered_by_a_response_is_closed():
    answer = ChatMessage(
        id="h2",
        type="human",
        hidden=True,
        text="For your clarification ...",
        additional_kwargs={
            "hide_from_ui": True,
            "human_input_response": {
                "kind": "human_input_response",
                "request_id": "clarification:call-abc",
                "value": "staging",
            },
        },
    )
    assert open_deerflow_request([ai_asks(), tool_request(), answer]) is None


def test_deerflow_visible_human_message_closes_only_the_latest_request():
    second = dict(HUMAN_INPUT, request_id="clarification:call-2", question="Second?", tool_call_id="call-2")
    messages = [tool_request(), tool_request(second), ChatMessage(id="h", type="human", text="my answer")]
    pending = open_deerflow_request(messages)
    assert pending is not None and pending.request_id == "clarification:call-abc"
    hidden_human = ChatMessage(id="h3", type="human", text="x", hidden=True)
    assert open_deerflow_request([tool_request(), hidden_human]) is not None


def test_deerflow_hidden_request_does_not_count():
    assert open_deerflow_request([tool_request(hidden=True)]) is None


def test_deerflow_not_detected_while_the_graph_has_next():
    state = ThreadState(messages=[tool_request()], next=["model"])
    assert detect_pending(state) == []


def test_deerflow_legacy_tool_message_without_artifact():
    ai = ai_asks("call-9", {"question": "Old style?", "options": ["yes", "no"]})
    tool = ChatMessage(id="m9", type="tool", name="ask_clarification", text="❓ Old style?", tool_call_id="call-9")
    pending = open_deerflow_request([ai, tool])
    assert pending is not None and not pending.structured
    assert pending.question == "Old style?" and [o.label for o in pending.options] == ["yes", "no"]
    message = build_answer(pending, option_response(pending, 2)).message
    assert message["content"] == 'For your clarification "Old style?", my answer is: no'
    assert "additional_kwargs" not in message


def test_seed_form_with_the_interrupt_marker():
    state = ThreadState(
        thread_id="t3", next=["__interrupt__"], messages=[ChatMessage(type="human", text="trip"), ai_asks("call_seed")]
    )
    [pending] = detect_pending(state)
    assert pending.kind == "seed_clarification"
    assert pending.question == "Which city?" and pending.tool_call_id == "call_seed"
    assert pending.as_node is None
    answer = build_answer(pending, option_response(pending, 1))
    assert answer.mode == "update_then_run" and answer.as_node is None
    assert answer.update_values == {"messages": [{"type": "human", "content": "Paris", "id": "answer-call_seed"}]}
    request = answer.run_request("seedy")
    assert request.input is None and request.command is None and request.assistant_id == "seedy"


def test_seed_form_at_a_breakpoint_writes_as_the_paused_node():
    state = ThreadState(next=["ask_human"], messages=[ai_asks("call_seed")])
    [pending] = detect_pending(state)
    assert pending.as_node == "ask_human"
    assert build_answer(pending, HumanResponse(text=" Rome ")).as_node == "ask_human"


def test_seed_form_is_not_detected_once_answered():
    answered = [ai_asks("call_seed"), ChatMessage(type="human", text="Paris")]
    assert detect_pending(ThreadState(next=["model"], messages=answered)) == []
    tool_answered = [ai_asks("call_seed"), ChatMessage(type="tool", tool_call_id="call_seed", text="x")]
    assert detect_pending(ThreadState(next=["model"], messages=tool_answered)) == []


def test_nothing_pending_on_a_plain_thread():
    state = ThreadState(messages=[ChatMessage(type="human", text="hi"), ChatMessage(type="ai", text="hello")])
    assert detect_pending(state) == []


# -- answers -------------------------------------------------------------------------------------


def test_clarification_answers_resume_with_the_value():
    pending = pending_from_value(CLARIFY)
    assert build_answer(pending, option_response(pending, 2)).command == {"resume": "Detailed"}
    assert build_answer(pending, HumanResponse(text="  my own  ")).command == {"resume": "my own"}
    with pytest.raises(AnswerError, match="pick an option"):
        build_answer(pending, HumanResponse(text="  "))
    with pytest.raises(AnswerError):
        option_response(pending, 4)


def test_clarification_form_resumes_with_the_record():
    pending = pending_from_value({"question": "Details?", "fields": EXPENSE_FIELDS})
    form = {
        "title": "Taxi",
        "amount": "12.5",
        "category": "travel",
        "receipts": ["A-2"],
        "urgent": True,
        "day": "2026-01-02",
    }
    answer = build_answer(pending, HumanResponse(form=form))
    assert answer.resume == {
        "title": "Taxi",
        "amount": 12.5,
        "category": "travel",
        "receipts": ["A-2"],
        "urgent": True,
        "day": "2026-01-02",
    }


def test_hitl_decisions_in_order():
    pending = pending_from_value(HITL)
    answer = build_answer(
        pending,
        HumanResponse(
            decisions=[
                Decision(type="reject", message="keep it"),
                Decision(type="edit", args={"to": "x@y.z", "subject": "S"}),
            ]
        ),
    )
    assert answer.mode == "resume"
    assert answer.command == {
        "resume": {
            "decisions": [
                {"type": "reject", "message": "keep it"},
                {"type": "edit", "edited_action": {"name": "send_email", "args": {"to": "x@y.z", "subject": "S"}}},
            ]
        }
    }
    approve = build_answer(pending, HumanResponse(decisions=[Decision(type="approve"), Decision(type="reject")]))
    assert approve.command == {"resume": {"decisions": [{"type": "approve"}, {"type": "reject"}]}}


def test_hitl_refuses_bad_decisions_locally():
    pending = pending_from_value(HITL)
    with pytest.raises(AnswerError, match="2 needed, 1 given"):
        build_answer(pending, HumanResponse(decisions=[Decision(type="approve")]))
    with pytest.raises(AnswerError, match="edit is not allowed"):
        build_answer(pending, HumanResponse(decisions=[Decision(type="edit", args={}), Decision(type="approve")]))
    with pytest.raises(AnswerError, match="missing required key 'subject'"):
        build_answer(
            pending, HumanResponse(decisions=[Decision(type="approve"), Decision(type="edit", args={"to": "x"})])
        )
    with pytest.raises(AnswerError, match="expected string, got integer"):
        build_answer(
            pending,
            HumanResponse(decisions=[Decision(type="approve"), Decision(type="edit", args={"to": 1, "subject": "s"})]),
        )


def test_agent_inbox_responses():
    pending = pending_from_value(INBOX)
    assert build_answer(pending, HumanResponse(decisions=[Decision(type="approve")])).command == {
        "resume": [{"type": "accept", "args": None}]
    }
    edit = build_answer(pending, HumanResponse(decisions=[Decision(type="edit", args={"path": "b.md"})]))
    assert edit.command == {"resume": [{"type": "edit", "args": {"action": "write_file", "args": {"path": "b.md"}}}]}
    respond = build_answer(pending, HumanResponse(decisions=[Decision(type="respond", message="not now")]))
    assert respond.command == {"resume": [{"type": "response", "args": "not now"}]}
    with pytest.raises(AnswerError, match="ignore is not allowed"):
        build_answer(pending, HumanResponse(decisions=[Decision(type="ignore")]))
    with pytest.raises(AnswerError, match="type the response"):
        build_answer(pending, HumanResponse(decisions=[Decision(type="respond")]))


def test_agent_inbox_ignore_when_allowed():
    value = [dict(INBOX[0], config={"allow_ignore": True, "allow_accept": False})]
    pending = pending_from_value(value)
    assert pending.actions[0].allowed == ["ignore"]
    assert build_answer(pending, HumanResponse(decisions=[Decision(type="ignore")])).command == {
        "resume": [{"type": "ignore", "args": None}]
    }


def test_generic_answers_json_or_text():
    pending = pending_from_value({"kind": "x"})
    assert build_answer(pending, HumanResponse(text='{"ok": true}')).command == {"resume": {"ok": True}}
    assert build_answer(pending, HumanResponse(text="42")).command == {"resume": 42}
    assert build_answer(pending, HumanResponse(text="go ahead")).command == {"resume": "go ahead"}
    assert build_answer(pending, HumanResponse(text="null")).command == {"resume": None}
    assert build_answer(pending, HumanResponse(value=[1, 2])).command == {"resume": [1, 2]}
    with pytest.raises(AnswerError):
        parse_generic("   ")


def test_deerflow_option_answer_is_the_uis_message():
    pending = open_deerflow_request([tool_request()])
    answer = build_answer(pending, option_response(pending, 2))
    assert answer.mode == "message"
    message = answer.message
    assert message["type"] == "human"
    assert message["content"] == 'For your clarification "Which environment should I deploy to?", my answer is: staging'
    assert message["additional_kwargs"] == {
        "hide_from_ui": True,
        "human_input_response": {
            "version": 1,
            "kind": "human_input_response",
            "source": "ask_clarification",
            "request_id": "clarification:call-abc",
            "response_kind": "option",
            "option_id": "option-2",
            "value": "staging",
        },
    }
    request = answer.run_request("lead_agent", {"thinking_enabled": False})
    assert request.input == {"messages": [message]} and request.command is None
    assert request.context == {"thinking_enabled": False}
    echo = answer.echo()
    assert echo is not None and echo.hidden and echo.type == "human"


def test_deerflow_text_answer():
    pending = open_deerflow_request([tool_request()])
    message = build_answer(pending, HumanResponse(text="  blue-green  ")).message
    assert message["content"].endswith("my answer is: blue-green")
    response = message["additional_kwargs"]["human_input_response"]
    assert response["response_kind"] == "text" and response["value"] == "blue-green" and "option_id" not in response


def test_deerflow_form_answer_matches_the_ui_format():
    payload = dict(HUMAN_INPUT, version=2, input_mode="form", fields=EXPENSE_FIELDS, question="Expense details?")
    payload.pop("options")
    pending = open_deerflow_request([tool_request(payload)])
    assert pending.is_form
    form = {
        "title": "Taxi",
        "amount": "12",
        "category": "travel",
        "receipts": ["A-1", "A-2"],
        "urgent": False,
        "day": "",
    }
    answer = build_answer(pending, HumanResponse(form=form))
    value = (
        "Title: Taxi; Amount: 12; Category: travel; Receipts: A-1, A-2; Urgent: no "
        '[values: {"title":"Taxi","amount":12,"category":"travel","receipts":["A-1","A-2"],"urgent":false}]'
    )
    assert answer.message["content"] == f'For your clarification "Expense details?", my answer is: {value}'
    assert answer.message["additional_kwargs"]["human_input_response"]["value"] == value
    assert answer.message["additional_kwargs"]["human_input_response"]["response_kind"] == "text"


def test_deerflow_message_helper_without_structure():
    pending = PendingInput(kind="deerflow", question="Q?", structured=False)
    message = deerflow_message(pending, " A ")
    assert message["content"] == 'For your clarification "Q?", my answer is: A'
    assert message["type"] == "human" and message["id"] and "additional_kwargs" not in message


# -- validation ----------------------------------------------------------------------------------


def test_validate_args_minimal_schema():
    schema = {
        "type": "object",
        "required": ["path"],
        "properties": {
            "path": {"type": "string"},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "mode": {"enum": ["a", "b"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "maybe": {"type": ["string", "null"]},
        },
        "additionalProperties": False,
    }
    assert validate_args({"path": "x", "count": 2, "ratio": 1, "mode": "a", "tags": ["t"], "maybe": None}, schema) == []
    problems = validate_args({"count": True, "ratio": "1", "mode": "c", "tags": [1], "extra": 1}, schema)
    assert "args: missing required key 'path'" in problems
    assert "args.count: expected integer, got boolean" in problems
    assert "args.ratio: expected number, got string" in problems
    assert any(p.startswith("args.mode: must be one of") for p in problems)
    assert "args.tags[0]: expected string, got integer" in problems
    assert "args: unexpected key 'extra'" in problems
    assert validate_args([], {"type": "object"}) == ["args: expected object, got array"]
    assert validate_args({"anything": 1}, None) == []
    assert validate_args(3.0, {"type": "integer"}) == []


def test_parse_args_json_reports_where():
    assert parse_args_json('{"a": 1}') == {"a": 1}
    with pytest.raises(AnswerError, match=r"Not valid JSON in the arguments.*: .*line 1, column"):
        parse_args_json('{"a": ', "send_email")
    with pytest.raises(AnswerError, match="must be a JSON object"):
        parse_args_json("[1]")


def test_validate_form_rules():
    fields = [FormField.model_validate(f) for f in EXPENSE_FIELDS]
    with pytest.raises(AnswerError) as caught:
        validate_form(fields, {"amount": "twelve", "category": "books", "day": "02/01/2026", "receipts": ["Z"]})
    text = str(caught.value)
    for expected in (
        "Title: required",
        "Amount: not a number (twelve)",
        "Category: not an option (books)",
        "Day: not a date",
        "Receipts: not an option: Z",
    ):
        assert expected in text
    record = validate_form(fields, {"title": " T ", "amount": "1e3", "category": "meals"})
    assert record == {"title": "T", "amount": 1000.0, "category": "meals", "urgent": False}
    required_box = [FormField(name="ok", label="I agree", type="checkbox", required=True)]
    with pytest.raises(AnswerError, match="I agree: must be checked"):
        validate_form(required_box, {"ok": False})


def test_form_submission_text_skips_empty_fields():
    fields = [FormField.model_validate(f) for f in EXPENSE_FIELDS]
    assert (
        form_submission_text(fields, {"title": "ü", "urgent": True})
        == 'Title: ü; Urgent: yes [values: {"title":"ü","urgent":true}]'
    )


# -- submitting ----------------------------------------------------------------------------------


class FakeBackend:
    def __init__(self, events=None, refuse: Exception | None = None):
        self.calls: list[tuple] = []
        self.events = events or [RunEvent(kind="metadata", run_id="r1"), RunEvent(kind="end")]
        self.refuse = refuse

    async def update_state(self, thread_id, values, *, as_node=None, checkpoint_id=None):
        self.calls.append(("update_state", thread_id, values, as_node))
        return "cp"

    def stream_run(self, thread_id, request: RunRequest):
        self.calls.append(("stream_run", thread_id, request))

        async def events():
            if self.refuse is not None:
                raise self.refuse
            for event in self.events:
                yield event

        return events()


async def test_submit_answer_resume_streams_every_event():
    backend = FakeBackend()
    pending = pending_from_value(CLARIFY)
    events = await submit_answer(backend, "t1", pending, option_response(pending, 1), assistant_id="hi_clarify")
    assert [e.kind async for e in events] == ["metadata", "end"]
    [(name, thread_id, request)] = backend.calls
    assert name == "stream_run" and request.command == {"resume": "Short"} and request.assistant_id == "hi_clarify"
    assert request.multitask_strategy == "reject"


async def test_submit_answer_seed_updates_state_first():
    backend = FakeBackend()
    state = ThreadState(next=["ask_human"], messages=[ai_asks("call_seed")])
    [pending] = detect_pending(state)
    events = await submit_answer(backend, "t3", pending, HumanResponse(text="Rome"), assistant_id="hi_seed")
    assert [e.kind async for e in events] == ["metadata", "end"]
    assert backend.calls[0] == (
        "update_state",
        "t3",
        {"messages": [{"type": "human", "content": "Rome", "id": "answer-call_seed"}]},
        "ask_human",
    )
    assert backend.calls[1][2].input is None


async def test_submit_answer_refusal_raises_before_returning():
    from threadbench.backends.base import Conflict

    backend = FakeBackend(refuse=Conflict("thread is busy"))
    pending = pending_from_value(CLARIFY)
    with pytest.raises(Conflict):
        await submit_answer(backend, "t1", pending, HumanResponse(text="x"))


async def test_submit_answer_local_error_sends_nothing():
    backend = FakeBackend()
    with pytest.raises(AnswerError):
        await submit_answer(backend, "t1", pending_from_value(HITL), HumanResponse(decisions=[]))
    assert backend.calls == []


def test_answer_objects_round_trip():
    answer = Answer(mode="resume", resume=1, command={"resume": 1})
    assert json.loads(answer.model_dump_json())["command"] == {"resume": 1}


async def test_answer_submitter_hands_over_the_events_or_returns_the_reason():
    from threadbench.backends.base import Conflict
    from threadbench.human_input import answer_submitter

    accepted: list = []
    pending = pending_from_value(CLARIFY)
    submit = answer_submitter(FakeBackend(), "t1", accepted.append, assistant_id="hi_clarify")
    assert await submit(pending, HumanResponse(text="x")) is None
    [events] = accepted
    assert [e.kind async for e in events] == ["metadata", "end"]
    refused = answer_submitter(FakeBackend(refuse=Conflict("thread is busy")), "t1", accepted.append)
    reason = await refused(pending, HumanResponse(text="x"))
    assert reason.startswith("The server refused the answer: thread is busy") and "wait, or cancel" in reason
    assert await refused(pending, HumanResponse(text=" ")) == "Nothing sent: pick an option (1-3) or type your answer."
    assert len(accepted) == 1


async def test_pending_for_thread_uses_the_summary_interrupts():
    from threadbench.human_input import pending_for_thread
    from threadbench.models import ThreadSummary

    class NoState(FakeBackend):
        async def get_state(self, thread_id, checkpoint_id=None):
            raise AssertionError("not needed")

    thread = ThreadSummary(thread_id="t9", status="interrupted")
    thread.__dict__["interrupts"] = [Interrupt(id="d" * 32, value=CLARIFY)]
    item = await pending_for_thread(NoState(), thread)
    assert item is not None and item.first.kind == "clarification" and item.first.thread_id == "t9"
