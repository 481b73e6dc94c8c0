"""The data the UI reads: one shape for every server.

Backends turn their server's payloads into these models; widgets only ever see these.
Nothing here imports Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .messages_key import DEFAULT, messages_key

ThreadStatus = Literal["idle", "busy", "interrupted", "error", "unknown"]
MessageType = Literal["human", "ai", "tool", "system", "other"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=False)


class Capabilities(_Model):
    """What a server can do; the UI disables what is missing and says why."""

    name: str = "LangGraph"
    history: bool = True
    fork: bool = True
    copy_thread: bool = True
    create_thread: bool = True
    metadata: bool = True
    status_filter: bool = True
    sort: bool = True
    count: bool = True
    assistants: bool = True
    join_stream: bool = True
    cancel: bool = True
    graph: bool = True
    """The server describes its graph (nodes and edges)."""
    past_messages: bool = True
    """Past checkpoints hold their conversation (not only the newest one)."""
    stream_modes: tuple[str, ...] = ("values", "updates", "messages-tuple", "custom", "debug", "tasks")
    """The stream modes a run can ask for (the Events tab offers only these)."""
    clear_state: bool = False
    delete_message: bool = False
    add_message: bool = False
    search_messages: bool = False
    reason: str = ""
    """Why the missing features are missing, shown next to what they disable."""
    missing: tuple[str, ...] = ()
    """Protocols of threadbench.backends.base a server lacks though its class has the methods
    (DeerFlow's Gateway inherits LangGraph's client but has no store or crons)."""


class TokenUsage(_Model):
    """Tokens a model call (or a sum of them) used: LangChain's `usage_metadata`."""

    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
        )


class ToolCall(_Model):
    id: str = ""
    name: str = ""
    args: Any = Field(default_factory=dict)


class ChatMessage(_Model):
    """One message of a conversation, normalised from a LangChain message dict."""

    id: str = ""
    type: MessageType = "other"
    text: str = ""
    """The message's text content; non-text content blocks appear as placeholders."""
    reasoning: str = ""
    name: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str = ""
    status: str = ""
    """For tool results: "success" or "error"."""
    hidden: bool = False
    """additional_kwargs.hide_from_ui: kept, but shown only when the user asks."""
    artifact: Any = None
    additional_kwargs: dict[str, Any] = Field(default_factory=dict)
    usage: TokenUsage | None = None
    """The tokens the model call that wrote it used (an AI message's `usage_metadata`), if told."""

    @property
    def is_error(self) -> bool:
        return self.type == "tool" and self.status == "error"


class Interrupt(_Model):
    id: str = ""
    value: Any = None
    task_id: str = ""
    node: str = ""


class TaskInfo(_Model):
    id: str = ""
    name: str = ""
    error: str | None = None
    interrupts: list[Interrupt] = Field(default_factory=list)


class ThreadSummary(_Model):
    """A row of the thread list."""

    thread_id: str
    status: ThreadStatus = "unknown"
    created_at: datetime | None = None
    updated_at: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    title: str = ""
    """State `title`, else the first human message, else empty (the UI shows the id)."""
    graph_id: str = ""
    assistant_id: str = ""
    has_title_channel: bool = False
    interrupts: list[Interrupt] = Field(default_factory=list)
    """Open interrupts (the server's thread `interrupts`), for the inbox; task_id is set."""
    asking: bool = False
    """Its newest message is a DeerFlow ask_clarification: idle, but waiting for a person."""

    @property
    def display_title(self) -> str:
        return self.title or self.thread_id

    @property
    def phase(self) -> str:
        """What the thread waits for: "waiting" (a question for a person), "paused" (stopped
        before a node, nothing asked: a breakpoint, a fork, a cancelled run), else its status."""
        if self.asking or (self.status == "interrupted" and self.interrupts):
            return "waiting"
        return "paused" if self.status == "interrupted" else self.status


class ThreadState(_Model):
    """A thread's state at one checkpoint (the head, or one from history)."""

    thread_id: str = ""
    values: dict[str, Any] = Field(default_factory=dict)
    messages: list[ChatMessage] = Field(default_factory=list)
    next: list[str] = Field(default_factory=list)
    tasks: list[TaskInfo] = Field(default_factory=list)
    interrupts: list[Interrupt] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime | None = None
    checkpoint_id: str = ""
    parent_checkpoint_id: str = ""
    checkpoint_ns: str = ""

    @property
    def step(self) -> int | None:
        step = self.metadata.get("step")
        return step if isinstance(step, int) else None

    @property
    def source(self) -> str:
        return str(self.metadata.get("source") or "")

    @property
    def writers(self) -> list[str]:
        """The nodes that wrote this checkpoint (metadata.writes)."""
        writes = self.metadata.get("writes")
        return list(writes) if isinstance(writes, dict) else []

    @property
    def messages_key(self) -> str:
        """The key of `values` that holds the conversation (messages_key.py)."""
        return messages_key(self.values) or DEFAULT

    @property
    def title(self) -> str:
        title = self.values.get("title")
        return title if isinstance(title, str) else ""

    @property
    def first_words(self) -> str:
        """What a person said first in it, on one line (a title where nothing names one)."""
        said = next((m.text for m in self.messages if m.type == "human" and not m.hidden), "")
        return " ".join(said.split())

    def __repr__(self) -> str:
        # Short: Textual's @work builds a worker description from its arguments' reprs, and
        # pydantic's full repr of a 2,000-message state took longer than drawing the chat.
        return (
            f"ThreadState(thread_id={self.thread_id!r}, checkpoint_id={self.checkpoint_id!r}, "
            f"{len(self.values)} values, {len(self.messages)} messages, next={self.next!r})"
        )


