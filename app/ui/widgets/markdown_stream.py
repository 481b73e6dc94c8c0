"""A Markdown text that may grow as a reply streams, kept as blocks of about BLOCK_CHARS
(cut at blank lines outside code fences), each parsed once: a new token parses and draws
its last block again, so its cost does not grow with the length of the reply."""

from __future__ import annotations

from .markdown_drawing import Part, parse_parts

BLOCK_CHARS = 2_000


class MarkdownText:
    """The text, its blocks' sources and their parts."""

    def __init__(self, text: str = "") -> None:
        self.text = ""
        self._splitter = BlockSplitter()
        self._sources: list[str] = []
        self._parts: list[list[Part] | None] = []  # each block's parts (None: to parse again)
        self._kept: dict[int, dict[str, Part]] = {}  # a growing block's parts by their source (parse_parts)
        if text:
            self.append(text)

    def append(self, fragment: str) -> None:
        if not fragment:
            return
        self.text += fragment
        first, *rest = self._splitter.feed(fragment)
        if not self._sources:
            self._sources, self._parts = [""], [None]
        self._sources[-1] += first
        self._parts[-1] = None
        for piece in rest:
            self._sources.append(piece)
            self._parts.append(None)

    def parts(self) -> list[Part]:
        every: list[Part] = []
        last = len(self._parts) - 1
        for index, parts in enumerate(self._parts):
            if parts is None:
                parts = self._parts[index] = parse_parts(self._sources[index], self._kept.setdefault(index, {}))
                if index < last:  # (a finished block: parsed for the last time)
                    del self._kept[index]
            every += parts
        return every


class BlockSplitter:
    """Finds, in text that arrives in pieces, where blocks of about BLOCK_CHARS end (at blank
    lines outside code fences).

    feed() returns the new text cut at block ends: every piece but the last ends a block.
    Work is proportional to the text fed, never to the text so far.
    """

    def __init__(self) -> None:
        self.size = 0  # characters of complete lines in the current block
        self.fence_open = False
        self.line = ""  # the incomplete last line

    def feed(self, text: str) -> list[str]:
        held = len(self.line)
        lines = (self.line + text).splitlines(keepends=True)
        self.line = lines.pop() if lines and not _ends_line(lines[-1]) else ""
        pieces, start, position = [], 0, -held
        for line in lines:
            position += len(line)
            self.size += len(line)
            if line.lstrip().startswith("```"):
                self.fence_open = not self.fence_open
            if self.size >= BLOCK_CHARS and not self.fence_open and line.strip() == "":
                pieces.append(text[start:position])
                start, self.size = position, 0
        pieces.append(text[start:])
        return pieces


def _ends_line(text: str) -> bool:
    return text.splitlines()[0] != text
