"""The state tree (#state-tree): a thread's values, children added only when expanded.

Known DeerFlow channels come first and are shown for what they are (title, todos as a
checklist, artifacts, uploaded files, messages by type), then every other key with a
type-aware summary (list[34], dict{5}, 'text…'), then next, interrupts, tasks and a
"checkpoint" node (step, source, time, ids, metadata).

Keys (on the tree): y copies the value under the cursor as JSON, v shows a long string (or
any value as JSON) in full in a small modal, e asks to edit that key (StateTree.EditRequested),
f asks for the key filter (StateTree.FilterRequested). `set_filter(text)` keeps only the
top-level keys whose name contains the text.

Server text is data: labels are built as Content and handed to the Tree as Rich Text with
no markup parsing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.style import Style
from textual.widgets import Static, TextArea, Tree
from textual.widgets.tree import TreeNode

from ...models import ThreadState
from ..text import clean, one_line, pretty_json
from ..textual_compat.tree_lines import forget_drawn_lines

KNOWN_FIRST = ("title", "todos", "artifacts", "uploaded_files", "messages")
TODO_MARKS = {
    "completed": ("✔", "$text-success"),
    "in_progress": ("◐", "$text-warning"),
    "pending": ("○", "$text-muted"),
}
SHORT_STRING = 48
"""Strings longer than this (or with several lines) are cut, with a way to see them whole."""
CHILD_PAGE = 200
"""Children shown at a time under one node; a "more" leaf adds the next page."""
MESSAGE_STYLES = {"human": "$text-accent", "ai": "$text-success", "tool": "$text-warning", "system": "$text-muted"}


@dataclass(slots=True)
class NodeData:
    """What a tree node stands for."""

    path: tuple[str, ...]
    value: Any
    kind: str = "value"
    """value | long (a cut string's hint leaf) | more (load the next page) | section | message."""
    offset: int = 0

    @property
    def key(self) -> str:
        return self.path[-1] if self.path else ""


@dataclass(slots=True)
class Row:
    """A node to be added: its label, what it stands for, and how it opens."""

    label: Content
    data: NodeData
    allow_expand: bool = False
    expand: bool = False


def to_text(content: Content, variables: dict[str, str] | None) -> Text:
    """Content -> Rich Text (what Tree draws), with theme variables resolved. No markup."""
    text = Text(content.plain, no_wrap=True, end="")
    for span in content.spans:
        style = span.style
        try:
            if isinstance(style, str):
                # Tree draws Rich Text, which cannot blend a translucent colour like
                # $text-muted with the background: use the terminal's dim instead.
                style = Style.parse(style.replace("$text-muted", "dim"), variables or {})
            text.stylize(style.rich_style, span.start, span.end)
        except Exception:  # an unknown variable before the app has a theme: leave it plain
            continue
    return text


def summary(value: Any, limit: int = SHORT_STRING) -> Content:
    """A type-aware one-line summary of a value."""
    if isinstance(value, dict):
        return Content.styled(f"dict{{{len(value)}}}", "$text-muted")
    if isinstance(value, (list, tuple)):
        return Content.styled(f"list[{len(value)}]", "$text-muted")
    if isinstance(value, str):
        if is_long(value, limit):
            return Content.styled(repr(one_line(value, limit)), "$text-success")
        return Content.styled(repr(clean(value)), "$text-success")
    if value is None:
        return Content.styled("null", "$text-muted italic")
    if isinstance(value, bool):
        return Content.styled("true" if value else "false", "$text-accent")
    return Content.styled(clean(str(value)), "$text-accent")


def is_long(value: Any, limit: int = SHORT_STRING) -> bool:
    return isinstance(value, str) and (len(value) > limit or "\n" in value)


def human_size(size: Any) -> str:
    if not isinstance(size, (int, float)):
        return ""
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return ""


def message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        parts = [
            block if isinstance(block, str) else str(block.get("text") or f"[{block.get('type', 'block')}]")
            for block in content
            if isinstance(block, (str, dict))
        ]
        content = " ".join(parts)
    text = content if isinstance(content, str) else ""
    if not text.strip():
        names = [str(c.get("name", "")) for c in message.get("tool_calls") or [] if isinstance(c, dict)]
        if names:
            text = "→ " + ", ".join(names)
    return text


def to_json(value: Any) -> str:
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return json.dumps(repr(value))


WRAP_LIMIT = 200_000
"""Longer texts (or texts with a line longer than a tenth of this) are shown unwrapped:
TextArea wraps the whole document at once, and wrapping a megabyte takes it seconds."""


def wraps(text: str) -> bool:
    return len(text) <= WRAP_LIMIT and max(map(len, text.splitlines()), default=0) <= WRAP_LIMIT // 10


class TextViewScreen(ModalScreen[None]):
    """A value in full (a long string as text, anything else as JSON), read-only."""

    BINDINGS = [
        Binding("escape,q,v", "close", "Close", id="textview.close"),
        Binding("y", "copy", "Copy", id="textview.copy"),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide", id="text-view-dialog"):
            wrap = wraps(self.text)
            yield Static(
                Content.assemble(
                    (clean(self.title_text), "bold"),
                    ("  ·  ", "dim"),
                    (f"{len(self.text):,} chars", "dim"),
                    ("" if wrap else "  ·  long lines, not wrapped", "dim"),
                ),
                classes="dialog-title",
            )
            yield TextArea(clean(self.text), read_only=True, soft_wrap=wrap, id="text-view", show_line_numbers=False)
            yield Static(Content.styled("esc close · y copy", "dim"))

    def on_mount(self) -> None:
        self.query_one("#text-view", TextArea).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.notify(f"Copied {len(self.text):,} characters.", timeout=2)


class StateTree(Tree[NodeData]):
    BINDINGS = [
        Binding("y", "copy_value", "Copy JSON", id="state.copy"),
        Binding("v", "view_value", "View", id="state.view"),
        Binding("e", "edit_key", "Edit key", id="state.edit"),
        Binding("f", "filter", "Filter", id="state.filter"),
    ]

    class EditRequested(Message):
        """The user asked to edit one top-level key (None: all values)."""

        def __init__(self, key: str | None) -> None:
            super().__init__()
            self.key = key

    class FilterRequested(Message):
        """The user pressed f: focus the key filter."""

    class CopyRequested(Message):
        """A value was copied (already on the clipboard); for whoever wants to know."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs) -> None:
        super().__init__("state", **kwargs)
        self.show_root = False
        self.guide_depth = 2
        self.state: ThreadState | None = None
        self.filter_text = ""
        self._stale = False
        """`state` is newer than the nodes (hold): catch_up rebuilds them."""

    # -- labels ------------------------------------------------------------------------------

    def process_label(self, label) -> Text:
        if isinstance(label, Content):
            try:
                variables = self.app.theme_variables
            except Exception:
                variables = {}
            return to_text(label.first_line, variables)
        if isinstance(label, str):  # never parse markup
            return Text(clean(label).split("\n")[0], no_wrap=True, end="")
        return super().process_label(label)

    def _node(self, parent: TreeNode[NodeData], row: Row) -> TreeNode[NodeData]:
        """parent.add for a Row (Tree's types say str or Text; process_label takes Content)."""
        label = self.process_label(row.label)
        node = parent.add(label, data=row.data, expand=row.expand, allow_expand=row.allow_expand)
        if row.expand:
            self._populate(node)
        return node

    def _leaf(self, parent: TreeNode[NodeData], label: Content, data: NodeData) -> TreeNode[NodeData]:
        return self._node(parent, Row(label, data))

    def move_cursor(self, node: TreeNode[NodeData] | None, animate: bool = False) -> None:
        if node is not None:
            self.last_line  # noqa: B018 - line numbers are computed lazily: bring them up to date
        super().move_cursor(node, animate)

    # -- showing a state ---------------------------------------------------------------------

    def show_state(self, state: ThreadState) -> None:
        """Show `state`, keeping the nodes the user had open and the cursor where it was."""
        self._stale = False
        expanded = self._expanded_paths()
        cursor = self.cursor_node.data.path if self.cursor_node is not None and self.cursor_node.data else None
        self.state = state
        rows = self._rows(state)
        if not self._relabel(rows):
            self._rebuild(rows, expanded, cursor)

    def hold(self, state: ThreadState) -> None:
        """Take `state` without building its nodes: the tree is out of sight (another tab),
        and each step through the timeline would rebuild it for nothing. catch_up() builds
        them when the tree is shown."""
        self.state = state
        self._stale = True

    def catch_up(self) -> None:
        if self._stale and self.state is not None:
            self.show_state(self.state)

    def set_filter(self, text: str) -> None:
        self.filter_text = text.strip()
        if self.state is not None:
            self._stale = False
            self._rebuild(self._rows(self.state), self._expanded_paths(), None)

    def _expanded_paths(self) -> set[tuple[str, ...]]:
        paths: set[tuple[str, ...]] = set()
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            if node.is_expanded and node.data is not None:
                paths.add(node.data.path)
                stack.extend(node.children)
        return paths

    def _matches(self, key: str) -> bool:
        return not self.filter_text or self.filter_text.lower() in key.lower()

    def _relabel(self, rows: list[Row]) -> bool:
        """Show `rows` in the nodes there are, when they stand for the same keys and none
        that was opened holds another value: a label redrawn is a line; a tree rebuilt lays
        out the screen (20-25 ms at each step's values in a run)."""
        nodes = self.root.children
        if len(nodes) != len(rows):
            return False
        room = self.scrollable_content_region.width - 2 * self.guide_depth
        labels = [self.process_label(row.label) for row in rows]
        for node, row, label in zip(nodes, rows, labels, strict=True):
            old = node.data
            if old is None or (old.path, old.kind) != (row.data.path, row.data.kind):
                return False
            if node.allow_expand != row.allow_expand or (node.children and old.value != row.data.value):
                return False
            if label.cell_len > max(cell_len(str(node.label)), room):  # (the tree's width is measured in a rebuild)
                return False
        for node, row, label in zip(nodes, rows, labels, strict=True):
            node.data = row.data
            node.set_label(label)
        forget_drawn_lines(self)
        return True

    def _rebuild(self, rows: list[Row], expanded: set[tuple[str, ...]], cursor: tuple[str, ...] | None) -> None:
        self.clear()
        for row in rows:
            self._node(self.root, row)
        self.root.expand()
        self._restore(self.root, expanded)
        if cursor is not None:
            if (found := self._find(cursor)) is not None:
                self.move_cursor(found)

    def _rows(self, state: ThreadState | None) -> list[Row]:
        """The top-level nodes for `state`: its values (known keys first), then next,
        interrupts and tasks, then the checkpoint."""
        if state is None:
            return []
        values = state.values
        ordered = [k for k in KNOWN_FIRST if k in values] + [k for k in values if k not in KNOWN_FIRST]
        rows = [self._row((str(key),), values[key]) for key in ordered if self._matches(str(key))]
        if state.next and self._matches("next"):
            next_names = clean(", ".join(state.next))
            label = Content.assemble(("next", "bold $text-warning"), " ", (next_names, "$text-warning"))
            rows.append(Row(label, NodeData(("#next",), list(state.next))))
        for key, items in (("interrupts", state.interrupts), ("tasks", state.tasks)):
            if items and self._matches(key):
                value = [item.model_dump(exclude_defaults=True) for item in items]
                label = Content.assemble((key, "bold $text-warning"), " ", summary(value))
                rows.append(Row(label, NodeData((f"#{key}",), value), allow_expand=True))
        checkpoint = {
            "step": state.step,
            "source": state.source,
            "created_at": state.created_at.isoformat() if state.created_at else None,
            "checkpoint_id": state.checkpoint_id,
            "parent_checkpoint_id": state.parent_checkpoint_id,
            "checkpoint_ns": state.checkpoint_ns,
            "metadata": state.metadata,
        }
        if self._matches("checkpoint") or any(self._matches(k) for k in checkpoint):
            where = " · ".join(
                part
                for part in (
                    f"step {state.step}" if state.step is not None else "",
                    clean(state.source),
                    clean(state.checkpoint_id[-8:]) if state.checkpoint_id else "",
                )
                if part
            )
            label = Content.assemble(("checkpoint", "bold $text-muted"), " ", Content.styled(where, "$text-muted"))
            rows.append(Row(label, NodeData(("#checkpoint",), checkpoint, "section"), allow_expand=True))
        if not rows:
            note = Content.styled(f"no key matches {self.filter_text!r}", "$text-muted italic")
            rows.append(Row(note, NodeData((), None, "note")))
        return rows

    def _find(self, path: tuple[str, ...]) -> TreeNode[NodeData] | None:
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            if node.data is not None and node.data.path == path:
                return node
            stack.extend(node.children)
        return None

    def _restore(self, parent: TreeNode[NodeData], expanded: set[tuple[str, ...]]) -> None:
        for node in parent.children:
            if node.data is not None and node.data.path in expanded and node.allow_expand:
                self._populate(node)
                node.expand()
                self._restore(node, expanded)

    # -- nodes -------------------------------------------------------------------------------

    def _label(self, key: str, value: Any, top: bool) -> Content:
        name = Content.styled(clean(key), "bold" if top else "")
        return Content.assemble(name, " ", summary(value))

    def _add(self, parent: TreeNode[NodeData], path: tuple[str, ...], value: Any) -> None:
        self._node(parent, self._row(path, value))

    def _row(self, path: tuple[str, ...], value: Any) -> Row:
        key = path[-1]
        top = len(path) == 1
        if top and key == "title" and isinstance(value, str):
            label = Content.assemble(("title", "bold"), " ", (one_line(value, 200), "bold $text-accent"))
            return Row(label, NodeData(path, value), allow_expand=is_long(value, 200))
        if top and key == "todos" and isinstance(value, list):
            done = sum(1 for t in value if isinstance(t, dict) and t.get("status") == "completed")
            label = Content.assemble(("todos", "bold"), " ", Content.styled(f"{done}/{len(value)} done", "$text-muted"))
            return Row(label, NodeData(path, value, "todos"), allow_expand=bool(value), expand=True)
        if isinstance(value, str) and is_long(value):
            return Row(self._label(key, value, top), NodeData(path, value), allow_expand=True)
        if isinstance(value, (dict, list)) and value:
            conversation = top and isinstance(value, list) and self.state is not None and key == self.state.messages_key
            kind = "messages" if conversation else "value"
            if top and key == "artifacts":
                kind = "artifacts"
            elif top and key == "uploaded_files":
                kind = "files"
            return Row(self._label(key, value, top), NodeData(path, value, kind), allow_expand=True)
        return Row(self._label(key, value, top), NodeData(path, value))

    def _populate(self, node: TreeNode[NodeData], start: int = 0) -> None:
        """Add a node's children (once), a page at a time."""
        data = node.data
        if data is None or (node.children and start == 0):
            return
        value = data.value
        if isinstance(value, str):
            lines = value.count("\n") + 1
            self._leaf(
                node,
                Content.styled(
                    f"… {len(value):,} chars, {lines:,} line{'s' * (lines != 1)} — v to view", "$text-muted italic"
                ),
                data=NodeData(data.path, value, "long"),
            )
            return
        if data.kind == "section":
            for key, item in value.items():
                self._add(node, (*data.path, key), item)
            return
        items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        page = items[start : start + CHILD_PAGE]
        for key, item in page:
            path = (*data.path, str(key))
            if data.kind == "todos" and isinstance(item, dict):
                mark, style = TODO_MARKS.get(str(item.get("status")), ("?", "$text-muted"))
                self._leaf(
                    node,
                    Content.assemble((mark + " ", style), clean(str(item.get("content", "")))),
                    data=NodeData(path, item),
                )
            elif data.kind == "messages" and isinstance(item, dict):
                kind = str(item.get("type") or item.get("role") or "?")
                label = Content.assemble(
                    (f"{key} ", "$text-muted"),
                    (clean(kind), MESSAGE_STYLES.get(kind, "")),
                    " ",
                    one_line(message_text(item), 60),
                )
                self._node(node, Row(label, NodeData(path, item), allow_expand=True))
            elif data.kind == "artifacts" and isinstance(item, str):
                self._leaf(node, Content.assemble(("▪ ", "$text-accent"), clean(item)), data=NodeData(path, item))
            elif data.kind == "files" and isinstance(item, dict):
                label = Content.assemble(
                    ("▪ ", "$text-accent"),
                    clean(str(item.get("filename") or item.get("path") or key)),
                    ("  " + human_size(item.get("size")), "$text-muted"),
                )
                self._node(node, Row(label, NodeData(path, item), allow_expand=True))
            else:
                self._add(node, path, item)
        rest = len(items) - start - len(page)
        if rest > 0:
            self._leaf(
                node,
                Content.styled(f"… {rest:,} more — enter to show {min(rest, CHILD_PAGE)}", "$text-muted italic"),
                data=NodeData(data.path, value, "more", start + CHILD_PAGE),
            )

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        if event.node.tree is self:
            self._populate(event.node)

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        node = event.node
        if node.data is not None and node.data.kind == "more" and node.parent is not None:
            parent = node.parent
            offset = node.data.offset
            node.remove()
            self._populate(parent, offset)
        elif node.data is not None and node.data.kind == "long":
            self.action_view_value()

    # -- actions -----------------------------------------------------------------------------

    def _current(self) -> NodeData | None:
        node = self.cursor_node
        return node.data if node is not None and node.data is not None and node.data.kind != "note" else None

    def action_copy_value(self) -> None:
        data = self._current()
        if data is None:
            return
        text = data.value if data.kind == "long" else to_json(data.value)
        self.app.copy_to_clipboard(text)
        name = ".".join(p.lstrip("#") for p in data.path) or "value"
        self.notify(f"Copied {clean(name)} as JSON ({len(text):,} chars).", timeout=2, markup=False)
        self.post_message(self.CopyRequested(text))

    def action_view_value(self) -> None:
        data = self._current()
        if data is None:
            return
        text = data.value if isinstance(data.value, str) else pretty_json(data.value)
        name = ".".join(p.lstrip("#") for p in data.path) or "value"
        self.app.push_screen(TextViewScreen(name, text))

    def action_edit_key(self) -> None:
        data = self._current()
        key = data.path[0] if data is not None and data.path and not data.path[0].startswith("#") else None
        self.post_message(self.EditRequested(key))

    def action_filter(self) -> None:
        self.post_message(self.FilterRequested())
