"""Helpers for Pilot and snapshot tests: a deterministic app on the test server."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from threadbench.config import Settings
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.shell import load_main_screen

from .waiting import pilot_step, until

load_main_screen()  # an app made here starts on its main screen (the first frame's outline: tests/ui/test_shell.py)

# Earlier than any timestamp the server writes, so every relative time reads "now".
FIXED_NOW = datetime(2026, 1, 1, tzinfo=UTC)
TERMINAL = (140, 40)
DATA_DIRS = Path(tempfile.mkdtemp(prefix="tb-ui-"))
"""Every app's fresh data dir is made in here, and this is removed when the process ends."""
atexit.register(shutil.rmtree, DATA_DIRS, ignore_errors=True)


def make_app(
    url: str, data_dir: Path | None = None, *, assistant: str = "agent", fixed_time: bool = True, **kwargs
) -> ThreadbenchApp:
    """The real app on `url` with a fresh data dir. `assistant`: the user's pick for every run,
    as the config file's [run_options] gives it (the test server runs a dozen graphs; most
    tests talk to the demo agent); "" leaves each run on its thread's own graph.
    `fixed_time`: relative times read from FIXED_NOW (tests); bench/ keeps the real clocks."""
    settings = Settings(
        url=url,
        data_dir=data_dir or Path(tempfile.mkdtemp(dir=DATA_DIRS)),
        run_options={"assistant_id": assistant} if assistant else {},
    )
    if fixed_time:
        kwargs = {"clock": lambda: FIXED_NOW, "monotonic": lambda: 0.0, **kwargs}
    return ThreadbenchApp(settings, backend_kind="langgraph", **kwargs)


def make_snapshot_app(url: str):
    return make_app(url, wrap_backend=StableCheckpointIds)


async def wait_for(pilot, predicate: Callable[[], object], timeout: float = 30.0, what: str = "") -> None:
    """Let the app run until `predicate()` is true (real servers answer in their own time);
    a timeout also says where the app was, for a failure seen once in a clean-clone run."""
    try:
        await until(predicate, pilot_step(pilot), timeout, what)
    except AssertionError as error:
        raise AssertionError(f"{error}\n{where_the_app_is(pilot.app)}") from None


def where_the_app_is(app) -> str:
    """The screens, the focus (and what it holds, if a field), the work still running, the
    notices and the start of the text shown."""
    screen = app.screen
    focused = screen.focused
    value = getattr(focused, "value", getattr(focused, "text", None))
    working = sorted(f"{w.group}:{w.name}" for w in app.workers if not w.is_finished)
    shown = " / ".join(line.strip() for line in screen_text(app).splitlines() if line.strip())
    stack = " > ".join(type(each).__name__ for each in app.screen_stack)
    return (
        f"  screens {stack}, focus {type(focused).__name__ if focused else None}#{getattr(focused, 'id', None)}"
        f"{f' holding {value!r}' if isinstance(value, str) else ''}, "
        f"backend {type(app.session.backend).__name__}\n"
        f"  working: {working}\n  notices: {notices(app)[-3:]}\n  shown: {shown[:600]}"
    )


async def settle(pilot, timeout: float = 30.0) -> None:
    """Until nothing asked of the server is still on its way (no worker runs or waits to start but those
    holding a dialog open, group "modal") and the messages their answers posted are
    handled: what a snapshot or a "nothing else came" assertion waits for, instead of a
    fixed pause."""
    app = pilot.app
    running: list[str] = []

    def quiet() -> bool:
        running[:] = [f"{w.group or '-'}:{w.name}" for w in app.workers if not w.is_finished and w.group != "modal"]
        return not running

    try:
        await wait_for(pilot, quiet, timeout, what="the app to settle")
    except AssertionError:
        raise AssertionError(f"the app did not settle in {timeout:g} s: still running {running}") from None
    await pilot.pause()


async def wait_ready(pilot, timeout: float = 30.0) -> None:
    """Until the main screen is mounted, has its backend and has loaded its first page:
    only then is focus where a person would find it."""
    from threadbench.ui.main_screen import MainScreen

    app = pilot.app

    def ready() -> bool:
        screen = app.screen
        return (
            isinstance(screen, MainScreen)
            and screen.is_mounted
            and app.session.backend is not None
            and not any(w.group == "threads" and not w.is_finished for w in screen.workers)
            and bool(screen.query_one("#thread-counts").visual)
        )

    await wait_for(pilot, ready, timeout, what="the main screen")
    await pilot.pause()


