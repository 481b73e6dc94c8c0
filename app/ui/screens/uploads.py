"""UploadsScreen (#uploads-view): the files sent to the open thread (a server that takes
files: DeerFlow's Gateway), by name and size; `x` or delete removes the one highlighted after
asking. The list is read, and a file removed, in this screen's workers."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...artifacts import size_text
from ...backends.base import BackendError, ServesUploads
from ...models import UploadedFile
from ..text import clean, one_line
from ..workers import work
from .confirm import ConfirmScreen

NONE_SENT = "The thread holds no uploaded file."


class UploadsScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q", "close", "Close", id="uploads.close"),
        Binding("x,delete", "remove", "Remove", id="uploads.remove", tooltip="Remove the file from the thread"),
        Binding("ctrl+r", "reload", "Reload", id="uploads.reload", tooltip="Read the list again"),
    ]

    def __init__(self, backend: ServesUploads, thread_id: str, title: str) -> None:
        super().__init__(classes="modal")
        self.backend = backend
        self.thread_id = thread_id
        self.thread_title = title
        self.files: list[UploadedFile] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide", id="uploads-view"):
            yield Static(
                Content.assemble(("Uploads", "bold"), (" · " + one_line(self.thread_title, 50), "dim")),
                classes="dialog-title",
                id="uploads-title",
            )
            yield OptionList(id="upload-list")
            yield Static(Content.styled("reading the thread's uploads…", "$text-muted"), id="uploads-note")
            yield Static(Content.styled("x / delete removes one (asks first) · escape closes", "dim"))

    def on_mount(self) -> None:
        self.query_one("#upload-list").focus()
        self.load()

    @work(exclusive=True, group="uploads", exit_on_error=False)
    async def load(self, highlight: int = 0) -> None:
        note = self.query_one("#uploads-note", Static)
        try:
            self.files = await self.backend.list_uploads(self.thread_id)
        except BackendError as error:
            note.update(Content.styled(error.message, "$text-error"))
            return
        listing = self.query_one("#upload-list", OptionList)
        listing.clear_options()
        width = max((len(clean(f.filename)) for f in self.files), default=0)
        listing.add_options(
            Option(Content.assemble(clean(f.filename).ljust(width), ("  " + size_text(f.size), "dim")), id=f.filename)
            for f in self.files
        )
        if self.files:
            listing.highlighted = min(highlight, len(self.files) - 1)
        count = len(self.files)
        words = (
            f"{count} file{'s' if count != 1 else ''} sent to this thread"
            if count
            else "No file was sent to this thread."
        )
        note.update(Content.styled(words, "$text-muted"))

    def action_reload(self) -> None:
        self.load(self.query_one("#upload-list", OptionList).highlighted or 0)

    def action_close(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected, "#upload-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        chosen = self.files[event.option_index]
        self.notify(f"{chosen.filename}: the agent reads it at {chosen.virtual_path}", timeout=4, markup=False)

    @work(group="uploads-remove", exit_on_error=False)
    async def action_remove(self) -> None:
        index = self.query_one("#upload-list", OptionList).highlighted
        if index is None or index >= len(self.files):
            self.notify("No file to remove.", timeout=2)
            return
        chosen = self.files[index]
        question = Content.assemble(
            "Remove ",
            (clean(chosen.filename), "bold"),
            " from the thread?\n",
            ("The agent can no longer read it.", "dim"),
        )
        if not await self.app.push_screen_wait(ConfirmScreen(question, "Remove")):
            return
        try:
            await self.backend.delete_upload(self.thread_id, chosen.filename)
        except BackendError as error:
            self.notify(error.with_hint(), severity="error", markup=False)
            return
        self.notify(f"Removed {chosen.filename}.", timeout=2, markup=False)
        self.load(index)
