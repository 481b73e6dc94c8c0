"""A graph (GraphInfo) laid out as lines of text for a narrow terminal pane (pure; no Textual).

The drawing is layered top-down, from __start__ to __end__:

    ● __start__
      __start__ ──▶ agent
    ┏━━━━━━━┓
    ┃ agent ┃                  <- a node to run next: heavy box
    ┗━━━━━━━┛
      agent ┄┄▶ tools          <- conditional edge: dashed
            ┄┄▶ research
            ┄┄▶ title
    ╭───────╮ ╭───────╮ ╭ research ──────╮
    │ tools │ │ title │ │ plan_queries   │   <- a subgraph (xray ids "research:…")
    ╰───────╯ ╰───────╯ │  ↓             │      grouped in one box, its nodes in order
      ...               ╰────────────────╯
      tools ──▶ agent ↑       <- ↑: back to an earlier layer (a loop)
    ◉ __end__

Layers come from the longest path over the forward edges (back edges found by a DFS from
__start__ are drawn as "↑" edges and do not count); boxes of one layer sit side by side and
wrap to the pane's width. Every line is a list of (text, role) segments; the widget maps
roles to styles, and tests read the text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .models import GraphInfo

START = "__start__"
END = "__end__"
SEPARATORS = (":", "|")

Segment = tuple[str, str]
Line = list[Segment]


@dataclass(slots=True)
class Unit:
    """A node, or a subgraph's nodes grouped under one name."""

    name: str
    members: list[str] = field(default_factory=list)
    """For a subgraph: its node ids without the prefix, in order."""

    @property
    def is_group(self) -> bool:
        return bool(self.members)


@dataclass(slots=True)
class UnitEdge:
    source: str
    target: str
    conditional: bool = False
    label: str = ""
    back: bool = False


@dataclass(slots=True)
class GraphLayout:
    lines: list[Line]
    layers: list[list[str]]
    edges: list[UnitEdge]
    width: int

    @property
    def text(self) -> str:
        return "\n".join("".join(text for text, _ in line) for line in self.lines)


def _split(node_id: str) -> tuple[str, str] | None:
    """ "research:search" -> ("research", "search"); plain ids -> None."""
    positions = [node_id.find(sep) for sep in SEPARATORS if sep in node_id]
    if not positions:
        return None
    cut = min(positions)
    if cut == 0:
        return None
    return node_id[:cut], node_id[cut + 1 :]


def _units(graph: GraphInfo) -> tuple[dict[str, Unit], dict[str, str], dict[str, list[tuple[str, str, bool]]]]:
    units: dict[str, Unit] = {}
    unit_of: dict[str, str] = {}
    internal: dict[str, list[tuple[str, str, bool]]] = {}
    node_ids = [node.id for node in graph.nodes]
    for edge in graph.edges:  # edges may name nodes the node list lacks
        for ident in (edge.source, edge.target):
            if ident not in node_ids:
                node_ids.append(ident)
    for ident in node_ids:
        split = _split(ident)
        if split is None:
            units.setdefault(ident, Unit(ident))
            unit_of[ident] = ident
        else:
            group, member = split
            units.setdefault(group, Unit(group)).members.append(member)
            unit_of[ident] = group
    for edge in graph.edges:
        if unit_of[edge.source] == unit_of[edge.target] and unit_of[edge.source] != edge.source:
            group = unit_of[edge.source]
            internal.setdefault(group, []).append(
                (edge.source[len(group) + 1 :], edge.target[len(group) + 1 :], edge.conditional)
            )
    return units, unit_of, internal


def _unit_edges(graph: GraphInfo, unit_of: dict[str, str]) -> list[UnitEdge]:
    edges: dict[tuple[str, str], UnitEdge] = {}
    for edge in graph.edges:
        source, target = unit_of[edge.source], unit_of[edge.target]
        if source == target and source != edge.source:
            continue  # inside a subgraph
        key = (source, target)
        found = edges.get(key)
        label = str(edge.label or "")
        if found is None:
            edges[key] = UnitEdge(source, target, edge.conditional, label)
        else:
            found.conditional = found.conditional or edge.conditional
            if label and label not in found.label.split(", "):
                found.label = f"{found.label}, {label}" if found.label else label
    return list(edges.values())


