"""One fork of a fan-out (#fanout-<n>): its run options, its status, and its reply as it streams.

The reply is one of Textual's Markdown widgets, fed through Textual's
MarkdownStream (`append`), never replaced whole per token. The column never calls the
server: FanOutScreen runs the fork and calls `set_status`, `append`, `finish`.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Markdown, Static
from textual.widgets.markdown import MarkdownStream

from ...models import ThreadState
from ..text import clean

STATUS_STYLES = {
    "queued": "$text-muted",
    "copying": "$text-muted",
    "running": "bold $text-accent",
    "done": "bold $text-success",
    "failed": "bold $text-error",
    "asking": "bold $text-warning",
}


class FanOutColumn(Vertical, can_focus=True):
    def __init__(self, number: int, options_text: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.number = number
        self.options_text = options_text
        self.thread_id: str | None = None
        """The fork (a copy of the thread), once made."""
        self.final: ThreadState | None = None
        self.status = "queued"
        self._stream: MarkdownStream | None = None
        self._wrote = False

    def compose(self) -> ComposeResult:
        yield Static(
            Content.assemble((f"{self.number}  ", "bold $text-accent"), (clean(self.options_text), "bold")),
            classes="fanout-options",
        )
        yield Static(classes="fanout-status")
        with VerticalScroll(classes="fanout-body"):
            yield Markdown(classes="fanout-reply")

    def on_mount(self) -> None:
        self.set_status("queued", "")

    @property
    def reply(self) -> Markdown:
        return self.query_one(".fanout-reply", Markdown)

    def set_status(self, status: str, detail: str) -> None:
        self.status = status
        self.query_one(".fanout-status", Static).update(
            Content.assemble(
                (status, STATUS_STYLES.get(status, "")), (f"  {clean(detail)}" if detail else "", "$text-muted")
            )
        )

    async def append(self, text: str, *, paragraph: bool = False) -> None:
        """Add `text` to the reply (after a blank line when `paragraph` and something is shown)."""
        if not text:
            return
        if self._stream is None:
            self._stream = Markdown.get_stream(self.reply)
        if paragraph and self._wrote:
            text = "\n\n" + text
        self._wrote = True
        await self._stream.write(text)

    async def finish(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()