def working(app, *groups: str) -> bool:
    """Whether a worker of one of `groups` (the regions' workers: "threads", "open", "run",
    "history", ...) is running: server work the screen has not applied yet."""
    return any(worker.group in groups and not worker.is_finished for worker in app.workers)


def notices(app, severity: str | None = None) -> list[str]:
    """The notifications on screen (of `severity`, if given), as a person reads them."""
    return [str(n.message) for n in app._notifications if severity in (None, n.severity)]


def screen_lines(app) -> list[str]:
    """The screen's rows as the terminal shows them (Textual has no public way: its
    compositor renders them)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown_row(threads, thread_id: str) -> str:
    """The lines the thread list draws for `thread_id`'s row (which must be on screen), as text."""
    region = threads.row_region(threads.index_of(thread_id))
    top = threads.scroll_offset.y
    assert top <= region.y and region.bottom <= top + threads.scrollable_content_region.height, "off screen"
    return "\n".join(threads.render_line(y - top).text for y in range(region.y, region.bottom))


def press_at_once(app, *keys: str) -> None:
    """Keys as a terminal delivers them when typed fast: all handed to the app in one go, no
    waiting between them for the app to handle each (Pilot.press waits). A key is a name
    ("enter", "space", "alt+t") or one character."""
    from textual import events

    for key in keys:
        char = {"enter": "\r", "space": " "}.get(key, key if len(key) == 1 else None)
        if key.startswith("alt+") and len(key) == 5:
            char = key[-1]  # (a terminal's escape and letter: Textual's alt+letter carries the letter)
        event = events.Key(key, char)
        event.set_sender(app)
        app.post_message(event)


def screen_text(app) -> str:
    """Everything the screen shows, as plain text (what a person reads); the chat: what
    each of its entries says (a reply's Markdown source)."""
    from textual.widgets import Markdown, Static
    from threadbench.ui.widgets.chat_log import ChatLog

    parts = []
    for widget in app.screen.query("*"):
        if isinstance(widget, Markdown):
            parts.append(widget.source)
        elif isinstance(widget, Static):
            parts.append(str(widget.visual) if widget.visual is not None else "")
        elif isinstance(widget, ChatLog):
            parts.append(widget.text())
            if widget.banner is not None:
                parts.append(widget.banner.plain)
    return "\n".join(parts)


class StableCheckpointIds:
    """The real backend, with the server's time-based checkpoint ids replaced by ids made
    from the thread and step, and its times by FIXED_NOW, so snapshots are the same every run. Everything else is
    passed through untouched."""

    def __init__(self, backend) -> None:
        self._backend = backend
        self.url = "http://langgraph-test"  # shown in the connection indicator; the port varies

    def __getattr__(self, name):
        return getattr(self._backend, name)

    @staticmethod
    def _stable(state):
        step = state.step if state.step is not None else "x"
        ids = {
            "checkpoint_id": f"{state.thread_id[-4:]}-step-{step}",
            "parent_checkpoint_id": "",
            "created_at": FIXED_NOW,
        }
        return state.model_copy(update=ids)

    async def get_state(self, thread_id, checkpoint_id=None):
        return self._stable(await self._backend.get_state(thread_id, checkpoint_id))

    async def get_history(self, thread_id, **kwargs):
        return [self._stable(s) for s in await self._backend.get_history(thread_id, **kwargs)]


def tag() -> dict[str, str]:
    """Metadata only this test's threads carry: its search shows nothing from other tests.
    The value starts with a letter: an all-digit one (one tag in a hundred) is searched as a
    number (`n=3`), and a test that asks the backend directly has no fallback to the text."""
    return {"suite": "t" + uuid.uuid4().hex[:9]}


