"""EditStateScreen: edit a thread's values (or one key) as JSON, then update_state.

Nothing is sent until the text parses: a mistake is reported with its line and column, the
cursor jumps there, and the text stays as typed. The screen then awaits the caller's
`submit(values, as_node)` callback (the screen that owns the backend does the network
call); if it returns an error text (the server refused), the modal stays open with that
text shown and the JSON untouched. On success it dismisses with an EditResult.

Modes: plain edit of the head; a fork from an older checkpoint (`fork_from` given: the
title says so and the caller sends checkpoint_id); one key (`key`) or all values.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select, Static, TextArea

from ...json_text import JsonProblem, editable_json, parse_json, parse_json_object
from ...models import ThreadState
from ..text import clean
from ..typed_keys import after_typed_keys
from ..workers import work
from .submitting import refusal_of

Submit = Callable[[dict[str, Any], str | None], Awaitable[str | None]]
HIDDEN_NODES = {"__end__"}


@dataclass
class EditResult:
    values: dict[str, Any]
    as_node: str | None
    key: str | None
    fork_from: str | None
    """The checkpoint id the edit forked from (None: the head)."""


def parse_values(text: str, key: str | None) -> dict[str, Any]:
    """The editor's text as the values to send; raises JsonProblem (1-based line/column)."""
    if not text.strip():
        raise JsonProblem("Nothing to send: the editor is empty.")
    if key is not None:
        return {key: parse_json(text, f"the value of {key}")}
    return parse_json_object(text, "the values", '{"title": "New title"}')


def node_options(nodes: list[str]) -> list[tuple[str, str]]:
    return [(clean(node), node) for node in nodes if node not in HIDDEN_NODES]


class EditStateScreen(ModalScreen[EditResult | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="edit.cancel"),
        Binding("ctrl+s", "save", "Send", priority=True, id="edit.save"),
    ]

    def __init__(
        self,
        values: dict[str, Any],
        submit: Submit,
        *,
        key: str | None = None,
        nodes: list[str] | None = None,
        as_node: str | None = None,
        fork_from: ThreadState | None = None,
        text: str | None = None,
    ) -> None:
        """`values`: the state's values (all of them, even when editing one `key`).
        `nodes`: the graph's nodes to offer as as_node. `text`: start from this text
        instead of the values' JSON (e.g. to reopen after a refusal)."""
        super().__init__(classes="modal")
        self.values = values
        self.submit = submit
        self.key = key
        self.nodes = list(nodes or [])
        self.as_node = as_node
        self.fork_from = fork_from
        if text is None:
            shown = values.get(key) if key is not None else values
            text = editable_json(shown)
        self.initial_text = text
        self.sending = False

    def title_content(self) -> Content:
        what = f"key {self.key!r}" if self.key is not None else "state values"
        if self.fork_from is not None:
            checkpoint = self.fork_from
            where = f"step {checkpoint.step}" if checkpoint.step is not None else clean(checkpoint.checkpoint_id[-8:])
            return Content.assemble(
                ("Fork ", "bold $text-secondary"),
                (f"from checkpoint {where}", "bold"),
                (f" ({clean(checkpoint.checkpoint_id[-8:])})", "$text-muted"),
                (f" · edit {clean(what)}", "bold"),
            )
        return Content.styled(f"Edit {clean(what)}", "bold")

    def compose(self) -> ComposeResult:
        options = node_options(self.nodes)
        initial = self.as_node if self.as_node in {value for _, value in options} else Select.NULL
        with Vertical(classes="dialog -wide", id="edit-state-dialog"):
            yield Static(self.title_content(), classes="dialog-title", id="edit-state-title")
            yield TextArea(
                self.initial_text, language="json", id="state-editor", show_line_numbers=True, tab_behavior="indent"
            )
            yield Label("Write as node (as_node; blank: the server picks the last writer)")
            yield Select(options, value=initial, allow_blank=True, prompt="(server default)", id="edit-state-as-node")
            yield Static(id="edit-state-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                label = "Fork (ctrl+s)" if self.fork_from is not None else "Send (ctrl+s)"
                yield Button(label, variant="primary", id="edit-state-send")
                yield Button("Cancel (esc)", id="edit-state-cancel")

    def on_mount(self) -> None:
        self.query_one("#state-editor", TextArea).focus()

    @property
    def editor(self) -> TextArea:
        return self.query_one("#state-editor", TextArea)

    @property
    def error_text(self) -> str:
        return str(self.query_one("#edit-state-error", Static).visual or "")

    def show_error(self, text: str) -> None:
        self.query_one("#edit-state-error", Static).update(Content.styled(clean(text), "$text-error"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "edit-state-send":
            self.action_save()
        else:
            self.action_cancel()

    def selected_node(self) -> str | None:
        value = self.query_one("#edit-state-as-node", Select).value
        return value if isinstance(value, str) else None

    @after_typed_keys
    def action_save(self) -> None:
        if self.sending:
            return
        try:
            values = parse_values(self.editor.text, self.key)
        except JsonProblem as problem:
            self.show_error(str(problem))
            if problem.line:
                self.editor.cursor_location = (max(0, problem.line - 1), max(0, problem.column - 1))
            self.editor.focus()
            return
        self.send(values, self.selected_node())

    @work(exclusive=True, group="edit-state")
    async def send(self, values: dict[str, Any], as_node: str | None) -> None:
        self.sending = True
        try:
            refusal = await refusal_of(
                self, "#edit-state-send", "#edit-state-error", "Sending…", lambda: self.submit(values, as_node)
            )
        finally:
            self.sending = False
        if refusal:
            self.show_error(f"The server refused the update: {refusal}")
            self.editor.focus()
            return
        self.dismiss(
            EditResult(
                values=values,
                as_node=as_node,
                key=self.key,
                fork_from=self.fork_from.checkpoint_id if self.fork_from is not None else None,
            )
        )

    def action_cancel(self) -> None:
        if not self.sending:
            self.dismiss(None)
