"""CompareScreen (#compare-view): two threads, two checkpoints or two forks side by side.

    left: Penguins · step 3                  │ right: Penguins · head, step 7
    turn 1 · equal … turns 1-4 equal (8 messages)
    turn 5 · changed
      human  plan it                          │ human  plan it
    ~ ai     a plan with four steps           │ ai     a plan with two steps
    + ·                                       │ tool   write_todos …
    state: step 3 → step 7 · +3 messages · 2 keys   (the state diff, app/diff.py)

The messages are aligned turn by turn by threadbench.compare (equal, changed, only left,
only right); runs of equal turns fold into one line, and a changed pair marks the words that
differ. Nothing here calls the server: the sides come with their states. Dismisses with the
thread id to open in the main screen (l / r), or None.
"""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ...compare import Alignment, Row, Side, Turn, align, word_marks
from ...diff import diff_states
from ...styles import STYLES
from ..text import clean
from ..widgets.diff_view import DiffView
from ..widgets.key_footer import KeyFooter

MAX_LINES = 12
"""Lines of a message shown in a cell; the rest is counted."""
MAX_ROWS = 300
"""Rows drawn at most (two unrelated long threads): the rest is counted."""
CONTEXT = 1
"""Equal turns shown before a difference, for context; the others fold into one line."""
SIGNS = {"equal": " ", "changed": "~", "left": "−", "right": "+"}
KIND_WORDS = {"equal": "equal", "changed": "changed", "left": "only left", "right": "only right"}
KIND_STYLES = {"equal": "$text-muted", "changed": "$text-warning", "left": "$text-error", "right": "$text-success"}


def message_body(message_text: str, marks: list[tuple[str, bool]] | None, style: str, base: str = "") -> Content:
    """The text (its differing words marked in `style`, the rest in `base`), cut to MAX_LINES."""
    pieces = marks if marks is not None else [(message_text, False)]
    content = Content.assemble(
        *[(clean(text), f"bold underline {style}" if differs else base) for text, differs in pieces]
    )
    lines = content.split("\n")
    if len(lines) > MAX_LINES:
        more = len(lines) - MAX_LINES
        lines = [*lines[:MAX_LINES], Content.styled(f"… {more} more line{'s' * (more != 1)}", "$text-muted italic")]
    return Content("\n").join(lines)


def shown_text(row_message) -> str:
    """What a message says: its text, else its tool calls."""
    if row_message.text.strip():
        return row_message.text
    calls = [
        f"→ {call.name} {json.dumps(call.args, ensure_ascii=False, default=str)}" for call in row_message.tool_calls
    ]
    return "\n".join(calls) if calls else "(empty)"


def cell(row: Row, side: str) -> Static:
    message = row.left if side == "left" else row.right
    if message is None:
        return Static("", classes="compare-cell -empty")
    role = message.type + (f" {message.name}" if message.type == "tool" and message.name else "")
    marks = None
    style = "$text-error" if side == "left" else "$text-success"
    if row.kind == "changed" and row.left is not None and row.right is not None:
        left_marks, right_marks = word_marks(shown_text(row.left), shown_text(row.right))
        marks = left_marks if side == "left" else right_marks
    head = Content.assemble(
        (SIGNS[row.kind] + " ", f"bold {KIND_STYLES[row.kind]}"),
        (clean(role), "bold" if row.kind != "equal" else "bold $text-muted"),
    )
    body = message_body(shown_text(message), marks, style, "$text-muted" if row.kind == "equal" else "")
    return Static(Content.assemble(head, "\n", body), classes="compare-cell")


