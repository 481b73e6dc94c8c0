"""A one-line title that opens to show what it folds: a tool call's arguments, a tool's
result, a reply's reasoning. It looks and works as Textual's Collapsible (enter or a click
on the title toggles it) but is one widget while folded, drawing its title itself, and
builds its body only when opened: an agent's thread holds a tool call and a result for
nearly every reply, and a Collapsible is four widgets, each mounted, styled and laid out
at every step of a scroll (bench/long_thread.py).
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget


class FoldBody(Vertical):
    """What an open fold shows under its title (the title is one line: see Fold)."""

    DEFAULT_CSS = "FoldBody { height: auto; margin-top: 1; padding-left: 2; }"


class Fold(Widget, can_focus=True):
    """A title (one line, cut with an ellipsis) and a body built by `build` when opened."""

    ALLOW_SELECT = False  # (the title; an open body's text is selectable)
    BINDINGS = [Binding("enter", "toggle_fold", "Open or fold", show=False)]
    COMPONENT_CLASSES = {"fold--title", "fold--hover", "fold--focus"}
    # Collapsible's and CollapsibleTitle's look; the title is drawn as a span styled by these,
    # one after the other (hover: the mouse on the title, not in an open body)
    DEFAULT_CSS = """
    Fold {
        width: 1fr;
        height: auto;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        pointer: pointer;
        & > .fold--title {
            text-style: $block-cursor-blurred-text-style;
            color: $block-cursor-blurred-foreground;
        }
        & > .fold--hover {
            background: $block-hover-background;
            color: $foreground;
        }
        & > .fold--focus {
            text-style: $block-cursor-text-style;
            background: $block-cursor-background;
            color: $block-cursor-foreground;
        }
    }
    """

    def __init__(self, title: Content, build: Callable[[], list[Widget]], *, classes: str = "") -> None:
        super().__init__(classes=classes)
        self._title = title
        self._build = build
        self._collapsed = True
        self._hovered = False

    @property
    def title(self) -> Content:
        return self._title

    @title.setter
    def title(self, title: Content) -> None:
        self._title = title
        self.refresh()

    @property
    def collapsed(self) -> bool:
        return self._collapsed

    @collapsed.setter
    def collapsed(self, collapsed: bool) -> None:
        if collapsed == self._collapsed:
            return
        self._collapsed = collapsed
        if not self.is_mounted:
            return  # (composed as it is then)
        if collapsed:
            self.remove_children()  # built again when opened (it may have changed)
        else:
            self.mount(FoldBody(*self._build()))
        self.refresh(layout=True)
        self.call_after_refresh(self.scroll_visible)

    def compose(self) -> ComposeResult:
        if not self._collapsed:
            yield FoldBody(*self._build())

    @property
    def body(self) -> FoldBody | None:
        """The body, while open."""
        return None if self._collapsed else self.query_one(FoldBody)

    @property
    def is_container(self) -> bool:
        return bool(self._nodes)

    def render(self) -> Content:
        symbol = "▶" if self._collapsed else "▼"
        looks = ("fold--title",) + ("fold--hover",) * self._hovered + ("fold--focus",) * self.has_focus
        # the whole style, not ".fold--title": a component's partial style drops an opaque background
        title_style = self.get_visual_style(*looks)
        return Content.assemble(" ", symbol, " ", self._title, " ").stylize_before(title_style)

    def action_toggle_fold(self) -> None:
        self.collapsed = not self._collapsed

    def on_enter(self, event: events.Enter) -> None:
        self._hover(event.node is self)

    def on_leave(self, event: events.Leave) -> None:
        self._hover(False)

    def _hover(self, hovered: bool) -> None:
        if hovered != self._hovered:
            self._hovered = hovered
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # on the title (a click in the body is the body's)
            event.stop()
            self.action_toggle_fold()
