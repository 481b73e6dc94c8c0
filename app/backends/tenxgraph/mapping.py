"""10xGraph payloads (messages of role + content blocks, its state, thread rows) as threadbench.models, and
the messages a client sends in 10xGraph's shape."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from datetime import datetime
from typing import Any

from ...models import (
    ChatMessage,
    Interrupt,
    RunRequest,
    ThreadState,
    ThreadStatus,
    ThreadSummary,
    ToolCall,
)
from ..base import (
    Invalid,
)

ASSISTANT_ID = "agent"
ROLE_TO_TYPE = {"user": "human", "assistant": "ai", "tool": "tool", "system": "system"}
TYPE_TO_ROLE = {
    "human": "user",
    "user": "user",
    "ai": "assistant",
    "assistant": "assistant",
    "AIMessageChunk": "assistant",
    "tool": "tool",
    "system": "system",
}
INTERRUPTED = ("interrupted_before", "interrupted_after")
# Content block types 10xGraph accepts from a client as they are.
CLIENT_BLOCKS = {"text", "image", "audio", "video", "document", "data", "tool_result"}


def as_dict(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """`value` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def _parse_time(value: Any) -> datetime | None:
    if isinstance(value, (int, float)):
        try:
            return datetime.fromtimestamp(value)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return None
    return None


