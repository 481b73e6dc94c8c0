"""A 10xGraph server (10xgraph-api) seen through the Backend protocol, over httpx.

What 10xGraph has and lacks, and how each gap is handled (the UI reads `capabilities`):
- No checkpoint history, fork, copy, assistants, thread metadata, status filter, sort or
  count: get_history returns [], count_threads None, the others raise Invalid.
- No thread-create route: a thread appears on its first run, so create_thread only makes
  up an id (the summary it returns is not on the server yet).
- Thread search is the server's substring match over all of a thread's fields
  (ThreadQuery.search); status, metadata, graph and sort are ignored.
- The state is {context: [messages], context_summary, execution_meta}; PUT merges it and
  *appends* context, so update_state sends only what changed and refuses edits that would
  need a replace.
- The message log (list/add/get/delete_message) is separate from state.context: adding or
  deleting there does not change the conversation the graph sees.
- The run stream is one JSON object per line (despite its text/event-stream type), with no
  end marker: the end of the body is the end of the run.

Extras beyond the protocol: clear_state, list_messages, add_messages, get_message,
delete_message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import uuid
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx

from app.backends.base import (
    BackendError,
    Conflict,
    Invalid,
    NotFound,
    ServerError,
    Unauthorized,
    Unreachable,
)
from app.models import (
    Assistant,
    Capabilities,
    ChatMessage,
    GraphEdge,
    GraphInfo,
    GraphNode,
    Interrupt,
    RunEvent,
    RunRequest,
    ThreadQuery,
    ThreadState,
    ThreadStatus,
    ThreadSummary,
    ToolCall,
    ToolCallChunk,
)

CAPABILITIES = Capabilities(
    name="10xGraph",
    history=False,
    fork=False,
    copy_thread=False,
    create_thread=False,
    metadata=False,
    status_filter=False,
    sort=False,
    count=False,
    assistants=False,
    join_stream=False,
    cancel=True,
    clear_state=True,
    delete_message=True,
    add_message=True,
    search_messages=True,
    reason=(
        "10xGraph keeps no checkpoint history (so no timeline, fork or replay), cannot copy "
        "threads, has no assistants, thread metadata, status filter, sort or count, and "
        "creates a thread only when its first run starts."
    ),
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
_PYDANTIC_NOISE = re.compile(r"\s*\[type=[^\]]*\]\s*$")


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


def _readable_pydantic(message: str) -> str:
    """'3 validation errors for X\\nctx.5\\n  Input should be ... [type=...]' -> one line."""
    lines = message.splitlines()
    if len(lines) < 3 or "validation error" not in lines[0]:
        return message
    parts: list[str] = []
    loc = ""
    for line in lines[1:]:
        if not line.strip() or line.strip().startswith("For further information"):
            continue
        if not line.startswith(" "):
            loc = line.strip()
        else:
            parts.append(f"{loc}: {_PYDANTIC_NOISE.sub('', line.strip())}" if loc else line.strip())
    return _join_problems(parts) or message


def _join_problems(parts: list[str], most: int = 3) -> str:
    if not parts:
        return ""
    text = "; ".join(parts[:most])
    if len(parts) > most:
        text += f" (and {len(parts) - most} more)"
    return text


def _validation_text(message: str, details: Any) -> str:
    """A 422's message and details as one sentence: 'limit: Input should be a valid integer'."""
    parts: list[str] = []
    if isinstance(details, list):
        for item in details:
            if not isinstance(item, dict):
                continue
            loc = [
                str(p)
                for p in item.get("loc") or []
                if p not in ("body", "query", "path", "header")
            ]
            msg = str(item.get("msg") or item.get("message") or "").strip()
            msg = msg.removeprefix("Value error, ")
            if msg:
                parts.append(f"{'.'.join(loc)}: {msg}" if loc else msg)
    if parts:
        return _join_problems(parts)
    return _readable_pydantic(message) or "The server rejected the request"


