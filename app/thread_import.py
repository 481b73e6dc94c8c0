"""A thread pre-filled from a file, or sent from one server to another (move_thread): the history
turned into `supersteps` for threads.create, so the checkpoints come back too. No Textual here.

Two sources:
- this app's JSON export (export.thread_json, with its history): each checkpoint's change is
  one superstep, written as the node that ran between the two checkpoints (the earlier one's
  `next`), so the new thread's history steps as the old one did;
- a plain JSON list of messages ({"type"|"role", "content", ...}): a person's message is written
  as `__start__`, the others as the node the user names (the graph's only node if it has one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .export import ExportedThread, fetch_history, load_thread_json
from .json_text import JsonProblem, parse_json
from .messages_key import DEFAULT, messages_key, messages_key_of_schemas
from .models import ThreadState, ThreadSummary

START = "__start__"
HUMAN_TYPES = {"human", "user"}
SPECIAL_NODES = {"__start__", "__end__"}

Superstep = dict[str, Any]


class ImportProblem(ValueError):
    """A file that cannot pre-fill a thread; the message says why and what would."""


@dataclass
class ImportSource:
    """What a file holds: an export (with its history) or a list of messages."""

    kind: str
    """"export" or "messages"."""
    export: ExportedThread | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)

    @property
    def graph_id(self) -> str:
        """The graph the exported thread ran on, if it says."""
        summary = self.export.summary if self.export else None
        return summary.graph_id if summary else ""

    @property
    def describe(self) -> str:
        if self.export is not None:
            return f"an exported thread: {len(self.export.history)} checkpoints"
        return f"{len(self.messages)} messages"


def parse_import(text: str, what: str = "the file") -> ImportSource:
    try:
        value = parse_json(text, what)
    except JsonProblem as problem:
        raise ImportProblem(str(problem)) from None
    if isinstance(value, dict) and "format" in value:
        try:
            export = load_thread_json(text)
        except (ValueError, KeyError) as error:
            raise ImportProblem(f"{what[:1].upper()}{what[1:]} is not a thread this app exported: {error}.") from None
        return ImportSource("export", export=export)
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        value = value["messages"]  # a state's values, or {"messages": [...]}
    if isinstance(value, list) and value and all(isinstance(m, dict) for m in value):
        for index, message in enumerate(value, 1):
            if not (message.get("type") or message.get("role")) or "content" not in message:
                raise ImportProblem(f"Message {index} of {what} has no type (or role) and content.")
        return ImportSource("messages", messages=value)
    raise ImportProblem(
        f"{what[:1].upper()}{what[1:]} is neither a thread exported by this app (ctrl+s, JSON) "
        'nor a JSON list of messages like [{"type": "human", "content": "hi"}].'
    )


def supersteps_from_history(history: list[ThreadState]) -> list[Superstep]:
    """One superstep for each checkpoint that changed the values, oldest first (`history` is
    newest first, as servers and exports give it)."""
    steps: list[Superstep] = []
    previous: ThreadState | None = None
    for state in reversed(history):
        changed = _changed_values(previous.values if previous else {}, state.values)
        if changed:
            writer = previous.next[0] if previous and previous.next else START
            steps.append({"updates": [{"values": changed, "as_node": writer}]})
        previous = state
    return steps


def supersteps_from_export(export: ExportedThread) -> list[Superstep]:
    history = export.history or [export.state]
    if history[0].checkpoint_id != export.state.checkpoint_id:
        history = [export.state, *history]  # the head, when the history was cut before it
    return supersteps_from_history(history)


def supersteps_from_messages(messages: list[dict[str, Any]], agent_node: str, key: str = DEFAULT) -> list[Superstep]:
    """A person's messages as `__start__`, every run of other messages as `agent_node`, under
    `key` (where the graph keeps its conversation: messages_key.py)."""
    steps: list[Superstep] = []
    for message in messages:
        human = str(message.get("type") or message.get("role")).lower() in HUMAN_TYPES
        node = START if human else agent_node
        if steps and steps[-1]["updates"][0]["as_node"] == node and not human:
            steps[-1]["updates"][0]["values"][key].append(message)
        else:
            steps.append({"updates": [{"values": {key: [message]}, "as_node": node}]})
    return steps


def agent_node_of(nodes: list[str]) -> str:
    """The node to write an agent's messages as, when the graph has only one; else ""."""
    real = [node for node in nodes if node not in SPECIAL_NODES]
    return real[0] if len(real) == 1 else ""


