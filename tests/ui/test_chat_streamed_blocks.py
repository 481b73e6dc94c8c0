"""A streamed reply is cut into blocks (markdown_blocks.py), each its own Markdown; however
its text arrives, it looks cell for cell as one Markdown of the whole text."""

from __future__ import annotations

import random

import pytest
from support.drawn_cells import assert_same_cells, cells
from threadbench.ui.widgets.markdown_blocks import BLOCK_CHARS, ChatMarkdown, MarkdownBlocks

REPLY = f"""# Plan

A first paragraph with `code` and **bold**, long enough to wrap at the narrow width.
```python
def step(state):
    return state
```
After the fence, a paragraph [with a link](https://example.com).

| key | value |
|---|---|
| a | 1 |

> A quote, **bold**
lazily continued.

- one
- two
  - nested

## Next

{"Filler words to pass the size of a block. " * (BLOCK_CHARS // 40)}

Last paragraph.
"""


def pieces(text: str, seed: int) -> list[str]:
    chance = random.Random(seed)
    cuts = sorted(chance.sample(range(1, len(text)), 60))
    return [text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True)]


def streaming(seed: int):
    async def stream(blocks: MarkdownBlocks) -> None:
        for piece in pieces(REPLY, seed):
            await blocks.append(piece)
        await blocks.finish()

    return stream


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_a_streamed_reply_looks_as_one_markdown_of_its_whole_text(theme):
    for width, seed in ((44, 1), (80, 2)):
        whole = await cells(ChatMarkdown(REPLY), width, theme, height=160)
        streamed = await cells(MarkdownBlocks(), width, theme, height=160, then=streaming(seed))
        assert_same_cells(streamed, whole, width)
