"""The screens of the server's other objects, opened from the conversation: the open
thread's runs (a run joined or run again streams into the chat), the assistants (one picked
"for runs" becomes the run options' assistant), the store and the crons (a new cron defaults
to the open thread and its assistant); and the extras of the servers that have them (10xGraph:
clear a thread's state, its message log). A base of Conversation (conversation.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding
from textual.content import Content
from textual.widget import Widget

from ...backends.base import BackendError, ClearsState, KeepsMessageLog
from ...object_input import rerun_request
from ..report import report
from ..screens.assistants import AssistantsScreen
from ..screens.confirm import ConfirmScreen
from ..screens.crons import CronsScreen
from ..screens.message_log import MessageLogScreen
from ..screens.runs import RunsChoice, RunsScreen
from ..screens.store import StoreScreen
from ..typed_keys import dialog_worker

if TYPE_CHECKING:
    from ...models import ThreadSummary
    from ..app import ThreadbenchApp
    from .runs import Rows, StateView


KEPT_SCREENS = {"store": StoreScreen, "assistants": AssistantsScreen}
"""The screens of the server's objects kept between opens (kept_screens.py): not the runs,
which are a thread's, nor the crons, whose new cron defaults to the open thread."""


class ObjectScreens(Widget):
    app: ThreadbenchApp

    SCREEN_KEYS: ClassVar[list[Binding]] = [
        Binding(
            "K",
            "clear_state",
            "Clear state",
            show=False,
            id="main.clear_state",
            tooltip="Clear the thread's state (10xGraph)",
        ),
        Binding("L", "message_log", "Message log", show=False, id="main.message_log", tooltip="Message log (10xGraph)"),
        Binding("R", "runs", "Runs", show=False, id="main.runs", tooltip="Runs of the open thread"),
        Binding(
            "A",
            "assistants",
            "Assistants",
            show=False,
            id="main.assistants",
            tooltip="Assistants: search, versions, edit",
        ),
        Binding("S", "store", "Store", show=False, id="main.store", tooltip="Store: namespaces and items"),
        Binding("C", "crons", "Crons", show=False, id="main.crons", tooltip="Crons: runs on a schedule"),
    ]
    """The keys of the main screen this region acts on (main_keys.py binds them on the screen)."""

    if TYPE_CHECKING:  # what Conversation provides
        thread_id: str | None
        _rows: Rows
        _inspector: StateView

        @property
        def assistant(self) -> str: ...
        @property
        def run_in_progress(self) -> bool: ...
        def join_run(self, thread_id: str) -> object: ...
        def stream_again(self, thread_id: str, request: object) -> object: ...
        def show_run_options(self) -> None: ...
        def open_thread(self, thread_id: str, ask: bool = False) -> object: ...

    def _ready(self) -> bool:
        if self.app.session.backend is None:
            self.notify("The server is not ready yet.", timeout=2)
            return False
        return True

    @dialog_worker
    async def action_runs(self) -> None:
        if not self._ready():
            return
        if self.thread_id is None:
            self.notify("Open a thread first: the runs are the open thread's.", severity="warning", timeout=3)
            return
        thread_id = self.thread_id
        summary: ThreadSummary | None = self._rows.thread(thread_id)
        title = summary.display_title if summary is not None else thread_id
        choice: RunsChoice | None = await self.app.push_screen_wait(
            RunsScreen(self.app.session.live_backend, thread_id, title)
        )
        if choice is None or thread_id != self.thread_id:
            return
        if self.run_in_progress:
            self.notify("A run is streaming into the chat already.", severity="warning", timeout=3)
            return
        if choice.action == "join":
            self.join_run(thread_id)
        else:
            self.stream_again(thread_id, rerun_request(choice.run, self._inspector.stream_modes()))

    @dialog_worker
    async def action_assistants(self) -> None:
        if not self._ready():
            return
        app = self.app
        screen = app.kept_screens.get("assistants", app.session.live_backend, AssistantsScreen)
        screen.graphs = list(app.session.graphs)
        picked = await app.push_screen_wait(screen)
        if picked:
            app.session.run_options.assistant_id = picked
            self.show_run_options()
            self.notify(f"Runs now go to {picked}.", timeout=3, markup=False)

    def action_store(self) -> None:
        if self._ready():
            app = self.app
            app.push_screen(app.kept_screens.get("store", app.session.live_backend, StoreScreen))

    def action_crons(self) -> None:
        if self._ready():
            self.app.push_screen(
                CronsScreen(self.app.session.live_backend, thread_id=self.thread_id, assistant_id=self.assistant)
            )

    # -- extras of servers that have them (10xGraph) -------------------------------------------------

    def can(self, ability: type, what: str) -> bool:
        """An open thread, on a server with `ability` (a protocol of threadbench.backends.base); else says why not."""
        backend = self.app.session.backend
        if backend is None or self.thread_id is None:
            self.notify("Open a thread first.", severity="warning", timeout=2)
            return False
        if not isinstance(backend, ability):
            self.notify(f"{backend.capabilities.name} cannot {what}.", severity="warning", timeout=3)
            return False
        return True

    def action_clear_state(self) -> None:
        if self.can(ClearsState, "clear a thread's state"):
            self.clear_state(self.thread_id)

    def action_message_log(self) -> None:
        if self.can(KeepsMessageLog, "keep a message log apart from the state"):
            self.message_log(self.thread_id)

    @dialog_worker
    async def clear_state(self, thread_id: str) -> None:
        backend = self.app.session.backend
        if not isinstance(backend, ClearsState):
            return
        question = Content.assemble(
            "Clear the state of this thread?\n", ("Its conversation and values are removed; the thread stays.", "dim")
        )
        if not await self.app.push_screen_wait(ConfirmScreen(question, "Clear")):
            return
        try:
            await backend.clear_state(thread_id)
        except BackendError as error:
            report(self, error, "Clearing the state")
            return
        self.notify("State cleared.", timeout=2)
        self.open_thread(thread_id)

    @dialog_worker
    async def message_log(self, thread_id: str) -> None:
        backend = self.app.session.backend
        if isinstance(backend, KeepsMessageLog) and await self.app.push_screen_wait(
            MessageLogScreen(backend, thread_id)
        ):
            self.open_thread(thread_id)
