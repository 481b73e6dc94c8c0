"""NewThreadScreen: a new thread with an optional id, metadata (JSON) and graph/assistant,
optionally pre-filled from a file (a thread this app exported, or a JSON list of messages).

What is typed is checked here first (a UUID, a JSON object). Then the screen awaits the
caller's `submit(request)` callback (the screen that owns the backend creates the thread);
if it returns an error text (the server refused: the id exists, ...), the dialog stays open
with that text shown and every field as typed. On success it dismisses with the request.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from ...json_text import parse_json_object
from ...models import Assistant
from ...run_options import assistant_value
from ...thread_import import ImportProblem, ImportSource, parse_import
from ..text import clean
from ..typed_keys import after_typed_keys
from ..widgets.graph_choice import GraphChoice
from ..widgets.safe_input import SafeInput
from ..workers import work
from .submitting import refusal_of


@dataclass
class NewThreadRequest:
    thread_id: str | None
    metadata: dict[str, Any] = field(default_factory=dict)
    assistant_id: str = ""
    graph_id: str = ""
    prefill: ImportSource | None = None
    """What the thread starts with (its history as supersteps), read from the file named."""
    agent_node: str = ""
    """For a list of messages: the node that writes the agent's ("": the graph's only node)."""


def parse_metadata(text: str) -> dict[str, Any]:
    """The metadata box's JSON; raises JsonProblem (a ValueError) with the line and column of a mistake."""
    if not text.strip():
        return {}
    return parse_json_object(text, "the metadata", '{"project": "demo"}')


def read_prefill(path_text: str) -> ImportSource | None:
    """The file named in the pre-fill box, read and recognised; raises ImportProblem (a
    ValueError) saying what is wrong. An empty box: no pre-fill."""
    path_text = path_text.strip()
    if not path_text:
        return None
    path = Path(path_text).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ImportProblem(f"No such file: {path}.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ImportProblem(f"Cannot read {path}: {getattr(error, 'strerror', None) or error}.") from None
    return parse_import(text, f"the file {path.name}")


def parse_thread_id(text: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    try:
        return str(uuid.UUID(text))
    except ValueError:
        raise ValueError(
            f"Thread id {clean(text)!r} is not a UUID (the server wants one). Leave it empty for a new one."
        ) from None


Submit = Callable[[NewThreadRequest], Awaitable[str | None]]
"""Creates the thread; returns None on success, else why the server refused (plain text)."""


class NewThreadScreen(ModalScreen[NewThreadRequest | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="new.cancel"),
        Binding("ctrl+s", "create", "Create", priority=True, id="new.create"),
    ]

    def __init__(
        self,
        assistants: list[Assistant],
        submit: Submit,
        default_assistant: str = "",
        *,
        graphs: Sequence[str] = (),
        id_is_uuid: bool = True,
    ) -> None:
        super().__init__(classes="modal")
        self.assistants = assistants
        self.graphs = list(graphs)
        self.submit = submit
        self.sending = False
        self.default_assistant = default_assistant
        self.id_is_uuid = id_is_uuid

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide", id="new-thread-dialog"):
            yield Static(Content.styled("New thread", "bold"), classes="dialog-title")
            yield Label("Thread id (optional UUID)")
            yield SafeInput(placeholder="leave empty for a new UUID", id="new-thread-id")
            yield Label("Assistant / graph")
            yield GraphChoice(self.assistants, self.graphs, self.default_assistant, id="new-thread-assistant")
            yield Label("Metadata (JSON object)")
            yield TextArea("{\n  \n}", language="json", id="new-thread-metadata", show_line_numbers=False)
            with Horizontal(classes="dialog-row"):
                with Vertical(classes="-wide"):
                    yield Label("Pre-fill from a file (an export or messages)")
                    yield SafeInput(placeholder="optional: path/to/thread.json", id="new-thread-file")
                with Vertical(classes="-right"):
                    yield Label("Agent's node (messages)")
                    yield SafeInput(placeholder="its only node", id="new-thread-node")
            yield Static(id="new-thread-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Create (ctrl+s)", variant="primary", id="new-thread-create")
                yield Button("Cancel (esc)", id="new-thread-cancel")

    def on_mount(self) -> None:
        self.query_one("#new-thread-id", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "new-thread-create":
            self.action_create()
        else:
            self.action_cancel()

    def on_input_submitted(self) -> None:
        self.action_create()

    @property
    def error_text(self) -> str:
        return str(self.query_one("#new-thread-error", Static).visual or "")

    def show_error(self, text: str) -> None:
        self.query_one("#new-thread-error", Static).update(Content.styled(clean(text), "$error"))

    @after_typed_keys
    def action_create(self) -> None:
        if self.sending:
            return
        try:
            text = self.query_one("#new-thread-id", Input).value
            thread_id = parse_thread_id(text) if self.id_is_uuid else (text.strip() or None)
            metadata = parse_metadata(self.query_one("#new-thread-metadata", TextArea).text)
            prefill = read_prefill(self.query_one("#new-thread-file", Input).value)
        except ValueError as problem:
            self.show_error(str(problem))
            return
        chosen = self.query_one("#new-thread-assistant", GraphChoice).value
        assistant = next(
            (a for a in self.assistants if chosen == assistant_value(a.assistant_id, a.graph_id, a.name)), None
        )
        graph_id = assistant.graph_id if assistant else chosen if chosen in self.graphs else ""
        if prefill is not None and not chosen:
            graph_id = prefill.graph_id  # an export says which graph it ran on
        request = NewThreadRequest(thread_id=thread_id, metadata=metadata, assistant_id=chosen, graph_id=graph_id)
        request.prefill = prefill
        request.agent_node = self.query_one("#new-thread-node", Input).value.strip()
        self.send(request)

    @work(exclusive=True, group="new-thread")
    async def send(self, request: NewThreadRequest) -> None:
        self.sending = True
        try:
            refusal = await refusal_of(
                self, "#new-thread-create", "#new-thread-error", "Creating…", lambda: self.submit(request)
            )
        finally:
            self.sending = False
        if refusal:
            self.show_error(refusal)  # (it says what was not done: "Could not create the thread …")
            return
        self.dismiss(request)

    def action_cancel(self) -> None:
        if not self.sending:
            self.dismiss(None)