def _layers(names: list[str], edges: list[UnitEdge]) -> list[list[str]]:
    out: dict[str, list[UnitEdge]] = {name: [] for name in names}
    for edge in edges:
        out.setdefault(edge.source, []).append(edge)
    # DFS from __start__ (then from anything left) marks back edges.
    state: dict[str, int] = {}  # 1 on the stack, 2 done

    def visit(root: str) -> None:
        stack = [(root, iter(out.get(root, [])))]
        state[root] = 1
        while stack:
            node, children = stack[-1]
            for edge in children:
                target_state = state.get(edge.target)
                if target_state == 1:
                    edge.back = True
                elif target_state is None:
                    state[edge.target] = 1
                    stack.append((edge.target, iter(out.get(edge.target, []))))
                    break
            else:
                state[node] = 2
                stack.pop()

    if START in out:
        visit(START)
    for name in names:
        if name not in state:
            visit(name)
    # Longest path over forward edges (Kahn).
    forward = [e for e in edges if not e.back and e.source != e.target]
    incoming = {name: 0 for name in names}
    for edge in forward:
        incoming[edge.target] = incoming.get(edge.target, 0) + 1
    layer = {name: 0 for name in names}
    ready = [name for name in names if incoming.get(name, 0) == 0]
    order: list[str] = []
    while ready:
        node = ready.pop(0)
        order.append(node)
        for edge in out.get(node, []):
            if edge.back or edge.source == edge.target:
                continue
            layer[edge.target] = max(layer.get(edge.target, 0), layer[node] + 1)
            incoming[edge.target] -= 1
            if incoming[edge.target] == 0:
                ready.append(edge.target)
    if END in layer:
        others = [layer[name] for name in names if name != END]
        layer[END] = max(others, default=-1) + 1
    if START in layer:
        layer[START] = 0
        for name in names:
            if name != START and layer[name] == 0 and name != END:
                layer[name] = 1 if any(e.source == START for e in forward) else layer[name]
    count = max(layer.values(), default=-1) + 1
    layers: list[list[str]] = [[] for _ in range(count)]
    position = {name: index for index, name in enumerate(order or names)}
    for name in sorted(names, key=lambda n: position.get(n, len(names))):
        layers[layer[name]].append(name)
    return [group for group in layers if group]


def _member_order(members: list[str], internal: list[tuple[str, str, bool]]) -> list[str]:
    """A subgraph's members in topological order (ties keep the server's order)."""
    incoming = {m: 0 for m in members}
    for source, target, _ in internal:
        if source in incoming and target in incoming and source != target:
            incoming[target] += 1
    ordered: list[str] = []
    pending = list(members)
    while pending:
        pick = next((m for m in pending if incoming[m] == 0), pending[0])
        pending.remove(pick)
        ordered.append(pick)
        for source, target, _ in internal:
            if source == pick and target in incoming and target in pending:
                incoming[target] -= 1
    return ordered


def _fit(text: str, width: int) -> str:
    if width <= 0:
        return ""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


# -- boxes -------------------------------------------------------------------------------------


def _node_box(name: str, is_next: bool, max_width: int) -> list[Line]:
    label = _fit(name, max(1, max_width - 4))
    inner = len(label) + 2
    if is_next:
        return [
            [("┏" + "━" * inner + "┓", "next")],
            [("┃ ", "next"), (label, "next"), (" ┃", "next")],
            [("┗" + "━" * inner + "┛", "next")],
        ]
    return [
        [("╭" + "─" * inner + "╮", "border")],
        [("│ ", "border"), (label, "node"), (" │", "border")],
        [("╰" + "─" * inner + "╯", "border")],
    ]


def _group_box(
    unit: Unit, internal: list[tuple[str, str, bool]], next_nodes: set[str], is_next: bool, max_width: int
) -> list[Line]:
    members = _member_order(unit.members, internal)
    links = {(s, t): c for s, t, c in internal}
    title = _fit(unit.name, max(1, max_width - 6))
    labels = [_fit(m, max(1, max_width - 6)) for m in members]
    inner = max([len(title) + 3, *(len(label) + 4 for label in labels)])
    inner = min(inner, max(4, max_width - 2))
    border = "next" if is_next else "group"
    lines: list[Line] = [[("╭ ", border), (title, border), (" " + "─" * (inner - len(title) - 2) + "╮", border)]]
    for index, (member, label) in enumerate(zip(members, labels, strict=True)):
        member_next = f"{unit.name}:{member}" in next_nodes or f"{unit.name}|{member}" in next_nodes
        mark = "▶ " if member_next else "  "
        body = mark + label
        lines.append([("│", border), (body.ljust(inner)[:inner], "next" if member_next else "member"), ("│", border)])
        if index + 1 < len(members):
            following = members[index + 1]
            if (member, following) in links:
                arrow = "┆" if links[(member, following)] else "↓"
                lines.append([("│", border), (("   " + arrow).ljust(inner), "edge"), ("│", border)])
    extra = [(s, t, c) for s, t, c in internal if not _consecutive(members, s, t)]
    for source, target, conditional in extra:
        text = f" {source} {'┄▶' if conditional else '─▶'} {target}"
        lines.append(
            [("│", border), (_fit(text, inner).ljust(inner), "cond" if conditional else "edge"), ("│", border)]
        )
    lines.append([("╰" + "─" * inner + "╯", border)])
    return lines


