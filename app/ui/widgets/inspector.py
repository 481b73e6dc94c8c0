"""The inspector (#inspector): tabs for the state, the timeline, the graph and the events."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Static, TabbedContent, TabPane

from app.models import ThreadState
from app.ui.widgets.state_tree import StateTree


class Inspector(TabbedContent):
    def compose(self) -> ComposeResult:
        with TabPane("State", id="tab-state"):
            yield StateTree(id="state-tree")
        with TabPane("Timeline", id="tab-timeline"):
            yield Static(Content.styled("Checkpoint history: coming with the timeline.", "dim"), id="timeline")
        with TabPane("Graph", id="tab-graph"):
            yield Static(Content.styled("Graph view: coming soon.", "dim"), id="graph-view")
        with TabPane("Events", id="tab-events"):
            yield Static(Content.styled("Stream events of the current run.", "dim"), id="event-log")

    def show_state(self, state: ThreadState) -> None:
        self.query_one(StateTree).show_state(state)
