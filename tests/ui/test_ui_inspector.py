"""The inspector's widgets in a small host app, fed with models built from real payloads
(tests/data, made by tests/data/make_history.py): snapshots and Pilot tests of the keys.

No server is needed: the widgets never call the network.
"""

from __future__ import annotations

import copy
from datetime import UTC

import pytest
import threadbench.ui.widgets.timeline as timeline_module
from data.checkpoints import graph, history, raw_history
from support.driving import screen_lines
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Input, Static, TextArea
from threadbench.models import RunEvent, ThreadState
from threadbench.normalize import state_from_dict
from threadbench.styles import STYLES
from threadbench.ui.regions.inspector import Inspector
from threadbench.ui.screens.edit_state import EditResult, EditStateScreen, parse_values
from threadbench.ui.widgets.event_log import EventLog
from threadbench.ui.widgets.state_tree import StateTree, TextViewScreen
from threadbench.ui.widgets.timeline import Timeline

TERMINAL = (140, 40)
LONG_SUMMARY = (
    "The user wants a short report about penguins.\n"
    "Plan: collect the constraints, sketch the approach, write the report in small steps, "
    "then check the result and summarise it for the user. Keep every claim sourced; prefer "
    "field studies over press articles; mention the three species the user named."
)


@pytest.fixture(autouse=True)
def utc_times(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timeline_module, "DISPLAY_TZ", UTC)


class Host(App[None]):
    """The main screen's layout, reduced to a chat placeholder and the inspector."""

    CSS_PATH = [STYLES / "app.tcss"]

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[object] = []
        self.copied: list[str] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            yield Static(Content.styled("chat", "dim"), id="chat-pane")
            yield Inspector(id="inspector")

    @property
    def inspector(self) -> Inspector:
        return self.query_one(Inspector)

    def copy_to_clipboard(self, text: str) -> None:
        self.copied.append(text)

    def on_timeline_selected(self, event: Timeline.Selected) -> None:
        self.seen.append(event)

    def on_timeline_marked(self, event: Timeline.Marked) -> None:
        self.seen.append(event)

    def on_timeline_need_more(self, event: Timeline.NeedMore) -> None:
        self.seen.append(event)

    def on_state_tree_edit_requested(self, event: StateTree.EditRequested) -> None:
        self.seen.append(event)

    def on_event_log_modes_changed(self, event: EventLog.ModesChanged) -> None:
        self.seen.append(event)


def deerflow_state() -> ThreadState:
    """A real checkpoint (end of the second turn: title, todos, artifacts, uploaded_files,
    sandbox, thread_data), with the keys newer DeerFlow versions add and a pending step."""
    raw = next(item for item in raw_history() if "uploaded_files" in item["values"] and not item["next"])
    raw = copy.deepcopy(raw)
    raw["values"]["summary_text"] = LONG_SUMMARY
    raw["values"]["viewed_images"] = {
        "/mnt/user-data/uploads/chart.png": {"mime_type": "image/png", "size": 48213, "actual_path": "/tmp/chart.png"}
    }
    raw["values"]["goal"] = "[bold]Report on penguins[/bold]"  # markup shows literally
    raw["next"] = ["tools"]
    return state_from_dict(raw)


def events(count: int) -> list[RunEvent]:
    names = [("metadata", "metadata", ""), ("messages", "token", "agent"), ("updates", "updates", "tools")]
    out = []
    for index in range(count):
        event, kind, node = names[0] if index == 0 else names[1 + (index % 7 == 0)]
        out.append(RunEvent(kind=kind, event=event, node=node, size=180 + index % 50, run_id="run-1"))
    return out


# -- snapshots ---------------------------------------------------------------------------------


def test_snapshot_state_tree_deerflow(snap_compare):
    async def run_before(pilot) -> None:
        inspector = pilot.app.inspector
        inspector.show_state(deerflow_state())
        await pilot.pause()
        tree = inspector.state_tree
        for key in ("uploaded_files", "summary_text", "messages"):
            node = next(n for n in tree.root.children if n.data and n.data.path == (key,))
            node.expand()
        tree.focus()
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=TERMINAL, run_before=run_before)


