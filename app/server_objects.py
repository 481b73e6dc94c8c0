"""The server's other objects, as the UI reads them: runs, assistants (with their versions),
store items and crons. What a person types about them is checked in object_input.py.
Nothing here imports Textual.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from .models import _Model

SERVER_CONFIGURABLE = {"run_id", "thread_id", "graph_id", "assistant_id", "user_id", "cron_id", "checkpoint_id"}
"""Keys the server writes into a run's configurable itself (not the user's options)."""
RUN_ACTIVE = ("pending", "running")
"""The statuses of a run that is not over (it can be cancelled, or joined when running)."""


class RunInfo(_Model):
    """One run of a thread, as runs.list / runs.get describe it."""

    run_id: str
    thread_id: str = ""
    assistant_id: str = ""
    graph_id: str = ""
    status: str = ""
    created_at: datetime | None = None
    updated_at: datetime | None = None
    multitask_strategy: str = ""
    stream_modes: list[str] = Field(default_factory=list)
    input: Any = None
    command: Any = None
    config: dict[str, Any] = Field(default_factory=dict)
    context: dict[str, Any] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)
    error: str = ""
    kwargs: dict[str, Any] = Field(default_factory=dict)
    """Everything the server keeps of the run's options (shown in the details)."""

    @property
    def user_configurable(self) -> dict[str, Any]:
        """The run's configurable without what the server adds (its ids, auth, request id)."""
        return {
            key: value
            for key, value in (self.config.get("configurable") or {}).items()
            if key not in SERVER_CONFIGURABLE and not key.startswith(("__", "langgraph_"))
        }

    @property
    def active(self) -> bool:
        return self.status in RUN_ACTIVE

    @property
    def ended_at(self) -> datetime | None:
        """When it ended: its last update, once it is over (the server keeps no end time)."""
        return None if self.active else self.updated_at

    @property
    def duration(self) -> float | None:
        """Seconds from start to end (None while it runs or when a time is missing)."""
        if self.created_at is None or self.ended_at is None:
            return None
        return max(0.0, (self.ended_at - self.created_at).total_seconds())

    def details(self) -> dict[str, Any]:
        """What the details pane shows: input, options, metadata, error."""
        shown: dict[str, Any] = {"input": self.input}
        if self.command is not None:
            shown["command"] = self.command
        shown["options"] = {
            "assistant_id": self.assistant_id,
            "multitask_strategy": self.multitask_strategy,
            "stream_mode": self.stream_modes,
            "context": self.context,
            "configurable": self.user_configurable,
        }
        shown["metadata"] = self.metadata
        if self.error:
            shown["error"] = self.error
        return shown


class AssistantInfo(_Model):
    """An assistant, or one version of it."""

    assistant_id: str
    graph_id: str = ""
    name: str = ""
    description: str = ""
    version: int = 0
    config: dict[str, Any] = Field(default_factory=dict)
    context: dict[str, Any] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime | None = None
    updated_at: datetime | None = None


class StoreItem(_Model):
    namespace: list[str] = Field(default_factory=list)
    key: str = ""
    value: Any = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    score: float | None = None


class CronJob(_Model):
    cron_id: str
    assistant_id: str = ""
    thread_id: str | None = None
    schedule: str = ""
    next_run_date: datetime | None = None
    end_time: datetime | None = None
    enabled: bool = True
    input: Any = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime | None = None