def _error_from_response(response: httpx.Response, *, not_found: str | None = None) -> BackendError:
    """A failed response (the {"error": {code, message, details}} envelope) as a typed error."""
    status = response.status_code
    message, details, code = "", None, ""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):
            message = str(error.get("message") or "")
            details = error.get("details")
            code = str(error.get("code") or "")
        elif isinstance(body.get("detail"), str):
            message = body["detail"]
    elif response.text.strip():
        message = response.text.strip()[:300]
    if status == 401:
        return Unauthorized(
            message or "The server wants a valid token",
            status=status,
            hint="10xGraph wants a JWT bearer token: give it with --api-key, the LANGGRAPH_API_KEY "
            "environment variable, or a config-file profile's api_key_env.",
        )
    if status == 403:
        return Unauthorized(
            "This thread belongs to another user" + (f" ({message})" if message else ""),
            status=status,
            hint="Use a token of the user who owns the thread.",
        )
    if status == 404:
        return NotFound(not_found or message or "Not found", status=status)
    if status in (409, 429):
        return Conflict(message or "The server is busy", status=status)
    if status in (400, 413, 422):
        return Invalid(_validation_text(message, details), status=status)
    if not_found and body is None and status == 500:
        # 10xGraph answers an unknown message id with a plain-text 500.
        return NotFound(not_found, status=status)
    text = message or response.reason_phrase or "Server error"
    if code and code not in ("HTTPException", "VALIDATION_ERROR"):
        text = f"{text} ({code})"
    return ServerError(text, status=status)


# --- payload mapping ------------------------------------------------------------------------


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
        function = raw.get("function") if isinstance(raw.get("function"), dict) else {}
        args: Any = function.get("arguments", raw.get("args", {}))
        if isinstance(args, str):
            with contextlib.suppress(ValueError):
                args = json.loads(args) if args.strip() else {}
        call_id = str(raw.get("id") or f"call-{len(order)}")
        calls[call_id] = ToolCall(
            id=call_id, name=str(function.get("name") or raw.get("name") or ""), args=args
        )
        order.append(call_id)
    for block in message.get("content") or []:
        if isinstance(block, dict) and block.get("type") in ("tool_call", "remote_tool_call"):
            call_id = str(block.get("id") or f"call-{len(order)}")
            if call_id not in calls:
                calls[call_id] = ToolCall(
                    id=call_id, name=str(block.get("name") or ""), args=block.get("args") or {}
                )
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
    reasoning = "".join(
        str(b.get("summary") or "") for b in blocks if b.get("type") == "reasoning"
    ) or str(message.get("reasoning") or "")
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
    metadata = message.get("metadata") if isinstance(message.get("metadata"), dict) else {}
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
    meta = state.get("execution_meta") if isinstance(state.get("execution_meta"), dict) else {}
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
    context = state.get("context") if isinstance(state.get("context"), list) else []
    meta = state.get("execution_meta") if isinstance(state.get("execution_meta"), dict) else {}
    interrupts: list[Interrupt] = []
    next_nodes: list[str] = []
    if meta.get("status") in INTERRUPTED:
        data = meta.get("interrupt_data") if isinstance(meta.get("interrupt_data"), dict) else {}
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
    metadata = (
        dict(thread.get("metadata") or {}) if isinstance(thread.get("metadata"), dict) else {}
    )
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
        raise Invalid(
            f"10xGraph has no message role {role_key!r} (use user, assistant, system or tool)"
        )
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


# --- the backend ----------------------------------------------------------------------------