def test_snapshot_timeline_with_a_branch(snap_compare):
    async def run_before(pilot) -> None:
        inspector = pilot.app.inspector
        states = history()
        inspector.show_state(states[0])
        inspector.show_checkpoints(states, exhausted=True)
        inspector.active = "tab-timeline"
        await pilot.pause()
        inspector.timeline.focus()
        # Down to the update_state fork: its diff shows the todo it completed.
        for _ in range(6):
            inspector.timeline.select_older()
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=TERMINAL, run_before=run_before)


def test_snapshot_diff_between_two_marked_branches(snap_compare):
    async def run_before(pilot) -> None:
        inspector = pilot.app.inspector
        states = history()
        inspector.show_state(states[0])
        inspector.show_checkpoints(states, exhausted=True)
        inspector.active = "tab-timeline"
        await pilot.pause()
        timeline = inspector.timeline
        timeline.focus()
        main_head = next(s for s in states if "uploaded_files" in s.values and not s.next)
        timeline.select_checkpoint(main_head.checkpoint_id)
        await pilot.pause()
        await pilot.press("m")
        timeline.select_head()
        await pilot.pause()
        inspector.diff_view.focus()
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=TERMINAL, run_before=run_before)


def test_snapshot_graph_view(snap_compare):
    async def run_before(pilot) -> None:
        inspector = pilot.app.inspector
        inspector.active = "tab-graph"
        await pilot.pause()
        inspector.show_graph(graph(xray=True), ["agent"])
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=TERMINAL, run_before=run_before)


def test_snapshot_event_log(snap_compare):
    async def run_before(pilot) -> None:
        inspector = pilot.app.inspector
        inspector.active = "tab-events"
        await pilot.pause()
        log = inspector.event_log
        ticks = iter([10.0, 10.5, 11.0])
        log.clock = lambda: next(ticks)
        batch = events(120)
        for end in (40, 80, 120):
            log.add_events(batch[end - 40 : end], count=40)
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=TERMINAL, run_before=run_before)


def test_snapshot_state_editor_with_an_error(snap_compare):
    async def submit(values, as_node):  # never reached: the JSON is refused first
        raise AssertionError("sent invalid JSON")

    async def run_before(pilot) -> None:
        state = history()[0]
        values = {"title": state.values["title"], "todos": state.values["todos"]}
        screen = EditStateScreen(
            values, submit, nodes=["__start__", "agent", "tools", "title", "__end__"], as_node="agent", fork_from=state
        )
        await pilot.app.push_screen(screen)
        await pilot.pause()
        editor = screen.editor
        # A comma lost at the end of line 2: the parser stops at line 3.
        editor.text = editor.text.replace('penguins",', 'penguins"', 1)
        await pilot.press("ctrl+s")
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=TERMINAL, run_before=run_before)


# -- Pilot: the state tree -----------------------------------------------------------------------


async def test_filter_keeps_matching_top_level_keys():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        inspector = app.inspector
        inspector.show_state(deerflow_state())
        tree = inspector.state_tree
        tree.focus()
        await pilot.press("f")
        assert app.focused is app.query_one("#state-filter", Input)
        await pilot.press("t", "o", "d")
        await pilot.pause()
        keys = [n.data.path for n in tree.root.children]
        assert keys == [("todos",)]
        await pilot.press("escape")
        assert app.focused is tree
        app.query_one("#state-filter", Input).value = "nothing-like-this"
        await pilot.pause()
        assert "no key matches" in str(tree.root.children[0].label)
        app.query_one("#state-filter", Input).value = ""
        await pilot.pause()
        assert len(tree.root.children) > 8


