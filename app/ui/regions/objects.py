"""The screens of the server's other objects, opened from the conversation: the open
thread's runs (a run joined or run again streams into the chat), the assistants (one picked
"for runs" becomes the run options' assistant), the store and the crons (a new cron defaults
to the open thread and its assistant). A base of Conversation (conversation.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widget import Widget

from ...object_input import rerun_request
from ..screens.assistants import AssistantsScreen
from ..screens.crons import CronsScreen
from ..screens.runs import RunsChoice, RunsScreen
from ..screens.store import StoreScreen
from ..typed_keys import dialog_worker

if TYPE_CHECKING:
    from ...models import ThreadSummary
    from .runs import Rows, StateView


KEPT_SCREENS = {"store": StoreScreen, "assistants": AssistantsScreen}
"""The screens of the server's objects kept between opens (kept_screens.py): not the runs,
which are a thread's, nor the crons, whose new cron defaults to the open thread."""


class ObjectScreens(Widget):
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

    def _ready(self) -> bool:
        if self.app.session.backend is None:  # type: ignore[attr-defined]
            self.notify("The server is not ready yet.", timeout=2)
            return False
        return True

    @dialog_worker
    async def open_runs(self) -> None:
        if not self._ready():
            return
        if self.thread_id is None:
            self.notify("Open a thread first: the runs are the open thread's.", severity="warning", timeout=3)
            return
        thread_id = self.thread_id
        summary: ThreadSummary | None = self._rows.thread(thread_id)
        title = summary.display_title if summary is not None else thread_id
        choice: RunsChoice | None = await self.app.push_screen_wait(
            RunsScreen(self.app.session.backend, thread_id, title)  # type: ignore[attr-defined]
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
    async def open_assistants(self) -> None:
        if not self._ready():
            return
        app = self.app
        screen = app.kept_screens.get("assistants", app.session.backend, AssistantsScreen)  # type: ignore[attr-defined]
        screen.graphs = list(app.session.graphs)  # type: ignore[attr-defined]
        picked = await app.push_screen_wait(screen)
        if picked:
            app.session.run_options.assistant_id = picked  # type: ignore[attr-defined]
            self.show_run_options()
            self.notify(f"Runs now go to {picked}.", timeout=3, markup=False)

    def open_store(self) -> None:
        if self._ready():
            app = self.app
            app.push_screen(app.kept_screens.get("store", app.session.backend, StoreScreen))  # type: ignore[attr-defined]

    def open_crons(self) -> None:
        if self._ready():
            self.app.push_screen(
                CronsScreen(self.app.session.backend, thread_id=self.thread_id, assistant_id=self.assistant)  # type: ignore[attr-defined]
            )