def _consecutive(members: list[str], source: str, target: str) -> bool:
    if source not in members or target not in members:
        return False
    return members.index(target) == members.index(source) + 1


def _line_width(line: Line) -> int:
    return sum(len(text) for text, _ in line)


def _row_of_boxes(boxes: list[list[Line]], indent: int) -> list[Line]:
    height = max(len(box) for box in boxes)
    widths = [max(_line_width(line) for line in box) for box in boxes]
    lines: list[Line] = []
    for y in range(height):
        line: Line = [(" " * indent, "")]
        for number, (box, width) in enumerate(zip(boxes, widths, strict=True)):
            if number:
                line.append((" ", ""))
            if y < len(box):
                line.extend(box[y])
                pad = width - _line_width(box[y])
            else:
                pad = width
            if pad:
                line.append((" " * pad, ""))
        lines.append(_trim(line))
    return lines


def _trim(line: Line) -> Line:
    while line and not line[-1][0].strip():
        line = line[:-1]
    if line:
        text, role = line[-1]
        line = [*line[:-1], (text.rstrip(), role)]
    return line


# -- the whole drawing -------------------------------------------------------------------------


def layout_graph(graph: GraphInfo, next_nodes: list[str] | tuple[str, ...] = (), width: int = 42) -> GraphLayout:
    """Lay `graph` out in `width` columns, with `next_nodes` highlighted."""
    width = max(20, width)
    units, unit_of, internal = _units(graph)
    names = list(units)
    edges = _unit_edges(graph, unit_of)
    layers = _layers(names, edges)
    wanted = set(next_nodes)
    next_units = {unit_of.get(n, n) for n in wanted} | {n for n in wanted if n in units}
    out: dict[str, list[UnitEdge]] = {}
    for edge in edges:
        out.setdefault(edge.source, []).append(edge)

    lines: list[Line] = []
    for layer in layers:
        boxes: list[list[Line]] = []
        for name in layer:
            unit = units[name]
            is_next = name in next_units
            if name == START:
                lines.append([("● ", "start"), (START, "start")])
            elif name == END:
                lines.append([("◉ ", "end"), (END, "end")])
            elif unit.is_group:
                boxes.append(_group_box(unit, internal.get(name, []), wanted, is_next, width))
            else:
                boxes.append(_node_box(name, is_next, width))
        # Wrap boxes to the width.
        row: list[list[Line]] = []
        used = 0
        for box in boxes:
            box_width = max(_line_width(line) for line in box)
            if row and used + 1 + box_width > width:
                lines.extend(_row_of_boxes(row, 0))
                row, used = [], 0
            row.append(box)
            used += box_width + (1 if used else 0)
        if row:
            lines.extend(_row_of_boxes(row, 0))
        for name in layer:
            lines.extend(_edge_lines(name, out.get(name, []), width))
    return GraphLayout(lines=lines, layers=layers, edges=edges, width=width)


def _edge_lines(name: str, edges: list[UnitEdge], width: int) -> list[Line]:
    lines: list[Line] = []
    source = _fit(name, max(6, width // 3))
    pad = " " * len(source)
    for number, edge in enumerate(edges):
        arrow = "┄┄▶" if edge.conditional else "──▶"
        role = "cond" if edge.conditional else "edge"
        line: Line = [
            ("  ", ""),
            (source if number == 0 else pad, "source" if number == 0 else ""),
            (" ", ""),
            (arrow, role),
            (" ", ""),
        ]
        room = width - _line_width(line) - (2 if edge.back else 0)
        label = f" ({edge.label})" if edge.label else ""
        target = _fit(edge.target, max(4, room - min(len(label), room // 2)))
        line.append((target, "target"))
        if label:
            line.append((_fit(label, max(0, room - len(target))), "label"))
        if edge.back:
            line.append((" ↑", "back"))
        lines.append(line)
    return lines