async def test_copy_view_and_edit_keys_on_the_tree():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        inspector = app.inspector
        state = deerflow_state()
        inspector.show_state(state)
        tree = inspector.state_tree
        tree.focus()
        todos = next(n for n in tree.root.children if n.data.path == ("todos",))
        tree.move_cursor(todos)
        await pilot.press("y")
        assert app.copied and '"status": "completed"' in app.copied[-1]
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.seen[-1], StateTree.EditRequested) and app.seen[-1].key == "todos"
        summary = next(n for n in tree.root.children if n.data.path == ("summary_text",))
        tree.move_cursor(summary)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, TextViewScreen)
        assert app.screen.query_one("#text-view", TextArea).text == LONG_SUMMARY
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not None and not isinstance(app.screen, TextViewScreen)


async def test_long_lists_show_a_page_of_children_then_more():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        raw = copy.deepcopy(raw_history()[0])
        template = raw["values"]["messages"]
        raw["values"]["messages"] = [dict(template[i % len(template)], id=f"m{i}") for i in range(450)]
        app.inspector.show_state(state_from_dict(raw))
        tree = app.inspector.state_tree
        messages = next(n for n in tree.root.children if n.data.path == ("messages",))
        messages.expand()
        await pilot.pause()
        assert len(messages.children) == 201 and messages.children[-1].data.kind == "more"
        tree.focus()
        tree.move_cursor(messages.children[-1])
        await pilot.press("enter")
        await pilot.pause()
        assert len(messages.children) == 401


async def test_show_state_keeps_open_nodes_open():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        states = history()
        app.inspector.show_state(states[1])
        tree = app.inspector.state_tree
        artifacts = next(n for n in tree.root.children if n.data.path == ("artifacts",))
        artifacts.expand()
        await pilot.pause()
        app.inspector.show_state(states[0])
        await pilot.pause()
        artifacts = next(n for n in tree.root.children if n.data.path == ("artifacts",))
        assert artifacts.is_expanded and len(artifacts.children) == 2


async def test_a_new_step_relabels_the_tree_in_place_and_an_opened_key_shows_what_it_now_holds():
    """Each step of a run brings its values: the same keys redraw their labels (no rebuild,
    no layout of the screen, the cursor kept); a key the user opened shows its new children."""

    def state(count: int, step: int) -> ThreadState:
        messages = [{"type": "human" if i % 2 == 0 else "ai", "content": f"said {i}"} for i in range(count)]
        return ThreadState(values={"messages": messages, "turns": count}, metadata={"step": step, "source": "loop"})

    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        tree = app.inspector.state_tree
        app.inspector.show_state(state(2, 1))
        await pilot.pause()
        nodes = list(tree.root.children)
        tree.move_cursor(nodes[1])
        layouts: list[bool] = []
        refresh = tree.refresh
        tree.refresh = lambda *a, layout=False, **k: (layouts.append(layout), refresh(*a, layout=layout, **k))[1]
        app.inspector.show_state(state(3, 2))
        await pilot.pause()
        shown = " ".join(screen_lines(app))
        assert "list[3]" in shown and "turns 3" in shown and "step 2" in shown, shown
        assert list(tree.root.children) == nodes and tree.cursor_node is nodes[1]
        assert not any(layouts), "a relabel laid the screen out"

        nodes[0].expand()
        await pilot.pause()
        assert "said 2" in " ".join(screen_lines(app))
        app.inspector.show_state(state(4, 3))
        await pilot.pause()
        shown = " ".join(screen_lines(app))
        assert "said 3" in shown and "list[4]" in shown, shown
        assert any(layouts), "an opened key with new children was relabelled, not rebuilt"


# -- Pilot: the timeline -------------------------------------------------------------------------