def _json_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def _block_text(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text") or "")
    if kind == "tool_result":
        return _json_text(block.get("output"))
    if kind == "error":
        return str(block.get("message") or "")
    if kind in ("reasoning", "tool_call", "remote_tool_call", "annotation"):
        return ""
    return f"[{kind or 'block'}]"


def _tool_calls(message: dict[str, Any]) -> list[ToolCall]:
    calls: dict[str, ToolCall] = {}
    order: list[str] = []
    for raw in message.get("tools_calls") or []:
        if not isinstance(raw, dict):
            continue
        function = as_dict(raw.get("function"))
        args: Any = function.get("arguments", raw.get("args", {}))
        if isinstance(args, str):
            with contextlib.suppress(ValueError):
                args = json.loads(args) if args.strip() else {}
        call_id = str(raw.get("id") or f"call-{len(order)}")
        calls[call_id] = ToolCall(id=call_id, name=str(function.get("name") or raw.get("name") or ""), args=args)
        order.append(call_id)
    for block in message.get("content") or []:
        if isinstance(block, dict) and block.get("type") in ("tool_call", "remote_tool_call"):
            call_id = str(block.get("id") or f"call-{len(order)}")
            if call_id not in calls:
                calls[call_id] = ToolCall(id=call_id, name=str(block.get("name") or ""), args=block.get("args") or {})
                order.append(call_id)
    return [calls[i] for i in order]


def to_chat_message(message: dict[str, Any]) -> ChatMessage:
    """A 10xGraph Message dict (role + content blocks) as a ChatMessage."""
    content = message.get("content")
    blocks = (
        [{"type": "text", "text": content}]
        if isinstance(content, str)
        else [b for b in content or [] if isinstance(b, dict)]
    )
    text = "".join(_block_text(b) for b in blocks)
    reasoning = "".join(str(b.get("summary") or "") for b in blocks if b.get("type") == "reasoning") or str(
        message.get("reasoning") or ""
    )
    role = str(message.get("role") or "")
    kind = ROLE_TO_TYPE.get(role, "other")
    tool_call_id = ""
    status = ""
    if kind == "tool":
        status = "success"
        for block in blocks:
            if block.get("type") == "tool_result":
                tool_call_id = tool_call_id or str(block.get("call_id") or "")
                if block.get("is_error") or block.get("status") == "failed":
                    status = "error"
            elif block.get("type") == "error":
                status = "error"
    metadata = as_dict(message.get("metadata"))
    return ChatMessage(
        id=str(message.get("message_id") or ""),
        type=kind,  # type: ignore[arg-type]
        text=text,
        reasoning=reasoning,
        name=str(metadata.get("tool_name") or metadata.get("name") or ""),
        tool_calls=_tool_calls(message) if kind == "ai" else [],
        tool_call_id=tool_call_id,
        status=status,
        hidden=bool(metadata.get("hide_from_ui")),
        additional_kwargs=metadata,
    )


def _interrupt(raw: Any) -> Interrupt | None:
    if not isinstance(raw, dict):
        return None
    return Interrupt(
        id=str(raw.get("id") or ""),
        value=raw.get("value"),
        node=str(raw.get("node") or ""),
        task_id=str(raw.get("tool_call_id") or ""),
    )


def thread_status(state: dict[str, Any] | None) -> ThreadStatus:
    if not isinstance(state, dict):
        return "idle"
    meta = as_dict(state.get("execution_meta"))
    status = meta.get("status")
    if status in INTERRUPTED:
        return "interrupted"
    if status == "error":
        return "error"
    if status == "running":
        return "busy"
    return "idle"


def to_thread_state(thread_id: str, state: dict[str, Any] | None) -> ThreadState:
    """GET /v1/threads/{id}/state's `state` as a ThreadState (null: an empty thread)."""
    if not isinstance(state, dict):
        return ThreadState(thread_id=thread_id)
    context = as_list(state.get("context"))
    meta = as_dict(state.get("execution_meta"))
    interrupts: list[Interrupt] = []
    next_nodes: list[str] = []
    if meta.get("status") in INTERRUPTED:
        data = as_dict(meta.get("interrupt_data"))
        pending = _interrupt(data.get("interrupt"))
        if pending is not None:
            interrupts.append(pending)
        node = meta.get("interrupted_node") or (pending.node if pending else "")
        if node:
            next_nodes.append(str(node))
    metadata = {
        key: meta.get(key)
        for key in ("step", "status", "current_node", "interrupt_reason", "stop_current_execution")
        if meta.get(key) is not None
    }
    return ThreadState(
        thread_id=thread_id,
        values=state,
        messages=[to_chat_message(m) for m in context if isinstance(m, dict)],
        next=next_nodes,
        interrupts=interrupts,
        metadata=metadata,
    )


def to_thread_summary(thread: dict[str, Any]) -> ThreadSummary:
    metadata = dict(thread.get("metadata") or {}) if isinstance(thread.get("metadata"), dict) else {}
    for key in ("user_id", "run_id"):
        if thread.get(key) is not None:
            metadata.setdefault(key, thread[key])
    return ThreadSummary(
        thread_id=str(thread.get("thread_id") or ""),
        updated_at=_parse_time(thread.get("updated_at")),
        metadata=metadata,
        title=str(thread.get("thread_name") or ""),
        graph_id=ASSISTANT_ID,
        assistant_id=ASSISTANT_ID,
    )


def to_client_message(message: Any) -> dict[str, Any]:
    """A LangChain-style {"role"|"type", "content"} (or a plain string) as a 10xGraph Message."""
    if isinstance(message, str):
        message = {"role": "user", "content": message}
    if not isinstance(message, dict):
        raise Invalid(f"A message must be an object, not {type(message).__name__}")
    role_key = message.get("role") or message.get("type") or "user"
    role = TYPE_TO_ROLE.get(str(role_key))
    if role is None:
        raise Invalid(f"10xGraph has no message role {role_key!r} (use user, assistant, system or tool)")
    content = message.get("content", "")
    blocks: list[dict[str, Any]] = []
    for part in content if isinstance(content, list) else [content]:
        if isinstance(part, str):
            blocks.append({"type": "text", "text": part})
        elif isinstance(part, dict) and part.get("type") in CLIENT_BLOCKS:
            blocks.append(part)
        elif isinstance(part, dict) and part.get("type") == "tool_call":
            raise Invalid("10xGraph refuses tool calls in messages a client sends")
        elif part is not None:
            blocks.append({"type": "text", "text": _json_text(part)})
    if role == "tool" and message.get("tool_call_id"):
        text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        blocks = [{"type": "tool_result", "call_id": str(message["tool_call_id"]), "output": text}]
    out: dict[str, Any] = {"role": role, "content": blocks}
    if message.get("id"):
        out["message_id"] = str(message["id"])
    return out


def langgraph_shape(graph: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """GET /v1/graph's nodes and edges in LangGraph's shape (see threadbench.backends.http.graph_info).

    Node ids are random per request; edges name nodes, so names serve as ids. 10xGraph does
    not mark conditional edges: an edge is conditional when its source has several.
    """
    nodes = [
        {"id": n.get("name") or n.get("id"), "data": str(n.get("name") or "")}
        for n in graph.get("nodes") or []
        if isinstance(n, dict)
    ]
    edges = [e for e in graph.get("edges") or [] if isinstance(e, dict)]
    sources = Counter(str(e.get("source")) for e in edges)
    return nodes, [
        {"source": e.get("source"), "target": e.get("target"), "conditional": sources[str(e.get("source"))] > 1}
        for e in edges
    ]


def run_body(thread_id: str, request: RunRequest) -> dict[str, Any]:
    """The POST /v1/graph/stream body for a RunRequest."""
    if request.checkpoint_id:
        raise Invalid("10xGraph keeps no checkpoints: it cannot replay from one")
    config: dict[str, Any] = {**request.context, **request.configurable}
    recursion_limit = config.pop("recursion_limit", 25)
    config["thread_id"] = thread_id
    modes = set(request.stream_modes)
    granularity = "full" if "updates" in modes else "partial" if "values" in modes else "low"
    body: dict[str, Any] = {
        "messages": [],
        "config": config,
        "recursion_limit": max(1, min(100, int(recursion_limit))),
        "response_granularity": granularity,
    }
    command = request.command or {}
    unsupported = sorted(k for k in command if k != "resume")
    if unsupported:
        raise Invalid(f"10xGraph cannot run a command with {', '.join(unsupported)}")
    if "resume" in command:
        body["resume"] = command["resume"]
    data = dict(request.input or {})
    raw_messages = data.pop("messages", None)
    if raw_messages is not None:
        if not isinstance(raw_messages, list):
            raw_messages = [raw_messages]
        body["messages"] = [to_client_message(m) for m in raw_messages]
    if data:
        body["initial_state"] = data
    if not body["messages"] and "resume" not in body:
        raise Invalid("Nothing to run: send a message or resume an interrupt")
    return body


def new_context(old: list[Any], new: Any) -> list[Any]:
    """The messages of `new` to append to a context that holds `old` (10xGraph appends)."""
    if not isinstance(new, list):
        raise Invalid("context must be a list of messages")
    if new[: len(old)] == old:
        tail = new[len(old) :]
    elif all(isinstance(m, dict) and "message_id" not in m for m in new):
        tail = new  # only new messages, appended as 10xGraph does
    else:
        raise Invalid("10xGraph can only append messages to the context: edit or remove them by clearing the state")
    return [m if isinstance(m, dict) and "message_id" in m else to_client_message(m) for m in tail]
