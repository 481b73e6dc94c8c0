"""threadbench.normalize: payload dicts of every odd shape into models, without raising."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from threadbench.models import ChatMessage, Interrupt, RunEvent
from threadbench.normalize import (
    content_text,
    error_text,
    interrupts_from_thread,
    message_from_dict,
    messages_from_values,
    needs_second_text,
    one_line,
    parse_time,
    run_event_from_part,
    state_from_dict,
    thread_from_dict,
)

# --- messages -------------------------------------------------------------------------------


def test_langchain_message_types() -> None:
    human = message_from_dict({"type": "human", "content": "hi", "id": "h1", "name": None, "example": False})
    assert (human.type, human.text, human.id, human.name) == ("human", "hi", "h1", "")
    ai = message_from_dict(
        {
            "type": "ai",
            "content": "calling",
            "id": "a1",
            "tool_calls": [{"name": "search", "args": {"q": "x"}, "id": "c1", "type": "tool_call"}],
            "invalid_tool_calls": [],
            "usage_metadata": None,
        }
    )
    assert ai.type == "ai" and [(c.id, c.name, c.args) for c in ai.tool_calls] == [("c1", "search", {"q": "x"})]
    tool = message_from_dict(
        {
            "type": "tool",
            "content": "boom",
            "tool_call_id": "c1",
            "name": "search",
            "status": "error",
            "artifact": {"k": 1},
        }
    )
    assert tool.type == "tool" and tool.tool_call_id == "c1" and tool.is_error and tool.artifact == {"k": 1}
    assert message_from_dict({"type": "system", "content": "be brief"}).type == "system"
    assert message_from_dict({"type": "AIMessageChunk", "content": "x"}).type == "ai"
    assert message_from_dict({"type": "remove", "id": "r"}).type == "other"


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("user", "human"),
        ("assistant", "ai"),
        ("system", "system"),
        ("developer", "system"),
        ("tool", "tool"),
        ("function", "tool"),
        ("critic", "other"),
        (None, "other"),
        (3, "other"),
    ],
)
def test_role_style_messages(role: object, expected: str) -> None:
    assert message_from_dict({"role": role, "content": "x"}).type == expected


def test_openai_style_tool_calls_and_fallback_to_additional_kwargs() -> None:
    message = message_from_dict(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}],
        }
    )
    assert [(c.name, c.args) for c in message.tool_calls] == [("f", {"a": 1})]
    raw = message_from_dict(
        {
            "type": "ai",
            "content": "",
            "tool_calls": [],
            "additional_kwargs": {"tool_calls": [{"id": "c2", "function": {"name": "g", "arguments": "not json"}}]},
        }
    )
    assert [(c.id, c.name, c.args) for c in raw.tool_calls] == [("c2", "g", "not json")]
    invalid = message_from_dict(
        {
            "type": "ai",
            "content": "",
            "invalid_tool_calls": [{"name": "h", "args": "{oops", "id": "c3", "error": None}],
        }
    )
    assert [(c.name, c.args) for c in invalid.tool_calls] == [("h", "{oops")]


def test_content_blocks_text_reasoning_and_placeholders() -> None:
    message = message_from_dict(
        {
            "type": "ai",
            "content": [
                {"type": "thinking", "thinking": "Let me think.", "signature": "sig"},
                {"type": "text", "text": "Hello "},
                {"type": "text", "text": "world."},
                {"type": "image_url", "image_url": {"url": "data:..."}},
                {"type": "file", "filename": "report.pdf", "base64": "..."},
                {"type": "text", "text": "After."},
                {"type": "tool_use", "id": "t", "name": "x", "input": {}},
                {"type": "audio", "base64": "..."},
                {"type": "weird_thing"},
                "plain string block",
                42,
                None,
            ],
        }
    )
    assert message.reasoning == "Let me think."
    assert (
        message.text == "Hello world.\n[image]\n[file: report.pdf]\nAfter.\n[audio]\n[weird_thing]\nplain string block"
    )


def test_content_text_shapes() -> None:
    assert content_text("plain") == ("plain", "")
    assert content_text(None) == ("", "")
    assert content_text({"type": "text", "text": "one block"}) == ("one block", "")
    assert content_text(12) == ("12", "")
    assert content_text([{"text": "no type"}]) == ("no type", "")
    assert content_text([{"type": "reasoning", "reasoning": "r1"}, {"type": "text", "text": None}]) == ("", "r1")
    summary = {
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "s1"}, {"type": "summary_text", "text": "s2"}],
    }
    assert content_text([summary]) == ("", "s1\ns2")
    assert content_text([{"type": "redacted_thinking", "data": "x"}]) == ("", "[redacted thinking]")
    assert content_text([{"type": "file", "metadata": {"filename": "a.txt"}}])[0] == "[file: a.txt]"
    assert content_text([{"type": "file"}])[0] == "[file]"


def test_reasoning_from_additional_kwargs_and_hide_from_ui() -> None:
    message = message_from_dict(
        {
            "type": "ai",
            "content": "answer",
            "additional_kwargs": {"reasoning_content": "because", "hide_from_ui": True, "extra": 1},
        }
    )
    assert (message.reasoning, message.hidden, message.additional_kwargs["extra"]) == ("because", True, 1)
    summary = message_from_dict(
        {
            "type": "ai",
            "content": "x",
            "additional_kwargs": {"reasoning": {"summary": [{"text": "sum"}]}},
        }
    )
    assert summary.reasoning == "sum"
    assert message_from_dict({"type": "human", "content": "x", "additional_kwargs": None}).hidden is False


@pytest.mark.parametrize(
    "payload",
    [
        None,
        "just text",
        3,
        [],
        {},
        {"type": None, "content": None, "id": None, "tool_calls": None},
        {"type": "ai", "tool_calls": [None, "x", {"args": None}]},
        {"additional_kwargs": "nope"},
        ("user", "tuple message"),
        {"type": "tool", "status": None, "tool_call_id": 7},
    ],
)
def test_odd_messages_never_raise(payload: object) -> None:
    message = message_from_dict(payload)
    assert isinstance(message, ChatMessage)
    assert isinstance(message.text, str) and isinstance(message.id, str)


def test_tuple_and_plain_messages() -> None:
    assert (message_from_dict(("user", "hey")).type, message_from_dict(("user", "hey")).text) == ("human", "hey")
    assert message_from_dict("loose").text == "loose"
    assert message_from_dict({"type": "tool", "tool_call_id": 7}).tool_call_id == "7"
    ai = message_from_dict({"type": "ai", "tool_calls": [None, "x", {"args": None, "name": "n"}]})
    assert [(c.name, c.args) for c in ai.tool_calls] == [("n", {})]


def test_messages_from_values() -> None:
    values = {"messages": [{"type": "human", "content": "a"}, {"type": "ai", "content": "b"}], "other": 1}
    assert [m.text for m in messages_from_values(values)] == ["a", "b"]
    assert [m.text for m in messages_from_values([{"role": "user", "content": "bare"}])] == ["bare"]
    for odd in (None, {}, {"messages": None}, {"messages": "nope"}, 5):
        assert messages_from_values(odd) == []


# --- threads --------------------------------------------------------------------------------


def thread(**overrides: object) -> dict:
    base = {
        "thread_id": "t1",
        "created_at": "2026-11-30T00:53:31.644631+00:00",
        "updated_at": "2026-11-30T01:00:00Z",
        "metadata": {"graph_id": "agent", "assistant_id": "a-1", "user": "x"},
        "status": "idle",
        "values": {
            "messages": [
                {"type": "system", "content": "be nice"},
                {"type": "human", "content": "  What is\n\nthe   answer?  "},
            ]
        },
    }
    return {**base, **overrides}


def test_thread_from_dict_first_human_message() -> None:
    summary = thread_from_dict(thread())
    assert summary.thread_id == "t1" and summary.status == "idle"
    assert summary.title == "What is the answer?"
    assert not summary.has_title_channel
    assert (summary.graph_id, summary.assistant_id) == ("agent", "a-1")
    assert summary.created_at == datetime(2026, 11, 30, 0, 53, 31, 644631, tzinfo=UTC)
    assert summary.updated_at == datetime(2026, 11, 30, 1, 0, tzinfo=UTC)


def test_thread_title_channel_metadata_title_and_trimming() -> None:
    titled = thread_from_dict(thread(values={"title": "Research session", "messages": []}))
    assert (titled.title, titled.has_title_channel) == ("Research session", True)
    untitled = thread_from_dict(thread(values={"title": None, "messages": [{"role": "user", "content": "q"}]}))
    assert (untitled.title, untitled.has_title_channel) == ("q", True)
    from_metadata = thread_from_dict(thread(metadata={"title": "Named"}, values={"messages": []}))
    assert from_metadata.title == "Named"
    long = thread_from_dict(thread(values={"messages": [{"type": "human", "content": "word " * 40}]}))
    assert len(long.title) == 80 and long.title.endswith("…") and "\n" not in long.title
    blocks = thread_from_dict(
        thread(
            values={
                "messages": [
                    {"type": "human", "content": [{"type": "text", "text": "look at"}, {"type": "image", "url": "x"}]}
                ]
            }
        )
    )
    assert blocks.title == "look at [image]"


def test_thread_from_extracted_fields() -> None:
    row = {
        "thread_id": "t",
        "status": "busy",
        "metadata": {},
        "extracted": {"title": None, "type0": "human", "text0": "first question", "type1": "ai"},
    }
    assert thread_from_dict(row).title == "first question"
    assert not needs_second_text(row["extracted"])
    system_first = {"title": None, "type0": "system", "text0": "sys", "type1": "human"}
    assert needs_second_text(system_first)
    summary = thread_from_dict({"thread_id": "t", "extracted": {**system_first, "text1": "second"}})
    assert summary.title == "second"
    titled = thread_from_dict({"thread_id": "t", "extracted": {"title": "T", "type0": None}})
    assert (titled.title, titled.has_title_channel) == ("T", True)


@pytest.mark.parametrize(
    "payload",
    [
        None,
        {},
        {"thread_id": None},
        {
            "thread_id": "x",
            "status": "weird",
            "metadata": None,
            "values": None,
            "created_at": "not a date",
            "updated_at": 12,
            "interrupts": None,
        },
        {"thread_id": "x", "values": [1, 2], "extracted": "nope", "interrupts": {"t": None}},
        {"thread_id": "x", "status": {"not": "hashable"}},
    ],
)
def test_odd_threads_never_raise(payload: object) -> None:
    summary = thread_from_dict(payload)
    assert summary.title == "" and summary.status in ("unknown", "idle")
    assert summary.created_at is None


def test_a_running_thread_is_busy() -> None:
    """DeerFlow's Gateway says "running" where a LangGraph server says "busy"."""
    assert thread_from_dict({"thread_id": "t", "status": "running"}).status == "busy"


