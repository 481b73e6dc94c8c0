"""What the screens of the server's objects share (runs, assistants, store, crons): a large
dialog with a title, a status line and a hint line; a sentence in place of the body when the
server lacks the feature; errors said in the status line, never a crash; `opened` each time
the screen is opened (the store and the assistants are kept between opens: kept_screens.py).

A key whose action cannot act on this server (`can`, or the whole screen lacking) is neither
bound (`check_action`) nor listed in the hint line (`HINTS`)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.cells import cell_len
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ...backends.base import BackendError
from ...object_input import TypedWrong
from ...styles import STYLES
from ..text import plain
from .confirm import ConfirmScreen

if TYPE_CHECKING:
    from ...backends.base import Backend

T = TypeVar("T")
SAID_SECONDS = 6.0


def error_text(error: BaseException) -> str:
    if isinstance(error, BackendError):
        return error.with_hint()
    return f"{type(error).__name__}: {error}"


class ObjectsScreen(ModalScreen[T]):
    CSS_PATH = [STYLES / "objects.tcss"]
    HINTS: ClassVar[tuple[tuple[str, str], ...]] = (("close", "esc close"),)
    """(action, what the hint line says of its key), in order; the action "" is the body's own
    key (enter on a table), shown while the body is."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(classes="modal objects-screen")
        self.backend = backend
        self._status_lines = 1
        self._said_at = -SAID_SECONDS
        self._detail_lines: dict[str, int] = {}
        self.lacking = False
        """The server lacks what this screen shows (said in place of the body)."""
        self._was_opened = False
        self._covered = False

    def on_screen_suspend(self) -> None:
        # Closed, or covered by a dialog of its own (a form, a question) and still in the stack?
        self._covered = self in self.app.screen_stack

    def on_screen_resume(self) -> None:
        if not self._covered:
            self.opened(first=not self._was_opened)
            self._was_opened = True
        self._covered = False

    def opened(self, first: bool) -> None:
        """The screen was opened (`first`: for the first time), not uncovered by a dialog of
        its own closing. A screen kept between opens fetches what it shows again here."""

    def can(self, action: str) -> bool:
        """Whether `action` can act on this server (a screen whose server lacks some of it)."""
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key that cannot act is not bound: not listed, and pressing it does nothing."""
        if action == "close":
            return True
        return not self.lacking and (action == "" or self.can(action))

    def hint_line(self) -> Content:
        """The keys that act here, as the hint line lists them."""
        shown = [text for action, text in self.HINTS if self.check_action(action, ())]
        return Content.styled(" · ".join(shown), "dim")

    def show_hints(self) -> None:
        """The hint line and the bindings again, after what can act changed."""
        for hint in self.query(".objects-hint"):
            if isinstance(hint, Static):
                hint.update(self.hint_line())
        self.refresh_bindings()

    def note_lack(self, text: str) -> None:
        """The server lacks part of this screen: say so above the body, which stays."""
        lacking = self.query_one(".objects-lacking", Static)
        lacking.update(plain(text, "dim"))
        lacking.display = True
        self.show_hints()

    def title_line(self, name: str, detail: str = "") -> Content:
        return Content.assemble((name, "bold"), ("  ·  " + detail if detail else "", "dim"))

    def set_status(self, text: str, style: str = "dim", *, count: bool = False) -> None:
        """The status line; the dialog is laid out again only when its height changes (a
        layout repaints every table of the dialog: 50-100 ms for a page of rows). A `count`
        (what a reload found) does not replace what an action said in the last seconds."""
        if not self.is_attached:
            return
        if count and time.monotonic() - self._said_at < SAID_SECONDS:
            return
        if not count:
            self._said_at = time.monotonic()
        status = self.query_one(".objects-status", Static)
        width = max(20, status.size.width or 100)
        lines = sum(max(1, -(-len(line) // width)) for line in text.split("\n")) if text else 1
        status.update(plain(text, style) if text else Content(""), layout=lines != self._status_lines)
        self._status_lines = lines

    def show_detail(self, detail: Static, content: Content) -> None:
        """The highlighted object's details in `detail`, laid out again only when their height
        may change, as the status line is: each highlight (a cursor step, a page appended)
        would lay out the dialog and repaint every table of it."""
        width = detail.size.width
        lines = content.plain.split("\n")
        sized = detail.styles.width is None or not detail.styles.width.is_auto  # (auto: as wide as its text)
        fits = bool(width) and sized and all(cell_len(line) <= width for line in lines)
        height = len(lines) if fits else -1  # (wrapped lines: their height is not counted here)
        key = detail.id or ""
        detail.update(content, layout=height < 0 or self._detail_lines.get(key) != height)
        self._detail_lines[key] = height

    def failed(self, doing: str, error: BaseException) -> None:
        self.set_status(f"{doing} failed: {error_text(error)}", "$error")

    def server_lacks(self, error: BackendError, what: str) -> bool:
        """A server of the right kind whose deployment has no such routes (404, 405, 501:
        crons or the store turned off) lacks the feature: say so instead of an error."""
        if error.status in (404, 405, 501):
            name = getattr(self.backend.capabilities, "name", "This server")
            self.explain_lack(f"{name} at this address has no {what} (it answered {error.status}: {error}).")
            self.set_status("")
            return True
        return False

    def explain_lack(self, text: str) -> None:
        """The server lacks this: say so where the body would be, and hide the body."""
        self.lacking = True
        for body in self.query(".objects-body"):
            body.display = False
        lacking = self.query_one(".objects-lacking", Static)
        lacking.update(plain(text))
        lacking.display = True
        self.show_hints()

    @staticmethod
    def form_submit(
        make: Callable[[dict[str, str]], Awaitable[Any]],
    ) -> Callable[[dict[str, str]], Awaitable[tuple[Any, str]]]:
        """A form's submit from `make(values)`: (what it made, "") or (None, why not), when what
        was typed is refused here (TypedWrong) or by the server; the form then stays open."""

        async def submit(values: dict[str, str]) -> tuple[Any, str]:
            try:
                return await make(values), ""
            except TypedWrong as wrong:
                return None, str(wrong)
            except BackendError as error:
                return None, error_text(error)

        return submit

    async def confirmed(self, question: Content, act: Callable[[], Awaitable[object]], doing: str) -> bool:
        """Ask `question`, then `act`; False when declined, refused (said in the status line) or
        the screen was closed while the server answered."""
        if not await self.app.push_screen_wait(ConfirmScreen(question)):
            return False
        try:
            await act()
        except BackendError as error:
            self.failed(doing, error)
            return False
        return self.is_attached

    def action_close(self) -> None:
        self.dismiss(None)

    def clock_now(self) -> Any:
        return self.app.clock()  # type: ignore[attr-defined]
