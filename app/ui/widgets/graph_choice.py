"""GraphChoice: pick one of the server's assistants or graphs, or type another id.

The server's assistant search can be empty (DeerFlow's auth hides it), so the list also
holds the graphs seen on the server, and a typed id always wins over the list.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Select

from ...models import Assistant
from ...run_options import assistant_value
from ..text import clean
from .safe_input import SafeInput

AUTO = ""
"""The value that leaves each thread on its own graph."""


def graph_options(
    assistants: list[Assistant], graphs: Sequence[str], current: str = "", *, auto: str = ""
) -> list[tuple[Content, str]]:
    """Select options: `auto` first (when given), the assistants, the other graphs, and
    `current` if it is none of those (a typed id stays a choice)."""
    options: list[tuple[Content, str]] = [(Content.styled(auto, "italic"), AUTO)] if auto else []
    for assistant in assistants:
        label = Content(clean(assistant.name or assistant.graph_id or assistant.assistant_id))
        options.append(
            (
                label + Content.styled(f"  {clean(assistant.graph_id)}", "dim"),
                assistant_value(assistant.assistant_id, assistant.graph_id, assistant.name),
            )
        )
    known = {value for _, value in options}
    for graph in [*graphs, current]:
        if graph and graph not in known:
            known.add(graph)
            options.append((Content(clean(graph)), graph))
    return options


class GraphChoice(Vertical):
    """A Select of assistants and graphs, and an input for an id the list does not hold."""

    DEFAULT_CSS = """
    GraphChoice { height: auto; }
    GraphChoice SafeInput { margin-top: 0; }
    """

    def __init__(
        self,
        assistants: list[Assistant],
        graphs: Sequence[str],
        current: str = "",
        *,
        auto: str = "",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.options = graph_options(assistants, graphs, current, auto=auto)
        values = [value for _, value in self.options]
        self.initial = current if current in values else (values[0] if values else Select.NULL)

    def compose(self) -> ComposeResult:
        base = self.id or "graph"
        if self.options:
            yield Select(self.options, value=self.initial, allow_blank=False, id=f"{base}-select")
        placeholder = "or type an assistant id or graph name" if self.options else "the assistant id or graph name"
        yield SafeInput(placeholder=placeholder, id=f"{base}-typed")

    @property
    def value(self) -> str:
        """The typed id, else the chosen one (AUTO for "each thread's own")."""
        typed = self.query_one(SafeInput).value.strip()
        if typed:
            return typed
        selects = self.query(Select)
        chosen = selects.first().value if selects else AUTO
        return AUTO if chosen is Select.NULL else str(chosen)