def test_thread_interrupts() -> None:
    raw = thread(
        status="interrupted",
        interrupts={
            "task-1": [{"id": "i1", "value": {"question": "?"}}],
            "task-2": [{"id": "i2", "value": "plain"}, "odd"],
        },
    )
    found = interrupts_from_thread(raw)
    assert [(i.id, i.task_id, i.value) for i in found] == [
        ("i1", "task-1", {"question": "?"}),
        ("i2", "task-2", "plain"),
        ("", "task-2", "odd"),
    ]
    assert thread_from_dict(raw).interrupts == found
    assert interrupts_from_thread({"interrupts": [{"id": "x", "value": 1}]})[0].id == "x"


def test_parse_time_and_one_line() -> None:
    assert parse_time("2026-01-02T03:04:05Z") == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert parse_time(None) is None and parse_time("") is None and parse_time("soon") is None
    now = datetime.now(UTC)
    assert parse_time(now) is now
    assert one_line("a\n b\t c") == "a b c"
    assert one_line("x" * 100, 10) == "x" * 9 + "…"


# --- states -------------------------------------------------------------------------------


def state_payload() -> dict:
    return {
        "values": {"messages": [{"type": "human", "content": "hi"}], "title": "T"},
        "next": ["ask"],
        "tasks": [
            {
                "id": "task-1",
                "name": "ask",
                "path": ["__pregel_pull", "ask"],
                "error": None,
                "interrupts": [{"id": "i1", "value": {"question": "Which?"}}],
                "checkpoint": None,
                "state": None,
                "result": None,
            },
            {"id": "task-2", "name": "other", "error": "ValueError('x')", "interrupts": []},
        ],
        "metadata": {"source": "loop", "step": 3, "writes": {"model": {}}},
        "created_at": "2026-11-30T00:53:42.280361+00:00",
        "checkpoint": {"checkpoint_id": "c2", "thread_id": "t1", "checkpoint_ns": ""},
        "parent_checkpoint": {"checkpoint_id": "c1", "thread_id": "t1", "checkpoint_ns": ""},
        "interrupts": [{"id": "i1", "value": {"question": "Which?"}}, {"id": "i9", "value": "top-only"}],
        "checkpoint_id": "c2",
        "parent_checkpoint_id": "c1",
    }


