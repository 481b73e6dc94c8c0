"""The session: what the app is connected to and what the user chose for it, made once by the
app and read by every region (`app.session`). No Textual here.

A new connection (ctrl+o, a replay) changes the backend in place: `connected_to` forgets what
was learnt of the old server (its graphs, the graph picked per thread, a pick of assistant).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import Settings
from .run_options import RunOptions
from .run_target import thread_graph

if TYPE_CHECKING:
    from .backends.base import Backend
    from .models import ThreadSummary


class Session:
    def __init__(self, settings: Settings, backend_kind: str) -> None:
        self.settings = settings
        self.backend: Backend | None = None
        self.backend_kind = backend_kind
        self.connection_url: str | None = settings.url
        self.connection_profile: str | None = settings.profile
        self.run_options = run_options_from(settings.run_options)
        self.recording_to: Path | None = settings.record_dir
        """The folder every run is written to (--record DIR, or F8), or None."""
        self.graphs: list[str] = []
        """The graphs the server runs, as far as it lets us see (threadbench.run_target)."""
        self.graphs_complete = False
        """True when `graphs` is all of them (the assistants said so, or a refusal listed them)."""
        self.thread_targets: dict[str, str] = {}
        """Thread id -> the assistant or graph the user picked for it (new thread, picker)."""
        self.messages_keys: dict[str, str] = {}
        """Assistant or graph -> the key of its input that carries a message (messages_key.py),
        learnt from its schemas."""

    @property
    def live_backend(self) -> Backend:
        """The backend, for code that runs only once connected (a thread is open, a run began)."""
        if self.backend is None:
            raise RuntimeError("Not connected to a server yet.")
        return self.backend

    @property
    def recordings_folder(self) -> Path:
        return self.recording_to or self.settings.record_dir or self.settings.data_dir / "recordings"

    def assistant_of(self, thread: ThreadSummary | None, thread_id: str | None = None) -> str:
        """Where a run on a thread goes: the user's pick, the graph picked for this thread,
        the thread's own graph, else the server's only graph ("": unknown, ask the user)."""
        thread_id = thread.thread_id if thread is not None else thread_id
        only = self.graphs[0] if len(self.graphs) == 1 and self.graphs_complete else ""
        picked = self.thread_targets.get(thread_id or "", "")
        return self.run_options.assistant_id or picked or thread_graph(thread) or only

    def connected_to(self, backend: Backend, kind: str, url: str, profile: str | None = None) -> Backend | None:
        """`backend` from now on; returns the old one (to close). A pick of assistant was for
        the old server's graphs: the config file's, or the profile's, is taken again."""
        old, self.backend = self.backend, backend
        self.backend_kind, self.connection_url, self.connection_profile = kind, url, profile
        self.run_options.assistant_id = run_options_from(self.settings.run_options).assistant_id
        chosen = self.settings.profiles.get(profile) if profile else None
        if chosen is not None and chosen.assistant_id:
            self.run_options.assistant_id = chosen.assistant_id
        self.graphs, self.graphs_complete, self.thread_targets, self.messages_keys = [], False, {}, {}
        return old


def run_options_from(config: dict[str, Any]) -> RunOptions:
    """The config file's [run_options]: assistant_id, send_as, and option values."""
    values = dict(config)
    options = RunOptions()
    assistant = values.pop("assistant_id", None)
    if isinstance(assistant, str) and assistant:
        options.assistant_id = assistant
    send_as = values.pop("send_as", None)
    if send_as in ("context", "configurable"):
        options.send_as = send_as
    options.values = values
    return options
