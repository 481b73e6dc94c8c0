"""The timeline's rows over real history payloads (tests/data/history_branch.json)."""

from __future__ import annotations

from data.checkpoints import by_suffix, history, raw_history
from threadbench.normalize import state_from_dict
from threadbench.timeline import TimelineModel, build_rows, fork_point_for_message, writers_of


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
