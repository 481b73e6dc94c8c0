"""The kinds of server Threadbench talks to, in one place: detection and the backends'
factory (backends/detect.py), the config and settings files, the CLI's --backend and the
connection screen's choice read them from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ServerKind = Literal["langgraph", "deerflow-gateway", "10xgraph"]
KindChoice = Literal["auto", "langgraph", "deerflow-gateway", "10xgraph"]
"""A kind, or "auto": detect it from what the server answers."""


@dataclass(frozen=True, slots=True)
class Kind:
    name: ServerKind
    label: str
    """How the connection screen names it."""
    module: str
    """Its backend's module under threadbench.backends (imported off the event loop at start)."""
    backend_class: str
    aliases: tuple[str, ...] = ()
    """Other names a config file or --backend may give it."""


REGISTRY: tuple[Kind, ...] = (
    Kind("langgraph", "LangGraph server", "langgraph.client", "LangGraphBackend"),
    Kind(
        "deerflow-gateway", "DeerFlow's Gateway", "deerflow.gateway", "GatewayBackend", ("deer-flow-gateway", "gateway")
    ),
    Kind("10xgraph", "10xGraph", "tenxgraph.client", "TenXGraphBackend", ("tenxgraph",)),
)
KINDS: tuple[ServerKind, ...] = tuple(kind.name for kind in REGISTRY)
CHOICES: tuple[KindChoice, ...] = ("auto", *KINDS)
AUTO_LABEL = "detect it (auto)"


def kind_named(name: str) -> Kind | None:
    """The kind `name` stands for (its name or an alias, any case), or None."""
    wanted = name.strip().lower()
    return next((kind for kind in REGISTRY if wanted == kind.name or wanted in kind.aliases), None)
