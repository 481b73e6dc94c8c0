"""A finished reply of paragraphs, headings, rules, lists of text and tables is one widget
(markdown_drawing.py), drawn cell for cell as Textual's Markdown widgets draw it, in a
message as the app styles it, in a dark and a light theme; any other reply is left to
Textual's widgets."""

from __future__ import annotations

import pytest
from support.drawn_cells import InAMessage, assert_same_cells, cells
from support.driving import screen_lines
from textual.containers import Vertical
from textual.widgets._markdown import MarkdownBlockQuote, MarkdownFence
from threadbench.models import ChatMessage, ToolCall
from threadbench.ui.widgets.markdown_blocks import ChatMarkdown, MarkdownBlocks
from threadbench.ui.widgets.markdown_drawing import DrawnMarkdown, drawn_parts
from threadbench.ui.widgets.message_views import DISPLAY_LIMIT, AIMessageView, DrawnAIMessageView, view_for

EVERY_KIND = """# A title long enough to wrap at the narrow width

Intro with **bold**, *em*, ***both***, ~~gone~~, `code  spaced`, a [link](https://example.com/a) \
and ![a picture](https://example.com/p.png), 漢字 and 🎉, averyveryveryverylongwordthatcannotfitonalineatthenarrowwidth.

## Second level

### Third *em*

#### Fourth

##### Fifth

###### Sixth

---

| name | what |
|---|---|
| alpha | `code` and **bold** |
| beta | a longer cell with many words in it, to wrap in its column |

1. one
2. two
   - nested
     - deeper
       1. deep ordered

- [ ] task
- [x] done

Line one\\
hard break.

<div>an HTML block, which Textual does not show</div>

| only | a header |
|---|---|
"""

SAMPLES = {
    "every kind": EVERY_KIND,
    "a paragraph": "Just one line.",
    "a heading alone": "## Alone",
    "a heading last": "Text above.\n\n# The end",
    "a list first, a rule last": "- a\n- b\n\n---",
}


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("name", list(SAMPLES))
async def test_a_drawn_reply_looks_as_textuals_widgets_draw_it(name, theme):
    text = SAMPLES[name]
    parts = drawn_parts(text)
    assert parts is not None
    for width in (44, 80):
        textuals = await cells(ChatMarkdown(text), width, theme)
        ours = await cells(DrawnMarkdown(text, parts), width, theme)
        assert_same_cells(ours, textuals, width)


@pytest.mark.parametrize(
    "text",
    ["Code:\n\n```python\nprint('x')\n```", "> a quote", "1. step\n\n   ```\n   ls\n   ```", "    indented code"],
)
async def test_a_reply_with_code_or_a_quote_is_left_to_textuals_widgets(text):
    assert drawn_parts(text) is None
    app = InAMessage(MarkdownBlocks(text))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert not app.query(DrawnMarkdown)
        assert app.query(ChatMarkdown) and (app.query(MarkdownFence) or app.query(MarkdownBlockQuote))


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_a_finished_reply_is_one_widget_drawn_as_the_streamed_kind_shows_it(theme):
    """The chat's view of a finished reply (view_for) draws itself; the view a streamed reply
    is shown in builds its blocks (MarkdownBlocks); both look the same."""
    message = ChatMessage(id="a", type="ai", text=SAMPLES["every kind"])
    view = view_for(message)
    assert isinstance(view, DrawnAIMessageView) and not view.is_container
    for width in (44, 80):
        ours = await cells(view_for(message), width, theme)
        built = await cells(AIMessageView(message, classes="message -ai"), width, theme)
        assert_same_cells(ours, built, width)
    app = InAMessage(view)
    async with app.run_test(size=(80, 60)) as pilot:
        await pilot.pause()
        assert not view.children
        assert "A title long enough to wrap at" in "\n".join(screen_lines(app))


@pytest.mark.parametrize(
    "message",
    [
        ChatMessage(id="r", type="ai", text="Done.", reasoning="thinking it over"),
        ChatMessage(id="t", type="ai", text="Searching.", tool_calls=[ToolCall(id="c", name="search", args={})]),
        ChatMessage(id="c", type="ai", text="```\nls\n```"),
        ChatMessage(id="e", type="ai", text=""),
        ChatMessage(id="l", type="ai", text="word " * 1000),
    ],
    ids=["reasoning", "tool call", "code", "empty", "long"],
)
def test_a_reply_with_more_than_text_or_long_is_built_of_widgets(message):
    assert type(view_for(message)) is AIMessageView


async def test_a_plain_message_draws_itself_unless_it_is_cut():
    short = view_for(ChatMessage(id="h", type="human", text="a [b]question[/b]"))
    cut = view_for(ChatMessage(id="h2", type="human", text="x" * (DISPLAY_LIMIT + 10)))
    app = InAMessage(Vertical(short, cut))
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        assert not short.children and not short.is_container
        assert "a [b]question[/b]" in "\n".join(screen_lines(app))  # (as data, not markup)
        assert [type(child).__name__ for child in cut.children] == ["Static", "Static"]
        assert "more characters not shown" in str(cut.children[1].visual)


async def test_a_link_in_a_drawn_reply_opens_when_clicked(monkeypatch):
    opened: list[str] = []
    app = InAMessage(MarkdownBlocks("See [the docs](https://example.com/docs) here."))
    monkeypatch.setattr(app, "open_url", lambda url, **kwargs: opened.append(url))
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.pause()
        row = next(y for y, line in enumerate(screen_lines(app)) if "the docs" in line)
        await pilot.click(offset=(screen_lines(app)[row].index("the docs") + 2, row))
        await pilot.pause()
    assert opened == ["https://example.com/docs"]


def test_server_text_is_drawn_as_data_not_markup():
    parts = drawn_parts("[bold]not markup[/bold] and [link=x]y[/link]")
    assert parts is not None
    (line,) = parts[0].draw(80)
    assert line.plain == "[bold]not markup[/bold] and [link=x]y[/link]" and not line.spans
