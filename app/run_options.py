"""Run options: the fields a run can be given, from the assistant's context schema plus the
keys DeerFlow reads, and how they are sent (`context`, or `configurable` for older servers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

FieldKind = Literal["bool", "choice", "text", "number"]


@dataclass
class OptionField:
    name: str
    kind: FieldKind
    description: str = ""
    choices: list[str] = field(default_factory=list)


DEERFLOW_FIELDS = [
    OptionField("thinking_enabled", "bool", "show the model's reasoning"),
    OptionField("is_plan_mode", "bool", "plan with a todo list first"),
    OptionField("subagent_enabled", "bool", "let the agent start subagents"),
    OptionField("reasoning_effort", "choice", "how hard to think", ["minimal", "low", "medium", "high"]),
    OptionField("model_name", "text", "the model to use"),
]


MODES: dict[str, dict[str, Any]] = {
    "flash": {
        "thinking_enabled": False,
        "is_plan_mode": False,
        "subagent_enabled": False,
        "reasoning_effort": "minimal",
    },
    "thinking": {"thinking_enabled": True, "is_plan_mode": False, "subagent_enabled": False, "reasoning_effort": "low"},
    "pro": {"thinking_enabled": True, "is_plan_mode": True, "subagent_enabled": False, "reasoning_effort": "medium"},
    "ultra": {"thinking_enabled": True, "is_plan_mode": True, "subagent_enabled": True, "reasoning_effort": "high"},
}
"""DeerFlow's modes, as its web UI turns each into a run's context (frontend/src/core/threads/
hooks.ts and components/workspace/input-box.tsx at f1f4af99); a model without thinking runs flash."""
MODE_LABELS = {
    "flash": "flash · fast and efficient",
    "thinking": "thinking · reasons before acting",
    "pro": "pro · reasons, plans and executes",
    "ultra": "ultra · pro with subagents",
}
"""Each mode by its name, with what DeerFlow's UI says of it."""


def mode_of(values: dict[str, Any]) -> str | None:
    """The DeerFlow mode whose options `values` holds (a false switch may be left out), if any."""
    for name, mode in MODES.items():
        if all(values.get(key, False if isinstance(value, bool) else None) == value for key, value in mode.items()):
            return name
    return None


def fields_from_schema(schema: dict[str, Any] | None) -> list[OptionField]:
    """Option fields from a JSON schema (the assistant's context or config schema), then
    DeerFlow's known keys that the schema does not mention."""
    found: list[OptionField] = []
    properties = (schema or {}).get("properties") or {}
    for name, spec in properties.items():
        if not isinstance(spec, dict):
            continue
        spec = _first_concrete(spec)
        kind: FieldKind = "text"
        choices: list[str] = []
        if spec.get("type") == "boolean":
            kind = "bool"
        elif isinstance(spec.get("enum"), list):
            kind, choices = "choice", [str(c) for c in spec["enum"]]
        elif spec.get("type") in ("integer", "number"):
            kind = "number"
        elif spec.get("type") not in (None, "string"):
            continue  # objects and arrays are edited as state, not as run options
        found.append(OptionField(str(name), kind, str(spec.get("description") or ""), choices))
    deerflow = {f.name: f for f in DEERFLOW_FIELDS}
    for spec in found:  # a plain string in the schema, DeerFlow's choices
        if (known := deerflow.get(spec.name)) is not None:
            if spec.kind == "text" and known.kind == "choice":
                spec.kind, spec.choices = known.kind, known.choices
            spec.description = spec.description or known.description
    names = {f.name for f in found}
    return found + [f for f in DEERFLOW_FIELDS if f.name not in names]


def _first_concrete(spec: dict[str, Any]) -> dict[str, Any]:
    """`anyOf: [{type: string}, {type: null}]` (an Optional field) -> {type: string}."""
    for key in ("anyOf", "oneOf"):
        options = spec.get(key)
        if isinstance(options, list):
            for option in options:
                if isinstance(option, dict) and option.get("type") != "null":
                    return {**option, "description": spec.get("description", "")}
    return spec


def assistant_value(assistant_id: str, graph_id: str, name: str) -> str:
    """What to run: the graph id for a graph's default assistant (readable, and every
    server accepts it), the assistant's own id for any other."""
    return graph_id if graph_id and name in (graph_id, "") else assistant_id


@dataclass
class RunOptions:
    assistant_id: str = ""
    """The user's pick for every run; "" runs each thread on its own graph (threadbench.run_target)."""
    values: dict[str, Any] = field(default_factory=dict)
    send_as: Literal["context", "configurable"] = "context"

    def context(self) -> dict[str, Any]:
        return dict(self.values) if self.send_as == "context" else {}

    def configurable(self) -> dict[str, Any]:
        return dict(self.values) if self.send_as == "configurable" else {}

    def summary(self) -> str:
        parts = []
        for key, value in self.values.items():
            if value is True:
                parts.append(key.removesuffix("_enabled").removeprefix("is_"))
            elif value not in (False, None, ""):
                parts.append(f"{key}={value}")
        return ", ".join(parts) or "defaults"