class TenXGraphBackend:
    """The Backend protocol over a 10xGraph server's REST API and line-JSON run stream."""

    capabilities = CAPABILITIES

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.api_key = api_key or None
        self._timeout = timeout
        self._transport = transport
        self._client = self._new_client()
        self._state_fields: list[str] | None = None

    def _new_client(self) -> httpx.AsyncClient:
        headers = {"Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return httpx.AsyncClient(
            base_url=self.url,
            headers=headers,
            timeout=self._timeout,
            transport=self._transport,
        )

    async def close(self) -> None:
        await self._client.aclose()

    # --- HTTP ---------------------------------------------------------------------------------

    def _unreachable(self, err: Exception) -> Unreachable:
        detail = str(err) or type(err).__name__
        return Unreachable(f"Cannot reach the 10xGraph server at {self.url}: {detail}")

    async def _send(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        body: Any = None,
        not_found: str | None = None,
    ) -> httpx.Response:
        """One request; a transport error (a connection the server reset) is retried once."""
        kwargs: dict[str, Any] = {}
        if params:
            kwargs["params"] = {k: v for k, v in params.items() if v is not None}
        if body is not None:
            kwargs["json"] = body
        for attempt in (0, 1):
            try:
                response = await self._client.request(method, path, **kwargs)
            except (httpx.ConnectError, httpx.ConnectTimeout) as err:
                raise self._unreachable(err) from err
            except httpx.TimeoutException as err:
                raise Unreachable(
                    f"The 10xGraph server at {self.url} did not answer in time ({method} {path})"
                ) from err
            except httpx.TransportError as err:
                # 10xGraph resets a connection after some plain-text 500s; the pool may hand
                # that dead connection to the next request. Once more, on a fresh one.
                if attempt:
                    raise self._unreachable(err) from err
                continue
            except httpx.InvalidURL as err:
                raise Invalid(f"Bad server URL {self.url!r}: {err}") from err
            if response.is_success:
                return response
            raise self._error(response, not_found=not_found)
        raise AssertionError("unreachable")  # pragma: no cover

    def _error(self, response: httpx.Response, *, not_found: str | None = None) -> BackendError:
        error = _error_from_response(response, not_found=not_found)
        if response.status_code == 401 and not self.api_key:
            error.message = f"This 10xGraph server wants a token ({error.message})"
        elif response.status_code == 401:
            error.message = f"The server refused the API key ({error.message})"
        return error

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        """A request whose reply is the {"data": ..., "metadata": ...} envelope; returns data."""
        response = await self._send(method, path, **kwargs)
        try:
            body = response.json()
        except ValueError as err:
            raise ServerError(
                f"{method} {path} answered with something that is not JSON",
                status=response.status_code,
            ) from err
        return body.get("data") if isinstance(body, dict) and "data" in body else body

    @staticmethod
    def _thread_path(thread_id: str, suffix: str = "") -> str:
        if not str(thread_id).strip():
            raise Invalid("The thread id is empty")
        return f"/v1/threads/{_quote(thread_id)}{suffix}"

    # --- server -------------------------------------------------------------------------------

    async def check(self) -> dict[str, Any]:
        """GET /ping (no auth needed), then one authenticated call so a bad key shows now."""
        await self._call("GET", "/ping")
        graph = await self._call("GET", "/v1/graph")
        info = graph.get("info", {}) if isinstance(graph, dict) else {}
        return {"kind": "10xgraph", "url": self.url, "graph": info}

    # --- threads ------------------------------------------------------------------------------

    async def search_threads(self, query: ThreadQuery) -> list[ThreadSummary]:
        """GET /v1/threads. Uses search (server-side substring), offset and limit only."""
        if query.ids:
            found = await asyncio.gather(
                *(self.get_thread(i) for i in query.ids), return_exceptions=True
            )
            for item in found:
                if isinstance(item, BaseException) and not isinstance(item, NotFound):
                    raise item
            return [t for t in found if isinstance(t, ThreadSummary)]
        params = {
            "search": query.search or None,
            "offset": query.offset,
            "limit": query.limit,
        }
        data = await self._call("GET", "/v1/threads", params=params)
        threads = data.get("threads") if isinstance(data, dict) else None
        return [to_thread_summary(t) for t in threads or [] if isinstance(t, dict)]

    async def count_threads(self, query: ThreadQuery) -> int | None:
        return None

    async def _get_thread_row(self, thread_id: str) -> dict[str, Any] | None:
        data = await self._call("GET", self._thread_path(thread_id))
        thread = (data.get("thread_data") or {}).get("thread") if isinstance(data, dict) else None
        return thread if isinstance(thread, dict) else None

    async def get_thread(self, thread_id: str) -> ThreadSummary:
        """The thread row, with status and title taken from its state."""
        row, state = await asyncio.gather(
            self._get_thread_row(thread_id),
            self._get_raw_state(thread_id),
            return_exceptions=True,
        )
        if isinstance(row, BaseException):
            raise row
        if row is None:
            raise NotFound(f"Thread {thread_id} not found")
        summary = to_thread_summary(row)
        if isinstance(state, Conflict):
            summary.status = "busy"
            return summary
        if isinstance(state, BaseException):
            raise state
        summary.status = thread_status(state)
        if not summary.title and isinstance(state, dict):
            for message in state.get("context") or []:
                if isinstance(message, dict) and message.get("role") == "user":
                    summary.title = to_chat_message(message).text.strip()[:120]
                    break
        return summary

    async def create_thread(
        self,
        *,
        thread_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        graph_id: str | None = None,
        supersteps: list[dict[str, Any]] | None = None,
    ) -> ThreadSummary:
        """10xGraph has no create route: return a summary for a new id; the first run makes it."""
        if supersteps:
            raise Invalid("10xGraph cannot pre-fill a thread with supersteps")
        if metadata:
            raise Invalid("10xGraph threads have no metadata")
        if thread_id and await self._get_thread_row(thread_id) is not None:
            raise Conflict(f"Thread {thread_id} exists already")
        return ThreadSummary(
            thread_id=thread_id or str(uuid.uuid4()),
            status="idle",
            graph_id=ASSISTANT_ID,
            assistant_id=ASSISTANT_ID,
        )

    async def copy_thread(self, thread_id: str) -> ThreadSummary:
        raise Invalid("10xGraph cannot copy threads")

    async def update_metadata(self, thread_id: str, metadata: dict[str, Any]) -> ThreadSummary:
        raise Invalid("10xGraph threads have no metadata")

    async def delete_thread(self, thread_id: str) -> None:
        data = await self._call("DELETE", self._thread_path(thread_id), body={"config": {}})
        if isinstance(data, dict) and data.get("data") is False:
            raise NotFound(f"Thread {thread_id} not found")

    # --- state --------------------------------------------------------------------------------

    async def _get_raw_state(self, thread_id: str) -> dict[str, Any] | None:
        try:
            data = await self._call("GET", self._thread_path(thread_id, "/state"))
        except Invalid as err:
            # While a run is in progress the server fails to serialise the live state
            # (422 "1 validation error for StateResponseSchema"): the thread is busy.
            if "StateResponseSchema" in str(err) or "state: Input should be" in str(err):
                raise Conflict(
                    f"Thread {thread_id} is running: 10xGraph shows its state once the run ends",
                    status=err.status,
                ) from err
            raise
        state = data.get("state") if isinstance(data, dict) else None
        return state if isinstance(state, dict) else None

    async def get_state(self, thread_id: str, checkpoint_id: str | None = None) -> ThreadState:
        """The thread's state; a thread with none yet (new, or cleared) gives an empty one."""
        if checkpoint_id:
            raise Invalid("10xGraph keeps no checkpoints: only the current state can be read")
        return to_thread_state(thread_id, await self._get_raw_state(thread_id))

    async def get_history(
        self, thread_id: str, *, limit: int = 20, before: str | None = None
    ) -> list[ThreadState]:
        return []

    async def _state_field_names(self) -> list[str] | None:
        if self._state_fields is None:
            graph = await self._call("GET", "/v1/graph")
            fields = (
                (graph.get("info") or {}).get("state_fields") if isinstance(graph, dict) else None
            )
            if isinstance(fields, list):
                self._state_fields = [str(f) for f in fields]
        return self._state_fields

    async def update_state(
        self,
        thread_id: str,
        values: dict[str, Any] | None,
        *,
        as_node: str | None = None,
        checkpoint_id: str | None = None,
    ) -> str:
        """PUT the values that differ from the current state; returns "" (no checkpoint ids).

        10xGraph merges a PUT into the state and appends `context`, so given a whole state
        (as an editor sends back) only changed keys and new trailing messages are sent.
        Editing or removing existing messages, or writing execution_meta, raises Invalid.
        """
        if as_node:
            raise Invalid("10xGraph cannot write state as a node")
        if checkpoint_id:
            raise Invalid("10xGraph keeps no checkpoints: it can only update the current state")
        if not values:
            raise Invalid("Nothing to write: give the state keys to change")
        fields = await self._state_field_names()
        if fields:
            unknown = sorted(k for k in values if k not in fields)
            if unknown:
                raise Invalid(
                    f"The state has no field {', '.join(unknown)} (fields: {', '.join(fields)})"
                )
        current = await self._get_raw_state(thread_id) or {}
        changes: dict[str, Any] = {}
        for key, value in values.items():
            if key in current and current[key] == value:
                continue
            if key == "execution_meta":
                raise Invalid("execution_meta is kept by the server and cannot be written")
            if key == "context":
                value = self._new_context(current.get("context") or [], value)
                if not value:
                    continue
            changes[key] = value
        if not changes:
            return ""
        await self._call(
            "PUT", self._thread_path(thread_id, "/state"), body={"state": changes, "config": {}}
        )
        return ""

    @staticmethod
    def _new_context(old: list[Any], new: Any) -> list[Any]:
        if not isinstance(new, list):
            raise Invalid("context must be a list of messages")
        if new[: len(old)] == old:
            tail = new[len(old) :]
        elif all(isinstance(m, dict) and "message_id" not in m for m in new):
            tail = new  # only new messages, appended as 10xGraph does
        else:
            raise Invalid(
                "10xGraph can only append messages to the context: edit or remove them by "
                "clearing the state"
            )
        return [
            m if isinstance(m, dict) and "message_id" in m else to_client_message(m) for m in tail
        ]

    async def clear_state(self, thread_id: str) -> None:
        """DELETE the thread's state (its row and message log stay)."""
        await self._call("DELETE", self._thread_path(thread_id, "/state"))

    # --- the message log ----------------------------------------------------------------------

    async def list_messages(
        self, thread_id: str, *, offset: int = 0, limit: int = 100, search: str | None = None
    ) -> list[ChatMessage]:
        """The thread's message log (GET /messages); not always the same as state.context."""
        data = await self._call(
            "GET",
            self._thread_path(thread_id, "/messages"),
            params={"offset": offset, "limit": limit, "search": search or None},
        )
        messages = data.get("messages") if isinstance(data, dict) else None
        return [to_chat_message(m) for m in messages or [] if isinstance(m, dict)]

    async def add_messages(
        self,
        thread_id: str,
        messages: list[Any],
        metadata: dict[str, Any] | None = None,
    ) -> None:
        """Append messages to the message log without running the graph."""
        if not messages:
            raise Invalid("No messages to add")
        body: dict[str, Any] = {
            "messages": [to_client_message(m) for m in messages],
            "config": {},
        }
        if metadata:
            body["metadata"] = metadata
        await self._call("POST", self._thread_path(thread_id, "/messages"), body=body)

    async def get_message(self, thread_id: str, message_id: str) -> ChatMessage:
        if not str(message_id).strip():
            raise Invalid("The message id is empty")
        data = await self._call(
            "GET",
            self._thread_path(thread_id, f"/messages/{_quote(message_id)}"),
            not_found=f"Message {message_id} not found in thread {thread_id}",
        )
        message = data.get("message", data) if isinstance(data, dict) else None
        if not isinstance(message, dict):
            raise NotFound(f"Message {message_id} not found in thread {thread_id}")
        return to_chat_message(message)

    async def delete_message(self, thread_id: str, message_id: str) -> None:
        """Delete a message from the message log (state.context keeps its copy)."""
        if not str(message_id).strip():
            raise Invalid("The message id is empty")
        await self._call(
            "DELETE",
            self._thread_path(thread_id, f"/messages/{_quote(message_id)}"),
            body={"config": {}},
            not_found=f"Message {message_id} not found in thread {thread_id}",
        )

    # --- runs ---------------------------------------------------------------------------------

    def run_body(self, thread_id: str, request: RunRequest) -> dict[str, Any]:
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

    async def stream_run(self, thread_id: str, request: RunRequest) -> AsyncIterator[RunEvent]:
        """POST /v1/graph/stream and turn its JSON lines into RunEvents, ending with "end".

        Delta messages become "token"s that share one message_id (the first delta's);
        the whole message that closes them comes as a "message" whose data is
        {"replaces": that id}, after a last empty token (last=True).
        """
        body = self.run_body(thread_id, request)
        timeout = httpx.Timeout(self._timeout, read=None)
        answered = False
        for attempt in (0, 1):
            try:
                async with self._client.stream(
                    "POST", "/v1/graph/stream", json=body, timeout=timeout
                ) as response:
                    answered = True
                    if not response.is_success:
                        await response.aread()
                        raise self._error(response)
                    decoder = _StreamDecoder(thread_id)
                    async for line in response.aiter_lines():
                        for event in decoder.feed(line):
                            yield event
                    for event in decoder.finish():
                        yield event
                    return
            except (httpx.ConnectError, httpx.ConnectTimeout) as err:
                raise self._unreachable(err) from err
            except httpx.TransportError as err:
                if answered:
                    raise Unreachable(
                        f"Lost the connection to {self.url} while the run streamed: {err}"
                    ) from err
                # A pooled connection the server had reset fails before it answers: the
                # run never started, so once more on a fresh connection.
                if attempt:
                    raise self._unreachable(err) from err

    def join_stream(
        self, thread_id: str, run_id: str | None = None, last_event_id: str | None = None
    ) -> AsyncIterator[RunEvent]:
        return _empty()

    async def active_run(self, thread_id: str) -> str | None:
        return None

    async def cancel_run(self, thread_id: str, run_id: str = "", action: str = "interrupt") -> None:
        """POST /v1/graph/stop: the run pauses at the next node boundary."""
        await self._call("POST", "/v1/graph/stop", body={"thread_id": thread_id})

    # --- graph --------------------------------------------------------------------------------

    async def list_assistants(self) -> list[Assistant]:
        """10xGraph serves one graph: one pseudo assistant named after its state type."""
        graph = await self._call("GET", "/v1/graph")
        info = graph.get("info", {}) if isinstance(graph, dict) else {}
        nodes = info.get("node_count")
        description = f"{info.get('state_type') or 'AgentState'} graph"
        if nodes is not None:
            description += f", {nodes} nodes"
        return [
            Assistant(
                assistant_id=ASSISTANT_ID,
                graph_id=ASSISTANT_ID,
                name="10xGraph",
                description=description,
            )
        ]

    async def get_graph(self, assistant_id: str = ASSISTANT_ID, xray: bool = False) -> GraphInfo:
        graph = await self._call("GET", "/v1/graph")
        if not isinstance(graph, dict):
            return GraphInfo()
        # Node ids are random per request; edges name nodes, so names serve as ids.
        nodes = [
            GraphNode(id=str(n.get("name") or n.get("id")), name=str(n.get("name") or ""))
            for n in graph.get("nodes") or []
            if isinstance(n, dict)
        ]
        sources: dict[str, int] = {}
        raw_edges = [e for e in graph.get("edges") or [] if isinstance(e, dict)]
        for edge in raw_edges:
            sources[str(edge.get("source"))] = sources.get(str(edge.get("source")), 0) + 1
        edges = [
            GraphEdge(
                source=str(e.get("source")),
                target=str(e.get("target")),
                conditional=sources[str(e.get("source"))] > 1,
            )
            for e in raw_edges
        ]
        return GraphInfo(nodes=nodes, edges=edges)

    async def get_schemas(self, assistant_id: str = ASSISTANT_ID) -> dict[str, Any]:
        """{"state": the state's JSON schema} (10xGraph has no input/output/config schemas)."""
        schema = await self._call("GET", "/v1/graph:StateSchema")
        return {"state": schema}


