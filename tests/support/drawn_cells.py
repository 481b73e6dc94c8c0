"""A Markdown block in a message, styled as the app styles it, read cell by cell: how the
tests check that a drawing looks as Textual's widgets draw the same text."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.containers import Vertical
from threadbench.models import ChatMessage
from threadbench.ui.widgets.chat_log import ChatLog

APP_CSS = (Path(__file__).parents[2] / "styles" / "app.tcss").read_text()


class InAMessage(App[None]):
    CSS = APP_CSS

    def __init__(self, block) -> None:
        super().__init__()
        self.block = block

    def compose(self) -> ComposeResult:
        with Vertical(classes="message -ai"):
            yield self.block


def visible(style) -> tuple:
    """What a person sees of a cell's style (and where a click on it goes)."""
    return (
        style.color,
        style.bgcolor,
        bool(style.bold),
        bool(style.italic),
        bool(style.underline),
        bool(style.strike),
        bool(style.reverse),
        (style.meta or {}).get("@click"),
    )


def assert_same_cells(ours: list[list[tuple]], theirs: list[list[tuple]], width: int) -> None:
    """Row by row, the cells drawn are those expected; a failure names the row and its text."""
    for row, (mine, expected) in enumerate(zip(ours, theirs, strict=True)):
        assert mine == expected, f"row {row} at width {width}: {''.join(c for c, _ in expected)!r}"


CHAT_CSS = "ChatLog { scrollbar-size: 0 0; height: auto; }"


class ChatOf(App[None]):
    CSS = APP_CSS + CHAT_CSS

    def __init__(self, messages: list[ChatMessage]) -> None:
        super().__init__()
        self.messages = messages

    def compose(self) -> ComposeResult:
        yield ChatLog()

    async def on_mount(self) -> None:
        await self.query_one(ChatLog).show_messages(self.messages)


async def screen_cells(app: App, width: int, theme: str, height: int = 90) -> list[list[tuple]]:
    async with app.run_test(size=(width, height)) as pilot:
        app.theme = theme
        await pilot.pause()
        await pilot.pause()
        for chat in app.query(ChatLog):
            chat.scroll_home(animate=False)
            await pilot.pause()
        return [
            [
                (char, visible(segment.style)[1:] if char == " " else visible(segment.style))
                for segment in strip
                for char in segment.text
            ]
            for strip in app.screen._compositor.render_strips()
        ]
