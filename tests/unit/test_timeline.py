"""The timeline's rows over real history payloads (tests/data/history_branch.json)."""

from __future__ import annotations

from data.checkpoints import by_suffix, history, raw_history
from threadbench.models import ThreadState
from threadbench.normalize import state_from_dict
from threadbench.timeline import (
    NEED_OLDER,
    TimelineModel,
    build_rows,
    fork_point_for_message,
    new_message_types,
    starts_human_turn,
    writers_of,
)


def test_rows_are_newest_first_with_steps_sources_and_counts():
    states = history()
    rows = build_rows(states)
    assert [row.checkpoint_id for row in rows] == [s.checkpoint_id for s in states]
    assert rows[0].step == 12 and rows[-1].step == -1
    assert rows[-1].source == "input" and rows[-1].message_count == 0
    assert rows[0].message_count == 10
    assert {row.source for row in rows} == {"input", "loop", "fork"}


def test_branch_points_have_several_children_and_later_children_are_forks():
    rows = build_rows(history())
    branch_points = [row for row in rows if row.branch_point]
    # The end of the first turn (two runs started from it) and the checkpoint where the
    # todos were written (an update_state fork).
    assert len(branch_points) == 2
    assert all(row.children == 2 for row in branch_points)
    forks = [row for row in rows if row.fork]
    assert len(forks) == 2
    update_fork = next(row for row in forks if row.checkpoint.source == "update")
    run_fork = next(row for row in forks if row.checkpoint.source == "input")
    assert update_fork.source == run_fork.source == "fork"
    # The original line's first child is not a fork.
    originals = [row for row in rows if row.parent_id in {b.checkpoint_id for b in branch_points} and not row.fork]
    assert len(originals) == 2 and all(row.source in ("input", "loop") for row in originals)
    # Each fork's parent is one of the branch points.
    assert {row.parent_id for row in forks} == {row.checkpoint_id for row in branch_points}


def test_writers_come_from_the_parents_next_when_metadata_has_no_writes():
    states = history()
    assert all("writes" not in s.metadata for s in states)  # LangGraph 1.x dropped it
    rows = build_rows(states)
    by_id = {row.checkpoint_id: row for row in rows}
    for row in rows:
        parent = by_id.get(row.parent_id)
        if row.checkpoint.source == "loop":
            assert row.writers == list(parent.checkpoint.next)
        elif row.checkpoint.source == "input":
            assert row.writers == []
    assert rows[0].writers == ["title"]


def test_writers_prefer_metadata_writes_when_the_server_sends_them():
    raw = raw_history()[0]
    raw = {**raw, "metadata": {**raw["metadata"], "writes": {"agent": {"messages": []}}}}
    assert writers_of(state_from_dict(raw), None) == ["agent"]


def test_paging_gives_the_same_rows_and_fills_in_writers_of_the_previous_page():
    states = history()
    whole = build_rows(states)
    model = TimelineModel()
    updated_all = []
    for start in range(0, len(states), 5):
        updated_all.append(model.append(states[start : start + 5]))
    assert [(r.checkpoint_id, r.lanes, r.source, r.writers, r.children, r.fork) for r in model.rows] == [
        (r.checkpoint_id, r.lanes, r.source, r.writers, r.children, r.fork) for r in whole
    ]
    # The last row of page one had its parent on page two: its writers were filled in then.
    assert 4 in updated_all[1]
    # A page repeated (the screen asked twice) adds nothing.
    assert model.append(states[:5]) == [] and len(model) == len(states)


def test_lanes_draw_each_open_branch():
    rows = build_rows(history())
    assert rows[0].lanes == "●"
    update_fork = by_suffix([r.checkpoint for r in rows], rows[6].checkpoint_id[-8:])
    assert rows[6].checkpoint is update_fork and rows[6].lanes == "│ ●"
    joins = [row.lanes for row in rows if row.branch_point]
    assert joins[0].startswith("◆") and joins[0].endswith("┘")
    assert all(len(row.lanes) <= 7 for row in rows)


def test_the_fork_point_for_editing_a_human_message_is_just_before_it():
    states = history()
    rows = build_rows(states)
    main_head = next(r.checkpoint for r in rows if r.children == 0 and "uploaded_files" in r.checkpoint.values)
    second_human = next(m for m in main_head.values["messages"] if m["content"] == "upload hello")
    point = fork_point_for_message(states, second_human["id"], main_head.checkpoint_id)
    # The end of the first turn: where make_history.py resent an edited message, and so a
    # branch point with two children.
    assert point is not None and point.step == 6 and point.next == []
    assert by_suffix(states, point.checkpoint_id[-8:]) is point
    assert next(r for r in rows if r.checkpoint is point).children == 2
    first_human = main_head.values["messages"][0]
    assert fork_point_for_message(states, first_human["id"], main_head.checkpoint_id).step == -1
    assert fork_point_for_message(states, "no-such-id") is None
    # Not loaded far enough back: None (the screen loads older pages and asks again).
    assert fork_point_for_message(states[:8], first_human["id"], main_head.checkpoint_id) is None


