"""The thread operations of the thread browser: a new thread, a copy, a thread sent to another
server, a rename and a delete, on the highlighted row. `ThreadActions` is the base of
ThreadSidebar (thread_sidebar.py), which provides the list; it tells the screen with Messages:
Made (a thread made in the new-thread dialog), Renamed and Deleted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message

from ...backends.base import BackendError, Conflict
from ...config import Profile
from ...models import ThreadSummary
from ...thread_import import ImportProblem, move_thread, supersteps_for
from ...thread_ops import fetch_thread, sentence, write_title
from ..report import report
from ..screens.choose import ChooseScreen
from ..screens.confirm import ConfirmScreen
from ..screens.new_thread import NewThreadRequest, NewThreadScreen
from ..screens.prompt import PromptScreen
from ..text import one_line
from ..typed_keys import dialog_worker
from ..workers import work

if TYPE_CHECKING:
    from ..app import ThreadbenchApp
    from ..widgets.thread_list import ThreadList


class ThreadActions(Vertical):
    app: ThreadbenchApp

    @dataclass
    class Made(Message):
        """The user made a thread in the new-thread dialog; it is listed and opens. The next
        thing they do is write in it."""

    @dataclass
    class Renamed(Message):
        thread_id: str

    @dataclass
    class Deleted(Message):
        thread_id: str

    SCREEN_KEYS: ClassVar[list[Binding]] = [
        Binding("n", "new_thread", "New", id="main.new", tooltip="New thread"),
        Binding(
            "ctrl+n",
            "new_thread",
            "New thread",
            show=False,
            priority=True,
            id="main.new_anywhere",
            tooltip="New thread",
        ),
        Binding("c", "copy_thread", "Copy", show=False, id="main.copy", tooltip="Copy the thread (with its history)"),
        Binding(
            "M",
            "send_thread",
            "Send to server",
            show=False,
            id="main.send",
            tooltip="Send the thread (with its history) to another server: a config-file profile",
        ),
        Binding("r,f2", "rename_thread", "Rename", show=False, id="main.rename", tooltip="Rename the thread"),
        Binding("delete,x", "delete_thread", "Delete", show=False, id="main.delete", tooltip="Delete the thread"),
        Binding(
            "ctrl+z",
            "undo_copy",
            "Undo copy",
            show=False,
            id="main.undo",
            tooltip="Undo the copy just made (c): the copy is deleted",
        ),
    ]
    """The keys of the main screen this region acts on (main_keys.py binds them on the screen)."""

    last_copy: ThreadSummary | None = None
    """The copy c made last, until ctrl+z deletes it (or another copy takes its place)."""

    if TYPE_CHECKING:  # what ThreadSidebar provides

        @property
        def thread_list(self) -> ThreadList: ...

        def insert_thread(self, summary: ThreadSummary, *, open_it: bool = True) -> None: ...

    def selected(self) -> ThreadSummary | None:
        thread_id = self.thread_list.highlighted_thread_id
        if thread_id is None:
            self.notify("Select a thread first.", severity="warning", timeout=2)
            return None
        return self.thread_list.thread(thread_id)

    def action_new_thread(self) -> None:
        if self.app.session.backend is not None:
            self.new_thread()

    def action_rename_thread(self) -> None:
        if self.app.session.backend is not None and (thread := self.selected()) is not None:
            self.rename_thread(thread)

    def action_delete_thread(self) -> None:
        if self.app.session.backend is not None and (thread := self.selected()) is not None:
            self.delete_thread(thread)

    @dialog_worker
    async def new_thread(self) -> None:
        app = self.app
        backend = app.session.live_backend
        try:
            assistants = await backend.list_assistants() if backend.capabilities.assistants else []
        except BackendError as error:
            report(self, error, "Listing assistants")
            assistants = []
        created: list[ThreadSummary] = []

        async def submit(request: NewThreadRequest) -> str | None:
            """Create it; on a refusal the dialog stays open with what was typed and why."""
            try:
                supersteps = None
                if request.prefill is not None:
                    supersteps = await supersteps_for(backend, request.prefill, request.graph_id, request.agent_node)
                created.append(
                    await backend.create_thread(
                        thread_id=request.thread_id,
                        metadata=request.metadata,
                        graph_id=request.graph_id,
                        supersteps=supersteps,
                    )
                )
            except ImportProblem as problem:
                return str(problem)
            except BackendError as error:
                app.log_error(f"Creating the thread failed: {error}")
                if isinstance(error, Conflict):
                    return sentence(error, "Change the id, or leave it empty for a new one.")
                return sentence(error, error.hint)
            return None

        request = await app.push_screen_wait(
            NewThreadScreen(
                assistants,
                submit,
                app.session.assistant_of(None),
                graphs=app.session.graphs,
                id_is_uuid=backend.capabilities.create_thread,
            )
        )
        if request is None or not created:
            return
        summary = created[0]
        if request.assistant_id:
            app.session.thread_targets[summary.thread_id] = request.assistant_id
        self.insert_thread(summary)
        self.post_message(self.Made())
        self.notify("Thread created.", timeout=2)

    def action_copy_thread(self) -> None:
        backend, thread = self.app.session.backend, self.selected()
        if backend is None or thread is None:
            return
        if not backend.capabilities.copy_thread:
            self.notify(f"{backend.capabilities.name} cannot copy threads.", severity="warning")
            return
        self.copy_thread(thread.thread_id)

    def action_send_thread(self) -> None:
        thread = self.selected()
        if thread is None or self.app.session.backend is None:
            return
        current = self.app.session.connection_url
        profiles = [p for p in self.app.settings.profiles.values() if p.url.rstrip("/") != (current or "").rstrip("/")]
        if not profiles:
            self.notify(
                "No other server to send it to: add one to the config file as a profile "
                "([profiles.NAME] with url = …); `threadbench config` says where the file is.",
                severity="warning",
                timeout=8,
            )
            return
        self.send_thread(thread, profiles)

    @dialog_worker
    async def send_thread(self, thread: ThreadSummary, profiles: list[Profile]) -> None:
        """A copy of the thread, with its history, on the server of a profile the user picks."""
        app = self.app
        choices = [(p.name, p.name, p.url) for p in profiles]
        title = one_line(thread.display_title, 50)
        name = await app.push_screen_wait(
            ChooseScreen("Send the thread to another server", f"{title}, with its history, to:", choices)
        )
        profile = next((p for p in profiles if p.name == name), None)
        if profile is None:
            return
        self.notify(f"Sending the thread to {profile.name}…", timeout=3, markup=False)
        try:
            target, _ = await app.connections.open_backend(
                profile.url, profile.api_key(), profile.backend, profile.credentials()
            )
        except BackendError as error:
            report(self, error, f"Connecting to {profile.name}")
            return
        try:
            copy, steps = await move_thread(app.session.live_backend, thread.thread_id, target)
        except BackendError as error:
            report(self, error, f"Sending the thread to {profile.name}")
            return
        finally:
            await target.close()
        self.notify(
            f"Sent to {profile.name} ({steps} steps of history): thread {copy.thread_id}.", timeout=8, markup=False
        )

    @work(group="copy")
    async def copy_thread(self, thread_id: str) -> None:
        backend = self.app.session.live_backend
        try:
            copy = await backend.copy_thread(thread_id)
        except BackendError as error:
            report(self, error, "Copying the thread")
            return
        original = self.thread_list.thread(thread_id)
        if original is not None and not copy.title:
            copy.title = original.title
        self.insert_thread(copy)
        self.last_copy = copy
        self.notify(
            f"Copied “{one_line(copy.display_title, 40)}” with its history: the copy, {copy.thread_id[:8]}, "
            "is open. ctrl+z deletes it.",
            timeout=8,
            markup=False,
        )

    def action_undo_copy(self) -> None:
        copy = self.last_copy
        if self.app.session.backend is None:
            return
        if copy is None:
            self.notify("Nothing to undo: ctrl+z deletes the copy c made last.", timeout=3)
            return
        self.last_copy = None
        self.undo_copy(copy)

    @work(group="copy")
    async def undo_copy(self, copy: ThreadSummary) -> None:
        try:
            await self.app.session.live_backend.delete_thread(copy.thread_id)
        except BackendError as error:
            report(self, error, "Deleting the copy")
            return
        self.post_message(self.Deleted(copy.thread_id))
        self.notify(f"Copy {copy.thread_id[:8]} deleted: the copy is undone.", timeout=4, markup=False)

    @dialog_worker
    async def rename_thread(self, thread: ThreadSummary) -> None:
        app = self.app
        backend = app.session.live_backend
        title = await app.push_screen_wait(PromptScreen("Rename thread", thread.title, "a title for this thread"))
        if title is None:
            return
        try:
            where = await write_title(backend, thread, title, app.session.assistant_of(thread))
        except BackendError as error:
            report(self, error, "Renaming the thread")
            return
        fresh = await fetch_thread(backend, thread.thread_id)
        if fresh is not None:
            if where == "metadata":
                fresh.title = title
            self.thread_list.update_thread(fresh)
        self.post_message(self.Renamed(thread.thread_id))
        self.notify(f"Renamed (saved in the thread's {where}).", timeout=3)

    @dialog_worker
    async def delete_thread(self, thread: ThreadSummary) -> None:
        backend = self.app.session.live_backend
        question = Content.assemble(
            "Delete the thread ",
            (one_line(thread.display_title, 50), "bold"),
            ("\n" + thread.thread_id, "dim"),
            "\nand all its checkpoints? This cannot be undone.",
        )
        if not await self.app.push_screen_wait(ConfirmScreen(question)):
            return
        try:
            await backend.delete_thread(thread.thread_id)
        except BackendError as error:
            report(self, error, "Deleting the thread")
            return
        self.post_message(self.Deleted(thread.thread_id))
        self.notify("Thread deleted.", timeout=2)
