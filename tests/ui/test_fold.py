"""A tool call, a tool's result and a reply's reasoning are folds (fold.py): one widget
while folded, drawn cell for cell as Textual's Collapsible drew them in a message (folded,
focused, hovered, open), opened and folded by enter and by a click on the title, the body built
only while open."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Collapsible, Static
from threadbench.models import ChatMessage, ToolCall
from threadbench.ui.widgets.fold import Fold, FoldBody
from threadbench.ui.widgets.markdown_blocks import MarkdownBlocks
from threadbench.ui.widgets.message_views import AIMessageView, ToolCallView, view_for

APP_CSS = (Path(__file__).parents[2] / "styles" / "app.tcss").read_text()
# How the app styled Textual's Collapsible in a message, before folds replaced it
COLLAPSIBLE_CSS = """
.message Collapsible { border: none; padding: 0; margin: 0; background: transparent; }
.message Collapsible Contents { padding: 0 0 0 2; }
"""
TITLE = Content.assemble(("tool call ", "dim"), ("search", "bold"), ('  {"query": "penguins"}', "dim"))
BODY = '{\n  "query": "penguins"\n}'


class InAMessage(App[None]):
    CSS = APP_CSS + COLLAPSIBLE_CSS

    def __init__(self, *widgets: Widget) -> None:
        super().__init__()
        self.widgets = widgets

    def compose(self) -> ComposeResult:
        with Vertical(classes="message -ai"):
            yield Static("above")
            yield from self.widgets
            yield Static("below")


def visible(style) -> tuple:
    """What a person sees of a cell's style."""
    return (style.color, style.bgcolor, bool(style.bold), bool(style.dim), bool(style.italic), bool(style.reverse))


async def cells(widget: Widget, opened: bool, state: str, theme: str) -> list[list[tuple]]:
    app = InAMessage(widget)
    async with app.run_test(size=(60, 12)) as pilot:
        app.theme = theme
        if opened:
            widget.collapsed = False
        await pilot.pause()
        title = widget._title if isinstance(widget, Collapsible) else widget
        app.set_focus(title if state == "focused" else None)
        if state == "hovered":
            await pilot.hover(title, offset=(4, 0))
        if state == "under hovered":  # an open body, or below the fold: the title is not lit
            await pilot.hover(widget, offset=(4, 1))
        await pilot.pause()
        await pilot.pause()
        return [
            [
                # (of a blank cell only the background is seen)
                (char, visible(segment.style)[1] if char == " " else visible(segment.style))
                for segment in strip
                for char in segment.text
            ]
            for strip in app.screen._compositor.render_strips()
        ]


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("opened", [False, True], ids=["folded", "open"])
@pytest.mark.parametrize("state", ["blurred", "focused", "hovered", "under hovered"])
async def test_a_fold_looks_as_textuals_collapsible_did(opened, state, theme):
    collapsible = Collapsible(Static(BODY), title=TITLE, collapsed=True)  # type: ignore[arg-type]
    fold = Fold(TITLE, lambda: [Static(BODY)])
    expected = await cells(collapsible, opened, state, theme)
    drawn = await cells(fold, opened, state, theme)
    for row, (want, got) in enumerate(zip(expected, drawn, strict=True)):
        assert got == want, f"row {row}: {''.join(c for c, _ in got)!r}"


class Folds(App[None]):
    CSS = APP_CSS

    def __init__(self, *views: Widget) -> None:
        super().__init__()
        self.views = views

    def compose(self) -> ComposeResult:
        with Vertical(id="chat"):
            yield from self.views


def lines(app: App) -> list[str]:
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