def test_state_from_dict() -> None:
    state = state_from_dict(state_payload())
    assert state.thread_id == "t1"
    assert (state.checkpoint_id, state.parent_checkpoint_id) == ("c2", "c1")
    assert state.next == ["ask"] and [m.text for m in state.messages] == ["hi"]
    assert (state.step, state.source, state.writers, state.title) == (3, "loop", ["model"], "T")
    assert [(t.id, t.name, t.error) for t in state.tasks] == [
        ("task-1", "ask", None),
        ("task-2", "other", "ValueError('x')"),
    ]
    assert [(i.id, i.task_id, i.node) for i in state.interrupts] == [("i1", "task-1", "ask"), ("i9", "", "")]
    assert state.tasks[0].interrupts[0].value == {"question": "Which?"}
    assert state.created_at is not None


def test_state_ids_from_older_config_shape_and_thread_id_argument() -> None:
    state = state_from_dict(
        {
            "values": {},
            "config": {"configurable": {"checkpoint_id": "c5"}},
            "parent_config": {"configurable": {"checkpoint_id": "c4"}},
            "interrupts": [{"value": "v", "ns": ["review:abc"], "resumable": True}],
        },
        thread_id="given",
    )
    assert (state.thread_id, state.checkpoint_id, state.parent_checkpoint_id) == ("given", "c5", "c4")
    assert state.interrupts[0].node == "review"


