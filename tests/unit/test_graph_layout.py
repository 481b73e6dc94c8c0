"""The text layout of graphs, on the demo agent's real get_graph payloads (tests/data)."""

from __future__ import annotations

from data.checkpoints import graph
from threadbench.graph_layout import END, START, layout_graph
from threadbench.models import GraphEdge, GraphInfo, GraphNode


def texts(layout) -> list[str]:
    return ["".join(text for text, _ in line) for line in layout.lines]


def roles_of(layout, word: str) -> set[str]:
    return {role for line in layout.lines for text, role in line if word in text}


def test_layers_go_from_start_to_end_with_the_subgraph_grouped():
    layout = layout_graph(graph(xray=True), [], 42)
    assert layout.layers == [[START], ["agent"], ["research", "title", "tools"], [END]]
    lines = texts(layout)
    assert lines[0] == "● __start__" and lines[-1] == "◉ __end__"
    # One box for the research subgraph, its nodes inside in order with arrows between.
    members = [line.split("│")[1].strip() for line in lines if line.startswith("│")]
    assert [m for m in members if m and m not in ("↓", "agent")] == ["plan_queries", "search", "summarize"]
    assert any(line.startswith("╭ research ─") for line in lines)
    assert sum("↓" in line for line in lines) == 2


def test_edges_are_listed_with_conditional_ones_dashed_and_loops_marked():
    lines = texts(layout_graph(graph(xray=True), [], 42))
    assert "  __start__ ──▶ agent" in lines
    assert "  agent ┄┄▶ research" in lines
    assert "        ┄┄▶ tools" in lines
    assert "  tools ──▶ agent ↑" in lines  # back to an earlier layer
    assert "  research ──▶ agent ↑" in lines
    assert "  title ──▶ __end__" in lines


def test_next_nodes_are_drawn_heavy_and_marked_next():
    layout = layout_graph(graph(xray=True), ["agent"], 42)
    lines = texts(layout)
    index = lines.index("┃ agent ┃")
    assert lines[index - 1].startswith("┏") and lines[index + 1].startswith("┗")
    assert "next" in roles_of(layout, "agent")
    # The subgraph as a whole, or one of its nodes.
    layout = layout_graph(graph(xray=True), ["research:search"], 42)
    assert any("▶ search" in line for line in texts(layout))
    assert "next" in roles_of(layout, "search")


def test_everything_fits_a_narrow_pane():
    for width in (42, 30, 24):
        for xray in (True, False):
            layout = layout_graph(graph(xray=xray), ["tools"], width)
            assert max(len(line) for line in texts(layout)) <= max(20, width), (width, xray)
    # Boxes that do not fit side by side wrap to the next row.
    narrow = texts(layout_graph(graph(xray=True), [], 24))
    assert sum(line.startswith("╭") for line in narrow) == 3


def test_the_plain_graph_has_a_research_node_not_a_group():
    lines = texts(layout_graph(graph(xray=False), [], 42))
    assert any("│ research │" in line for line in lines)
    assert not any("plan_queries" in line for line in lines)


def test_cycles_unreachable_nodes_labels_and_long_names():
    long_name = "a_node_with_a_very_long_name_that_does_not_fit"
    info = GraphInfo(
        nodes=[GraphNode(id=n) for n in (START, "a", "b", long_name, "orphan", END)],
        edges=[
            GraphEdge(source=START, target="a"),
            GraphEdge(source="a", target="b", conditional=True, label="continue"),
            GraphEdge(source="b", target="a"),
            GraphEdge(source="a", target=long_name, conditional=True),
            GraphEdge(source=long_name, target=END),
            GraphEdge(source="b", target="b"),
        ],
    )
    layout = layout_graph(info, [], 30)
    lines = texts(layout)
    assert layout.layers[0] == [START] and layout.layers[-1] == [END]
    assert any("orphan" in line for line in lines)
    assert any("(continue)" in line for line in lines)
    assert any(line.strip().startswith("b ──▶ a ↑") for line in lines)
    assert max(len(line) for line in lines) <= 30
    assert any("…" in line for line in lines)


def test_an_empty_graph_draws_nothing():
    layout = layout_graph(GraphInfo(), [], 40)
    assert layout.lines == [] and layout.layers == []