async def test_older_and_newer_post_selected_and_show_a_past_view():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        inspector = app.inspector
        states = history()
        inspector.live_hint = "backspace: back to live"
        inspector.show_state(states[0])
        inspector.show_checkpoints(states[:10], exhausted=False)
        await pilot.pause()
        assert not app.seen  # loading the head is not a selection
        timeline = inspector.timeline
        timeline.select_older()
        await pilot.pause()
        event = app.seen[-1]
        assert isinstance(event, Timeline.Selected)
        assert event.checkpoint.checkpoint_id == states[1].checkpoint_id and not event.is_head
        assert event.parent is not None and event.parent.checkpoint_id == states[2].checkpoint_id
        assert inspector.is_past_view and inspector.state_tree.state is states[1]
        banner = str(app.query_one("#state-banner", Static).visual)
        assert "past view" in banner and "step 11" in banner and "backspace" in banner
        timeline.select_newer()
        await pilot.pause()
        assert app.seen[-1].is_head and not inspector.is_past_view
        assert "live" in str(app.query_one("#state-banner", Static).visual)
        # Back to live from anywhere.
        timeline.select_older()
        timeline.select_older()
        await pilot.pause()
        inspector.show_live()
        await pilot.pause()
        assert not inspector.is_past_view and timeline.selected is states[0]


async def test_need_more_near_the_end_then_append():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        inspector = app.inspector
        states = history()
        inspector.show_checkpoints(states[:8], exhausted=False)
        timeline = inspector.timeline
        for _ in range(3):
            timeline.select_older()
        await pilot.pause()
        asks = [e for e in app.seen if isinstance(e, Timeline.NeedMore)]
        assert len(asks) == 1 and asks[0].before_checkpoint_id == states[7].checkpoint_id
        inspector.append_checkpoints(states[8:], exhausted=True)
        await pilot.pause()
        assert len(timeline.checkpoints) == len(states) and timeline.exhausted
        # The fork whose original sibling came with the second page is now marked as a fork.
        assert timeline.model.rows[5].source == "fork"
        for _ in range(30):
            timeline.select_older()
        await pilot.pause()
        assert len([e for e in app.seen if isinstance(e, Timeline.NeedMore)]) == 1
        assert timeline.selected is timeline.checkpoints[-1]


async def test_mark_with_m_for_a_two_way_diff():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        inspector = app.inspector
        states = history()
        inspector.show_checkpoints(states, exhausted=True)
        inspector.active = "tab-timeline"
        await pilot.pause()
        timeline = inspector.timeline
        timeline.focus()
        await pilot.press("down", "down", "m")
        await pilot.pause()
        marked = [e for e in app.seen if isinstance(e, Timeline.Marked)]
        assert marked and marked[-1].checkpoint is states[2]
        assert "★ marked step 10" in str(app.query_one("#timeline-header", Static).visual)
        await pilot.press("up", "up")
        await pilot.pause()
        diff = inspector.diff_view.diff
        assert diff.old_checkpoint_id == states[2].checkpoint_id and diff.new_checkpoint_id == states[0].checkpoint_id
        await pilot.press("down", "down", "m")  # unmark
        await pilot.pause()
        assert app.seen[-1].checkpoint is None and timeline.marked is None


async def test_a_server_without_history_disables_the_timeline():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        inspector = app.inspector
        inspector.disable_timeline("10xGraph keeps no checkpoint history.")
        await pilot.pause()
        assert inspector.get_tab("tab-timeline").disabled
        assert "no checkpoint history" in str(app.query_one("#timeline-reason", Static).visual)
        inspector.enable_timeline()
        inspector.show_checkpoints(history()[:3], exhausted=True)
        await pilot.pause()
        assert not inspector.get_tab("tab-timeline").disabled
        assert app.query_one("#timeline-list").display


# -- Pilot: events -------------------------------------------------------------------------------