class Assistant(_Model):
    assistant_id: str
    graph_id: str = ""
    name: str = ""
    description: str = ""


class GraphNode(_Model):
    id: str
    name: str = ""


class GraphEdge(_Model):
    source: str
    target: str
    conditional: bool = False
    label: str = ""


class GraphInfo(_Model):
    nodes: list[GraphNode] = Field(default_factory=list)
    edges: list[GraphEdge] = Field(default_factory=list)


class ThreadQuery(_Model):
    """What the thread list asks the server for."""

    status: ThreadStatus | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    graph_id: str = ""
    ids: list[str] = Field(default_factory=list)
    sort_by: Literal["updated_at", "created_at"] = "updated_at"
    sort_order: Literal["desc", "asc"] = "desc"
    limit: int = 50
    offset: int = 0
    search: str = ""
    """Free text for servers that search threads themselves (10xGraph: a substring of any
    field); LangGraph ignores it."""


class RunRequest(_Model):
    """One run: new input, a resume command, or a replay from a checkpoint."""

    assistant_id: str = ""
    input: dict[str, Any] | None = None
    command: dict[str, Any] | None = None
    context: dict[str, Any] = Field(default_factory=dict)
    configurable: dict[str, Any] = Field(default_factory=dict)
    checkpoint_id: str | None = None
    stream_modes: list[str] = Field(default_factory=lambda: ["messages-tuple", "updates", "values", "custom"])
    subgraphs: bool = False
    resumable: bool = True
    """The server keeps the run's events, so a cut stream resumes after the last one read."""
    multitask_strategy: Literal["reject", "interrupt", "rollback", "enqueue"] | None = None


RunEventKind = Literal[
    "metadata",  # a run started: data = {run_id, ...}
    "token",  # a piece of an AI message: text, reasoning and/or tool-call chunks
    "message",  # a whole message (tool results arrive whole)
    "values",  # the full state after a step
    "updates",  # {node: update} after a node ran
    "interrupt",  # the graph stopped for a human: data = [Interrupt, ...]
    "custom",  # whatever the graph wrote with get_stream_writer()
    "error",  # the run failed: text says why
    "end",  # the stream finished
    "gap",  # the server dropped events it could not keep for this reader (DeerFlow's Gateway)
    "other",
]


@dataclass(slots=True)
class ToolCallChunk:
    index: int = 0
    id: str = ""
    name: str = ""
    args: str = ""


@dataclass(slots=True)
class RunEvent:
    """One event of a run's stream, normalised.

    A plain dataclass, not pydantic: thousands arrive per second while a reply streams.
    """

    kind: RunEventKind
    event: str = ""
    """The server's own event name (e.g. "messages", "updates|tools:<uuid>")."""
    node: str = ""
    run_id: str = ""
    message_id: str = ""
    message_type: str = ""
    text: str = ""
    reasoning: str = ""
    tool_call_chunks: list[ToolCallChunk] = field(default_factory=list)
    message: ChatMessage | None = None
    data: Any = None
    size: int = 0
    """Size of the event's payload in bytes (approximate), for the events log."""
    event_id: str = ""
    namespace: str = ""
    last: bool = False
    """For tokens: the final chunk of that message."""


class ServerModel(_Model):
    """A model the server offers to run with (DeerFlow's `GET /api/models`)."""

    name: str
    model: str = ""
    display_name: str = ""
    description: str = ""
    supports_thinking: bool = False
    supports_reasoning_effort: bool = False

    @property
    def label(self) -> str:
        return self.display_name or self.name


@dataclass(slots=True)
class ArtifactFile:
    """A file the agent made, as the server serves it: its bytes and content type."""

    path: str
    content: bytes
    content_type: str = ""


class UploadedFile(_Model):
    """A file sent to a thread (DeerFlow's uploads): the agent reads it at `virtual_path`."""

    filename: str
    size: int = 0
    path: str = ""
    virtual_path: str = ""
    """Where the agent sees the file (DeerFlow: /mnt/user-data/uploads/<name>)."""
    artifact_url: str = ""
    extension: str = ""
    modified: float | None = None


class UploadLimits(_Model):
    """What a server takes in one upload (DeerFlow's `GET .../uploads/limits`); it takes any type."""

    max_files: int
    max_file_size: int
    max_total_size: int
