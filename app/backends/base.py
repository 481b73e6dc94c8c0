"""The one async interface every server is reached through, and its typed errors.

Nothing under backends/ imports Textual: the UI calls these methods from workers and
shows the models they return.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # (the errors are imported before the models are needed: threadbench.cli)
    from ..models import (
        ArtifactFile,
        Assistant,
        Capabilities,
        ChatMessage,
        GraphInfo,
        RunEvent,
        RunRequest,
        ServerModel,
        ThreadQuery,
        ThreadState,
        ThreadSummary,
        UploadedFile,
        UploadLimits,
    )
    from ..server_objects import AssistantInfo, CronJob, RunInfo, StoreItem


class BackendError(Exception):
    """Base of every error a backend raises. `str(err)` is fit to show a person."""

    hint: str = ""
    refused_options: tuple[str, ...] = ()
    """The request's fields the server named as options it does not support (a 422)."""

    def __init__(self, message: str, *, hint: str = "", status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint or self.hint
        self.status = status

    def __str__(self) -> str:
        return self.message

    def with_hint(self, sep: str = " ") -> str:
        """What a person reads: the message, then (after `sep`) what to do, if there is a hint."""
        return f"{self.message}{sep}{self.hint}" if self.hint else self.message


class NotFound(BackendError):
    hint = "It may have been deleted: refresh the list."


class Conflict(BackendError):
    hint = "The thread is busy or the id exists already: wait, or cancel the run."


class Invalid(BackendError):
    hint = "Check what you typed and try again."


class Unauthorized(BackendError):
    hint = (
        "Give the right API key: --api-key, the LANGGRAPH_API_KEY environment variable, "
        "or a config-file profile's api_key_env."
    )


class LoginFailed(Unauthorized):
    """The server refused to log in: a wrong email or password, or a lock-out."""


class NoLogin(Invalid):
    """The server has no login route where DeerFlow serves it (DeerFlow's `langgraph dev`
    mode: its Gateway serves the login)."""


class LoginRequired(Unauthorized):
    """The server wants a logged-in session (DeerFlow), not an API key."""

    hint = (
        "Log in with --email EMAIL (password from $THREADBENCH_PASSWORD), or type an email "
        "and password on the connection screen (ctrl+o)."
    )


class Unreachable(BackendError):
    hint = "Is the server running? Check the URL."


class ServerError(BackendError):
    hint = "The server failed; its log may say why."


@dataclass(frozen=True)
class Credentials:
    """An email and password to log in with (DeerFlow); the password is kept out of reprs."""

    email: str
    password: str = field(repr=False)


@runtime_checkable
class Backend(Protocol):
    """An agent server, seen through the models in threadbench.models."""

    url: str
    capabilities: Capabilities

    async def check(self) -> dict[str, Any]:
        """Ask the server who it is; raises Unreachable / Unauthorized."""

    async def close(self) -> None: ...

    # threads
    async def search_threads(self, query: ThreadQuery) -> list[ThreadSummary]: ...
    async def count_threads(self, query: ThreadQuery) -> int | None: ...
    async def get_thread(self, thread_id: str) -> ThreadSummary: ...
    async def create_thread(
        self,
        *,
        thread_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        graph_id: str | None = None,
        supersteps: list[dict[str, Any]] | None = None,
    ) -> ThreadSummary: ...
    async def copy_thread(self, thread_id: str) -> ThreadSummary: ...
    async def update_metadata(self, thread_id: str, metadata: dict[str, Any]) -> ThreadSummary: ...
    async def delete_thread(self, thread_id: str) -> None: ...

    # state and history
    async def get_state(self, thread_id: str, checkpoint_id: str | None = None) -> ThreadState: ...
    async def get_history(self, thread_id: str, *, limit: int = 20, before: str | None = None) -> list[ThreadState]: ...
    async def update_state(
        self,
        thread_id: str,
        values: dict[str, Any] | None,
        *,
        as_node: str | None = None,
        checkpoint_id: str | None = None,
    ) -> str:
        """Write values (fork when checkpoint_id is older than the head); returns the new checkpoint id."""

    # runs
    def stream_run(self, thread_id: str, request: RunRequest) -> AsyncIterator[RunEvent]: ...
    def join_stream(
        self, thread_id: str, run_id: str | None = None, last_event_id: str | None = None
    ) -> AsyncIterator[RunEvent]: ...
    async def active_run(self, thread_id: str) -> str | None:
        """The id of the run in progress on this thread, if any."""

    async def cancel_run(self, thread_id: str, run_id: str, action: str = "interrupt") -> None: ...

    # assistants and graphs
    async def list_assistants(self) -> list[Assistant]: ...
    async def get_graph(self, assistant_id: str, xray: bool = False) -> GraphInfo: ...
    async def get_schemas(self, assistant_id: str) -> dict[str, Any]: ...


@runtime_checkable
class ListsGraphs(Protocol):
    """A server that names its graphs even when its auth hides the assistants."""

    async def registered_graphs(self) -> list[str]: ...


# --- optional capabilities: `isinstance(backend, ClearsState)` says whether a server has one ---


@runtime_checkable
class TellsAsking(Protocol):
    """A server whose thread rows do not say which idle threads wait on a question (DeerFlow's
    Gateway: its rows hold only the title); it reads that from the threads' state."""

    async def threads_asking(self, threads: list[ThreadSummary]) -> dict[str, bool]:
        """thread id -> whether its agent's newest message asks the user (ask_clarification)."""


@runtime_checkable
class ServesArtifacts(Protocol):
    """A server that serves the files its agent made (DeerFlow's Gateway: the paths in the state's
    `artifacts`, read from `GET /threads/{id}/artifacts/{path}`)."""

    async def get_artifact(self, thread_id: str, path: str) -> ArtifactFile:
        """The file at `path` (as the state names it, e.g. /mnt/user-data/outputs/report.md)."""


@runtime_checkable
class ServesUploads(Protocol):
    """A server that takes files for a thread's agent to read (DeerFlow's Gateway:
    `/threads/{id}/uploads`, the files then named in the human message that sends them)."""

    async def upload(self, thread_id: str, path: Path) -> UploadedFile:
        """Send the file at `path` (on this machine); the server may rename it (its answer says)."""

    def human_message(self, text: str, files: list[UploadedFile], message_id: str) -> dict[str, Any]:
        """The human message that sends `text` with `files` (uploaded first), as the server's own UI sends it."""

    async def list_uploads(self, thread_id: str) -> list[UploadedFile]: ...
    async def delete_upload(self, thread_id: str, filename: str) -> None: ...
    async def upload_limits(self, thread_id: str) -> UploadLimits: ...


@runtime_checkable
class SuggestsFollowUps(Protocol):
    """A server that suggests what the user might ask next (DeerFlow's Gateway:
    `POST /threads/{id}/suggestions`, as its UI asks after each reply)."""

    async def suggest_follow_ups(
        self, thread_id: str, messages: list[ChatMessage], model_name: str | None = None
    ) -> list[str]:
        """Up to the server's number of questions for the conversation's recent turns;
        [] when the server's suggestions are off."""


@runtime_checkable
class CountsTokens(Protocol):
    """A server that says whether it counts tokens (DeerFlow's Gateway: `GET /models`
    `token_usage.enabled`); a server that does not say shows what its messages carry."""

    async def counts_tokens(self) -> bool: ...


@runtime_checkable
class ListsModels(Protocol):
    """A server that names the models a run can use (DeerFlow's Gateway: `GET /models`)."""

    async def list_models(self) -> list[ServerModel]: ...


@runtime_checkable
class ClearsState(Protocol):
    """A server that can empty a thread's state and keep the thread (10xGraph)."""

    async def clear_state(self, thread_id: str) -> None: ...


@runtime_checkable
class KeepsMessageLog(Protocol):
    """A server that keeps a thread's message log apart from its state (10xGraph): adding or
    deleting there does not change the conversation the graph sees."""

    async def list_messages(
        self, thread_id: str, *, offset: int = 0, limit: int = 100, search: str | None = None
    ) -> list[ChatMessage]: ...
    async def add_messages(
        self, thread_id: str, messages: list[Any], metadata: dict[str, Any] | None = None
    ) -> None: ...
    async def get_message(self, thread_id: str, message_id: str) -> ChatMessage: ...
    async def delete_message(self, thread_id: str, message_id: str) -> None: ...


# --- the server's other objects (LangGraph Agent Server); the screens explain their absence ---


@runtime_checkable
class ListsRuns(Protocol):
    """A server that lists a thread's runs and describes each."""

    async def list_runs(self, thread_id: str, *, limit: int = 50, offset: int = 0) -> list[RunInfo]: ...
    async def get_run(self, thread_id: str, run_id: str) -> RunInfo: ...


@runtime_checkable
class SearchesAssistants(Protocol):
    """A server whose assistants can be searched by name, graph and metadata."""

    async def search_assistants(
        self,
        *,
        name: str = "",
        graph_id: str = "",
        metadata: dict[str, Any] | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[AssistantInfo]: ...


@runtime_checkable
class EditsAssistants(SearchesAssistants, Protocol):
    """A server whose assistants can also be versioned, created, edited and deleted."""

    async def assistant_versions(
        self, assistant_id: str, *, limit: int = 50, offset: int = 0
    ) -> list[AssistantInfo]: ...
    async def create_assistant(
        self,
        graph_id: str,
        *,
        name: str = "",
        config: dict[str, Any] | None = None,
        context: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> AssistantInfo: ...
    async def update_assistant(
        self,
        assistant_id: str,
        *,
        name: str | None = None,
        config: dict[str, Any] | None = None,
        context: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> AssistantInfo:
        """Makes a new version and puts it in use."""

    async def set_assistant_version(self, assistant_id: str, version: int) -> AssistantInfo: ...
    async def delete_assistant(self, assistant_id: str) -> None: ...


@runtime_checkable
class HasStore(Protocol):
    """A server with a key-value store of namespaced items."""

    async def store_namespaces(
        self, prefix: list[str] | None = None, *, limit: int = 100, offset: int = 0
    ) -> list[list[str]]: ...
    async def store_items(
        self,
        namespace: list[str],
        *,
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[StoreItem]: ...
    async def store_put(self, namespace: list[str], key: str, value: dict[str, Any]) -> None: ...
    async def store_delete(self, namespace: list[str], key: str) -> None: ...


@runtime_checkable
class HasCrons(Protocol):
    """A server that runs assistants on a schedule."""

    async def list_crons(self, *, limit: int = 50, offset: int = 0) -> list[CronJob]: ...
    async def create_cron(
        self, schedule: str, *, assistant_id: str, thread_id: str | None = None, input: dict[str, Any] | None = None
    ) -> CronJob: ...
    async def delete_cron(self, cron_id: str) -> None: ...


def lacks(backend: object, ability: type, what: str) -> str:
    """Why `backend` cannot `what` ("" when it can): it lacks the protocol, or its
    capabilities say it lacks the routes (a subclass that inherits the methods)."""
    capabilities = getattr(backend, "capabilities", None)
    name = getattr(capabilities, "name", "This server")
    missing = getattr(capabilities, "missing", ()) or ()
    if not isinstance(backend, ability) or ability.__name__ in missing:
        return f"{name} cannot {what}."
    return ""


_REGISTERED = re.compile(r"registered graphs:\s*(.+)", re.IGNORECASE | re.DOTALL)


def graphs_in_refusal(message: str) -> list[str]:
    """The graph ids an Agent Server lists when it refuses an unknown assistant (LangGraph's
    words, which DeerFlow's Gateway shares): the UI offers them when a run is refused."""
    found = _REGISTERED.search(message)
    if not found:
        return []
    names = (name.strip().strip("'\".") for name in found.group(1).splitlines()[0].split(","))
    return [name for name in names if name]