async def open_tagged(pilot, metadata: dict[str, str], thread_id: str) -> None:
    """Type the tag into the search box and open `thread_id`, the one thread it finds."""
    app = pilot.app
    box = app.screen.query_one("#thread-search")
    box.focus()
    await pilot.pause()
    box.value = " ".join(f"{key}={value}" for key, value in metadata.items())
    await submit_search(pilot)
    threads = app.screen.sidebar.thread_list
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread_id], what="the tagged thread")
    if app.screen.conversation.thread_id != thread_id:
        threads.highlighted = 0
    # its state shown: from then on the inspector holds nothing of the thread open before
    await wait_for(
        pilot,
        lambda: getattr(app.screen.conversation.thread_state, "thread_id", "") == thread_id,
        what="the thread opened",
    )


async def submit_search(pilot) -> None:
    """Enter in the search box (which opens the first match and puts the focus in its
    composer), then the thread list, as a person goes there with escape: the list's keys
    act next."""
    app = pilot.app
    await pilot.press("enter")
    await wait_for(
        pilot, lambda: not working(app, "search-enter") and not app.typed_keys.holding, what="the search's enter"
    )
    app.screen.sidebar.thread_list.focus()
    await pilot.pause()


async def new_thread(pilot):
    """Create a thread with the new-thread dialog (ctrl+n, which works wherever the focus is:
    on a server with no thread yet the composer has it, and n would be typed); its composer,
    focused."""
    from threadbench.ui.main_screen import MainScreen
    from threadbench.ui.screens.new_thread import NewThreadScreen
    from threadbench.ui.widgets.composer import Composer

    app = pilot.app
    await pilot.press("ctrl+n")
    await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen), what="the new-thread dialog")
    await pilot.press("ctrl+s")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, MainScreen) and app.screen.conversation.thread_id is not None,
        what="the new thread open",
    )
    composer = app.screen.query_one(Composer)
    composer.focus()
    return composer


async def send_in_new_thread(pilot, text: str) -> None:
    """A new thread (new_thread), and `text` sent in it."""
    await new_thread(pilot)
    await pilot.press(*text, "enter")


async def tagged_threads(url: str, metadata: dict[str, str], count: int = 1) -> list[str]:
    """`count` threads of the demo agent carrying `metadata`, each with one exchange, the newest first."""
    from langgraph_sdk import get_client

    client = get_client(url=url)
    made = []
    for n in range(count):
        thread = await client.threads.create(metadata=metadata)
        await client.runs.wait(
            thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": f"hello {n}"}]}
        )
        made.append(thread["thread_id"])
    return made[::-1]


def _chat(app):
    """The chat of the screen on top (None under a dialog: it has no chat of its own)."""
    from threadbench.ui.widgets.chat_log import ChatLog

    found = app.screen.query(ChatLog)
    return found.first() if found else None


def ai_texts(app) -> list[str]:
    """The text of every AI reply the chat shows."""
    from threadbench.ui.widgets.chat_entries import MessageEntry

    chat = _chat(app)
    if chat is None:
        return []
    return [e.source for e in chat.entries if isinstance(e, MessageEntry) and e.kind == "ai" and chat.shown(e)]


def shown_messages(app, kind: str | None = None) -> list:
    """The messages the chat shows (hidden ones only while h shows them), of one type if asked."""
    from threadbench.ui.widgets.chat_entries import MessageEntry

    chat = _chat(app)
    if chat is None:
        return []
    return [
        entry.message
        for entry in chat.entries
        if isinstance(entry, MessageEntry) and chat.shown(entry) and kind in (None, entry.message.type)
    ]


def shown_tool_calls(app) -> list:
    """The tool calls the chat's replies show (streamed ones too, as far as they came)."""
    from threadbench.ui.widgets.chat_entries import MessageEntry

    chat = _chat(app)
    if chat is None:
        return []
    return [call for entry in chat.entries if isinstance(entry, MessageEntry) for call, _ in entry.calls.values()]


def chat_notices(app) -> list[str]:
    """The app's own lines in the chat (joined a run, a run failed, you answered), and the
    past view's banner."""
    from threadbench.ui.widgets.chat_entries import Notice

    chat = _chat(app)
    if chat is None:
        return []
    found = [entry.text.plain for entry in chat.entries if isinstance(entry, Notice)]
    return found + ([chat.banner.plain] if chat.banner is not None else [])
