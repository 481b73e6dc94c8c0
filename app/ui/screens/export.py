"""ExportScreen (ctrl+s): where to write the open thread, as Markdown or JSON, with what.

Dismisses with an ExportRequest (the app fetches and writes) or None. The file name
follows the format until the user edits it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet, Static

from ..text import one_line
from ..typed_keys import after_typed_keys

EXTENSIONS = {"markdown": "md", "json": "json"}


@dataclass
class ExportRequest:
    path: Path
    format: str
    """"markdown" or "json"."""
    include_state: bool = True
    include_history: bool = False


class ExportScreen(ModalScreen[ExportRequest | None]):
    CSS = """
    ExportScreen #export-format { border: none; padding: 0; width: 1fr; background: transparent; }
    ExportScreen #export-format:focus-within { background: $boost; }
    ExportScreen Checkbox { border: none; padding: 0; height: 1; background: transparent; }
    ExportScreen Checkbox:focus { background: $boost; }
    ExportScreen #export-path { margin-top: 0; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="export.cancel"),
        Binding("ctrl+s", "export", "Export", priority=True, id="export.save"),
    ]

    def __init__(self, title: str, thread_id: str, stem: str, folder: Path | None = None, history: bool = True) -> None:
        super().__init__(classes="modal")
        self.thread_title = title
        self.thread_id = thread_id
        self.stem = stem
        self.folder = folder or Path.cwd()
        self.history_available = history
        self._auto_path = ""
        """The path this screen filled in; it follows the format until the user edits it."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide", id="export-dialog"):
            yield Static(
                Content.assemble(("Export ", "bold"), (one_line(self.thread_title, 50), "bold $accent")),
                classes="dialog-title",
            )
            yield Static(Content.styled(self.thread_id, "dim"))
            yield Label("Format")
            with RadioSet(id="export-format"):
                yield RadioButton("Markdown (to read)", value=True, id="export-markdown")
                yield RadioButton("JSON (to keep; loads back)", id="export-json")
            yield Label("Include")
            yield Checkbox("state values", value=True, id="export-state")
            yield Checkbox(
                "history (every checkpoint)" if self.history_available else "history (this server keeps none)",
                value=False,
                disabled=not self.history_available,
                id="export-history",
            )
            yield Label("File (relative to the folder threadbench runs in)" if self.folder == Path.cwd() else "File")
            self._auto_path = f"{self.stem}.md" if self.folder == Path.cwd() else str(self.folder / f"{self.stem}.md")
            yield Input(value=self._auto_path, id="export-path")
            yield Static(id="export-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Export (ctrl+s)", variant="primary", id="export-ok")
                yield Button("Cancel (esc)", id="export-cancel")

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    @property
    def format(self) -> str:
        return "json" if self.query_one("#export-json", RadioButton).value else "markdown"

    @on(RadioSet.Changed, "#export-format")
    def format_changed(self) -> None:
        path_input = self.query_one("#export-path", Input)
        if path_input.value == self._auto_path:
            self._auto_path = str(Path(self._auto_path).with_suffix("." + EXTENSIONS[self.format]))
            path_input.value = self._auto_path
        state = self.query_one("#export-state", Checkbox)
        state.disabled = self.format == "json"  # JSON always carries the state
        if self.format == "json":
            state.value = True

    @on(Input.Submitted, "#export-path")
    def path_submitted(self) -> None:
        self.action_export()

    @on(Button.Pressed)
    def button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "export-ok":
            self.action_export()
        else:
            self.action_cancel()

    @after_typed_keys
    def action_export(self) -> None:
        error = self.query_one("#export-error", Static)
        text = self.query_one("#export-path", Input).value.strip()
        if not text:
            error.update(Content.styled("Type a file name first.", "$error"))
            return
        path = Path(text).expanduser()
        if not path.is_absolute():
            path = self.folder / path
        if path.is_dir():
            error.update(Content.styled(f"{path} is a folder: add a file name.", "$error"))
            return
        if not path.parent.is_dir():
            error.update(Content.styled(f"No folder {path.parent}.", "$error"))
            return
        self.dismiss(
            ExportRequest(
                path=path,
                format=self.format,
                include_state=self.query_one("#export-state", Checkbox).value,
                include_history=self.query_one("#export-history", Checkbox).value,
            )
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