def _quote(part: str) -> str:
    return quote(str(part), safe="")


async def _empty() -> AsyncIterator[RunEvent]:
    return
    yield  # pragma: no cover


class _StreamDecoder:
    """Turns 10xGraph stream lines into RunEvents, keeping what grouping tokens needs."""

    def __init__(self, thread_id: str) -> None:
        self.thread_id = thread_id
        self.run_id = ""
        self.started = False
        self.last_state: Any = None
        self.last_error = ""
        # node -> the id every token of the message being streamed there carries
        self.streaming: dict[str, str] = {}

    def feed(self, line: str) -> list[RunEvent]:
        line = line.strip()
        if not line:
            return []
        if line.startswith("data:"):  # in case a proxy or a future version makes it SSE
            line = line[5:].strip()
        try:
            chunk = json.loads(line)
        except ValueError:
            return [RunEvent(kind="other", event="raw", text=line, size=len(line))]
        if not isinstance(chunk, dict):
            return [RunEvent(kind="other", event="raw", data=chunk, size=len(line))]
        size = len(line)
        events: list[RunEvent] = []
        run_id = str(chunk.get("run_id") or "")
        meta = chunk.get("metadata") if isinstance(chunk.get("metadata"), dict) else {}
        if not self.started:
            self.started = True
            self.run_id = run_id
            events.append(
                RunEvent(
                    kind="metadata",
                    event="metadata",
                    run_id=run_id,
                    data={
                        "run_id": run_id,
                        "thread_id": chunk.get("thread_id") or self.thread_id,
                        **meta,
                    },
                )
            )
        name = str(chunk.get("event") or "")
        data = chunk.get("data")
        node = str(meta.get("node") or (data.get("node") if isinstance(data, dict) else "") or "")
        if name == "message" and isinstance(chunk.get("message"), dict):
            events.extend(self._message(chunk["message"], node, run_id, size))
        elif name == "error":
            reason = ""
            if isinstance(data, dict):
                reason = str(data.get("reason") or data.get("error") or data.get("message") or "")
            reason = reason or "The run failed"
            # A failed run reports its error twice (with the state, then alone): keep one.
            if reason != self.last_error:
                self.last_error = reason
                events.append(
                    RunEvent(
                        kind="error",
                        event=name,
                        node=node,
                        run_id=run_id,
                        text=reason,
                        data=data,
                        size=size,
                    )
                )
        elif name == "updates":
            events.append(
                RunEvent(kind="updates", event=name, node=node, run_id=run_id, data=data, size=size)
            )
            if isinstance(data, dict) and data.get("status") == "interrupted":
                pending = _interrupt(data.get("interrupt"))
                if pending is not None:
                    events.append(
                        RunEvent(
                            kind="interrupt",
                            event=name,
                            node=pending.node or node,
                            run_id=run_id,
                            data=[pending],
                            size=size,
                        )
                    )
        elif name not in ("state", "message"):
            events.append(
                RunEvent(kind="other", event=name, node=node, run_id=run_id, data=chunk, size=size)
            )
        state = chunk.get("state")
        if isinstance(state, dict) and state != self.last_state:
            self.last_state = state
            events.append(
                RunEvent(kind="values", event=name, node=node, run_id=run_id, data=state, size=size)
            )
        return events

    def _message(
        self, message: dict[str, Any], node: str, run_id: str, size: int
    ) -> list[RunEvent]:
        role = message.get("role")
        if message.get("delta") and role == "assistant":
            stream_id = self.streaming.get(node)
            if stream_id is None:
                stream_id = str(message.get("message_id") or uuid.uuid4())
                self.streaming[node] = stream_id
            text_parts: list[str] = []
            reasoning_parts: list[str] = []
            chunks: list[ToolCallChunk] = []
            for index, block in enumerate(message.get("content") or []):
                if not isinstance(block, dict):
                    continue
                kind = block.get("type")
                if kind == "text":
                    text_parts.append(str(block.get("text") or ""))
                elif kind == "reasoning":
                    reasoning_parts.append(str(block.get("summary") or ""))
                elif kind in ("tool_call", "remote_tool_call"):
                    chunks.append(
                        ToolCallChunk(
                            index=index,
                            id=str(block.get("id") or ""),
                            name=str(block.get("name") or ""),
                            args=_json_text(block.get("args") or {}),
                        )
                    )
            return [
                RunEvent(
                    kind="token",
                    event="message",
                    node=node,
                    run_id=run_id,
                    message_id=stream_id,
                    message_type="ai",
                    text="".join(text_parts),
                    reasoning="".join(reasoning_parts),
                    tool_call_chunks=chunks,
                    size=size,
                )
            ]
        chat = to_chat_message(message)
        events: list[RunEvent] = []
        data: Any = None
        if role == "assistant":
            stream_id = self.streaming.pop(node, None)
            if stream_id is not None:
                events.append(
                    RunEvent(
                        kind="token",
                        event="message",
                        node=node,
                        run_id=run_id,
                        message_id=stream_id,
                        message_type="ai",
                        last=True,
                    )
                )
                data = {"replaces": stream_id}
        events.append(
            RunEvent(
                kind="message",
                event="message",
                node=node,
                run_id=run_id,
                message_id=chat.id,
                message_type=chat.type,
                text=chat.text,
                message=chat,
                data=data,
                size=size,
            )
        )
        return events

    def finish(self) -> list[RunEvent]:
        events = [
            RunEvent(
                kind="token",
                event="message",
                node=node,
                run_id=self.run_id,
                message_id=stream_id,
                message_type="ai",
                last=True,
            )
            for node, stream_id in self.streaming.items()
        ]
        self.streaming.clear()
        events.append(
            RunEvent(
                kind="end", event="end", run_id=self.run_id, data={"thread_id": self.thread_id}
            )
        )
        return events
