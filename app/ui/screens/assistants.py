"""AssistantsScreen (A): the server's assistants (#assistants-table), searched by name,
`graph:ID` and `key=value` metadata (#assistant-search); the highlighted one's versions
(#assistant-versions) and its config, context and metadata as JSON.

n creates one from a graph, e edits it (a new version), enter on a version puts that
version in use, d deletes (asked first), u uses it for runs (the run options' assistant).
A server that searches its assistants but cannot edit them (DeerFlow's Gateway) shows them
without versions, and neither binds nor lists the editing keys.
Config and context are checked against the graph's schemas (get_schemas) before sending.
Dismisses with the assistant to use for runs, or None.
"""

from __future__ import annotations

import json
import shlex
from functools import partial
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Input, Static

from ...backends.base import BackendError, EditsAssistants, SearchesAssistants, lacks
from ...object_input import TypedWrong, parse_json_object, schema_of, unmirrored_config
from ...run_options import assistant_value
from ...server_objects import AssistantInfo
from ..text import clean, plain, pretty_json, relative_time
from ..widgets.paged_table import PagedTable, cell
from ..workers import work
from .object_form import FormField, ObjectFormScreen
from .objects_base import ObjectsScreen

if TYPE_CHECKING:
    from ...backends.base import Backend

PAGE = 50
VERSIONS_PAGE = 50
EDITING = ("create", "edit", "delete", "versions")
"""The actions of a server that edits its assistants (EditsAssistants)."""