@pytest.mark.parametrize(
    "payload",
    [
        None,
        {},
        {"values": None, "next": None, "tasks": None, "interrupts": None, "checkpoint": None},
        {
            "values": [{"type": "human", "content": "list state"}],
            "tasks": [None, 1, {"interrupts": "x"}],
            "next": "abc",
            "metadata": [],
            "parent_checkpoint": "x",
        },
    ],
)
def test_odd_states_never_raise(payload: object) -> None:
    state = state_from_dict(payload)
    assert isinstance(state.values, dict) and state.checkpoint_id == ""


def test_list_values_keep_their_messages() -> None:
    state = state_from_dict({"values": [{"type": "human", "content": "list state"}]})
    assert [m.text for m in state.messages] == ["list state"] and "__root__" in state.values


# --- stream events -------------------------------------------------------------------------

META = {"langgraph_node": "model", "langgraph_step": 1, "run_id": "r1", "langgraph_checkpoint_ns": "model:x"}


def chunk(**overrides: object) -> dict:
    base = {
        "content": "",
        "additional_kwargs": {},
        "response_metadata": {},
        "type": "AIMessageChunk",
        "name": None,
        "id": "lc_run--1",
        "tool_calls": [],
        "invalid_tool_calls": [],
        "usage_metadata": None,
        "tool_call_chunks": [],
        "chunk_position": None,
    }
    return {**base, **overrides}


