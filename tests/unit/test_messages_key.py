"""Where a graph keeps its conversation (messages_key.py), and the code that reads it there:
the backend's mapping, the diff, the timeline, the export, the recording."""

from __future__ import annotations

from threadbench.backends.langgraph.mapping import state_from_dict, thread_from_dict
from threadbench.diff import diff_states
from threadbench.export import thread_markdown
from threadbench.messages_key import messages_key, messages_key_of_schemas
from threadbench.models import RunRequest, ThreadState
from threadbench.recording import _what_was_sent
from threadbench.timeline import new_message_types

HUMAN = {"type": "human", "content": "lunch 42", "id": "h1"}
AI = {"type": "ai", "content": "Booked 42.00.", "id": "a1"}
ENTRIES = [{"text": "lunch 42", "amount": 42.0}]


def test_messages_is_the_key_where_it_is_there_even_empty():
    assert messages_key({"messages": [], "transcript": [HUMAN]}) == "messages"


def test_another_key_holding_messages_is_found_and_other_lists_are_not_taken_for_it():
    assert messages_key({"entries": ENTRIES, "transcript": [HUMAN, AI], "balance": 42.0}) == "transcript"
    assert messages_key({"chat_history": [{"role": "user", "content": "hi"}]}) == "chat_history"
    assert messages_key({"entries": ENTRIES, "empty": [], "balance": 1}) is None
    assert messages_key([HUMAN]) is None


# the state schema as `langgraph dev` gives it for tests/graphs/own_key_graphs.py (abridged)
LEDGER_SCHEMAS = {
    "input_schema": None,
    "state_schema": {
        "properties": {
            "transcript": {
                "items": {"oneOf": [{"$ref": "#/$defs/AIMessage"}, {"$ref": "#/$defs/HumanMessageChunk"}]},
                "type": "array",
            },
            "entries": {"items": {"additionalProperties": True, "type": "object"}, "type": "array"},
            "balance": {"type": "number"},
        },
        "type": "object",
    },
}


def test_the_schemas_name_the_key():
    assert messages_key_of_schemas(LEDGER_SCHEMAS) == "transcript"
    both = {
        "input_schema": {"properties": {"messages": {"type": "array"}}},
        **{"state_schema": LEDGER_SCHEMAS["state_schema"]},
    }
    assert messages_key_of_schemas(both) == "messages"  # (the input's first)
    assert messages_key_of_schemas({"state_schema": {"properties": {"entries": {"type": "array"}}}}) is None
    assert messages_key_of_schemas({"input_schema": None, "state_schema": None}) is None
    assert messages_key_of_schemas(None) is None


def ledger_state(*messages: dict, checkpoint: str = "c1") -> ThreadState:
    return state_from_dict(
        {
            "values": {"entries": ENTRIES, "transcript": list(messages)},
            "next": [],
            "checkpoint": {"checkpoint_id": checkpoint},
        }
    )


def test_the_backend_reads_the_conversation_and_the_title_there():
    state = ledger_state(HUMAN, AI)
    assert [m.text for m in state.messages] == ["lunch 42", "Booked 42.00."]
    assert state.messages_key == "transcript"
    row = thread_from_dict({"thread_id": "t", "values": {"entries": ENTRIES, "transcript": [HUMAN, AI]}})
    assert row.title == "lunch 42"


def test_the_diff_timeline_export_and_recording_read_it_there():
    before, after = ledger_state(HUMAN, checkpoint="c1"), ledger_state(HUMAN, AI, checkpoint="c2")
    diff = diff_states(before, after)
    assert [change.kind for change in diff.messages] == ["added"]
    assert "transcript" not in [change.key for change in diff.keys]  # (compared message by message)
    assert new_message_types(after, before) == ["ai"]
    markdown = thread_markdown(None, after, include_state=True)
    assert "Booked 42.00." in markdown and '"entries"' in markdown and '"transcript"' not in markdown
    assert _what_was_sent(RunRequest(assistant_id="ok_ledger", input={"transcript": [HUMAN]})) == "lunch 42"
