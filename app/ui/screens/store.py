"""StoreScreen (S): the server's store. Namespaces as a tree (#store-tree, from
list_namespaces); the items of the chosen namespace paged from the server (#store-items,
search_items with the query and the JSON filter typed above them); the highlighted
item's value as JSON. p puts an item (edit its value as JSON, validated; a namespace is
parts separated by "/", none empty, no dots), d deletes it (asked first). A query is a
semantic search where the server has an index; where it has none, the screen says so.
"""

from __future__ import annotations

import json
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Input, Static, Tree

from ...backends.base import BackendError, HasStore, lacks
from ...object_input import TypedWrong, namespace_text, parse_json_object, parse_namespace
from ...server_objects import StoreItem
from ..text import clean, one_line, plain, pretty_json, relative_time
from ..widgets.paged_table import PagedTable, cell
from ..workers import work
from .object_form import FormField, ObjectFormScreen
from .objects_base import ObjectsScreen

if TYPE_CHECKING:
    from ...backends.base import Backend

PAGE = 50
NAMESPACE_PAGE = 500
MAX_NAMESPACES = 5000


class StoreScreen(ObjectsScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close", id="store.close"),
        Binding("p", "put", "Put", id="store.put", tooltip="Put an item (edit its value as JSON)"),
        Binding("d,delete", "delete", "Delete", id="store.delete", tooltip="Delete the item"),
        Binding("slash", "focus_query", "Search", id="store.search", tooltip="Search the namespace's items"),
        Binding("ctrl+r", "reload", "Reload", id="store.reload"),
    ]
    HINTS = (
        ("", "enter open namespace"),
        ("focus_query", "/ search"),
        ("put", "p put"),
        ("delete", "d delete"),
        ("reload", "ctrl+r reload"),
        ("close", "esc close"),
    )

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self.namespace: list[str] = []
        self.items: dict[str, StoreItem] = {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog objects-dialog", id="store-dialog"):
            yield Static(self.title_line("Store"), classes="dialog-title", id="store-title")
            yield Static("", classes="objects-lacking")
            with Horizontal(classes="objects-body"):
                tree: Tree[list[str]] = Tree("store", id="store-tree")
                tree.show_root = False
                yield tree
                with Vertical(id="store-right"):
                    with Horizontal(classes="objects-search", id="store-search-row"):
                        yield Input(placeholder="query (semantic search)", id="store-query")
                        yield Input(placeholder='filter (JSON): {"kind": "note"}', id="store-filter")
                    yield PagedTable(id="store-items")
                    with VerticalScroll(classes="objects-detail", id="store-value-scroll"):
                        yield Static("", id="store-value")
            yield Static("Loading the namespaces…", classes="objects-status")
            yield Static(self.hint_line(), classes="objects-hint")

    @property
    def table(self) -> PagedTable:
        return self.query_one("#store-items", PagedTable)

    @property
    def namespace_tree(self) -> Tree[list[str]]:
        return self.query_one("#store-tree", Tree)

    @property
    def store(self) -> HasStore:
        assert isinstance(self.backend, HasStore)
        return self.backend

    def on_mount(self) -> None:
        if not self.app.is_running:
            return  # built ahead (kept_screens.py) as the app closed: its widgets are going
        self.query_one(".objects-lacking").display = False
        for label, width in (("key", 22), ("value", 44), ("updated", 7), ("score", 6)):
            self.table.add_column(label, key=label, width=width)
        why = lacks(self.backend, HasStore, "keep a store")
        if why:
            self.explain_lack(why)
            self.set_status("")

    def opened(self, first: bool) -> None:
        """Fetched again at each open: the namespaces, and the items of the one left open."""
        if self.lacking:
            return
        if first:
            self.namespace_tree.focus()
        self.load_namespaces()
        if self.namespace:
            self.load_items()

    # -- namespaces ----------------------------------------------------------------------------------

    @work(exclusive=True, exit_on_error=False, group="store-namespaces")
    async def load_namespaces(self) -> None:
        found: list[list[str]] = []
        try:
            while len(found) < MAX_NAMESPACES:
                page = await self.store.store_namespaces(limit=NAMESPACE_PAGE, offset=len(found))
                found += page
                if len(page) < NAMESPACE_PAGE:
                    break
        except BackendError as error:
            if self.server_lacks(error, "store"):
                return
            self.failed("Listing the namespaces", error)
            return
        if not self.is_attached:  # closed while the server answered
            return
        self.show_namespaces(found)
        if not found:
            self.set_status("The store is empty: p puts the first item.")
        elif not self.namespace:  # (with one open, the status line counts its items)
            self.set_status(
                f"{len(found)} namespace{'s' if len(found) != 1 else ''}: enter lists the items of one.", count=True
            )

    def show_namespaces(self, namespaces: list[list[str]]) -> None:
        tree = self.namespace_tree
        tree.clear()
        paths = sorted({tuple(ns[:depth]) for ns in namespaces for depth in range(1, len(ns) + 1)})
        parents = {path[:-1] for path in paths}
        nodes: dict[tuple[str, ...], Any] = {(): tree.root}
        for path in paths:
            parent = nodes[path[:-1]]
            label = Text(clean(path[-1]))
            if path in parents:
                nodes[path] = parent.add(label, data=list(path), expand=True)
            else:
                nodes[path] = parent.add_leaf(label, data=list(path))
        tree.root.expand()
        open_node = nodes.get(tuple(self.namespace))
        if open_node is not None:  # (reopened: the cursor where it was; lines are placed at the next refresh)
            tree.call_after_refresh(tree.move_cursor, open_node)

    @on(Tree.NodeSelected, "#store-tree")
    def namespace_chosen(self, event: Tree.NodeSelected) -> None:
        event.stop()
        if event.node.data is not None:
            self.open_namespace(list(event.node.data))

    def open_namespace(self, namespace: list[str]) -> None:
        self.namespace = namespace
        self.query_one("#store-title", Static).update(self.title_line("Store", namespace_text(namespace)))
        self.load_items()

    # -- items ---------------------------------------------------------------------------------------

    def _search(self) -> tuple[str | None, dict[str, Any] | None]:
        query = self.query_one("#store-query", Input).value.strip() or None
        text = self.query_one("#store-filter", Input).value
        flt = parse_json_object(text, "filter", empty={}) or None
        return query, flt

    @work(exclusive=True, exit_on_error=False, group="store-items")
    async def load_items(self, more: bool = False) -> None:
        table = self.table
        table.fetching = True
        try:
            query, flt = self._search()
        except TypedWrong as wrong:
            table.fetching = False
            self.set_status(str(wrong), "$error")
            return
        offset = table.served if more else 0
        try:
            found = await self.store.store_items(self.namespace, query=query, filter=flt, limit=PAGE, offset=offset)
        except BackendError as error:
            table.fetching = False
            self.failed("Listing the items", error)
            return
        if not self.is_attached:  # closed while the server answered
            return
        keep = table.highlighted_key
        if not more:
            table.clear()
            self.items = {}
        table.exhausted = len(found) < PAGE
        table.served += len(found)
        now = self.clock_now()
        for item in found:
            key = json.dumps([*item.namespace, item.key])
            if key in self.items:
                continue
            self.items[key] = item
            table.add_row(
                cell(item.key),
                cell(one_line(json.dumps(item.value, ensure_ascii=False, default=str), 60)),
                relative_time(item.updated_at, now),
                f"{item.score:.3f}" if item.score is not None else "",
                key=key,
            )
        table.fetching = False
        if keep in self.items:
            table.move_cursor(row=table.get_row_index(keep))
        count = len(self.items)
        where = namespace_text(self.namespace) or "the store"
        text = f"{count} item{'s' if count != 1 else ''} in {where}" + ("" if table.exhausted else " (more below)")
        if query and self.items and all(item.score is None for item in self.items.values()):
            text += ". This server has no semantic index for its store: the query ranked nothing."
        self.set_status(text if count else f"No items in {where}" + (" match." if query or flt else "."), count=True)
        if not more:  # (a next page leaves the highlighted item where it was)
            self.show_value()

    @on(Input.Submitted, "#store-query, #store-filter")
    def searched(self, event: Input.Submitted) -> None:
        event.stop()
        self.load_items()
        self.table.focus()

    @on(PagedTable.NeedMore, "#store-items")
    def more(self) -> None:
        self.load_items(more=True)

    @on(PagedTable.RowHighlighted, "#store-items")
    def highlighted(self) -> None:
        self.show_value()

    def highlighted_item(self) -> StoreItem | None:
        key = self.table.highlighted_key
        return self.items.get(key) if key else None

    def show_value(self) -> None:
        item = self.highlighted_item()
        value = self.query_one("#store-value", Static)
        if item is None:
            self.show_detail(value, Content(""))
            return
        self.show_detail(
            value,
            Content.assemble(
                (clean(namespace_text(item.namespace)), "dim"),
                " ",
                (clean(item.key), "bold"),
                "\n",
                plain(pretty_json(item.value)),
            ),
        )

    # -- put, delete ---------------------------------------------------------------------------------

    def action_put(self) -> None:
        if lacks(self.backend, HasStore, ""):
            return
        item = self.highlighted_item()
        fields = [
            FormField(
                "namespace",
                'Namespace (parts separated by "/")',
                namespace_text(item.namespace if item else self.namespace),
                placeholder="users/alice/notes",
            ),
            FormField("key", "Key", item.key if item else ""),
            FormField(
                "value",
                "Value (a JSON object)",
                json.dumps(item.value, indent=2, ensure_ascii=False) if item else "",
                json=True,
                placeholder='{"key": "value"}',
            ),
        ]

        async def make(values: dict[str, str]) -> tuple[list[str], str]:
            namespace = parse_namespace(values["namespace"])
            key = values["key"].strip()
            if not key:
                raise TypedWrong("Type the item's key.")
            value = parse_json_object(values["value"], "value")
            await self.store.store_put(namespace, key, value)
            return namespace, key

        form = ObjectFormScreen("Put an item", fields, self.form_submit(make), save="Put")
        self.app.push_screen(form, callback=self._put)

    def _put(self, done: tuple[list[str], str] | None) -> None:
        if done is None:
            return
        namespace, key = done
        self.load_namespaces()
        self.open_namespace(namespace)
        self.table.focus()
        self.set_status(f"Put {key} in {namespace_text(namespace)}.")

    def action_delete(self) -> None:
        item = self.highlighted_item()
        if item is not None:
            self.delete(item)

    @work(exit_on_error=False, group="store-edit")
    async def delete(self, item: StoreItem) -> None:
        question = Content.assemble(
            "Delete the item ",
            (clean(item.key), "bold"),
            " from ",
            (clean(namespace_text(item.namespace)), "bold"),
            "?",
        )
        deleting = partial(self.store.store_delete, item.namespace, item.key)
        if await self.confirmed(question, deleting, "Deleting the item"):
            self.load_items()
            self.load_namespaces()

    def action_focus_query(self) -> None:
        self.query_one("#store-query", Input).focus()

    def action_reload(self) -> None:
        if lacks(self.backend, HasStore, ""):
            return
        self.load_namespaces()
        if self.namespace:
            self.load_items()
