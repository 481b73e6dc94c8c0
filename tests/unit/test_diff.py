"""diff_states on real history payloads (tests/data/history_branch.json, made by
tests/data/make_history.py from the demo agent on the real server)."""

from __future__ import annotations

import copy
import time

import pytest
from data.checkpoints import history, raw_history
from threadbench.diff import StateDiff, diff_states, summarize
from threadbench.normalize import state_from_dict
from threadbench.timeline import build_rows


@pytest.fixture(scope="module")
def states():
    return history()


def parent_of(states, state):
    return next(s for s in states if s.checkpoint_id == state.parent_checkpoint_id)


def test_the_step_where_tools_wrote_the_todos(states):
    child = min((s for s in states if s.values.get("todos")), key=lambda s: s.step)
    diff = diff_states(parent_of(states, child), child)
    assert [(t.kind, t.after) for t in diff.todos] == [
        ("added", "completed"),
        ("added", "in_progress"),
        ("added", "pending"),
        ("added", "pending"),
    ]
    assert diff.todos[0].content == "Read the request and collect the constraints"
    assert [(m.kind, m.type, m.name) for m in diff.messages] == [("added", "tool", "write_todos")]
    assert diff.messages[0].preview.startswith("Updated the todo list")
    # todos came from null to a list: a key change too, not a silent one.
    assert ("todos", "added") in {(k.key, k.kind) for k in diff.keys}
    assert diff.next_before == ["tools"] and diff.next_after == ["agent"]
    assert diff.message_count_before + 1 == diff.message_count_after


def test_an_update_state_fork_that_completed_one_todo(states):
    fork = next(s for s in states if s.source == "update")
    diff = diff_states(parent_of(states, fork), fork)
    assert [(t.kind, t.content, t.before, t.after) for t in diff.todos] == [
        ("changed", "Sketch the approach and the data it needs", "in_progress", "completed")
    ]
    assert diff.messages == [] and diff.keys == []
    assert diff.summary() == "1 todo"


def test_the_title_node_adds_a_title(states):
    titled = min((s for s in states if s.values.get("title")), key=lambda s: s.step)
    diff = diff_states(parent_of(states, titled), titled)
    assert [(k.key, k.kind, k.after) for k in diff.keys] == [("title", "added", "'Plan a report about penguins'")]
    assert diff.messages == [] and diff.todos == []


def test_two_marked_checkpoints_on_different_branches(states):
    rows = build_rows(states)
    heads = [row.checkpoint for row in rows if row.children == 0 and row.checkpoint.source != "update"]
    fork_head, main_head = heads  # newest first: the edit-and-resend branch, then the original line
    diff = diff_states(main_head, fork_head)
    kinds = {(m.kind, m.type) for m in diff.messages}
    assert ("removed", "human") in kinds and ("added", "human") in kinds
    added_humans = [m.preview for m in diff.messages_added if m.type == "human"]
    removed_humans = [m.preview for m in diff.messages_removed if m.type == "human"]
    assert added_humans == ["write a file please"] and removed_humans == ["upload hello"]
    keys = {k.key: k for k in diff.keys}
    assert keys["uploaded_files"].kind == "removed"
    assert keys["artifacts"].kind == "changed" and keys["artifacts"].detail == "+1 appended"
    # Shared messages (the first turn) are not reported.
    assert all(m.index >= 6 for m in diff.messages)


def test_against_nothing_everything_is_added(states):
    head = states[0]
    diff = diff_states(None, head)
    assert {k.kind for k in diff.keys} == {"added"}
    assert len(diff.messages_added) == len(head.values["messages"])
    assert diff.old_checkpoint_id == "" and diff.new_checkpoint_id == head.checkpoint_id


def test_the_same_checkpoint_twice_has_no_changes(states):
    other = state_from_dict(raw_history()[0])
    diff = diff_states(states[0], other)
    assert diff.empty
    assert [line.kind for line in diff.lines()] == ["info"]
    assert diff.summary() == "no changes"


def test_an_edited_message_is_changed_not_added():
    raw = raw_history()[0]
    edited = copy.deepcopy(raw)
    edited["values"]["messages"][0]["content"] = "plan a report about puffins"
    diff = diff_states(state_from_dict(raw), state_from_dict(edited))
    assert [(m.kind, m.index, m.preview) for m in diff.messages] == [("changed", 0, "plan a report about puffins")]


def test_lines_flatten_sections_for_any_renderer(states):
    child = min((s for s in states if s.values.get("todos")), key=lambda s: s.step)
    lines = list(diff_states(parent_of(states, child), child).lines())
    sections = [line.label for line in lines if line.kind == "section"]
    assert sections == ["keys", "messages", "todos", "next"]
    assert lines[sections.index("keys")].kind == "section"
    next_line = lines[-1]
    assert (next_line.kind, next_line.before, next_line.after) == ("changed", "[tools]", "[agent]")
    assert next_line.label == "nodes to run", "under its section's title: not 'next next'"
    assert diff_states(parent_of(states, child), child).summary().endswith("· next changed")


def test_summaries_are_short_and_typed():
    assert summarize("x" * 500).endswith("…'") and len(summarize("x" * 500)) < 60
    assert summarize([1, 2]) == "list[2]" and summarize({"a": 1}) == "dict{1}"
    assert summarize(None) == "null" and summarize(True) == "true" and summarize(3) == "3"


def _big_pair(count: int):
    """Two checkpoints of `count` real-shaped messages: the newer one has two more and one edit."""
    raw = raw_history()[0]
    template = raw["values"]["messages"]
    messages = []
    for index in range(count):
        message = copy.deepcopy(template[index % len(template)])
        message["id"] = f"msg-{index}"
        messages.append(message)
    old = copy.deepcopy(raw)
    old["values"]["messages"] = messages
    new = copy.deepcopy(old)
    new["values"]["messages"][1000]["content"] = "edited"
    new["values"]["messages"] += [
        {**copy.deepcopy(template[0]), "id": "msg-new-1"},
        {**copy.deepcopy(template[1]), "id": "msg-new-2"},
    ]
    return state_from_dict(old), state_from_dict(new)


def test_a_diff_of_two_2000_message_checkpoints_is_fast():
    old, new = _big_pair(2000)
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        diff: StateDiff = diff_states(old, new)
        best = min(best, time.perf_counter() - started)
    assert [(m.kind, m.index) for m in diff.messages] == [("changed", 1000), ("added", 2000), ("added", 2001)]
    assert best < 0.050, f"diff took {best * 1000:.1f} ms"
    print(f"diff of 2,000 messages: {best * 1000:.2f} ms")
