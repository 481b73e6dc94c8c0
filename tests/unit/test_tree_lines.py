"""The state tree lets go of the lines it drew when it relabels its nodes (textual_compat.tree_lines)."""

from __future__ import annotations

from support.compat import needs_compat
from textual.app import App, ComposeResult
from threadbench.models import ThreadState
from threadbench.ui.widgets.state_tree import StateTree

pytestmark = needs_compat


class TreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StateTree(id="tree")


async def test_a_relabelled_tree_keeps_only_the_lines_it_shows_now() -> None:
    app = TreeApp()
    async with app.run_test(size=(80, 20)) as pilot:
        tree = app.query_one(StateTree)
        for step in range(40):  # a run's steps: the same keys, new values
            tree.show_state(ThreadState(thread_id="t", values={"step": step, "note": f"at {step}", "done": False}))
            await pilot.pause()
        shown = tree.last_line + 1
        assert "at 39" in str(tree.root.children[1].label)
        assert len(tree._line_cache) <= shown, f"{len(tree._line_cache)} lines kept for {shown} shown"
