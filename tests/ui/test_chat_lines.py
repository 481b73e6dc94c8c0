"""The chat draws each reply into lines (markdown_drawing.py, chat_entries.py): cell for cell
as Textual's own Markdown widget draws the same text in a message styled as the app styles
it, in a dark and a light theme, code blocks and quotes included. (Tables are the app's own
grid, by design: markdown_table.py.)"""

from __future__ import annotations

import pytest
from support.drawn_cells import ChatOf, InAMessage, assert_same_cells, screen_cells
from textual.widgets import Markdown
from threadbench.models import ChatMessage
from threadbench.ui.widgets.drawn_lines import Look
from threadbench.ui.widgets.markdown_drawing import draw_parts, parse_parts

EVERY_KIND = """# A title long enough to wrap at the narrow width

Intro with **bold**, *em*, ***both***, ~~gone~~, `code  spaced`, a [link](https://example.com/a) \
and ![a picture](https://example.com/p.png), 漢字 and 🎉, averyveryveryverylongwordthatcannotfitonalineatthenarrowwidth.

## Second level

### Third *em*

#### Fourth

##### Fifth

###### Sixth

---

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
"""

SAMPLES = {
    "every kind": EVERY_KIND,
    "a paragraph": "Just one line.",
    "a heading alone": "## Alone",
    "a heading last": "Text above.\n\n# The end",
    "a list first, a rule last": "- a\n- b\n\n---",
    "code": "Code:\n\n```python\ndef f(x):\n    return x  # a comment\n```\n\nAfter it.",
    "code last": "Run:\n\n```\nls -la\n```",
}
QUOTE = "Before.\n\n> a quote of *some* words\n\nAfter."


def _no_meta(rows: list[list[tuple]]) -> list[list[tuple]]:
    """The cells without where a click goes, for a comparison of looks alone."""
    return [[(char, style[:-1]) for char, style in row] for row in rows]


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("name", list(SAMPLES))
async def test_a_reply_looks_as_textuals_markdown_draws_it(name, theme):
    text = SAMPLES[name]
    for width in (44, 80):
        textuals = await screen_cells(InAMessage(Markdown(text)), width, theme)
        ours = await screen_cells(ChatOf([ChatMessage(id="a", type="ai", text=text)]), width, theme)
        assert_same_cells(_no_meta(ours), _no_meta(textuals), width)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_a_quote_looks_as_textuals(theme):
    """Cell for cell but the colour of the quote's edge: Textual blends it over the message
    behind the quote, the chat over the quote's own background (a shade apart)."""
    textuals = await screen_cells(InAMessage(Markdown(QUOTE)), 44, theme)
    ours = await screen_cells(ChatOf([ChatMessage(id="a", type="ai", text=QUOTE)]), 44, theme)
    edge = [[(c, s[1:-1]) if c == "▌" else (c, s[:-1]) for c, s in row] for row in ours]
    assert edge == [[(c, s[1:-1]) if c == "▌" else (c, s[:-1]) for c, s in row] for row in textuals]


def test_server_text_is_drawn_as_data_not_markup():
    lines = draw_parts(parse_parts("[bold]not markup[/bold] and [link=x]y[/link]"), 80, Look())
    (line,) = lines
    assert line.content.plain == "[bold]not markup[/bold] and [link=x]y[/link]" and not line.content.spans


def test_a_code_line_is_kept_whole_for_the_view_to_scroll_sideways():
    lines = draw_parts(parse_parts("```\n" + "x" * 200 + "\n```"), 40, Look())
    wide = [line for line in lines if line.wide]
    assert len(wide) == 1 and wide[0].content.plain.strip() == "x" * 200