class CompareScreen(Screen[str | None]):
    CSS_PATH = [STYLES / "compare.tcss"]
    BINDINGS = [
        Binding("escape,q", "close", "Close", id="compare.close"),
        Binding("n", "next_difference", "Next difference", id="compare.next"),
        Binding("N,p", "previous_difference", "Previous difference", id="compare.previous"),
        Binding("s", "swap", "Swap sides", id="compare.swap"),
        Binding("d", "focus_diff", "State diff", id="compare.diff", tooltip="Go to the state diff (and back)"),
        Binding(
            "l",
            "open_left",
            "Open left",
            id="compare.open_left",
            tooltip="Open the left side's thread in the main screen",
        ),
        Binding(
            "r",
            "open_right",
            "Open right",
            id="compare.open_right",
            tooltip="Open the right side's thread in the main screen",
        ),
    ]

    def __init__(self, left: Side, right: Side, note: str = "") -> None:
        """`note`: what the server does not keep (past checkpoints without their messages)."""
        super().__init__()
        self.left, self.right, self.note = left, right, note
        self.alignment: Alignment = align(left.state.messages, right.state.messages)
        self._difference = -1

    def compose(self) -> ComposeResult:
        with Vertical(id="compare-view"):
            yield Static(id="compare-title")
            with Horizontal(id="compare-heads"):
                yield Static(id="compare-left-head", classes="compare-head")
                yield Static(id="compare-right-head", classes="compare-head")
            yield VerticalScroll(id="compare-rows")
            yield DiffView(id="compare-diff")
        yield KeyFooter()

    async def on_mount(self) -> None:
        await self.show()
        self.query_one("#compare-rows").focus()

    async def show(self) -> None:
        self.alignment = align(self.left.state.messages, self.right.state.messages)
        self._difference = -1
        title = [
            Content.styled("Compare", "bold"),
            Content.styled(f"  ·  {self.alignment.summary()}", "$text-muted"),
        ]
        if self.alignment.same:
            title.append(Content.styled("  ·  the conversations are the same", "$text-success"))
        if self.note:
            title.append(Content.assemble("\n", (clean(self.note), "$text-warning")))
        self.query_one("#compare-title", Static).update(Content.assemble(*title))
        for side, widget_id, arrow in (
            (self.left, "#compare-left-head", "◀ left"),
            (self.right, "#compare-right-head", "right ▶"),
        ):
            self.query_one(widget_id, Static).update(
                Content.assemble(
                    (f"{arrow}  ", "bold $text-accent"),
                    (clean(side.label), "bold"),
                    (f"\nthread {side.thread_id}", "$text-muted"),
                    (f" · checkpoint …{side.checkpoint_id[-8:]}" if side.checkpoint_id else "", "$text-muted"),
                )
            )
        rows = self.query_one("#compare-rows", VerticalScroll)
        with self.app.batch_update():
            await rows.remove_children()
            await rows.mount_all(self._widgets(self.alignment.turns))
        rows.scroll_home(animate=False)
        self.query_one(DiffView).show_diff(diff_states(self.left.state, self.right.state), "left → right")

    def _widgets(self, turns: list[Turn]) -> list[Static | Horizontal]:
        widgets: list[Static | Horizontal] = []
        drawn = 0
        keep = {
            index
            for index, turn in enumerate(turns)
            if turn.kind != "equal"
            or len(turns) <= 3
            or any(turns[later].kind != "equal" for later in range(index + 1, min(len(turns), index + 1 + CONTEXT)))
            or index == len(turns) - 1
        }
        folded: list[Turn] = []

        def fold() -> None:
            if folded:
                messages = sum(len(t.rows) for t in folded)
                first, last = folded[0].number, folded[-1].number
                turns_text = f"turn {first}" if first == last else f"turns {first}-{last}"
                widgets.append(
                    Static(
                        Content.styled(f"… {turns_text} equal ({messages} messages each side)", "$text-muted italic"),
                        classes="compare-fold",
                    )
                )
                folded.clear()

        for index, turn in enumerate(turns):
            if index not in keep:
                folded.append(turn)
                continue
            fold()
            if drawn >= MAX_ROWS:
                rest = sum(len(t.rows) for t in turns[index:])
                widgets.append(Static(Content.styled(f"… {rest} more rows not drawn", "$text-muted italic")))
                return widgets
            label = "before the first message of a person" if turn.number == 0 else f"turn {turn.number}"
            widgets.append(
                Static(
                    Content.assemble((label, "bold"), (f" · {KIND_WORDS[turn.kind]}", KIND_STYLES[turn.kind])),
                    classes=f"compare-turn -{turn.kind}",
                )
            )
            for row in turn.rows:
                widgets.append(Horizontal(cell(row, "left"), cell(row, "right"), classes=f"compare-row -{row.kind}"))
                drawn += 1
        fold()
        if not turns:
            widgets.append(Static(Content.styled("Neither side has any message.", "$text-muted")))
        return widgets

    # -- keys --------------------------------------------------------------------------------

    def _differences(self) -> list[Static]:
        return [w for w in self.query(".compare-turn").results(Static) if not w.has_class("-equal")]

    def _go(self, delta: int) -> None:
        found = self._differences()
        if not found:
            self.notify("No difference: the conversations are the same.", timeout=3)
            return
        self._difference = (self._difference + delta) % len(found)
        rows = self.query_one("#compare-rows", VerticalScroll)
        rows.focus()
        rows.scroll_to_widget(found[self._difference], animate=False, top=True)

    def action_next_difference(self) -> None:
        self._go(+1)

    def action_previous_difference(self) -> None:
        self._go(-1)

    async def action_swap(self) -> None:
        self.left, self.right = self.right, self.left
        await self.show()

    def action_focus_diff(self) -> None:
        diff = self.query_one(DiffView)
        if diff.has_focus:
            self.query_one("#compare-rows").focus()
        else:
            diff.focus()

    def action_open_left(self) -> None:
        self.dismiss(self.left.thread_id)

    def action_open_right(self) -> None:
        self.dismiss(self.right.thread_id)

    def action_close(self) -> None:
        self.dismiss(None)