async def test_enter_and_a_click_on_the_title_open_and_fold_it_the_body_built_only_while_open():
    call = ToolCallView(ToolCall(id="c1", name="search", args={"query": "penguins"}))
    app = Folds(call, Static("after"))
    async with app.run_test(size=(60, 12)) as pilot:
        assert not call.children, "folded: no widget inside"
        assert lines(app)[:2] == [' ▶ tool call search  {"query": "penguins"}', "after"]
        await pilot.press("tab")
        assert app.focused is call
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(call.body, FoldBody)
        assert lines(app)[:5] == [
            ' ▼ tool call search  {"query": "penguins"}',
            "  {",
            '    "query": "penguins"',
            "  }",
            "after",
        ]
        await pilot.click(Static, offset=(3, 0))  # the body's text: it stays open
        await pilot.pause()
        assert not call.collapsed
        await pilot.click(ToolCallView, offset=(5, 0))  # the title: folded
        await pilot.pause()
        assert call.collapsed and not call.children
        assert lines(app)[:2] == [' ▶ tool call search  {"query": "penguins"}', "after"]
        await pilot.click(ToolCallView, offset=(5, 0))
        await pilot.pause()
        assert not call.collapsed and call.body is not None


async def test_a_title_too_long_for_the_line_is_cut_with_an_ellipsis_on_one_line():
    call = ToolCallView(ToolCall(id="c1", name="a_tool_with_a_rather_long_name", args={"query": "x" * 80}))
    app = Folds(call, Static("after"))
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        first, second = lines(app)[:2]
        assert first.endswith("…") and len(first) == 40
        assert second == "after"


async def test_arguments_streamed_in_reach_the_open_body_and_the_title():
    call = ToolCallView(ToolCall(id="c1", name="search", args={}), args_text='{"qu')
    app = Folds(call)
    async with app.run_test(size=(60, 8)) as pilot:
        call.collapsed = False
        await pilot.pause()
        assert '{"qu' in lines(app)[1]
        call.update_call(ToolCall(id="c1", name="search", args={"query": "done"}))
        await pilot.pause()
        assert lines(app)[0] == ' ▼ tool call search  {"query": "done"}'
        assert lines(app)[2] == '    "query": "done"'


async def test_a_tool_result_and_reasoning_fold_their_text_and_show_it_when_open():
    result = view_for(ChatMessage(type="tool", id="r1", name="search", text="3 results\n[bold]x[/bold]"))
    reply = AIMessageView(ChatMessage(type="ai", id="a1", text="An answer.", reasoning="Let me think."))
    app = Folds(result, reply)
    async with app.run_test(size=(60, 16)) as pilot:
        await pilot.pause()
        folds = list(app.query(Fold))
        assert [fold.collapsed for fold in folds] == [True, True]
        assert all(not fold.children for fold in folds)
        for fold in folds:
            fold.collapsed = False
        await pilot.pause()
        shown = lines(app)
        assert "█   3 results" in shown and "█   [bold]x[/bold]" in shown  # data, not markup
        assert "  Let me think." in shown
        assert shown.index("  Let me think.") < shown.index("An answer.")


async def test_a_reply_of_tool_calls_alone_mounts_no_markdown_until_text_arrives():
    message = ChatMessage(type="ai", id="t1", text="", tool_calls=[ToolCall(id="c1", name="search", args={"q": 1})])
    view = view_for(message)
    app = Folds(view)
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        assert isinstance(view, AIMessageView)
        assert [type(child) for child in view.children] == [ToolCallView]
        await view.append_reasoning("hmm")
        await view.append_text("Some text.")
        await pilot.pause()
        assert [type(child).__name__ for child in view.children] == ["ReasoningView", "MarkdownBlocks", "ToolCallView"]
        assert isinstance(view.markdown, MarkdownBlocks) and view.markdown.text == "Some text."


async def test_a_fold_opened_before_it_is_mounted_shows_its_body():
    call = ToolCallView(ToolCall(id="c1", name="search", args={"q": 1}))
    call.collapsed = False
    app = Folds(call)
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        assert lines(app)[:2] == [' ▼ tool call search  {"q": 1}', "  {"]