def one(result: RunEvent | list[RunEvent]) -> RunEvent:
    assert isinstance(result, RunEvent)
    return result


def test_token_events() -> None:
    event = one(run_event_from_part("messages", [chunk(content="Hel"), META], None))
    assert (event.kind, event.text, event.node, event.run_id, event.message_id, event.message_type) == (
        "token",
        "Hel",
        "model",
        "r1",
        "lc_run--1",
        "ai",
    )
    assert (event.last, event.size, event.event_id, event.namespace, event.event) == (False, 3, "", "", "messages")
    last = one(run_event_from_part("messages", [chunk(content="lo", chunk_position="last"), META], "7-0"))
    assert last.last and last.event_id == "7-0"
    thinking = one(run_event_from_part("messages", [chunk(additional_kwargs={"reasoning_content": "hmm"}), META]))
    assert (thinking.text, thinking.reasoning) == ("", "hmm")
    blocks = one(
        run_event_from_part(
            "messages",
            [
                chunk(
                    content=[
                        {"type": "thinking", "thinking": "t", "index": 0},
                        {"type": "text", "text": "x", "index": 1},
                        {"type": "input_json_delta", "partial_json": "{", "index": 2},
                    ]
                ),
                META,
            ],
        )
    )
    assert (blocks.text, blocks.reasoning) == ("x", "t")


def test_tool_call_chunk_events() -> None:
    first = one(
        run_event_from_part(
            "messages",
            [
                chunk(
                    tool_call_chunks=[
                        {"name": "lookup", "args": '{"query"', "id": "call_1", "index": 0, "type": "tool_call_chunk"}
                    ]
                ),
                META,
            ],
        )
    )
    second = one(
        run_event_from_part(
            "messages",
            [
                chunk(
                    tool_call_chunks=[
                        {"name": None, "args": ': "abc"}', "id": None, "index": 0},
                        {"args": {"odd": 1}, "index": None},
                        "junk",
                    ],
                    chunk_position="last",
                ),
                META,
            ],
        )
    )
    assert [(c.index, c.id, c.name, c.args) for c in first.tool_call_chunks] == [(0, "call_1", "lookup", '{"query"')]
    assert [(c.index, c.id, c.name, c.args) for c in second.tool_call_chunks] == [
        (0, "", "", ': "abc"}'),
        (0, "", "", '{"odd": 1}'),
    ]
    assert first.size == len('{"query"') and second.last


def test_whole_messages_in_the_messages_stream() -> None:
    tool = one(
        run_event_from_part(
            "messages",
            [{"type": "tool", "content": "found", "tool_call_id": "c1", "id": "m1", "status": "success"}, META],
        )
    )
    assert (tool.kind, tool.message_type, tool.message_id, tool.node) == ("message", "tool", "m1", "model")
    assert tool.message is not None and tool.message.text == "found" and tool.size > 0
    ai = one(run_event_from_part("messages", [{"type": "ai", "content": "whole", "id": "m2"}, {}]))
    assert (ai.kind, ai.message_type, ai.text, ai.last) == ("message", "ai", "whole", True)
    no_meta = one(run_event_from_part("messages", [chunk(content="x")]))
    assert no_meta.kind == "token" and no_meta.node == ""
    for odd in (None, [], "text", [None, META], {"a": 1}):
        assert one(run_event_from_part("messages", odd)).kind == "other"


