"""DecisionPicker: the decision on one tool call waiting for review (HumanInputScreen).

It starts undecided: nothing is approved that the person did not look at. Its keys
(`a` approve, `e` edit, `r` reject, `p` respond, `i` ignore, or left/right) decide; the
dialog sends only once every picker holds a decision.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ...human_input import DECISION_LABELS, DecisionType

DECISION_KEYS: dict[DecisionType, str] = {"approve": "a", "edit": "e", "reject": "r", "respond": "p", "ignore": "i"}
UNDECIDED = " ? "


def decision_label(decision: DecisionType) -> str:
    return f" {DECISION_LABELS[decision]} ({DECISION_KEYS[decision]}) "


class DecisionPicker(Widget, can_focus=True):
    """A one-line choice between the decisions allowed for one tool call (None: undecided)."""

    DEFAULT_CSS = """
    DecisionPicker { height: 1; width: auto; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("right", "move(1)", "Next", show=False),
    ]

    value: reactive[DecisionType | None] = reactive(None)

    class Changed(Message):
        def __init__(self, picker: DecisionPicker, value: DecisionType | None) -> None:
            super().__init__()
            self.picker = picker
            self.value = value

        @property
        def control(self) -> DecisionPicker:
            return self.picker

    def __init__(self, allowed: list[DecisionType], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.allowed: list[DecisionType] = list(allowed) or ["approve"]

    def render(self) -> Content:
        parts: list[Content] = []
        if self.value is None:
            parts.append(Content.styled(UNDECIDED, "bold reverse $warning" if self.has_focus else "bold $warning"))
        for decision in self.allowed:
            if decision == self.value:
                style = "bold reverse $accent" if self.has_focus else "bold reverse"
            else:
                style = "dim"
            parts.append(Content.styled(decision_label(decision), style))
        return Content(" ").join(parts)

    def watch_value(self, value: DecisionType | None) -> None:
        self.post_message(self.Changed(self, value))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def decide(self, decision: DecisionType) -> bool:
        """Set the decision if this tool call allows it; True if it does."""
        if decision not in self.allowed:
            return False
        self.value = decision
        return True

    def action_move(self, step: int) -> None:
        if self.value is None:
            self.value = self.allowed[0 if step > 0 else -1]
            return
        index = self.allowed.index(self.value) if self.value in self.allowed else 0
        self.value = self.allowed[(index + step) % len(self.allowed)]

    def on_key(self, event: events.Key) -> None:
        for decision, key in DECISION_KEYS.items():
            if event.character == key and decision in self.allowed:
                event.stop()
                event.prevent_default()
                self.value = decision
                return

    def on_click(self, event: events.Click) -> None:
        x = len(UNDECIDED) + 1 if self.value is None else 0
        for decision in self.allowed:
            width = len(decision_label(decision)) + 1
            if x <= event.x < x + width:
                self.value = decision
                return
            x += width
