"""The demo agent's state (DeerFlow's ThreadState shape) and its run options."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


def merge_artifacts(existing: list[str] | None, new: list[str] | None) -> list[str]:
    """Ordered, de-duplicated union (DeerFlow's artifacts reducer)."""
    merged = list(existing or [])
    for path in new or []:
        if path not in merged:
            merged.append(path)
    return merged


def replace_todos(existing: list[Any] | None, new: list[Any] | None) -> list[Any] | None:
    """The last non-None value wins."""
    return existing if new is None else new


class Todo(TypedDict):
    content: str
    status: Literal["pending", "in_progress", "completed"]


class UploadedFile(TypedDict):
    filename: str
    size: int
    path: str
    extension: str


class SandboxState(TypedDict):
    sandbox_id: str


class ThreadDataState(TypedDict):
    workspace_path: str
    uploads_path: str
    outputs_path: str


class ThreadState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    title: NotRequired[str | None]
    artifacts: Annotated[list[str], merge_artifacts]
    todos: Annotated[list[Todo] | None, replace_todos]
    uploaded_files: NotRequired[list[UploadedFile] | None]
    sandbox: NotRequired[SandboxState | None]
    thread_data: NotRequired[ThreadDataState | None]


class Context(TypedDict, total=False):
    """Run options (`context=` in LangGraph >= 0.6; older clients send `configurable`)."""

    thinking_enabled: bool
    reasoning_effort: str
    model_name: str
    is_plan_mode: bool
    subagent_enabled: bool
