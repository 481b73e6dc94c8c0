"""DiffView: a StateDiff drawn as lines (added green, removed red, changed yellow)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ...diff import DiffLine, StateDiff
from ..text import clean

STYLES = {"added": "$text-success", "removed": "$text-error", "changed": "$text-warning"}
SIGNS = {"added": "+", "removed": "-", "changed": "~"}
TODO_MARKS = {"completed": "✔", "in_progress": "◐", "pending": "○", "": "·"}


def _step(step: int | None) -> str:
    return "?" if step is None else str(step)


def diff_title(diff: StateDiff, how: str = "") -> Content:
    """ "step 2 → step 3 · parent" """
    old = f"step {_step(diff.old_step)}" if diff.old_checkpoint_id else "nothing"
    parts = [Content.styled(f"{old} → step {_step(diff.new_step)}", "bold")]
    if how:
        parts.append(Content.styled(f" · {how}", "$text-muted"))
    parts.append(Content.styled(f"\n{diff.summary()}", "$text-muted"))
    return Content.assemble(*parts)


def line_content(line: DiffLine, section: str) -> Content:
    if line.kind == "section":
        detail = Content.styled(f"  {clean(line.detail)}", "$text-muted") if line.detail else Content("")
        return Content.assemble((clean(line.label), "bold underline"), detail)
    if line.kind == "info":
        return Content.styled(clean(line.label), "$text-muted italic")
    style = STYLES[line.kind]
    sign = (SIGNS[line.kind] + " ", f"bold {style}")
    if section == "messages":
        return Content.assemble(
            sign,
            (f"{clean(line.label)}", f"bold {style}"),
            (f" {clean(line.detail)} ", "$text-muted"),
            clean(line.after),
        )
    if section == "todos":
        if line.kind == "changed":
            marks = f"{TODO_MARKS.get(line.before, '?')}→{TODO_MARKS.get(line.after, '?')} "
        else:
            marks = TODO_MARKS.get(line.after or line.before, "?") + " "
        return Content.assemble(sign, (marks, style), clean(line.label))
    if line.kind == "added":
        return Content.assemble(sign, (clean(line.label), f"bold {style}"), " ", clean(line.after))
    if line.kind == "removed":
        return Content.assemble(sign, (clean(line.label), f"bold {style}"), " ", (clean(line.before), "strike"))
    parts: list[str | Content | tuple[str, str]] = [
        sign,
        (clean(line.label), f"bold {style}"),
        " ",
        (clean(line.before), "$text-muted"),
        (" → ", style),
        clean(line.after),
    ]
    if line.detail:
        parts += ["\n    ", (clean(line.detail), "$text-muted")]
    return Content.assemble(*parts)


def diff_content(diff: StateDiff, max_messages: int = 200) -> Content:
    lines: list[Content] = []
    section = ""
    for line in diff.lines(max_messages=max_messages):
        if line.kind == "section":
            section = line.label
        lines.append(line_content(line, section))
    return Content("\n").join(lines)


class DiffView(VerticalScroll, can_focus=True):
    """What changed between two checkpoints. `show_diff(diff, how)`; `show_note(text)`."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.diff: StateDiff | None = None

    def compose(self) -> ComposeResult:
        yield Static(Content.styled("Select a checkpoint to see what it changed.", "$text-muted"), id="diff-title")
        yield Static(id="diff-body")

    def show_diff(self, diff: StateDiff, how: str = "") -> None:
        """Show `diff`; `how` says what is compared ("parent", "marked ★")."""
        self.diff = diff
        self.query_one("#diff-title", Static).update(diff_title(diff, how))
        self.query_one("#diff-body", Static).update(diff_content(diff))
        self.scroll_home(animate=False)

    def show_note(self, text: str) -> None:
        self.diff = None
        self.query_one("#diff-title", Static).update(Content.styled(clean(text), "$text-muted"))
        self.query_one("#diff-body", Static).update(Content(""))
