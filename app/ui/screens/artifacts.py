"""ArtifactsScreen (#artifacts-view): the files the open thread's agent made (its state's
`artifacts`), one shown at a time: Markdown drawn, code highlighted by its extension, text as
text, anything else described (type, size). `s` saves the one shown to a file (asking before it
overwrites one), `e` opens a copy in $EDITOR.

The files come from a server that serves them (ServesArtifacts: DeerFlow's Gateway), read in
this screen's worker; elsewhere the view lists what the state holds and says the server serves
no files.
"""

from __future__ import annotations

from pathlib import Path

from rich.syntax import Syntax
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Markdown, OptionList, Static
from textual.widgets.option_list import Option

from ...artifacts import description, file_name, kind_of, lexer_for, listed
from ...backends.base import Backend, BackendError, ServesArtifacts
from ...models import ArtifactFile
from ...styles import STYLES
from ..editor import EditorError, edit_in_editor
from ..text import clean
from ..widgets.key_footer import KeyFooter
from ..workers import work
from .confirm import ConfirmScreen
from .prompt import PromptScreen

LIST_ROOM = 36
"""The cells of a row of the list (40 wide, styles/artifacts.tcss) before it is laid out."""
OPTION_PADDING = 2
"""An option's padding (Textual's OptionList)."""


class ArtifactsScreen(Screen[None]):
    CSS_PATH = [STYLES / "artifacts.tcss"]
    BINDINGS = [
        Binding("escape,q", "close", "Close", id="artifacts.close"),
        Binding("s", "save", "Save", id="artifacts.save", tooltip="Save the file shown (asks before overwriting)"),
        Binding("e", "edit", "Open in $EDITOR", id="artifacts.edit", tooltip="Open a copy of the file in $EDITOR"),
    ]

    def __init__(self, backend: Backend, thread_id: str, paths: list[str]) -> None:
        super().__init__()
        self.backend = backend
        self.thread_id = thread_id
        self.paths = paths
        self.shown: ArtifactFile | None = None
        serves = isinstance(backend, ServesArtifacts)
        self.note = "" if serves else f"{backend.capabilities.name} serves no files: the state holds their paths only."

    def compose(self) -> ComposeResult:
        with Vertical(id="artifacts-view"):
            count = f"{len(self.paths)} file{'s' if len(self.paths) != 1 else ''}"
            yield Static(
                Content.assemble(("Artifacts", "bold"), (f" · {count} the agent made · enter shows one", "dim")),
                id="artifacts-title",
            )
            if self.note:
                yield Static(Content(self.note), id="artifacts-note")
            with Horizontal(id="artifacts-panes"):
                rows = [Option(self._row(path), id=str(i)) for i, path in enumerate(self.paths)]
                yield OptionList(*rows, id="artifact-list")
                with VerticalScroll(id="artifact-body"):
                    empty = "The thread's state names no artifacts." if not self.paths else "enter shows the file."
                    yield Static(Content.styled(empty, "$text-muted"), id="artifact-text")
                    yield Markdown(id="artifact-markdown")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#artifact-markdown").display = False
        self.query_one("#artifact-list").focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_rows)

    def _fit_rows(self) -> None:
        """Each file on one row of the list as wide as it is laid out (a long path wrapped,
        its name cut in the middle)."""
        listing = self.query_one("#artifact-list", OptionList)
        width = listing.scrollable_content_region.width - OPTION_PADDING
        for index, path in enumerate(self.paths):
            listing.replace_option_prompt_at_index(index, self._row(path, width))

    @staticmethod
    def _row(path: str, width: int = LIST_ROOM) -> Content:
        return Content("".join(listed(clean(path), max(1, width))))

    @on(OptionList.OptionSelected, "#artifact-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.show(self.paths[event.option_index])

    @work(exclusive=True, group="artifact", exit_on_error=False)
    async def show(self, path: str) -> None:
        text = self.query_one("#artifact-text", Static)
        if not isinstance(self.backend, ServesArtifacts):
            self.shown = None
            text.update(Content(f"{path}\n\n{self.note}"))
            return
        text.update(Content.styled(f"reading {clean(path)}…", "$text-muted"))
        try:
            found = await self.backend.get_artifact(self.thread_id, path)
        except BackendError as error:
            self.shown = None
            text.update(Content.styled(error.message, "$text-error"))
            return
        self.shown = found
        await self._draw(found)

    async def _draw(self, found: ArtifactFile) -> None:
        text = self.query_one("#artifact-text", Static)
        markdown = self.query_one("#artifact-markdown", Markdown)
        kind = kind_of(found.path, found.content, found.content_type)
        markdown.display = kind == "markdown"
        text.display = kind != "markdown"
        words = found.content.decode("utf-8") if kind != "other" else ""
        if kind == "markdown":
            await markdown.update(words)
        elif kind == "code":
            text.update(Syntax(words, lexer_for(found.path), theme="ansi_dark", line_numbers=True, word_wrap=True))
        elif kind == "text":
            text.update(Content(words))
        else:
            text.update(Content(description(found.path, found.content, found.content_type)))
        self.query_one("#artifact-body").scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    @work(group="artifact-save", exit_on_error=False)
    async def action_save(self) -> None:
        found = self.shown
        if found is None:
            self.notify("Show a file first (enter).", severity="warning", timeout=3)
            return
        answer = await self.app.push_screen_wait(PromptScreen("Save as", file_name(found.path)))
        if not answer:
            return
        target = Path(answer).expanduser()
        target = target if target.is_absolute() else Path.cwd() / target
        if target.exists():
            question = Content.assemble(f"{target} exists.\n", ("Overwrite it?", "bold"))
            if not await self.app.push_screen_wait(ConfirmScreen(question, "Overwrite")):
                return
        try:
            target.write_bytes(found.content)
        except OSError as error:
            self.notify(f"Could not save {target}: {error.strerror or error}", severity="error", markup=False)
            return
        self.notify(f"Saved {target}", timeout=3, markup=False)

    def action_edit(self) -> None:
        found = self.shown
        if found is None or kind_of(found.path, found.content, found.content_type) == "other":
            self.notify("Show a text file first (enter): only text opens in $EDITOR.", severity="warning", timeout=3)
            return
        try:
            edit_in_editor(self.app, found.content.decode("utf-8"), suffix=Path(found.path).suffix or ".txt")
        except EditorError as error:
            self.notify(str(error), severity="error", markup=False)
