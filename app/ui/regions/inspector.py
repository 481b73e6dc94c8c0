"""The inspector (#inspector): tabs for the state, the timeline, the graph and the events.

    State     #state-banner (live / past view) · #state-filter (Input) · #state-tree
    Timeline  #timeline (checkpoints, newest first) · #diff-view (what the selected one changed)
    Graph     #graph-view
    Events    #event-log

This module draws; its base InspectorHistory (history.py) loads the checkpoint history and
the graph in its own workers and owns the time-travel keys. Local work stays here: a
Timeline.Selected shows that checkpoint's state in the tree (marked as a past view) and its
diff against its parent (or against the checkpoint marked with m); the message still bubbles
up so the screen can show the conversation as it was. The conversation calls:

    show_state(state)                     the live head (after get_state, a run, an edit)
    load_history(thread_id), load_graph(state, assistant)   when a thread opens or a run ends
    run_began(), add_events(batch, count), stream_modes()    the event log during a run
    show_checkpoints / append_checkpoints / disable_timeline / show_graph / show_live / clear
    event_log, timeline, state_tree, diff_view, graph_view   the widgets themselves
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import Input, Static, TabPane

from ...artifacts import artifact_paths
from ...diff import StateDiff, diff_states
from ...models import GraphInfo, RunEvent, ThreadState
from ..pane_layout import CLOSE_OVER
from ..screens.artifacts import ArtifactsScreen
from ..text import clean
from ..widgets.diff_view import DiffView
from ..widgets.event_log import EventLog
from ..widgets.graph_view import GraphView
from ..widgets.state_tree import StateTree
from ..widgets.timeline import Timeline, clock_time
from .history import InspectorHistory

DIFFS_KEPT = 128
TAB_FOCUS = {
    "tab-state": "#state-tree",
    "tab-timeline": "#timeline-list",
    "tab-graph": "#graph-view",
    "tab-events": "#event-lines",
}
"""What takes the focus when a tab's key shows it: the tab's content (not the filter or the
event-mode boxes above it)."""


class FilterInput(Input):
    """The key filter; escape (or enter) goes back to the tree, keeping the filter."""

    BINDINGS = [Binding("escape", "done", "Back to the tree", show=False, id="state.filter_done")]

    def action_done(self) -> None:
        self.post_message(self.Submitted(self, self.value))


class Inspector(InspectorHistory):
    BINDINGS = [CLOSE_OVER]
    SCREEN_KEYS: ClassVar[list[Binding]] = [
        Binding(
            "d",
            "artifacts",
            "Artifacts",
            show=False,
            id="main.artifacts",
            tooltip="Artifacts: the files the agent made (view, save, open in $EDITOR)",
        ),
        # alt+letter: no widget of the app binds it, and as priority keys no text box types the
        # letter that comes with it (a terminal sends escape and the letter: Textual's key
        # carries the letter as its character); alt+digit would not do: Textual reads escape
        # and a digit as the symbol macOS types for option+digit (™ for alt+2). The footer
        # shows the four as one key (its display is dropped when the keymap rebinds it).
        Binding(
            "alt+s",
            "show_state_tab",
            "Tabs",
            key_display="alt+s/t/g/e",
            priority=True,
            id="main.tab_state",
            tooltip="Inspector: the State tab (alt+t, alt+g and alt+e: the other tabs)",
        ),
        Binding(
            "alt+t",
            "show_timeline_tab",
            "Timeline",
            show=False,
            priority=True,
            id="main.tab_timeline",
            tooltip="Inspector: the Timeline tab (checkpoints, time travel)",
        ),
        Binding(
            "alt+g",
            "show_graph_tab",
            "Graph",
            show=False,
            priority=True,
            id="main.tab_graph",
            tooltip="Inspector: the Graph tab (the graph drawn)",
        ),
        Binding(
            "alt+e",
            "show_events_tab",
            "Events",
            show=False,
            priority=True,
            id="main.tab_events",
            tooltip="Inspector: the Events tab (a run's stream events)",
        ),
    ]
    """The keys of the main screen this region acts on (main_keys.py binds them on the screen)."""

    DEFAULT_CSS = """
    Inspector {
        & TabPane { padding: 0; }
        #state-banner { height: auto; padding: 0 1; background: $boost; color: $text-muted; }
        #state-banner.-past { background: $warning 25%; color: $text; }
        #state-filter { height: 1; border: none; padding: 0 1; background: $boost; }
        #state-filter:focus { background: $surface-lighten-1; }
        #state-tree { height: 1fr; padding: 0 0 0 1; overflow-x: hidden; }
        #timeline { height: 1fr; min-height: 8; }
        #timeline-header { height: auto; padding: 0 1; background: $boost; }
        #timeline-columns { height: 1; color: $text-muted; }
        #timeline-list { height: 1fr; border: none; padding: 0; scrollbar-size-vertical: 1; }
        #timeline-list > .option-list--option { padding: 0 0; }
        #timeline-reason { padding: 1 1; color: $text-muted; }
        #diff-view {
            height: 45%; min-height: 6; border-top: solid $panel-lighten-2; padding: 0 1; scrollbar-size-vertical: 1;
        }
        #diff-view:focus { border-top: solid $accent; }
        #diff-title { height: auto; }
        #diff-body { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
        #graph-view { height: 1fr; padding: 0 1; scrollbar-size: 1 1; }
        #graph-legend { height: auto; margin-bottom: 1; }
        #graph-drawing { width: auto; height: auto; }
        #graph-drawing.-note { width: 1fr; }
        #event-log { height: 1fr; }
        #event-log-header { height: 1; padding: 0 1; background: $boost; }
        #event-modes { grid-size: 3; grid-gutter: 0 1; height: auto; padding: 0 1; }
        #event-modes Checkbox { width: 1fr; }
        #event-columns { height: 1; }
        #event-lines { height: 1fr; }
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.live_state: ThreadState | None = None
        self.viewing: ThreadState | None = None
        """The checkpoint shown in the tree, or None for the live head."""
        self._graphs: dict[str, GraphInfo] = {}
        """The graphs shown so far, by assistant or graph id."""
        self.live_hint = ""
        """A key hint for going back to live, shown in the past-view banner (set by the screen)."""
        self._diffs: dict[tuple[str, str], StateDiff] = {}
        """Diffs shown, by (old, new) checkpoint id: a checkpoint never changes, and stepping
        back and forth through a thread of 1,000 messages shows the same ones again."""

    def compose(self) -> ComposeResult:
        # TabbedContent composes the panes it was given (normally from a `with` block):
        # hand it ours, then let it build the tabs and the switcher.
        self._tab_content = [
            TabPane(
                "State",
                Static(id="state-banner"),
                FilterInput(placeholder="filter keys (f)", id="state-filter"),
                StateTree(id="state-tree"),
                id="tab-state",
            ),
            TabPane("Timeline", Timeline(id="timeline"), DiffView(id="diff-view"), id="tab-timeline"),
            TabPane("Graph", GraphView(id="graph-view"), id="tab-graph"),
            TabPane("Events", EventLog(id="event-log"), id="tab-events"),
        ]
        yield from super().compose()

    def on_mount(self) -> None:
        self._update_banner()

    # -- the widgets ---------------------------------------------------------------------------

    @property
    def state_tree(self) -> StateTree:
        return self.query_one("#state-tree", StateTree)

    @property
    def timeline(self) -> Timeline:
        return self.query_one("#timeline", Timeline)

    @property
    def diff_view(self) -> DiffView:
        return self.query_one("#diff-view", DiffView)

    @property
    def graph_view(self) -> GraphView:
        return self.query_one("#graph-view", GraphView)

    @property
    def event_log(self) -> EventLog:
        return self.query_one("#event-log", EventLog)

    def focus_content(self) -> None:
        """The focus to the open tab's content (the tree, the timeline, the graph, the events)."""
        self.query_one(TAB_FOCUS.get(self.active, "#state-tree")).focus()

    @property
    def is_past_view(self) -> bool:
        return self.viewing is not None

    # -- what the screen calls -----------------------------------------------------------------

    def show_state(self, state: ThreadState) -> None:
        """The live head changed. A past view stays on screen until show_live(). Another
        thread's checkpoints go at once: until its own come, `[` would step through the
        thread left under the name of the thread opened."""
        shown = self.timeline.checkpoints
        if shown and state.thread_id and shown[0].thread_id != state.thread_id:
            self.viewing = None
            self._diffs.clear()
            self.timeline.clear()
            self.diff_view.show_note("")
        self.live_state = state
        if self.viewing is None:
            self._show_tree(state)
            self._update_banner()
        self.graph_view.set_next(list(state.next))

    def show_live(self) -> None:
        """Leave a past view: the tree shows the live head, the timeline cursor goes to it."""
        self.viewing = None
        if self.live_state is not None:
            self._show_tree(self.live_state)
        self._update_banner()
        self.timeline.select_head()

    def show_checkpoints(self, checkpoints: list[ThreadState], exhausted: bool) -> None:
        """A new first page of history: any past view ends, the cursor is on the head."""
        if self.viewing is not None and self.live_state is not None:
            self._show_tree(self.live_state)
        self.viewing = None
        self.timeline.set_checkpoints(checkpoints, exhausted)
        self.diff_view.show_note("Select a checkpoint ([ and ]) to see what it changed.")
        if checkpoints:
            self._show_diff(checkpoints[0], self.timeline.model.parent_of(checkpoints[0]))
        self._update_banner()

    def append_checkpoints(self, checkpoints: list[ThreadState], exhausted: bool) -> None:
        self.timeline.append_checkpoints(checkpoints, exhausted)

    def disable_timeline(self, reason: str) -> None:
        self.timeline.disable(reason)
        self.diff_view.show_note("")
        self.diff_view.display = False
        tab = self.get_tab("tab-timeline")
        tab.tooltip = reason
        self.disable_tab("tab-timeline")

    def enable_timeline(self) -> None:
        self.timeline.enable()
        self.diff_view.display = True
        self.get_tab("tab-timeline").tooltip = None
        self.enable_tab("tab-timeline")

    def show_graph(self, graph: GraphInfo | None, next_nodes: list[str] | None = None) -> None:
        if next_nodes is None and self.live_state is not None:
            next_nodes = list(self.live_state.next)
        self.graph_view.show_graph(graph, next_nodes)

    def stream_modes(self) -> list[str]:
        """The stream modes the event log asks runs for."""
        return self.event_log.selected_modes()

    def offer_stream_modes(self, modes: tuple[str, ...]) -> None:
        """The stream modes the server streams: the only ones the Events tab offers."""
        self.event_log.offer_modes(modes)

    def run_began(self) -> None:
        self.event_log.clear()

    def add_events(self, events: list[RunEvent], count: int) -> None:
        """A run's events: into the Events tab, and the state tree follows the graph's values as
        each step ends (the server's state is read again when the run is over)."""
        self.event_log.add_events(events, count)
        values = next(
            (e.data for e in reversed(events) if e.kind == "values" and not e.namespace and isinstance(e.data, dict)),
            None,
        )
        if values is not None:
            base = self.live_state or ThreadState()
            self.show_state(base.model_copy(update={"values": values}))

    def forget(self) -> None:
        """The open thread is gone: drop the answers on their way and show nothing."""
        for group in ("history", "graph"):
            self.workers.cancel_group(self, group)
        self.clear()

    def clear(self) -> None:
        """No thread open."""
        self.live_state = None
        self.viewing = None
        self._diffs.clear()
        self.state_tree.clear()
        self.timeline.clear()
        self.diff_view.show_note("")
        self.graph_view.show_note("No thread open.")
        self.event_log.clear()
        self._update_banner()

    def action_artifacts(self) -> None:
        """d: the open thread's artifacts (its state's), shown and saved in #artifacts-view."""
        backend, thread_id = self.app.session.backend, self._open_thread_id
        if backend is None or thread_id is None:
            self.notify("Open a thread first: d lists the files its agent made.", severity="warning", timeout=3)
            return
        state = self.live_state
        paths = artifact_paths(state.values) if state is not None and state.thread_id == thread_id else []
        self.app.push_screen(ArtifactsScreen(backend, thread_id, paths))

    def action_show_state_tab(self) -> None:
        self.show_tab("tab-state")

    def action_show_timeline_tab(self) -> None:
        self.show_tab("tab-timeline")

    def action_show_graph_tab(self) -> None:
        self.show_tab("tab-graph")

    def action_show_events_tab(self) -> None:
        self.show_tab("tab-events")

    def show_tab(self, tab: str) -> None:
        """alt+s, alt+t, alt+g, alt+e: the tab, and the focus in it (wherever the focus was on the screen)."""
        if self.get_tab(tab).disabled:
            reason = self.get_tab(tab).tooltip  # (what disable_timeline says: the server keeps no history)
            self.notify(str(reason or "This server has no such tab."), severity="warning", timeout=3)
            return
        self.active = tab
        self.query_one(TAB_FOCUS[tab]).focus()

    # -- local work ----------------------------------------------------------------------------

    def _show_tree(self, state: ThreadState) -> None:
        """The tree shows `state` now if its tab is open, else when the tab opens."""
        if self.active == "tab-state":
            self.state_tree.show_state(state)
        else:
            self.state_tree.hold(state)

    def watch_active(self, active: str) -> None:
        if active == "tab-state":
            self.state_tree.catch_up()

    def _update_banner(self) -> None:
        banner = self.query_one("#state-banner", Static)
        viewing = self.viewing
        if viewing is None:
            layout = banner.has_class("-past")  # (the live banner is a row: at each step of a run, no layout)
            banner.remove_class("-past")
            state = self.live_state
            if state is None:
                banner.update(Content.styled("no thread open", "$text-muted"), layout=layout)
                return
            step = f"step {state.step}" if state.step is not None else "head"
            live = Content.assemble(("● live", "bold $text-success"), (f"  {step}", "$text-muted"))
            banner.update(live, layout=layout)
            return
        banner.add_class("-past")
        parts = [
            ("◷ past view", "bold $text-warning"),
            (f"  step {viewing.step}" if viewing.step is not None else "", "bold"),
            (f" · {clean(viewing.source)}" if viewing.source else "", ""),
            (f" · {clock_time(viewing.created_at)}", "$text-muted"),
        ]
        if self.live_hint:
            parts.append((f"\n{clean(self.live_hint)}", "$text-muted"))
        banner.update(Content.assemble(*parts))

    def _show_diff(self, checkpoint: ThreadState, parent: ThreadState | None) -> None:
        marked = self.timeline.marked
        if marked is not None and marked.checkpoint_id != checkpoint.checkpoint_id:
            old, new = marked, checkpoint
            if (old.step or 0) > (new.step or 0) or (
                old.step == new.step and old.created_at and new.created_at and old.created_at > new.created_at
            ):
                old, new = new, old
            self.diff_view.show_diff(self._diff(old, new), "★ marked")
            return
        if parent is None and checkpoint.parent_checkpoint_id:
            self.diff_view.show_diff(self._diff(None, checkpoint), "parent not loaded yet: all values")
            return
        self.diff_view.show_diff(self._diff(parent, checkpoint), "against its parent" if parent else "first checkpoint")

    def _diff(self, old: ThreadState | None, new: ThreadState) -> StateDiff:
        key = (old.checkpoint_id if old is not None else "", new.checkpoint_id)
        if not new.checkpoint_id or (old is not None and not old.checkpoint_id):
            return diff_states(old, new)
        diff = self._diffs.pop(key, None) or diff_states(old, new)
        self._diffs[key] = diff  # newest last: the oldest go first
        if len(self._diffs) > DIFFS_KEPT:
            del self._diffs[next(iter(self._diffs))]
        return diff

    @on(Timeline.Selected)
    def _timeline_selected(self, event: Timeline.Selected) -> None:
        # Not stopped: the screen shows the conversation as it was then.
        if not event.moot:
            self.show_selected(event)

    def show_selected(self, event: Timeline.Selected) -> None:
        """The state, banner and diff of the checkpoint the timeline's cursor is on."""
        self.viewing = None if event.is_head else event.checkpoint
        self._show_tree(event.checkpoint if not event.is_head or self.live_state is None else self.live_state)
        self._update_banner()
        self._show_diff(event.checkpoint, event.parent)

    @on(Timeline.Marked)
    def _timeline_marked(self, event: Timeline.Marked) -> None:
        selected = self.timeline.selected
        if selected is not None:
            self._show_diff(selected, self.timeline.model.parent_of(selected))

    @on(Input.Changed, "#state-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.state_tree.set_filter(event.value)

    @on(Input.Submitted, "#state-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.state_tree.focus()

    @on(StateTree.FilterRequested)
    def _filter_requested(self, event: StateTree.FilterRequested) -> None:
        event.stop()
        self.query_one("#state-filter", Input).focus()
