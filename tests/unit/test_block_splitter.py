"""Where a Markdown text is cut into blocks, whole or as it streams (markdown_stream.py).

Streamed and whole must agree, and agree with `split_blocks` (the rule written out plainly,
line by line): a reply opened again must look as it did while it streamed."""

import random

import pytest
from textual.style import Style
from threadbench.embedded.demo.canned import long_markdown, rich_markdown
from threadbench.ui.widgets.drawn_lines import Look
from threadbench.ui.widgets.markdown_drawing import draw_parts
from threadbench.ui.widgets.markdown_stream import BLOCK_CHARS, BlockSplitter, MarkdownText

LONG = "x" * (BLOCK_CHARS + 10)


def streamed(text: str, seed: int) -> list[str]:
    """The blocks BlockSplitter makes of `text` fed in random pieces."""
    chance = random.Random(seed)
    splitter, blocks, start = BlockSplitter(), [""], 0
    while start < len(text):
        size = chance.randint(1, 40)
        first, *rest = splitter.feed(text[start : start + size])
        blocks[-1] += first
        blocks += rest
        start += size
    return [block for block in blocks if block]


def split_blocks(text: str) -> list[str]:
    """The rule: split Markdown at blank lines outside code fences into blocks of ~BLOCK_CHARS."""
    if len(text) <= BLOCK_CHARS:
        return [text] if text else []
    blocks, current, fence_open = [], [], False
    size = 0
    for line in text.splitlines(keepends=True):
        current.append(line)
        size += len(line)
        if line.lstrip().startswith("```"):
            fence_open = not fence_open
        if size >= BLOCK_CHARS and not fence_open and line.strip() == "":
            blocks.append("".join(current))
            current, size = [], 0
    if current:
        blocks.append("".join(current))
    return blocks


TEXTS = {
    "rich": rich_markdown(3000),
    "long": long_markdown(2000),
    "fences": "a paragraph\n```py\ncode\n\nmore code\n```\nafter it\n\n" * 120,
    "fence in a list": "- item\n  ```\n  code\n  ```\n- next\n" * 120,
    "ends in a fence": LONG + "\n\n```py",
}


@pytest.mark.parametrize("name", TEXTS)
def test_streamed_in_any_pieces_the_blocks_are_those_of_the_whole_text(name):
    text = TEXTS[name]
    whole = split_blocks(text)
    assert "".join(whole) == text
    assert [block for block in BlockSplitter().feed(text) if block] == whole, "a reply opened whole"
    for seed in range(10):
        assert streamed(text, seed) == whole


def test_blocks_end_at_a_blank_line_past_the_size_never_inside_a_fence():
    blocks = split_blocks(TEXTS["fences"])
    assert len(blocks) == 3
    for block in blocks[:-1]:
        assert len(block) >= BLOCK_CHARS and block.endswith("\n\n")
        assert block.count("```") % 2 == 0, "a fence is never cut in two"


def test_a_short_text_is_one_block():
    assert split_blocks("a\n```py\nb\n```\n\n" + "c" * (BLOCK_CHARS - 30)) == [
        "a\n```py\nb\n```\n\n" + "c" * (BLOCK_CHARS - 30)
    ]
    assert split_blocks("") == []


def test_a_block_that_did_not_change_keeps_its_drawing_as_the_text_grows():
    text = MarkdownText("# Title\n\nFirst paragraph.\n\n```py\ncode\n```\n\nSecond")
    before = text.parts()
    text.append(" paragraph, growing")
    after = text.parts()
    assert [a is b for a, b in zip(after, before, strict=True)] == [True, True, True, False]


def test_a_link_defined_after_its_use_is_drawn_as_a_link_when_the_definition_comes():
    text = MarkdownText("See [the docs][d].\n\n")
    assert not links(text)
    text.append("[d]: https://example.com/docs\n")
    assert links(text) == ["https://example.com/docs"]


def links(text: MarkdownText) -> list[str]:
    lines = draw_parts(text.parts(), 80, Look())
    return [
        span.style.meta["link"]
        for line in lines
        for span in line.content.spans
        if isinstance(span.style, Style) and span.style.meta.get("link")
    ]
