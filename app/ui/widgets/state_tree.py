"""The state tree (#state-tree): a thread's values, children added only when expanded.

Known DeerFlow channels come first and are shown for what they are (title, todos as a
checklist, artifacts, uploaded files), then every other key with a type-aware summary.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from app.models import ThreadState
from app.ui.text import clean, one_line

KNOWN_FIRST = ("title", "todos", "artifacts", "uploaded_files")
TODO_MARKS = {"completed": ("✔", "$success"), "in_progress": ("◐", "$warning"), "pending": ("○", "dim")}


def summary(value: Any) -> Content:
    if isinstance(value, dict):
        return Content.styled(f"dict{{{len(value)}}}", "dim")
    if isinstance(value, list):
        return Content.styled(f"list[{len(value)}]", "dim")
    if isinstance(value, str):
        return Content.styled(repr(one_line(value, 60)) if len(value) > 60 or "\n" in value else repr(clean(value)), "$text-success")
    if value is None:
        return Content.styled("null", "dim italic")
    return Content.styled(clean(str(value)), "$text-accent")


class StateTree(Tree[Any]):
    def __init__(self, **kwargs) -> None:
        super().__init__(Content("state"), **kwargs)
        self.show_root = False
        self.guide_depth = 2

    def show_state(self, state: ThreadState) -> None:
        self.clear()
        values = state.values
        ordered = [k for k in KNOWN_FIRST if k in values] + [k for k in values if k not in KNOWN_FIRST]
        for key in ordered:
            self._add(self.root, key, values[key])
        meta = self.root.add(Content.styled("checkpoint", "bold dim"), data=None)
        for label, value in (
            ("next", state.next),
            ("interrupts", [i.model_dump() for i in state.interrupts]),
            ("checkpoint_id", state.checkpoint_id),
            ("parent_checkpoint_id", state.parent_checkpoint_id),
            ("metadata", state.metadata),
        ):
            self._add(meta, label, value)
        self.root.expand()

    def _add(self, parent: TreeNode, key: str, value: Any) -> None:
        label = Content.assemble((clean(str(key)), "bold"), " ", summary(value))
        if key == "todos" and isinstance(value, list):
            node = parent.add(label, data=value, expand=True)
            for todo in value:
                if isinstance(todo, dict):
                    mark, style = TODO_MARKS.get(str(todo.get("status")), ("?", "dim"))
                    node.add_leaf(Content.assemble((mark + " ", style), clean(str(todo.get("content", "")))), data=todo)
            return
        if isinstance(value, (dict, list)) and value:
            node = parent.add(label, data=value)
            node.allow_expand = True
        else:
            parent.add_leaf(label, data=value)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        node = event.node
        if node.children or not isinstance(node.data, (dict, list)):
            return
        items = node.data.items() if isinstance(node.data, dict) else enumerate(node.data)
        for key, value in items:
            self._add(node, str(key), value)
