"""Load the real payloads saved by make_history.py as the models the UI reads.

Imported by the tests as `data.checkpoints` (tests/ is on sys.path; tests/data is a
namespace package).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from threadbench.models import GraphEdge, GraphInfo, GraphNode, ThreadState
from threadbench.normalize import state_from_dict

HERE = Path(__file__).parent


def raw_history() -> list[dict[str, Any]]:
    """get_history items of the branched demo thread, newest first, as the server sent them."""
    return json.loads((HERE / "history_branch.json").read_text())


def history() -> list[ThreadState]:
    return [state_from_dict(item) for item in raw_history()]


def by_suffix(states: list[ThreadState], suffix: str) -> ThreadState:
    return next(s for s in states if s.checkpoint_id.endswith(suffix))


def graph_from_dict(raw: dict[str, Any]) -> GraphInfo:
    """The same conversion LangGraphBackend.get_graph does."""
    nodes = []
    for node in raw.get("nodes") or []:
        data = node.get("data")
        name = data.get("name") if isinstance(data, dict) else data if isinstance(data, str) else None
        nodes.append(GraphNode(id=str(node["id"]), name=str(name or node["id"])))
    edges = [
        GraphEdge(
            source=str(edge["source"]),
            target=str(edge["target"]),
            conditional=bool(edge.get("conditional")),
            label=edge.get("data") if isinstance(edge.get("data"), str) else "",
        )
        for edge in raw.get("edges") or []
    ]
    return GraphInfo(nodes=nodes, edges=edges)


def graph(xray: bool = True) -> GraphInfo:
    name = "graph_xray.json" if xray else "graph_plain.json"
    return graph_from_dict(json.loads((HERE / name).read_text()))
