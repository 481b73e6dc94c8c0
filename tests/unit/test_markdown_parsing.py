"""Blocks Textual's Markdown parses and the app never mounts (a streamed block parsed again
at every frame, a table's rows and cells, a list's items) are freed by reference counting,
not left as cycles for the collector (markdown_parsing.py)."""

from __future__ import annotations

import asyncio
import gc
import threading
import types
import weakref

from textual.app import App, ComposeResult
from threadbench.ui.widgets.markdown_blocks import ChatMarkdown

PIECES = [
    "A first paragraph ",
    "that grows.\n\n| name | size |\n|---|---|\n| a | 1 |\n",
    "| b | 2 |\n| c | 3 |\n\n- one\n",
    "- two\n- three\n\nThe end",
    " of it.",
]


class OneMarkdown(App):
    def compose(self) -> ComposeResult:
        yield ChatMarkdown()


def every_block(blocks) -> list:
    found, todo = [], list(blocks)
    while todo:
        block = todo.pop()
        found.append(block)
        todo.extend(getattr(block, "_blocks", ()))
    return found


async def test_blocks_parsed_and_never_mounted_are_freed_without_the_collector() -> None:
    app = OneMarkdown()
    async with app.run_test() as pilot:
        markdown = app.query_one(ChatMarkdown)
        parsed: list[weakref.ref] = []
        parse = markdown._parse_markdown

        def noting(self, tokens):
            blocks = parse(tokens)
            parsed.extend(weakref.ref(block) for block in every_block(blocks))
            return blocks

        markdown._parse_markdown = types.MethodType(noting, markdown)
        gc.collect()
        gc.disable()  # (what is freed now is freed by reference counting)
        try:
            for piece in PIECES:
                await markdown.append(piece)
                await pilot.pause()
            await markdown.update("A new text.\n\n- x\n- y\n")
            await pilot.pause()
            alive = [block for ref in parsed if (block := ref()) is not None]
            assert len(parsed) > 20
            assert [type(block).__name__ for block in alive if not block.is_mounted] == []
        finally:
            gc.enable()
        assert "A new text." in str(markdown.query_one("MarkdownParagraph")._content)


class Several(App):
    def compose(self) -> ComposeResult:
        for n in range(6):
            yield ChatMarkdown(f"Message {n}: some *text* and a [link](https://example.com).")


async def test_the_chats_markdown_shares_one_parser_per_thread(monkeypatch) -> None:
    """Textual made a parser per change (0.3 ms and about 100 objects of cyclic garbage): for
    each message mounted, each frame of a streamed reply and each update (parsed in a
    worker thread)."""
    from markdown_it import MarkdownIt
    from threadbench.ui.widgets import markdown_parsing

    made: list[int] = []

    class Counted(MarkdownIt):
        def __init__(self, *args, **kwargs) -> None:
            made.append(threading.get_ident())
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(markdown_parsing, "MarkdownIt", Counted)
    monkeypatch.setattr(markdown_parsing, "_PARSERS", markdown_parsing.ThreadParsers())
    app = Several()
    async with app.run_test() as pilot:
        await pilot.pause()
        for widget in app.query(ChatMarkdown):
            for piece in PIECES:
                await widget.append(piece)
        await pilot.pause()
        assert "The end of it." in app.query(ChatMarkdown).last().source
        await app.query(ChatMarkdown).first().update("Said *again*.")
    assert len(made) == len(set(made)) and len(made) >= 2  # the loop's thread and a worker's


async def test_a_message_is_mounted_with_its_blocks_parsed_as_it_is_composed() -> None:
    """Textual mounts an empty Markdown, then parses in a worker thread and mounts the
    blocks: a message mounted above the reader was laid out at its full height only later."""

    app = App()
    async with app.run_test() as pilot:
        loop = asyncio.get_running_loop()
        handed_over: list[object] = []
        run_in_executor = loop.run_in_executor
        loop.run_in_executor = lambda *args: handed_over.append(args) or run_in_executor(*args)  # type: ignore[method-assign]
        markdown = ChatMarkdown("# A title\n\nSome *text*.\n\n- one\n- two\n")
        await app.screen.mount(markdown)
        assert handed_over == []
        assert [type(child).__name__ for child in markdown.children] == [
            "MarkdownH1",
            "MarkdownParagraph",
            "ChatBulletList",
        ]
        assert markdown.source.startswith("# A title") and markdown.table_of_contents == [
            (1, "A title", markdown.children[0].id)
        ]
        await markdown.append("\nMore.")  # a stream may go on from it
        await pilot.pause()
        assert "More." in markdown.source and len(markdown.children) == 4
        await markdown.update("Other *text*.")
        assert [type(child).__name__ for child in markdown.children] == ["MarkdownParagraph"]
