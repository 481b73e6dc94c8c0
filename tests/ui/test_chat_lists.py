"""Markdown lists in the chat: one widget each when they hold text and lists (markdown_list.py),
drawn as Textual's own list widgets draw them; Textual's widgets for any other list."""

from __future__ import annotations

import pytest
from support.driving import screen_lines
from textual.app import App, ComposeResult
from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownBullet, MarkdownFence
from threadbench.ui.widgets.markdown_blocks import ChatMarkdown
from threadbench.ui.widgets.markdown_list import ListDrawing

NESTED = """Intro.

- first item with enough text to wrap onto a second line at this width for sure
- second **bold** and `code`
  - nested one
  - nested two
    1. deep ordered
    2. deeper
- third

8. eight
9. nine
10. ten

- a

- b, loose, para one

  b para two
-
- after an empty item

after"""

WITH_CODE = """1. step

   ```bash
   ls
   ```
2. next

end"""


class Shows(App[None]):
    def __init__(self, markdown: type[Markdown], text: str) -> None:
        super().__init__()
        self.markdown, self.text = markdown, text

    def compose(self) -> ComposeResult:
        yield self.markdown(self.text)


async def drawn(markdown: type[Markdown], text: str) -> tuple[list[str], App]:
    app = Shows(markdown, text)
    async with app.run_test(size=(50, 40)) as pilot:
        await pilot.pause()
        return [line.rstrip() for line in screen_lines(app)], app


async def test_a_list_of_text_is_one_widget_drawn_as_textual_draws_it():
    ours, app = await drawn(ChatMarkdown, NESTED)
    textuals, _ = await drawn(Markdown, NESTED)
    assert ours == textuals
    assert "    ▪ nested one" in ours and "       1. deep ordered" in ours and "   10. ten" in ours
    assert "    second line at this width for sure" in ours  # wrapped under its first line


async def test_a_list_with_a_code_block_in_an_item_is_left_to_textuals_widgets():
    app = Shows(ChatMarkdown, WITH_CODE)
    async with app.run_test(size=(50, 20)) as pilot:
        await pilot.pause()
        assert not app.query(ListDrawing)
        assert app.query(MarkdownFence) and app.query(MarkdownBullet)
        lines = [line.rstrip() for line in screen_lines(app)]
    textuals, _ = await drawn(Markdown, WITH_CODE)
    assert lines[:12] == textuals[:12]


async def test_a_streamed_list_is_drawn_again_as_it_grows_not_remounted():
    app = Shows(ChatMarkdown, "")
    async with app.run_test(size=(50, 20)) as pilot:
        markdown = app.query_one(ChatMarkdown)
        stream = Markdown.get_stream(markdown)
        await stream.write("Steps:\n\n- one\n")
        await pilot.pause()
        drawing = app.query_one(ListDrawing)
        for word in ["- two\n", "- three ", "and more\n", "  - nested\n"]:
            await stream.write(word)
            await pilot.pause()
        await stream.stop()
        await pilot.pause()
        assert app.query_one(ListDrawing) is drawing, "the same widget, drawn again"
        assert len(app.query(ListDrawing)) == 1 and not app.query(MarkdownBullet)
        lines = [line.rstrip() for line in screen_lines(app)]
        assert lines[2:6] == ["  • one", "  • two", "  • three and more", "    ▪ nested"]


@pytest.mark.parametrize("text", ["- \n- x", "1. only", "- [ ] task\n- [x] done"])
async def test_edge_lists_match_textual(text):
    ours, _ = await drawn(ChatMarkdown, text)
    textuals, _ = await drawn(Markdown, text)
    assert ours == textuals


async def bullet_colors(markdown: type[Markdown], theme: str) -> list:
    """The colour of each bullet on screen, in `theme`."""
    app = Shows(markdown, NESTED)
    async with app.run_test(size=(50, 40)) as pilot:
        app.theme = theme
        await pilot.pause()
        strips = app.screen._compositor.render_strips()
        return [segment.style.color for strip in strips for segment in strip if segment.text.strip() in ("•", "▪")]


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_bullets_are_coloured_as_textuals_in_a_dark_and_a_light_theme(theme):
    ours = await bullet_colors(ChatMarkdown, theme)
    textuals = await bullet_colors(Markdown, theme)
    assert len(ours) == 8 and ours == textuals
