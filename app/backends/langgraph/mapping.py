"""Pure functions that turn LangChain / LangGraph payload dicts (threads, states,
messages, interrupts) into threadbench.models; stream parts are in .streaming.

Servers send what they like: missing keys, nulls, extra keys, role-style messages,
content as a string or a list of content blocks. Nothing here raises on an odd payload;
what cannot be understood becomes an empty or "other" value.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from ...messages_key import DEFAULT, messages_key
from ...models import (
    ChatMessage,
    Interrupt,
    TaskInfo,
    ThreadState,
    ThreadSummary,
    TokenUsage,
    ToolCall,
)

if TYPE_CHECKING:
    from .shared_messages import SharedMessages

TITLE_LENGTH = 80
THREAD_STATUSES = frozenset({"idle", "busy", "interrupted", "error"})
STATUS_ALIASES = {"running": "busy"}  # DeerFlow's Gateway says running


def title_extract(key: str = DEFAULT) -> dict[str, str]:
    """What threads.search extracts (instead of every thread's full values) to make a title,
    from the conversation kept under `key`: size stays ~200 bytes a thread however long the
    conversation is."""
    return {
        "title": "values.title",
        "type0": f"values.{key}[0].type",
        "text0": f"values.{key}[0].content",
        "type1": f"values.{key}[1].type",
        # a DeerFlow clarification leaves the thread idle: its newest message is the question
        "last_type": f"values.{key}[-1].type",
        "last_name": f"values.{key}[-1].name",
    }


TITLE_EXTRACT = title_extract()
# Fetched for the few threads that open with a system message (type0 not human, type1 is).
SECOND_TEXT_EXTRACT = {"text1": "values.messages[1].content"}

_TYPES = {
    "human": "human",
    "user": "human",
    "humanmessage": "human",
    "humanmessagechunk": "human",
    "ai": "ai",
    "assistant": "ai",
    "aimessage": "ai",
    "aimessagechunk": "ai",
    "model": "ai",
    "tool": "tool",
    "function": "tool",
    "toolmessage": "tool",
    "toolmessagechunk": "tool",
    "functionmessage": "tool",
    "system": "system",
    "developer": "system",
    "systemmessage": "system",
    "systemmessagechunk": "system",
}
_SKIPPED_BLOCKS = frozenset(
    {
        "tool_use",
        "tool_call",
        "tool_call_chunk",
        "server_tool_call",
        "server_tool_call_chunk",
        "input_json_delta",
        "function_call",
        "invalid_tool_call",
    }
)
_REASONING_BLOCKS = frozenset({"thinking", "reasoning", "redacted_thinking"})
_MEDIA = {
    "image": "image",
    "image_url": "image",
    "input_image": "image",
    "audio": "audio",
    "input_audio": "audio",
    "video": "video",
}


M = TypeVar("M", bound=BaseModel)


# --- small tolerant readers ---------------------------------------------------------------


def _build(model: type[M], **fields: Any) -> M:
    """The model, validated (pydantic-core is faster than model_construct); should a field
    still be off (a dict with non-string keys, say), built without validation instead."""
    try:
        return model(**fields)
    except ValidationError:
        return model.model_construct(**fields)


def _str(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "" if value is None else str(value)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else list(value) if isinstance(value, tuple) else []


def parse_time(value: Any) -> datetime | None:
    """An ISO-8601 timestamp (or datetime) as a datetime; None if it is not one."""
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    except ValueError:
        return None


def message_type(raw: Any) -> str:
    """human | ai | tool | system | other, from a LangChain type or an OpenAI-style role."""
    if not isinstance(raw, str):
        return "other"
    return _TYPES.get(raw.lower(), "other")


def one_line(text: str, limit: int = TITLE_LENGTH) -> str:
    """Whitespace collapsed to single spaces, cut to `limit` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def approx_size(data: Any) -> int:
    """The payload's size as JSON, in bytes (0 if it cannot be serialised)."""
    if data is None:
        return 0
    if isinstance(data, str):
        return len(data)
    try:
        return len(orjson.dumps(data, default=str))
    except (TypeError, orjson.JSONEncodeError):
        return 0


# --- content ----------------------------------------------------------------------------------


def _reasoning_of_block(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if kind == "redacted_thinking":
        return "[redacted thinking]"
    for key in ("thinking", "reasoning", "text"):
        value = block.get(key)
        if isinstance(value, str) and value:
            return value
    summary = block.get("summary")  # OpenAI Responses: [{"type": "summary_text", "text": ...}]
    if isinstance(summary, list):
        return "\n".join(_str(_dict(part).get("text")) for part in summary if isinstance(part, dict))
    return ""


def _placeholder(block: dict[str, Any], kind: str) -> str:
    if kind in _MEDIA:
        return f"[{_MEDIA[kind]}]"
    if kind == "file" or kind == "input_file":
        meta = _dict(block.get("metadata"))
        name = block.get("filename") or block.get("name") or meta.get("filename") or meta.get("name")
        return f"[file: {name}]" if name else "[file]"
    return f"[{kind}]" if kind else "[content]"


def content_text(content: Any) -> tuple[str, str]:
    """(text, reasoning) of a message's content: a string, a block, or a list of blocks.

    Text blocks are joined as LangChain does (no separator); images, files and other
    non-text blocks become placeholders on their own line, like "[image]" or "[file: a.pdf]".
    """
    if isinstance(content, str):
        return content, ""
    if content is None:
        return "", ""
    if isinstance(content, dict):
        content = [content]
    elif not isinstance(content, (list, tuple)):
        return _str(content), ""
    text: list[str] = []
    reasoning: list[str] = []
    after_mark = False  # the text that follows a placeholder starts on a new line
    for block in content:
        if isinstance(block, dict):
            kind = _str(block.get("type"))
            if kind in _REASONING_BLOCKS:
                part = _reasoning_of_block(block)
                if part:
                    reasoning.append(part)
                continue
            if kind in _SKIPPED_BLOCKS:
                continue  # shown from tool_calls / tool_call_chunks instead
            if kind != "text" and (kind or not isinstance(block.get("text"), str)):
                if text and not text[-1].endswith("\n"):
                    text.append("\n")
                text.append(_placeholder(block, kind))
                after_mark = True
                continue
            part = _str(block.get("text"))
        elif isinstance(block, str):
            part = block
        else:
            continue
        if after_mark and part:
            text.append("\n")
            after_mark = False
        text.append(part)
    return "".join(text), "".join(reasoning)


def _kwargs_reasoning(kwargs: dict[str, Any]) -> str:
    value = kwargs.get("reasoning_content")
    if isinstance(value, str):
        return value
    reasoning = kwargs.get("reasoning")
    if isinstance(reasoning, dict):
        return _reasoning_of_block(reasoning)
    return reasoning if isinstance(reasoning, str) else ""


# --- messages ---------------------------------------------------------------------------------


def _tool_call(raw: Any) -> ToolCall | None:
    if not isinstance(raw, dict):
        return None
    function = raw.get("function")
    if isinstance(function, dict):  # OpenAI format: {"id", "function": {"name", "arguments"}}
        name, args = function.get("name"), function.get("arguments")
    else:
        name, args = raw.get("name"), raw.get("args", raw.get("arguments", raw.get("input")))
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError:
            pass  # keep the raw text: the model wrote something that is not JSON
    elif args is None:
        args = {}
    return _build(ToolCall, id=_str(raw.get("id")), name=_str(name), args=args)


def _tool_calls(d: dict[str, Any], kwargs: dict[str, Any]) -> list[ToolCall]:
    raw = d.get("tool_calls")
    if not raw:
        raw = kwargs.get("tool_calls")
    calls = [call for call in map(_tool_call, _list(raw)) if call is not None]
    calls += [call for call in map(_tool_call, _list(d.get("invalid_tool_calls"))) if call is not None]
    return calls


def message_from_dict(d: Any) -> ChatMessage:
    """A ChatMessage from a LangChain message dict, an OpenAI-style {"role": ...} dict,
    a ("user", "text") pair, or anything else (shown as text of type "other")."""
    if isinstance(d, (list, tuple)) and len(d) == 2 and isinstance(d[0], str):
        d = {"type": d[0], "content": d[1]}
    if not isinstance(d, dict):
        return ChatMessage(type="other", text=_str(d))
    kwargs = _dict(d.get("additional_kwargs"))
    kind = message_type(d.get("type") or d.get("role"))
    text, reasoning = content_text(d.get("content"))
    original = kwargs.get("original_user_content")
    if kind == "human" and isinstance(original, str):
        text = original  # DeerFlow's uploads put a <current_uploads> block before what the user wrote
    if not reasoning and kwargs:
        reasoning = _kwargs_reasoning(kwargs)
    return _build(
        ChatMessage,
        id=_str(d.get("id")),
        type=kind,
        text=text,
        reasoning=reasoning,
        name=_str(d.get("name")),
        tool_calls=_tool_calls(d, kwargs) if kind == "ai" else [],
        tool_call_id=_str(d.get("tool_call_id")),
        status=_str(d.get("status")) if kind == "tool" else "",
        hidden=bool(kwargs.get("hide_from_ui")),
        artifact=d.get("artifact"),
        additional_kwargs=kwargs,
        usage=token_usage(d.get("usage_metadata") or kwargs.get("usage_metadata")) if kind == "ai" else None,
    )


def token_usage(raw: Any) -> TokenUsage | None:
    """LangChain's `usage_metadata` ({input_tokens, output_tokens, total_tokens}: on an AI
    message, or in its additional_kwargs) as a TokenUsage; None when it says nothing usable."""
    if not isinstance(raw, dict):
        return None
    counts = {key: raw.get(key) for key in ("input_tokens", "output_tokens", "total_tokens")}
    if not any(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts.values()):
        return None
    kept = {k: v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else 0 for k, v in counts.items()}
    if not kept["total_tokens"]:
        kept["total_tokens"] = kept["input_tokens"] + kept["output_tokens"]
    return TokenUsage(**kept)


def message_items(values: Any) -> list[Any]:
    """The message list in a state's values ({"messages": [...]}, the graph's own key for
    them: messages_key.py, or a bare list): the values' own list, where it is one."""
    return _list(values.get(messages_key(values) or DEFAULT) if isinstance(values, dict) else values)


def messages_from_values(values: Any) -> list[ChatMessage]:
    """The conversation in a state's values."""
    return [message_from_dict(item) for item in message_items(values)]


def _first_human_text(messages: Any) -> str:
    for item in _list(messages):
        if isinstance(item, dict) and message_type(item.get("type") or item.get("role")) == "human":
            return content_text(item.get("content"))[0]
        if isinstance(item, (list, tuple)) and len(item) == 2 and message_type(item[0]) == "human":
            return content_text(item[1])[0]
    return ""


# --- threads, interrupts, states ------------------------------------------------------------


def interrupt_from_dict(raw: Any, task_id: str = "", node: str = "") -> Interrupt:
    if not isinstance(raw, dict):
        return Interrupt(value=raw, task_id=task_id, node=node)
    if not node:  # older servers: "ns": ["node:task-uuid", ...]
        ns = raw.get("ns")
        if isinstance(ns, list) and ns and isinstance(ns[0], str):
            node = ns[0].split(":", 1)[0]
    return _build(
        Interrupt,
        id=_str(raw.get("id") or raw.get("interrupt_id")),
        value=raw.get("value"),
        task_id=task_id,
        node=node,
    )


def interrupts_from_thread(d: Any) -> list[Interrupt]:
    """A thread's open interrupts: its `interrupts` map {task_id: [{id, value}]}."""
    raw = _dict(d).get("interrupts")
    if isinstance(raw, list):
        return [interrupt_from_dict(item) for item in raw]
    found: list[Interrupt] = []
    for task_id, items in _dict(raw).items():
        found += [interrupt_from_dict(item, task_id=_str(task_id)) for item in _list(items)]
    return found


def thread_title(values: Any, metadata: Any = None) -> str:
    """values.title, else metadata.title, else the first human message on one line."""
    values = _dict(values)
    title = values.get("title")
    if isinstance(title, str) and title.strip():
        return one_line(title)
    title = _dict(metadata).get("title")
    if isinstance(title, str) and title.strip():
        return one_line(title)
    return one_line(_first_human_text(message_items(values)))


def extracted_nothing(extracted: Any) -> bool:
    """True if a search row extracted with TITLE_EXTRACT found neither a title nor a first
    message: a thread with no messages yet, or of a graph that keeps them under another key."""
    extracted = _dict(extracted)
    return extracted.get("title") is None and extracted.get("type0") is None


def needs_second_text(extracted: Any) -> bool:
    """True if a search row extracted with TITLE_EXTRACT has its first human message second."""
    extracted = _dict(extracted)
    return (
        message_type(extracted.get("type0")) != "human"
        and message_type(extracted.get("type1")) == "human"
        and "text1" not in extracted
    )


def _title_from_extracted(extracted: dict[str, Any], metadata: dict[str, Any]) -> str:
    first = ""
    if message_type(extracted.get("type0")) == "human":
        first = content_text(extracted.get("text0"))[0]
    elif message_type(extracted.get("type1")) == "human":
        first = content_text(extracted.get("text1"))[0]
    return thread_title({"title": extracted.get("title"), "messages": []}, metadata) or one_line(first)


def asks_clarification(kind: str, name: object) -> bool:
    """Whether a thread's newest message, of this type and name, is a DeerFlow clarification:
    the run ended on it, and the thread waits for a person while idle."""
    return kind == "tool" and name == "ask_clarification"


def thread_from_dict(d: Any) -> ThreadSummary:
    """A thread-list row from a thread dict (with `values`, or with `extracted` from a
    search that used TITLE_EXTRACT)."""
    d = _dict(d)
    metadata = _dict(d.get("metadata"))
    values = d.get("values")
    extracted = d.get("extracted")
    last: dict[str, Any] = {}
    if isinstance(values, dict):
        title = thread_title(values, metadata)
        has_title = "title" in values
        messages = message_items(values)
        last = _dict(messages[-1]) if messages else {}
    elif isinstance(extracted, dict):
        title = _title_from_extracted(extracted, metadata)
        has_title = extracted.get("title") is not None
        last = {"type": extracted.get("last_type"), "name": extracted.get("last_name")}
    else:
        title, has_title = thread_title(None, metadata), False
    status = d.get("status")
    status = STATUS_ALIASES.get(status, status) if isinstance(status, str) else "unknown"
    return _build(
        ThreadSummary,
        thread_id=_str(d.get("thread_id")),
        status=status if status in THREAD_STATUSES else "unknown",
        created_at=parse_time(d.get("created_at")),
        updated_at=parse_time(d.get("updated_at")),
        metadata=metadata,
        title=title,
        graph_id=_str(metadata.get("graph_id")),
        assistant_id=_str(metadata.get("assistant_id")),
        has_title_channel=has_title,
        interrupts=interrupts_from_thread(d),
        asking=asks_clarification(message_type(last.get("type")), last.get("name")),
    )


def _checkpoint_id(d: dict[str, Any], key: str, config_key: str) -> str:
    value = d.get(f"{key}_id")
    if isinstance(value, str) and value:
        return value
    value = _dict(d.get(key)).get("checkpoint_id")
    if isinstance(value, str) and value:
        return value
    return _str(_dict(_dict(d.get(config_key)).get("configurable")).get("checkpoint_id"))


def state_from_dict(d: Any, thread_id: str = "", shared: SharedMessages | None = None) -> ThreadState:
    """A ThreadState from get_state / a history item. Interrupts come from the top-level
    `interrupts` and from tasks[].interrupts, de-duplicated by id, with task_id and node set.
    With `shared`, messages read before are not read again (shared_messages.py)."""
    d = _dict(d)
    values = d.get("values")
    tasks: list[TaskInfo] = []
    interrupts: list[Interrupt] = []
    seen: set[str] = set()
    for raw in _list(d.get("tasks")):
        if not isinstance(raw, dict):
            continue
        task_id, name = _str(raw.get("id")), _str(raw.get("name"))
        task_interrupts = [
            interrupt_from_dict(item, task_id=task_id, node=name) for item in _list(raw.get("interrupts"))
        ]
        for item in task_interrupts:
            key = item.id or repr(item.value)
            if key not in seen:
                seen.add(key)
                interrupts.append(item)
        error = raw.get("error")
        tasks.append(
            _build(
                TaskInfo,
                id=task_id,
                name=name,
                error=None if error is None else _str(error),
                interrupts=task_interrupts,
            )
        )
    for item in map(interrupt_from_dict, _list(d.get("interrupts"))):
        key = item.id or repr(item.value)
        if key not in seen:
            seen.add(key)
            interrupts.append(item)
    checkpoint = _dict(d.get("checkpoint"))
    return _build(
        ThreadState,
        thread_id=thread_id or _str(checkpoint.get("thread_id")),
        values=values if isinstance(values, dict) else ({} if values is None else {"__root__": values}),
        messages=shared.read_values(values) if shared is not None else messages_from_values(values),
        next=[_str(node) for node in _list(d.get("next"))],
        tasks=tasks,
        interrupts=interrupts,
        metadata=_dict(d.get("metadata")),
        created_at=parse_time(d.get("created_at")),
        checkpoint_id=_checkpoint_id(d, "checkpoint", "config"),
        parent_checkpoint_id=_checkpoint_id(d, "parent_checkpoint", "parent_config"),
        checkpoint_ns=_str(checkpoint.get("checkpoint_ns")),
    )