def parse_search(text: str) -> dict[str, Any]:
    """`graph:ID`, `key=value` (metadata) and words (the name) -> search_assistants' arguments."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    found: dict[str, Any] = {"name": "", "graph_id": "", "metadata": {}}
    names = []
    for word in words:
        if word.startswith("graph:") and len(word) > 6:
            found["graph_id"] = word[6:]
        elif "=" in word and not word.startswith("="):
            key, value = word.split("=", 1)
            found["metadata"][key] = value
        else:
            names.append(word)
    found["name"] = " ".join(names)
    return found


class AssistantsScreen(ObjectsScreen[str | None]):
    BINDINGS = [
        Binding("escape", "close", "Close", id="assistants.close"),
        Binding("slash", "focus_search", "Search", id="assistants.search"),
        Binding("n", "create", "New", id="assistants.new", tooltip="New assistant from a graph"),
        Binding("e", "edit", "Edit", id="assistants.edit", tooltip="Edit the assistant (a new version)"),
        Binding("d,delete", "delete", "Delete", id="assistants.delete", tooltip="Delete the assistant"),
        Binding("u", "use", "Use for runs", id="assistants.use", tooltip="Use the assistant for runs"),
        Binding("v", "versions", "Versions", id="assistants.versions", tooltip="Go to the versions"),
    ]
    HINTS = (
        ("focus_search", "/ search"),
        ("create", "n new"),
        ("edit", "e edit"),
        ("versions", "v versions (enter: put that version in use)"),
        ("delete", "d delete"),
        ("use", "u use for runs"),
        ("close", "esc close"),
    )

    def __init__(self, backend: Backend, graphs: list[str] | None = None) -> None:
        super().__init__(backend)
        self.graphs = list(graphs or [])
        self.assistants: dict[str, AssistantInfo] = {}
        self.versions: dict[str, AssistantInfo] = {}
        self.versions_of = ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog objects-dialog", id="assistants-dialog"):
            yield Static(self.title_line("Assistants"), classes="dialog-title")
            yield Static("", classes="objects-lacking")
            with Vertical(classes="objects-body"):
                yield Input(
                    placeholder="search: name words, graph:ID, key=value (metadata); enter",
                    id="assistant-search",
                    classes="objects-search",
                )
                with Horizontal():
                    with Vertical(classes="objects-main"):
                        yield PagedTable(id="assistants-table")
                        yield PagedTable(id="assistant-versions")
                    with VerticalScroll(classes="objects-side objects-detail"):
                        yield Static("", id="assistant-details")
            yield Static("Loading the assistants…", classes="objects-status")
            yield Static(self.hint_line(), classes="objects-hint")

    @property
    def table(self) -> PagedTable:
        return self.query_one("#assistants-table", PagedTable)

    @property
    def versions_table(self) -> PagedTable:
        return self.query_one("#assistant-versions", PagedTable)

    def on_mount(self) -> None:
        if not self.app.is_running:
            return  # built ahead (kept_screens.py) as the app closed: its widgets are going
        self.query_one(".objects-lacking").display = False
        for label, width in (("name", 22), ("graph", 14), ("version", 7), ("updated", 7), ("assistant id", 36)):
            self.table.add_column(label, key=label, width=width)
        for label, width in (("version", 7), ("name", 22), ("created", 7), ("in use", 6)):
            self.versions_table.add_column(label, key=label, width=width)
        why = lacks(self.backend, SearchesAssistants, "search, version or edit assistants")
        if why:
            self.explain_lack(why)
            self.set_status("")
        elif why := lacks(self.backend, EditsAssistants, "version, create, edit or delete assistants"):
            self.versions_table.display = False
            self.note_lack(why)

    def can(self, action: str) -> bool:
        return action not in EDITING or self.edits

    @property
    def edits(self) -> bool:
        """The server versions, creates, edits and deletes assistants."""
        return not lacks(self.backend, EditsAssistants, "")

    def opened(self, first: bool) -> None:
        """Searched again at each open, with what the search box holds, the cursor kept."""
        if self.lacking:
            return
        if first:
            self.table.focus()
        self.load()

    @property
    def searcher(self) -> SearchesAssistants:
        assert isinstance(self.backend, SearchesAssistants)
        return self.backend

    @property
    def editor(self) -> EditsAssistants:
        assert isinstance(self.backend, EditsAssistants)
        return self.backend

    # -- the list ------------------------------------------------------------------------------------

    def search_args(self) -> dict[str, Any]:
        return parse_search(self.query_one("#assistant-search", Input).value)

    def _none_found(self) -> str:
        if self.query_one("#assistant-search", Input).value.strip():
            return "No assistant matches."
        # (a server runs at least one graph, and each gets an assistant: these are hidden)
        graphs = f" It runs {', '.join(self.graphs)}: n makes an assistant of one." if self.graphs else ""
        return "The server shows no assistants: its auth may hide them, as DeerFlow's does." + graphs

    @work(exclusive=True, exit_on_error=False, group="assistants-load")
    async def load(self, more: bool = False, select: str | None = None) -> None:
        table = self.table
        table.fetching = True
        offset = table.served if more else 0
        try:
            found = await self.searcher.search_assistants(**self.search_args(), limit=PAGE, offset=offset)
        except BackendError as error:
            table.fetching = False
            self.failed("Searching the assistants", error)
            return
        if not self.is_attached:  # closed while the server answered
            return
        keep = select or table.highlighted_key
        if not more:
            self.assistants = {}
            table.clear()
        table.exhausted = len(found) < PAGE
        table.served += len(found)
        now = self.clock_now()
        for assistant in found:
            if assistant.assistant_id in self.assistants:
                continue
            self.assistants[assistant.assistant_id] = assistant
            table.add_row(
                cell(assistant.name or "(no name)"),
                cell(assistant.graph_id),
                str(assistant.version),
                relative_time(assistant.updated_at, now),
                cell(assistant.assistant_id),
                key=assistant.assistant_id,
            )
        table.fetching = False
        if keep in self.assistants:
            table.move_cursor(row=table.get_row_index(keep))
        count = len(self.assistants)
        self.set_status(
            f"{count} assistant{'s' if count != 1 else ''}" + ("" if table.exhausted else " (more below)")
            if count
            else self._none_found(),
            count=True,
        )
        self.show_details()
        self.load_versions()

    @on(Input.Submitted, "#assistant-search")
    def searched(self, event: Input.Submitted) -> None:
        event.stop()
        self.load()
        self.table.focus()

    @on(PagedTable.NeedMore, "#assistants-table")
    def more(self) -> None:
        self.load(more=True)

    @on(PagedTable.NeedMore, "#assistant-versions")
    def more_versions(self) -> None:
        self.load_versions(more=True)

    @on(PagedTable.RowHighlighted, "#assistants-table")
    def highlighted(self) -> None:
        self.show_details()
        assistant = self.highlighted_assistant()
        if assistant is not None and assistant.assistant_id != self.versions_of:
            self.load_versions()

    @on(PagedTable.RowHighlighted, "#assistant-versions")
    def version_highlighted(self) -> None:
        self.show_details()

    def highlighted_assistant(self) -> AssistantInfo | None:
        key = self.table.highlighted_key
        return self.assistants.get(key) if key else None

    def shown(self) -> AssistantInfo | None:
        """The version highlighted when the versions have the focus, else the assistant."""
        if self.versions_table.has_focus and (key := self.versions_table.highlighted_key):
            return self.versions.get(key)
        return self.highlighted_assistant()

    def show_details(self) -> None:
        assistant = self.shown()
        details = self.query_one("#assistant-details", Static)
        if assistant is None:
            self.show_detail(details, Content(""))
            return
        body = {
            "config": assistant.config,
            "context": assistant.context,
            "metadata": assistant.metadata,
            "description": assistant.description or None,
        }
        self.show_detail(
            details,
            Content.assemble(
                (clean(assistant.name or assistant.assistant_id), "bold"),
                (f"  version {assistant.version}", "dim"),
                "\n",
                plain(pretty_json(body)),
            ),
        )

    @work(exclusive=True, exit_on_error=False, group="assistant-versions")
    async def load_versions(self, more: bool = False) -> None:
        table = self.versions_table
        assistant = self.highlighted_assistant()
        if not self.edits:
            return  # (no versions to list)
        if assistant is None:
            table.clear()
            self.versions, self.versions_of = {}, ""
            return
        table.fetching = True
        offset = table.served if more and self.versions_of == assistant.assistant_id else 0
        try:
            found = await self.editor.assistant_versions(assistant.assistant_id, limit=VERSIONS_PAGE, offset=offset)
        except BackendError as error:
            table.fetching = False
            self.failed("Listing the versions", error)
            return
        if not self.is_attached:  # closed while the server answered
            return
        if offset == 0:
            table.clear()
            self.versions = {}
        self.versions_of = assistant.assistant_id
        table.exhausted = len(found) < VERSIONS_PAGE
        table.served += len(found)
        for version in found:
            key = str(version.version)
            if key in self.versions:
                continue
            self.versions[key] = version
            table.add_row(
                str(version.version),
                cell(version.name),
                relative_time(version.created_at, self.clock_now()),
                "●" if version.version == assistant.version else "",
                key=key,
            )
        table.fetching = False

    @on(PagedTable.RowSelected, "#assistant-versions")
    def version_chosen(self, event: PagedTable.RowSelected) -> None:
        event.stop()
        assistant = self.highlighted_assistant()
        key = self.versions_table.highlighted_key
        if assistant is not None and key is not None:
            self.set_version(assistant, int(key))

    @work(exit_on_error=False, group="assistant-edit")
    async def set_version(self, assistant: AssistantInfo, version: int) -> None:
        try:
            await self.editor.set_assistant_version(assistant.assistant_id, version)
        except BackendError as error:
            self.failed(f"Using version {version}", error)
            return
        if not self.is_attached:  # closed while the server answered
            return
        self.set_status(f"{assistant.name or assistant.assistant_id} now runs version {version}.")
        self.load(select=assistant.assistant_id)

    # -- create, edit, delete, use -------------------------------------------------------------------

    async def _schemas(self, graph_or_assistant: str) -> dict[str, Any]:
        try:
            return await self.backend.get_schemas(graph_or_assistant)
        except BackendError:
            return {}  # no schema to check against: the server checks

    def _checked(
        self, values: dict[str, str], schemas: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        config = parse_json_object(values["config"], "config", schema=schema_of(schemas, "config"), empty={})
        context = parse_json_object(values["context"], "context", schema=schema_of(schemas, "context"), empty={})
        metadata = parse_json_object(values["metadata"], "metadata", empty={})
        return unmirrored_config(config, context), context, metadata

    def action_create(self) -> None:
        graphs = ", ".join(self.graphs) if self.graphs else "see the thread list's graphs"
        fields = [
            FormField("graph", f"Graph ({graphs})", self.graphs[0] if len(self.graphs) == 1 else ""),
            FormField("name", "Name"),
            FormField("config", "Config (JSON; empty: none)", json=True, placeholder='{"configurable": {}}'),
            FormField("context", "Context (JSON; empty: none)", json=True, placeholder='{"model": "..."}'),
            FormField("metadata", "Metadata (JSON; empty: none)", json=True, placeholder='{"team": "docs"}'),
        ]

        async def make(values: dict[str, str]) -> AssistantInfo:
            graph = values["graph"].strip()
            if not graph:
                raise TypedWrong("Type the graph the assistant runs.")
            config, context, metadata = self._checked(values, await self._schemas(graph))
            return await self.editor.create_assistant(
                graph, name=values["name"].strip(), config=config, context=context, metadata=metadata
            )

        form = ObjectFormScreen("New assistant", fields, self.form_submit(make), save="Create")
        self.app.push_screen(form, callback=self._made)

    def _made(self, assistant: AssistantInfo | None) -> None:
        if assistant is not None:
            self.set_status(f"Made {assistant.name or assistant.assistant_id}.")
            self.load(select=assistant.assistant_id)

    def action_edit(self) -> None:
        assistant = self.highlighted_assistant()
        if assistant is None:
            return
        fields = [
            FormField("name", "Name", assistant.name),
            FormField(
                "config",
                "Config (JSON)",
                json.dumps(unmirrored_config(assistant.config, assistant.context), indent=2),
                json=True,
            ),
            FormField("context", "Context (JSON)", json.dumps(assistant.context, indent=2), json=True),
            FormField("metadata", "Metadata (JSON)", json.dumps(assistant.metadata, indent=2), json=True),
        ]

        async def make(values: dict[str, str]) -> AssistantInfo:
            config, context, metadata = self._checked(values, await self._schemas(assistant.assistant_id))
            return await self.editor.update_assistant(
                assistant.assistant_id,
                name=values["name"].strip() or None,
                config=config,
                context=context,
                metadata=metadata,
            )

        title = f"Edit {assistant.name or assistant.assistant_id} (saved as a new version)"
        self.app.push_screen(ObjectFormScreen(title, fields, self.form_submit(make)), callback=self._made)

    def action_delete(self) -> None:
        assistant = self.highlighted_assistant()
        if assistant is not None:
            self.delete(assistant)

    @work(exit_on_error=False, group="assistant-edit")
    async def delete(self, assistant: AssistantInfo) -> None:
        question = Content.assemble(
            "Delete the assistant ", (clean(assistant.name or assistant.assistant_id), "bold"), " and its versions?"
        )
        deleting = partial(self.editor.delete_assistant, assistant.assistant_id)
        if await self.confirmed(question, deleting, "Deleting the assistant"):
            self.set_status(f"Deleted {assistant.name or assistant.assistant_id}.")
            self.load()

    def action_use(self) -> None:
        assistant = self.highlighted_assistant()
        if assistant is not None:
            self.dismiss(assistant_value(assistant.assistant_id, assistant.graph_id, assistant.name))

    def action_versions(self) -> None:
        if self.versions_table.row_count:
            self.versions_table.focus()

    def action_focus_search(self) -> None:
        self.query_one("#assistant-search", Input).focus()