def _changed_values(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What `after` changed: new or changed messages (by id) and the other keys whose value differs."""
    changed: dict[str, Any] = {}
    conversation = messages_key(after)
    for key, value in after.items():
        old = before.get(key)
        if key == conversation and isinstance(value, list) and isinstance(old, list):
            new = _new_messages(old, value)
            if new:
                changed[key] = new
        elif value != old:
            changed[key] = value
    return changed


def _new_messages(old: list[Any], now: list[Any]) -> list[Any]:
    """The messages of `now` that `old` does not hold as they are: found by id (a dict compare,
    once per checkpoint, since every checkpoint holds the whole conversation), or, for a
    message without an id, by its JSON."""
    by_id = {m["id"]: m for m in old if isinstance(m, dict) and m.get("id")}
    unnamed: set[str] | None = None
    new = []
    for message in now:
        if isinstance(message, dict) and message.get("id"):
            if by_id.get(message["id"]) != message:
                new.append(message)
            continue
        if unnamed is None:
            unnamed = {_fingerprint(m) for m in old if not (isinstance(m, dict) and m.get("id"))}
        if _fingerprint(message) not in unnamed:
            new.append(message)
    return new


def _fingerprint(message: Any) -> str:
    return json.dumps(message, sort_keys=True, default=str)


async def supersteps_for(backend: Any, source: ImportSource, graph_id: str, agent_node: str) -> list[Superstep]:
    """The supersteps that pre-fill a thread of `graph_id` on `backend` with `source`. A list of
    messages needs the node that writes the agent's messages: the one typed, else the graph's
    only node (asked of the server); raises ImportProblem naming the choices otherwise."""
    if source.export is not None:
        return supersteps_from_export(source.export)
    node = agent_node.strip()
    if not node:
        nodes: list[str] = []
        if graph_id and backend.capabilities.graph:
            nodes = [n.id for n in (await backend.get_graph(graph_id)).nodes]
        node = agent_node_of(nodes)
        if not node:
            choices = ", ".join(n for n in nodes if n not in SPECIAL_NODES) or "unknown: pick a graph first"
            raise ImportProblem(f"Name the node that writes the agent's messages (the graph's nodes: {choices}).")
    key = DEFAULT
    if graph_id and backend.capabilities.assistants and backend.capabilities.graph:
        key = messages_key_of_schemas(await backend.get_schemas(graph_id)) or DEFAULT
    return supersteps_from_messages(source.messages, node, key)


SERVER_METADATA = {"graph_id", "assistant_id", "run_id", "thread_id", "user_id", "created_by", "run_attempt"}
"""Metadata a server writes itself (with every `langgraph_…` key): not carried to another server."""


async def move_thread(source: Any, thread_id: str, target: Any) -> tuple[ThreadSummary, int]:
    """A copy of the thread, with its history, on the `target` backend; (the copy, supersteps).
    The copy runs on the same graph, which the target must have; what it refuses is raised."""
    summary = await source.get_thread(thread_id)
    state = await source.get_state(thread_id)
    history = await fetch_history(source, thread_id)
    steps = supersteps_from_export(ExportedThread(summary, state, history))
    metadata = {
        key: value
        for key, value in summary.metadata.items()
        if key not in SERVER_METADATA and not key.startswith("langgraph_")
    }
    graph_id = summary.graph_id or str(summary.metadata.get("graph_id") or "") or None
    copy = await target.create_thread(metadata=metadata or None, graph_id=graph_id, supersteps=steps)
    return copy, len(steps)
