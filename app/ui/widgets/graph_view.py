"""GraphView (#graph-view): the assistant's graph drawn as text, next node(s) highlighted.

The layout is app.graph_layout (layered top-down, subgraphs grouped, conditional edges
dashed, loops marked ↑); this widget only maps its roles to styles and scrolls.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.widgets import Static

from ...graph_layout import GraphLayout, layout_graph
from ...models import GraphInfo
from ..text import clean

ROLE_STYLES = {
    "border": "$text-muted",
    "node": "bold",
    "next": "bold $text-warning",
    "group": "$text-accent",
    "member": "",
    "start": "$text-success",
    "end": "$text-error",
    "edge": "$text-muted",
    "cond": "$text-accent",
    "back": "$text-warning",
    "label": "italic $text-muted",
    "source": "",
    "target": "",
}
DEFAULT_WIDTH = 40


def layout_content(layout: GraphLayout) -> Content:
    lines = [
        Content.assemble(*((clean(text), ROLE_STYLES.get(role, "")) for text, role in line)) if line else Content("")
        for line in layout.lines
    ]
    return Content("\n").join(lines)


class GraphView(ScrollableContainer, can_focus=True):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.graph: GraphInfo | None = None
        self.next_nodes: list[str] = []
        self.layout_result: GraphLayout | None = None
        self._width = 0

    def compose(self) -> ComposeResult:
        yield Static(id="graph-legend")
        yield Static(Content.styled("No graph loaded.", "$text-muted"), id="graph-drawing", classes="-note")

    def show_graph(self, graph: GraphInfo | None, next_nodes: list[str] | None = None) -> None:
        """Draw `graph` (None: say there is none) with `next_nodes` highlighted."""
        self.graph = graph
        self.next_nodes = list(next_nodes or [])
        self._draw()

    def set_next(self, next_nodes: list[str]) -> None:
        """Highlight other next node(s) without fetching the graph again."""
        if list(next_nodes) != self.next_nodes:
            self.next_nodes = list(next_nodes)
            self._draw()

    def show_note(self, text: str) -> None:
        """A sentence in place of the graph, wrapped to the tab's width (a drawing is as wide
        as it is drawn, and scrolls)."""
        self.graph = None
        self.query_one("#graph-legend", Static).update(Content(""))
        drawing = self.query_one("#graph-drawing", Static)
        drawing.add_class("-note")
        drawing.update(Content.styled(clean(text), "$text-muted"))

    def _available_width(self) -> int:
        width = self.scrollable_content_region.width
        return max(24, width - 1) if width else DEFAULT_WIDTH

    def _draw(self) -> None:
        if self.graph is None:
            self.show_note("No graph loaded.")
            return
        self._width = self._available_width()
        self.layout_result = layout_graph(self.graph, self.next_nodes, self._width)
        legend: list[str | Content] = [
            Content.styled("━ next", "bold $text-warning"),
            "  ",
            Content.styled("┄▶ conditional", "$text-accent"),
            "  ",
            Content.styled("↑ loop", "$text-warning"),
        ]
        if self.next_nodes:
            legend = [
                Content.styled("next: " + ", ".join(clean(n) for n in self.next_nodes), "bold $text-warning"),
                "\n",
                *legend,
            ]
        self.query_one("#graph-legend", Static).update(Content.assemble(*legend))
        drawing = self.query_one("#graph-drawing", Static)
        drawing.remove_class("-note")
        drawing.update(layout_content(self.layout_result))

    def on_resize(self) -> None:
        if self.graph is not None and self._available_width() != self._width:
            self._draw()