async def test_event_log_counts_caps_and_toggles_modes():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        log = app.inspector.event_log
        assert log.selected_modes() == ["values", "updates", "messages-tuple", "custom"]
        ticks = iter([0.0, 1.0, 2.0, 3.0])
        log.clock = lambda: next(ticks)
        batch = events(1500)
        log.add_events(batch[:500], 500)
        log.add_events(batch[500:1000], 500)
        log.add_events(batch[1000:], 500)
        log.add_events(events(1000), 1000)
        assert log.count == 2500 and len(log.lines.rows) == 2000
        assert log.lines.rows[0][0] == 501 and log.lines.rows[-1][0] == 2500
        assert round(log.rate) == 750  # (2500 - 1000) events over the last 2 s
        app.inspector.active = "tab-events"
        await pilot.pause()
        await pilot.click("#mode-debug")
        await pilot.pause()
        assert "debug" in log.selected_modes()
        assert isinstance(app.seen[-1], EventLog.ModesChanged) and "debug" in app.seen[-1].modes
        log.clear()
        assert log.count == 0 and not log.lines.rows


async def test_the_header_counts_the_servers_events_and_the_rows_are_numbered_in_order():
    """The stream pump hands each batch with a message's tokens merged and how many events the
    server sent for it: "1 event" over 11 rows, numbered 1, 30…37, 1, counted the batch alone."""
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        app.inspector.active = "tab-events"
        app.inspector.run_began()
        app.inspector.add_events(events(1), 1)
        app.inspector.add_events(events(8), 37)  # (tokens merged)
        app.inspector.add_events(events(2), 2)
        await pilot.pause()
        log = app.inspector.event_log
        assert [row[0] for row in log.lines.rows] == list(range(1, 12))
        assert "40 events" in " ".join(screen_lines(app)[: log.lines.region.y])


async def test_events_that_came_while_the_tab_was_hidden_show_at_the_end_when_it_opens():
    app = Host()
    async with app.run_test(size=TERMINAL) as pilot:
        log = app.inspector.event_log
        header = log.query_one("#event-log-header")
        refreshed: list[bool] = []
        refresh = header.refresh
        header.refresh = lambda *a, **k: (refreshed.append(True), refresh(*a, **k))[1]
        log.add_events(events(300), 300)  # (the state tab is in front)
        await pilot.pause()
        assert not refreshed, "a hidden widget refreshed makes the screen map every widget again, each frame"
        app.inspector.active = "tab-events"
        await pilot.pause()
        await pilot.pause()
        lines = log.lines
        assert lines.virtual_size.height == 300 and lines.scroll_y == lines.max_scroll_y > 0
        shown = [strip.text for strip in lines.render_lines(lines.region.reset_offset)]
        assert shown[-1].split()[0] == "300", "the last event in view"
        header = " ".join(screen_lines(app)[: lines.region.y])
        assert "300 events" in header and "last: messages" in header, "the count, brought up to date as it shows"


# -- Pilot: the state editor ---------------------------------------------------------------------


def test_parse_values_points_at_the_mistake():
    with pytest.raises(ValueError, match="line 3, column 3.*end of the line before"):
        parse_values('{\n  "a": 1\n  "b": 2\n}', None)
    with pytest.raises(ValueError, match="JSON object"):
        parse_values("[1, 2]", None)
    assert parse_values("[1, 2]", "todos") == {"todos": [1, 2]}


async def test_invalid_json_is_refused_and_kept_then_a_server_refusal_keeps_it_too():
    sent: list[tuple[dict, str | None]] = []
    answers = iter(["as_node 'nope' is not a node of this graph", None])

    async def submit(values, as_node):
        sent.append((values, as_node))
        return next(answers)

    app = Host()
    results: list[EditResult | None] = []
    async with app.run_test(size=TERMINAL) as pilot:
        screen = EditStateScreen({"title": "Old"}, submit, key="title", nodes=["agent", "title"])
        app.push_screen(screen, results.append)
        await pilot.pause()
        editor = screen.editor
        editor.text = '"New title'
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not sent and app.screen is screen
        assert "line 1, column 1" in screen.error_text
        assert editor.text == '"New title'
        editor.text = '"New title"'
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert sent == [({"title": "New title"}, None)]
        assert app.screen is screen and "refused" in screen.error_text and "nope" in screen.error_text
        assert editor.text == '"New title"'
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert len(sent) == 2 and results and results[0].values == {"title": "New title"}
        assert results[0].key == "title" and results[0].fork_from is None