def test_messages_mode_partial_complete_and_metadata() -> None:
    partial = one(run_event_from_part("messages/partial", [{"type": "ai", "content": "You sa", "id": "m"}]))
    assert (partial.kind, partial.text, partial.last) == ("message", "You sa", False)
    several = run_event_from_part(
        "messages/complete", [{"type": "ai", "content": "a", "id": "1"}, {"type": "tool", "content": "b", "id": "2"}]
    )
    assert isinstance(several, list) and [(e.kind, e.last, e.message_id) for e in several] == [
        ("message", True, "1"),
        ("message", True, "2"),
    ]
    assert one(run_event_from_part("messages/complete", [])).kind == "other"
    assert one(run_event_from_part("messages/metadata", {"m": {"metadata": META}})).kind == "other"


def test_run_level_events() -> None:
    metadata = one(run_event_from_part("metadata", {"run_id": "r9", "attempt": 1}))
    assert (metadata.kind, metadata.run_id) == ("metadata", "r9")
    values = one(run_event_from_part("values", {"messages": []}, "1-0"))
    assert (values.kind, values.data, values.event_id) == ("values", {"messages": []}, "1-0")
    assert values.size == len('{"messages":[]}')
    update = one(run_event_from_part("updates", {"model": {"messages": []}}))
    assert (update.kind, update.node) == ("updates", "model")
    both = one(run_event_from_part("updates", {"a": {}, "b": {}}))
    assert (both.kind, both.node) == ("updates", "")
    custom = one(run_event_from_part("custom", {"step": 1}))
    assert (custom.kind, custom.data) == ("custom", {"step": 1})
    assert one(run_event_from_part("end", None)).kind == "end"
    for name in ("debug", "tasks", "checkpoints", "feedback", "", "whatever"):
        assert one(run_event_from_part(name, {"x": 1})).kind == "other"


def test_interrupt_update() -> None:
    event = one(
        run_event_from_part(
            "updates",
            {"__interrupt__": [{"value": {"question": "Which colour?"}, "id": "i1", "response_schema": None}, "bare"]},
        )
    )
    assert event.kind == "interrupt"
    assert all(isinstance(item, Interrupt) for item in event.data)
    assert [(i.id, i.value) for i in event.data] == [("i1", {"question": "Which colour?"}), ("", "bare")]
    assert one(run_event_from_part("updates", {"__interrupt__": None})).data == []


def test_error_events() -> None:
    event = one(run_event_from_part("error", {"error": "ValueError", "message": "boom"}))
    assert (event.kind, event.text) == ("error", "ValueError: boom")
    assert one(run_event_from_part("error", {"message": "only message"})).text == "only message"
    assert one(run_event_from_part("error", {"error": "Oops"})).text == "Oops"
    assert one(run_event_from_part("error", "plain text")).text == "plain text"
    assert one(run_event_from_part("error", None)).text == "the run failed"
    assert error_text({"error": "KeyError", "message": "KeyError: 'x'"}) == "KeyError: 'x'"
    assert error_text({"other": 1}) == '{"other": 1}'


def test_namespaced_subgraph_events() -> None:
    ns = "outer:92a1e44c-df2b-f703-bea2-59477ed8c329"
    values = one(run_event_from_part(f"values|{ns}", {"messages": []}))
    assert (values.kind, values.namespace, values.event) == ("values", ns, f"values|{ns}")
    token = one(run_event_from_part(f"messages|{ns}", [chunk(content="t"), META]))
    assert (token.kind, token.namespace) == ("token", ns)
    update = one(run_event_from_part(f"updates|{ns}", {"inner": {}}))
    assert (update.kind, update.node, update.namespace) == ("updates", "inner", ns)
    deep = one(run_event_from_part(f"updates|{ns}|tools:abc", {"__interrupt__": [{"id": "x", "value": 1}]}))
    assert (deep.kind, deep.namespace) == ("interrupt", f"{ns}|tools:abc")


def test_odd_events_never_raise() -> None:
    for event, data in [
        (None, None),
        ("values", object()),
        ("metadata", None),
        ("updates", None),
        ("updates", [1, 2]),
        ("custom", b"bytes"),
        ("messages", [chunk(content=None)]),
    ]:
        result = run_event_from_part(event, data)  # type: ignore[arg-type]
        assert isinstance(result, (RunEvent, list))