def checkpoint(n: int, messages: list[tuple[str, str]], parent: int | None) -> ThreadState:
    return ThreadState(
        checkpoint_id=f"cp{n}",
        parent_checkpoint_id="" if parent is None else f"cp{parent}",
        values={"messages": [{"id": ident, "type": kind, "content": ident} for ident, kind in messages]},
        metadata={"step": n, "source": "loop"},
    )


def deerflow_like() -> list[ThreadState]:
    """Two human turns, each followed by middleware steps with names of their own (some
    write no message, one rewrites a message in place): newest first."""
    said: list[tuple[str, str]] = []
    states = []
    plan = [
        [("h1", "human")],  # 0: turn one
        [],  # 1: a middleware step writes todos only
        [("a1", "ai")],  # 2
        [("t1", "tool")],  # 3
        [],  # 4
        [("h2", "human"), ("reminder", "system")],  # 5: turn two (with a hidden reminder)
        [("a2", "ai")],  # 6
        [],  # 7
    ]
    for n, new in enumerate(plan):
        said = said + new
        states.append(checkpoint(n, said, n - 1 if n else None))
    return states[::-1]


def test_a_human_turn_starts_where_the_new_messages_include_a_human_one():
    states = deerflow_like()
    by_step = {s.step: s for s in states}
    assert new_message_types(by_step[5], by_step[4]) == ["human", "system"]
    assert new_message_types(by_step[0], None) == ["human"]
    assert [n for n in range(8) if starts_human_turn(by_step[n], by_step.get(n - 1))] == [0, 5]
    # A message replaced in place (same id, the list not a prefix any more) is not new.
    edited = by_step[6].model_copy(
        update={"values": {"messages": [{"id": "h1", "type": "human", "content": "edited"}, {"id": "x", "type": "ai"}]}}
    )
    assert new_message_types(edited, by_step[0]) == ["ai"]
    # No ids at all: the tail beyond the parent's messages is what is new.
    plain = ThreadState(values={"messages": [{"type": "ai"}, {"type": "human"}]})
    assert new_message_types(plain, ThreadState(values={"messages": [{"type": "ai"}]})) == ["human"]


def test_turn_index_skips_the_steps_between_turns_and_asks_for_older_pages():
    states = deerflow_like()  # rows: index 0 is step 7 ... index 7 is step 0
    model = TimelineModel()
    model.append(states[:4])  # steps 7..4: step 4's parent is not loaded
    assert model.turn_index(0, older=True) == 2  # step 5
    assert model.turn_index(2, older=True) == NEED_OLDER
    model.append(states[4:])
    model.exhausted = True  # (the widget says so when a page comes back short)
    assert model.turn_index(2, older=True) == 7  # step 0 (its parent is none: the root)
    assert model.turn_index(7, older=True) is None
    assert model.turn_index(7, older=False) == 2
    assert model.turn_index(2, older=False) is None  # newer than the last turn: none
    # The real demo thread: turns start where __start__ wrote a human message.
    real = TimelineModel()
    real.append(history())
    real.exhausted = True
    turns = [row.index for row in real.rows if real.human_turn(row.index)]
    assert turns and all(real.rows[i].writers == ["__start__"] for i in turns)


def test_a_history_without_sources_or_past_messages_still_tells_nodes_inputs_and_turns():
    """DeerFlow's Gateway drops metadata source and writes, and keeps the messages of the
    newest checkpoint only: the demo thread's history shaped that way."""
    states = history()
    stripped = [
        state.model_copy(
            update={
                "metadata": {k: v for k, v in state.metadata.items() if k not in ("source", "writes", "parents")},
                "values": {k: v for k, v in state.values.items() if k != "messages" or index == 0},
                "messages": state.messages if index == 0 else [],
            }
        )
        for index, state in enumerate(states)
    ]
    full, bare = TimelineModel(), TimelineModel()
    full.append(states)
    bare.append(stripped)
    loops = [row.index for row in full.rows if row.source == "loop"]  # (an update's writer is in its writes)
    assert loops and [bare.rows[i].writers for i in loops] == [full.rows[i].writers for i in loops]
    inputs = [row.index for row in full.rows if row.source == "input"]
    assert inputs and [row.index for row in bare.rows if row.source == "input"] == inputs
    assert [bare.human_turn(row.index) for row in bare.rows] == [full.human_turn(row.index) for row in full.rows]
