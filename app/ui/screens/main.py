"""The main screen: thread sidebar, chat pane, inspector.

Widgets post Messages; this screen turns them into backend calls in workers and puts the
results back into the widgets. Exclusive worker groups make a newer request cancel an
older one that it makes moot (a search keystroke, opening another thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, Static

from app.backends.base import (
    BackendError,
    ClearsState,
    Conflict,
    KeepsMessageLog,
    LoginFailed,
    LoginRequired,
    NotFound,
    ServerError,
    Unauthorized,
    Unreachable,
)
from app.human_input import PendingInput, answer_submitter, detect_pending
from app.logs import redact
from app.models import ChatMessage, GraphInfo, RunEvent, RunRequest, ThreadState, ThreadSummary
from app.run_options import fields_from_schema
from app.run_target import graphs_in_refusal, refused_assistant, server_graphs, thread_graph
from app.timeline import fork_point_for_message
from app.streaming import pump
from app.thread_filter import ThreadFilter, parse_filter
from app.ui.text import clean, one_line
from app.ui.screens.cancel_run import CancelRunScreen
from app.ui.screens.confirm import ConfirmScreen
from app.ui.screens.edit_state import EditStateScreen
from app.ui.screens.human_input import HumanInputScreen
from app.ui.screens.inbox import InboxScreen
from app.ui.screens.message_log import MessageLogScreen
from app.ui.screens.new_thread import NewThreadRequest, NewThreadScreen
from app.ui.screens.pick_graph import PickGraphScreen
from app.ui.screens.prompt import PromptScreen
from app.ui.screens.run_options import RunOptionsScreen
from app.ui.widgets.chat_log import ChatLog
from app.ui.widgets.composer import Composer
from app.ui.widgets.inspector import Inspector
from app.ui.widgets.key_footer import KeyFooter
from app.ui.widgets.state_tree import StateTree
from app.ui.widgets.timeline import Timeline
from app.ui.widgets.run_status import RunStatus
from app.ui.widgets.thread_list import ThreadList
from app.ui.widgets.thread_sidebar import ThreadSidebar

if TYPE_CHECKING:
    from app.ui.app import ThreadbenchApp

PAGE_SIZE = 50
MAX_FILL_PAGES = 20
"""With a local filter (free text), fetch at most this many pages to fill the screen."""
GONE = "It was deleted (by another client?): it is removed from the list."
"""What happened when the server no longer has a thread the list shows."""
STATUS_POLL_SECONDS = 5.0
HEALTH_SECONDS = 3.0
"""How often the server is asked if it is there; after a failure, retries back off."""
MAX_BACKOFF_SECONDS = 30.0
HISTORY_PAGE = 30
FIRST_HISTORY_PAGE = 12
"""The first page is small: a checkpoint holds the whole state, and it is fetched as a thread opens."""
"""Checkpoints per get_history call: the timeline pages further back as the user scrolls."""


def sentence(error: BaseException, then: str = "") -> str:
    """The error's text as a sentence, then what to do."""
    text = str(error).strip() or type(error).__name__
    if not text.endswith((".", "!", "?")):
        text += "."
    return f"{text} {then}".strip()


class MainScreen(Screen):
    app: "ThreadbenchApp"

    AUTO_FOCUS = "#composer"
    """What is typed before the threads are listed is a message, never one-letter commands
    or a search; the list takes the focus once it has rows (unless typing has begun)."""

    BINDINGS = [
        Binding("slash", "focus_search", "Search", id="main.search", tooltip="Search threads"),
        Binding("n", "new_thread", "New", id="main.new", tooltip="New thread"),
        Binding("ctrl+n", "new_thread", "New thread", show=False, priority=True, id="main.new_anywhere", tooltip="New thread"),
        Binding("c", "copy_thread", "Copy", show=False, id="main.copy", tooltip="Copy the thread (with its history)"),
        Binding("r,f2", "rename_thread", "Rename", show=False, id="main.rename", tooltip="Rename the thread"),
        Binding("delete,x", "delete_thread", "Delete", show=False, id="main.delete", tooltip="Delete the thread"),
        Binding("s", "cycle_sort", "Sort", show=False, id="main.sort", tooltip="Sort the threads (updated or created, either way)"),
        Binding("ctrl+r", "refresh", "Refresh", priority=True, show=False, id="main.refresh", tooltip="Refresh the list and the open thread"),
        Binding("ctrl+g", "cancel_run", "Cancel run", priority=True, id="main.cancel", tooltip="Cancel the run"),
        Binding("i", "focus_composer", "Compose", show=False, id="main.compose", tooltip="Go to the composer"),
        Binding("o", "run_options", "Run options", id="main.options", tooltip="Run options (assistant, model, thinking…)"),
        Binding("a", "answer", "Answer", show=False, id="main.answer", tooltip="Answer the agent's question"),
        Binding("left_square_bracket", "older_checkpoint", "Back in time", id="main.older", tooltip="Back in time: the previous checkpoint"),
        Binding("right_square_bracket", "newer_checkpoint", "Forward", id="main.newer", tooltip="Forward in time: the next checkpoint"),
        Binding("g", "live_head", "Live head", show=False, id="main.live", tooltip="Back to the live head"),
        Binding("e", "edit_state", "Edit state", show=False, id="main.edit", tooltip="Edit the state (JSON)"),
        Binding("F", "fork", "Fork", show=False, id="main.fork", tooltip="Fork the thread from this checkpoint"),
        Binding("p", "replay", "Replay", show=False, id="main.replay", tooltip="Replay from this checkpoint"),
        Binding("E", "edit_resend", "Edit & resend", show=False, id="main.resend", tooltip="Edit your last message and resend it"),
        Binding("w", "inbox", "Inbox", id="main.inbox", tooltip="Inbox: threads waiting for you"),
        Binding("K", "clear_state", "Clear state", show=False, id="main.clear_state", tooltip="Clear the thread's state (10xGraph)"),
        Binding("L", "message_log", "Message log", show=False, id="main.message_log", tooltip="Message log (10xGraph)"),
        Binding("escape", "focus_threads", "Threads", show=False, id="main.threads", tooltip="Back to the thread list"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.filter: ThreadFilter = ThreadFilter()
        self.thread_id: str | None = None
        self.thread_state: ThreadState | None = None
        self.run_id: str | None = None
        self.drafts: dict[str, str] = {}
        self._loading_more = False
        self._loading_earlier = False
        self._total: int | None = None
        """The server's count of threads for the current search (None: unknown, or filtered here)."""
        self._opens = 0
        """Counts thread opens, so a status poll that began before an open drops its stale row."""
        self._graphs: dict[str, GraphInfo] = {}
        self.online = True
        self._backoff = 0.0
        self._next_check = 0.0
        self._wrong_graph: BackendError | None = None
        """The server refused the last run's assistant or graph (set by stream_into_chat)."""
        self._cut_run: tuple[str, str, str] | None = None
        """(thread id, run id, last event id read) of a run whose stream was cut: rejoined
        from there when the server is back."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            yield ThreadSidebar(clock=self.app.clock, id="sidebar")
            with Vertical(id="chat-pane"):
                yield Static(id="chat-header")
                yield ChatLog(id="chat-log")
                with Horizontal(id="status-row"):
                    yield RunStatus(id="run-status")
                    yield Static(id="connection")
                yield Static(id="run-options")
                yield Composer(id="composer")
            yield Inspector(id="inspector")
        yield KeyFooter()

    # -- helpers -----------------------------------------------------------------------------

    @property
    def sidebar(self) -> ThreadSidebar:
        return self.query_one(ThreadSidebar)

    @property
    def _screen_gone(self) -> bool:
        """The app is closing, or ctrl+o replaced this screen: a late answer is dropped (the
        app takes the widgets down before it stops the workers that wait for answers)."""
        return not self.is_attached or not self.app.is_running

    @property
    def thread_list(self) -> ThreadList:
        return self.query_one("#thread-list", ThreadList)

    @property
    def chat(self) -> ChatLog:
        return self.query_one("#chat-log", ChatLog)

    @property
    def composer(self) -> Composer:
        return self.query_one("#composer", Composer)

    @property
    def run_status(self) -> RunStatus:
        return self.query_one("#run-status", RunStatus)

    def report(self, error: BaseException, doing: str, then: str = "") -> None:
        """Tell the user what failed and what to do (`then`, else the error's hint); never
        crash on a server error. A key the app knows never shows."""
        if isinstance(error, BackendError):
            text = f"{doing} failed: {error}"
            then = then or error.hint
            if isinstance(error, Unauthorized) and not isinstance(error, (LoginFailed, LoginRequired)):
                then += " Or press ctrl+o to connect with another key."
            if then:
                text += f"\n{then.strip()}"
        else:
            text = f"{doing} failed: {type(error).__name__}: {error}"
        self.app.log_error(text)
        self.notify(redact(clean(text)), severity="error", timeout=8, markup=False)

    def on_mount(self) -> None:
        self.query_one("#chat-header", Static).update(Content.styled("no thread open", "dim"))
        self.show_run_options()
        if self.app.backend is None:
            self.sidebar.show_note(self.app.starting_text)
            self.run_status.show("starting", self.app.starting_text)
        else:
            self.backend_ready()

    def backend_ready(self) -> None:
        self.run_status.show("idle", "")
        self.learn_graphs()
        self.show_connection()
        self.load_threads()
        self.set_interval(STATUS_POLL_SECONDS, self.poll_statuses)
        self.set_interval(HEALTH_SECONDS, self.check_health)

    # -- the connection ------------------------------------------------------------------------------

    def show_connection(self, detail: str = "") -> None:
        backend = self.app.backend
        where = backend.url.split("://", 1)[-1] if backend is not None else ""
        if self.online:
            content = Content.assemble(("● ", "$success"), (clean(where), "dim"))
        else:
            content = Content.assemble(("○ offline ", "bold $error"), (clean(detail), "dim"))
        self.query_one("#connection", Static).update(content)

    @work(exclusive=True, group="health", exit_on_error=False)
    async def check_health(self) -> None:
        """Notice a server that went away, retry with backoff, and resume when it is back."""
        backend = self.app.backend
        now = self.app.monotonic()
        if backend is None or now < self._next_check:
            return
        try:
            await backend.check()
        except Unauthorized:
            pass  # the server is there but refuses the key: the failed request said so
        except BackendError as error:
            self._backoff = min(MAX_BACKOFF_SECONDS, max(HEALTH_SECONDS, self._backoff * 2))
            self._next_check = now + self._backoff
            if self.online:
                self.online = False
                self.notify(
                    f"Lost the server: {error}. Retrying; your work is kept.", severity="error", timeout=10, markup=False
                )
            self.app.revive_embedded_server()
            self.show_connection(f"retrying every {self._backoff:.0f}s")
            return
        if not self.online:
            self.online, self._backoff, self._next_check = True, 0.0, 0.0
            self.show_connection()
            self.notify("The server is back.", timeout=4)
            self.resume_after_outage()

    def resume_after_outage(self) -> None:
        self.load_threads()
        if self._cut_run is not None:
            thread_id, run_id, last_event_id = self._cut_run
            self._cut_run = None
            if thread_id == self.thread_id:
                self.rejoin_run(thread_id, run_id, last_event_id)
                return
        if self.thread_id is not None and not self.run_in_progress:
            self.open_thread(self.thread_id, ask=False)

    @work(exclusive=True, group="run")
    async def rejoin_run(self, thread_id: str, run_id: str, last_event_id: str) -> None:
        """Follow a run whose stream was cut, from the last event read (the server replays
        what it sent meanwhile); the final state puts the reply right."""
        backend = self.app.backend
        assert backend is not None
        await self.chat.add_notice(Content.styled("reconnected: following the run again", "dim italic"))
        await self.stream_into_chat(
            backend.join_stream(thread_id, run_id, last_event_id or None), thread_id, "Rejoining the run"
        )

    # -- thread list ---------------------------------------------------------------------------

    @on(Input.Changed, "#thread-search")
    def search_changed(self, event: Input.Changed) -> None:
        self.filter = parse_filter(event.value)
        if self.filter.problems:
            self.notify("; ".join(self.filter.problems), severity="warning", timeout=4, markup=False)
        self.load_threads()

    @on(Input.Submitted, "#thread-search")
    def search_submitted(self) -> None:
        self.thread_list.focus()

    @work(exclusive=True, group="threads")
    async def load_threads(self, first: bool = False) -> None:
        """Load the first page for the current filter and sort (a new search cancels this);
        `first` highlights its first row (home, when that row had been dropped)."""
        backend = self.app.backend
        if backend is None:
            return
        sort_by, order, _ = self.sidebar.sort
        flt = self.filter
        try:
            count_task = asyncio.create_task(backend.count_threads(flt.query(sort_by, order, 1, 0)))
            # when the search fails too, its error is the one reported: this one is only read
            count_task.add_done_callback(lambda task: task.cancelled() or task.exception())
            shown, offset, exhausted = await self._fetch_filled(flt, 0, PAGE_SIZE)
            if self._screen_gone:
                return
            self.thread_list.set_threads(shown, exhausted=exhausted, end=offset)
            total = await count_task if backend.capabilities.count else None
        except BackendError as error:
            self.report(error, "Loading threads")
            if isinstance(error, Unauthorized):
                self.sidebar.show_note("the server refused the API key: ctrl+o to give another")
            return
        if self._screen_gone:
            return
        self._total = None if flt.is_local else total
        self._show_counts(flt)
        if self.thread_id is None and shown and self.thread_list.highlighted is None:
            self.thread_list.highlighted = 0  # shows the newest thread (its question waits for enter)
            if self.composer.has_focus and not self.composer.text:
                self.thread_list.focus()
        elif first and shown:
            self.thread_list.highlighted = 0
        elif self.thread_id is None and not shown and flt.is_empty:
            self.composer.focus()
            await self.welcome()

    async def welcome(self) -> None:
        """No thread on the server yet: say what to type, and where it goes."""
        target = self.app.assistant_of(None)
        lines: list[Content | str] = [
            Content.styled("Welcome to Threadbench.", "bold"),
            "Type a message below and press enter: it starts a new thread"
            + (f" on {clean(target)}." if target else "."),
        ]
        if self.app.settings.embedded and not (self.app.settings.graph or self.app.settings.config):
            lines.append(Content.assemble(
                "The demo agent answers these words: ",
                ("hello · clarify · approve · plan · research · long · think · markup", "bold"),
                " (several combine).",
            ))
        lines.append(Content.styled("n new thread with options · o run options · f1 every key · ctrl+p commands", "dim"))
        await self.chat.show_welcome(Content("\n").join(lines))

    async def _fetch_filled(
        self, flt: ThreadFilter, offset: int, want: int
    ) -> tuple[list[ThreadSummary], int, bool]:
        """Fetch pages from `offset` until `want` rows match the filter or the server runs out."""
        backend = self.app.backend
        assert backend is not None
        sort_by, order, _ = self.sidebar.sort
        shown: list[ThreadSummary] = []
        for _ in range(MAX_FILL_PAGES if flt.is_local else 1):
            page = await backend.search_threads(flt.query(sort_by, order, PAGE_SIZE, offset))
            offset += len(page)
            shown.extend(t for t in page if flt.matches(t))
            if len(page) < PAGE_SIZE:
                return shown, offset, True
            if len(shown) >= want:
                break
        return shown, offset, False

    async def _fetch_range(self, flt: ThreadFilter, start: int, end: int) -> list[ThreadSummary]:
        """The rows of server offsets `start` to `end` that match the filter."""
        backend = self.app.backend
        assert backend is not None
        sort_by, order, _ = self.sidebar.sort
        shown: list[ThreadSummary] = []
        for offset in range(start, end, PAGE_SIZE):
            page = await backend.search_threads(flt.query(sort_by, order, min(PAGE_SIZE, end - offset), offset))
            shown.extend(t for t in page if flt.matches(t))
        return shown

    def _show_counts(self, flt: ThreadFilter) -> None:
        """"N of M threads": N counts down to the last row held, M is the search's count."""
        self.sidebar.show_counts(self.thread_list.window.last_row_number, self._total, "filtered here" if flt.is_local else "")

    @work(exclusive=True, group="counts", exit_on_error=False)
    async def refresh_counts(self) -> None:
        """"N of M threads" after the app added a row itself (a thread it created): M again."""
        backend, flt = self.app.backend, self.filter
        if backend is not None and backend.capabilities.count and not flt.is_local:
            with contextlib.suppress(BackendError):  # outages are the connection indicator's to tell
                self._total = await backend.count_threads(flt.query(*self.sidebar.sort[:2], 1, 0))
        self._show_counts(flt)

    @on(ThreadList.NeedMore)
    def need_more(self) -> None:
        if not self._loading_more:
            self._loading_more = True
            self.load_more_threads()

    @work(exclusive=True, group="more-threads")
    async def load_more_threads(self) -> None:
        try:
            flt, start = self.filter, self.thread_list.window.end
            shown, offset, exhausted = await self._fetch_filled(flt, start, PAGE_SIZE)
            if flt is not self.filter or not self.thread_list.append_threads(
                shown, start=start, end=offset, exhausted=exhausted
            ):
                return  # the search, or the rows held, changed while this page was in flight
            self._show_counts(flt)
        except BackendError as error:
            self.report(error, "Loading more threads")
        finally:
            self._loading_more = False

    @on(ThreadList.NeedEarlier)
    def need_earlier(self) -> None:
        if not self._loading_earlier:
            self._loading_earlier = True
            self.load_earlier_threads()

    @work(exclusive=True, group="earlier-threads")
    async def load_earlier_threads(self) -> None:
        """Fetch again the rows above the list's window (dropped as the user went down)."""
        try:
            flt = self.filter
            while (chunk := self.thread_list.window.earlier()) is not None:
                rows = await self._fetch_range(flt, chunk.start, chunk.end)
                if flt is not self.filter or not self.thread_list.prepend_threads(rows, chunk):
                    return  # the search, or the rows held, changed while these were in flight
                if rows:
                    break  # else a local filter matched none of them: on to the chunk above
            self._show_counts(flt)
        except BackendError as error:
            self.report(error, "Loading earlier threads")
        finally:
            self._loading_earlier = False

    @on(ThreadList.NeedFirst)
    def need_first(self) -> None:
        self.load_threads(first=True)

    async def poll_statuses(self) -> None:
        """Keep statuses fresh while runs happen on other threads (one light request)."""
        backend = self.app.backend
        rows = self.thread_list.threads
        if backend is None or not rows or self.run_in_progress:
            return
        opens = self._opens
        try:
            fresh = await backend.search_threads(
                self.filter.query(*self.sidebar.sort[:2], min(len(rows), 100), self.thread_list.poll_offset)
            )
        except BackendError:
            return  # the connection indicator reports outages; polling stays quiet
        known = {t.thread_id: t for t in self.thread_list.threads}
        for thread in fresh:
            if thread.thread_id == self.thread_id and (opens != self._opens or self.run_in_progress):
                continue  # opened while the poll was out: its row is fresher than this answer
            held = known.get(thread.thread_id)
            if held is not None and (held.status != thread.status or held.title != thread.title):
                self.thread_list.update_thread(thread)
                if thread.thread_id == self.thread_id and thread.status == "busy":
                    self.open_thread(thread.thread_id, ask=False)  # a run started elsewhere: follow it

    # -- opening a thread ------------------------------------------------------------------------

    @on(ThreadList.Chosen)
    def thread_chosen(self, event: ThreadList.Chosen) -> None:
        """A highlighted thread opens; only enter (a deliberate choice) also asks its question."""
        ask = event.opened
        if event.thread_id != self.thread_id:
            self.open_thread(event.thread_id, ask)
        elif event.opened and not self.run_in_progress:
            self.open_thread(event.thread_id)  # enter on the open thread: its question or run, now
        if event.opened:
            self.composer.focus()

    def _save_draft(self) -> None:
        if self.thread_id is not None:
            text = self.composer.text
            if text.strip():
                self.drafts[self.thread_id] = text
            else:
                self.drafts.pop(self.thread_id, None)

    @work(exclusive=True, group="open")
    async def open_thread(self, thread_id: str, ask: bool = True) -> None:
        backend = self.app.backend
        if backend is None:
            return
        self.workers.cancel_group(self, "run")
        self._opens += 1
        if thread_id != self.thread_id:  # (the same thread again: what is being typed stays as it is)
            self._save_draft()
            if self.thread_id is not None or thread_id in self.drafts:
                self.composer.show_draft(self.drafts.get(thread_id, ""))
            # (else: text typed with no thread open, e.g. after its thread was deleted, stays)
        self.thread_id = thread_id
        try:  # the row's status may be stale: a run may have started since the list loaded
            summary, state = await asyncio.gather(backend.get_thread(thread_id), backend.get_state(thread_id))
        except NotFound as error:
            self.report(error, "Opening the thread", GONE)
            await self._forget_thread(thread_id)
            return
        except BackendError as error:
            self.report(error, "Opening the thread")
            return
        if self.thread_id != thread_id:
            return
        if not summary.title:  # a fresh copy has no values on its row yet, but its state does
            held = self.thread_list.thread(thread_id)
            summary.title = state.title or (held.title if held else "")
        self.thread_list.update_thread(summary)
        await self.show_state(state, summary)
        # after the chat is painted: a page of checkpoints can weigh more than the chat
        self.call_after_refresh(self.load_history, thread_id)
        self.call_after_refresh(self.load_graph, state)
        if summary is not None and summary.status == "busy" and backend.capabilities.join_stream:
            self.join_run(thread_id)
            return
        pending = detect_pending(state, summary.status if summary else None)
        self.run_status.end("waiting" if pending else "paused" if state.next else "idle", self._state_detail(state, pending))
        if pending and ask:
            self.ask_human(thread_id, pending)

    def _state_detail(self, state: ThreadState, pending: list[PendingInput] | None = None) -> str:
        if pending:
            return "the agent is waiting for your answer (enter or a to answer)"
        if state.next:
            return "paused before " + ", ".join(state.next) + ": nothing is asked (p replays, or send a message)"
        return ""

    async def show_state(self, state: ThreadState, summary: ThreadSummary | None = None) -> None:
        self.thread_state = state
        self.show_header(state, summary)
        await self.chat.show_messages(state.messages)
        self.query_one(Inspector).show_state(state)

    def show_header(self, state: ThreadState, summary: ThreadSummary | None) -> None:
        title = state.title or (summary.display_title if summary else state.thread_id)
        status = summary.status if summary else ""
        graph = (summary.graph_id if summary else "") or self.app.assistant_of(summary, state.thread_id)
        header = Content.assemble(
            (one_line(title, 60), "bold"),
            (" · " + status if status else "", "dim"),
            (" · " + clean(graph), "dim"),
            (f" · {len(state.messages)} messages", "dim"),
        )
        self.query_one("#chat-header", Static).update(header)
        self.show_run_options()

    # -- the inspector: history, graph, past views ---------------------------------------------------

    @property
    def inspector(self) -> Inspector:
        return self.query_one(Inspector)

    @work(exclusive=True, group="history", exit_on_error=False)
    async def load_history(self, thread_id: str) -> None:
        backend = self.app.backend
        if backend is None:
            return
        if not backend.capabilities.history:
            self.inspector.disable_timeline(backend.capabilities.reason or f"{backend.capabilities.name} keeps no checkpoint history.")
            return
        try:
            page = await backend.get_history(thread_id, limit=FIRST_HISTORY_PAGE)
        except BackendError as error:
            self.report(error, "Loading the checkpoint history")
            return
        if thread_id == self.thread_id:
            self.inspector.show_checkpoints(page, exhausted=len(page) < FIRST_HISTORY_PAGE)

    @on(Timeline.NeedMore)
    def history_need_more(self, event: Timeline.NeedMore) -> None:
        if self.thread_id is not None:
            self.load_more_history(self.thread_id, event.before_checkpoint_id)

    @work(exclusive=True, group="more-history")
    async def load_more_history(self, thread_id: str, before: str) -> None:
        backend = self.app.backend
        assert backend is not None
        try:
            page = await backend.get_history(thread_id, limit=HISTORY_PAGE, before=before)
        except BackendError as error:
            self.report(error, "Loading older checkpoints")
            return
        if thread_id == self.thread_id:
            self.inspector.append_checkpoints(page, exhausted=len(page) < HISTORY_PAGE)

    @work(exclusive=True, group="graph", exit_on_error=False)
    async def load_graph(self, state: ThreadState) -> None:
        backend = self.app.backend
        if backend is None:
            return
        if not backend.capabilities.graph:
            self.inspector.graph_view.show_note(f"{backend.capabilities.name} does not describe its graph.")
            return
        summary = self.thread_list.thread(state.thread_id) if state.thread_id else None
        assistant = self.app.assistant_of(summary, state.thread_id)
        if not assistant:
            self.inspector.graph_view.show_note(
                "No graph: nothing says which graph this thread runs on yet (its first run will, "
                "or pick one with o)."
            )
            return
        graph = self._graphs.get(assistant)
        if graph is None:
            try:
                graph = self._graphs[assistant] = await backend.get_graph(assistant, xray=True)
            except BackendError as error:
                self.inspector.graph_view.show_note(f"No graph: the server did not show graph {assistant}. {error}")
                return
        if not graph.nodes:
            self.inspector.graph_view.show_note(f"No graph: the server describes no nodes for {assistant}.")
            return
        self.inspector.show_graph(graph, state.next)

    @on(Timeline.Selected)
    async def checkpoint_selected(self, event: Timeline.Selected) -> None:
        """Show the conversation as it was at that checkpoint (or the live head again)."""
        if event.is_head:
            if self.thread_state is not None:
                await self.chat.show_messages(self.thread_state.messages)
            return
        checkpoint, capabilities = event.checkpoint, self.app.backend.capabilities  # type: ignore[union-attr]
        what = f"{len(checkpoint.messages)} messages"
        keys = "g: back to the live head · F: fork here · p: replay from here · e: edit and fork"
        if not capabilities.past_messages:
            what = f"{capabilities.name} keeps the messages of the newest checkpoint only"
            keys = "g: back to the live head"
        notice = Content.assemble(
            ("◷ past view ", "bold $warning"),
            (f"step {checkpoint.step} · {checkpoint.source} · {what}", "dim"),
            (f"   {keys}", "dim italic"),
        )
        await self.chat.show_messages(checkpoint.messages, notice=notice)

    def _timeline_ready(self) -> bool:
        backend = self.app.backend
        if backend is None or self.thread_id is None:
            return False
        if not backend.capabilities.history:
            self.notify(backend.capabilities.reason or "This server keeps no checkpoint history.", severity="warning")
            return False
        return True

    def action_older_checkpoint(self) -> None:
        if self._timeline_ready():
            self.inspector.active = "tab-timeline"
            self.inspector.timeline.select_older()

    def action_newer_checkpoint(self) -> None:
        if self._timeline_ready():
            self.inspector.active = "tab-timeline"
            self.inspector.timeline.select_newer()

    def action_live_head(self) -> None:
        if self._timeline_ready():
            self.inspector.timeline.select_head()
            self.inspector.show_live()

    def _past_checkpoint(self) -> ThreadState | None:
        """The checkpoint the user is looking at in the past view (None at the head)."""
        return self.inspector.timeline.selected if self.inspector.is_past_view else None

    @on(StateTree.EditRequested)
    def edit_requested(self, event: StateTree.EditRequested) -> None:
        self.edit_state(event.key)

    def action_edit_state(self) -> None:
        if self.app.backend is not None and self.thread_state is not None:
            self.edit_state(None)

    @work(group="modal")
    async def edit_state(self, key: str | None) -> None:
        """Edit the values (or one key) as JSON; in a past view, the edit forks from there."""
        backend = self.app.backend
        assert backend is not None
        thread_id, base = self.thread_id, self._past_checkpoint() or self.thread_state
        if thread_id is None or base is None:
            return
        fork_from = self._past_checkpoint()
        if fork_from is not None and not backend.capabilities.fork:
            self.notify(f"{backend.capabilities.name} cannot fork.", severity="warning")
            return
        graph = self._graphs.get(self.app.assistant_of(self.thread_list.thread(thread_id), thread_id))
        nodes = [node.id for node in graph.nodes if not node.id.startswith("__")] if graph else []
        values = {k: v for k, v in base.values.items() if k != "__interrupt__"}

        async def submit(new_values: dict, as_node: str | None) -> str | None:
            try:
                await backend.update_state(
                    thread_id, new_values, as_node=as_node, checkpoint_id=fork_from.checkpoint_id if fork_from else None
                )
            except BackendError as error:
                return sentence(error, error.hint)
            return None

        result = await self.app.push_screen_wait(
            EditStateScreen(values, submit, key=key, nodes=nodes, fork_from=fork_from)
        )
        if result is not None:
            self.notify("Forked: the new head is the edited checkpoint." if fork_from else "State updated.", timeout=3)
            self.inspector.show_live()
            self.open_thread(thread_id, ask=False)

    def _forks(self) -> bool:
        """True if the server can fork; else says so."""
        capabilities = self.app.backend.capabilities  # type: ignore[union-attr]
        if not capabilities.fork:
            self.notify(f"{capabilities.name} cannot fork, replay or resend from a past checkpoint.",
                        severity="warning", timeout=4)
        return capabilities.fork

    def action_fork(self) -> None:
        if not self._timeline_ready() or not self._forks():
            return
        checkpoint = self._past_checkpoint()
        if checkpoint is None:
            self.notify("Select an older checkpoint first ([ and ]).", severity="warning", timeout=3)
            return
        self.fork_at(checkpoint)

    @work(group="fork")
    async def fork_at(self, checkpoint: ThreadState) -> None:
        backend = self.app.backend
        assert backend is not None and self.thread_id is not None
        thread_id = self.thread_id
        try:
            await backend.update_state(thread_id, None, checkpoint_id=checkpoint.checkpoint_id)
        except BackendError as error:
            self.report(error, "Forking")
            return
        self.notify(f"Forked at step {checkpoint.step}: that checkpoint is the new head.", timeout=3)
        self.inspector.show_live()
        self.open_thread(thread_id, ask=False)

    def action_replay(self) -> None:
        if not self._timeline_ready() or self.run_in_progress or not self._forks():
            return
        checkpoint = self._past_checkpoint()
        if checkpoint is None:
            self.notify("Select an older checkpoint first ([ and ]).", severity="warning", timeout=3)
            return
        self.replay_from(checkpoint)

    @work(exclusive=True, group="run")
    async def replay_from(self, checkpoint: ThreadState) -> None:
        """Run again from a checkpoint (no new input): the graph continues from there."""
        backend = self.app.backend
        assert backend is not None and self.thread_id is not None
        thread_id = self.thread_id
        self.inspector.show_live()
        await self.chat.show_messages(
            checkpoint.messages, notice=Content.styled(f"replaying from step {checkpoint.step}", "dim italic")
        )
        await self.stream_into_chat(
            backend.stream_run(thread_id, self._run_request(thread_id, None, checkpoint_id=checkpoint.checkpoint_id)),
            thread_id,
            "Replaying",
        )
        self.load_history(thread_id)

    def action_edit_resend(self) -> None:
        if not self._timeline_ready() or self.run_in_progress or self.thread_state is None or not self._forks():
            return
        human = next((m for m in reversed(self.thread_state.messages) if m.type == "human" and not m.hidden), None)
        if human is None:
            self.notify("This thread has no message of yours to edit.", severity="warning")
            return
        self.edit_and_resend(human)

    @work(group="modal")
    async def edit_and_resend(self, human: ChatMessage) -> None:
        """Fork at the checkpoint before the last human message and run the edited one."""
        backend = self.app.backend
        assert backend is not None and self.thread_id is not None and self.thread_state is not None
        thread_id = self.thread_id
        checkpoints = self.inspector.timeline.checkpoints
        fork_point = fork_point_for_message(checkpoints, human.id, self.thread_state.checkpoint_id or None)
        if fork_point is None:
            self.notify("The checkpoint before that message is not loaded: scroll the timeline further back.", severity="warning")
            return
        text = await self.app.push_screen_wait(PromptScreen("Edit and resend your message", human.text))
        if text is None:
            return
        self.resend(thread_id, fork_point, text)

    @work(exclusive=True, group="run")
    async def resend(self, thread_id: str, fork_point: ThreadState, text: str) -> None:
        backend = self.app.backend
        assert backend is not None
        await self.chat.show_messages(fork_point.messages)
        message = ChatMessage(id=str(uuid.uuid4()), type="human", text=text)
        request = self._run_request(
            thread_id,
            {"messages": [{"type": "human", "content": text, "id": message.id}]},
            checkpoint_id=fork_point.checkpoint_id,
        )
        await self.stream_into_chat(backend.stream_run(thread_id, request), thread_id, "Resending", echo=message)
        self.load_history(thread_id)

    # -- runs ----------------------------------------------------------------------------------------

    def _run_request(self, thread_id: str, input: dict | None, **kwargs) -> RunRequest:
        options = self.app.run_options
        return RunRequest(
            assistant_id=self.app.assistant_of(self.thread_list.thread(thread_id), thread_id),
            input=input,
            context=options.context(),
            configurable=options.configurable(),
            stream_modes=self.inspector.event_log.selected_modes(),
            multitask_strategy="reject",
            **kwargs,
        )

    @property
    def run_in_progress(self) -> bool:
        return any(w.group == "run" and w.is_running for w in self.workers)

    @on(Composer.Submitted)
    def composer_submitted(self, event: Composer.Submitted) -> None:
        if self.app.backend is None:
            self.notify("The server is not ready yet; your message is kept.", severity="warning")
            return
        if self.run_in_progress:
            self.notify("A run is in progress: wait for it or cancel it (ctrl+g). Your message is kept.", severity="warning")
            return
        self.send_message(event.text)

    @work(exclusive=True, group="run")
    async def send_message(self, text: str) -> None:
        backend = self.app.backend
        assert backend is not None
        thread_id = self.thread_id
        target = await self.run_target(thread_id)
        if target is None:
            return  # the user would not say which graph: the message stays in the composer
        try:
            if thread_id is None:
                thread_id = await self._create_for_message(target)
        except BackendError as error:
            self.report(error, "Creating a thread")
            return
        message_id = str(uuid.uuid4())
        request = self._run_request(thread_id, {"messages": [{"type": "human", "content": text, "id": message_id}]})
        human = ChatMessage(id=message_id, type="human", text=text)
        if await self.stream_into_chat(
            backend.stream_run(thread_id, request), thread_id, "Sending", echo=human
        ):
            self.drafts.pop(thread_id, None)
        elif (refusal := self._wrong_graph) is not None:
            self._wrong_graph = None
            if await self._repick_graph(thread_id, refusal):
                self.send_message(text)
        elif await self._is_gone(thread_id):
            self.notify(
                f"The thread is no longer on the server. {GONE} "
                "Your message is kept: press enter to send it in a new thread.",
                severity="warning", timeout=10, markup=False,
            )
            await self._forget_thread(thread_id)

    async def run_target(self, thread_id: str | None) -> str | None:
        """The assistant or graph a new run on this thread (None: a new thread) goes to;
        asks the user when the server runs several graphs and nothing says which."""
        backend = self.app.backend
        assert backend is not None
        summary = self.thread_list.thread(thread_id) if thread_id else None
        target = self.app.assistant_of(summary, thread_id)
        if target or not backend.capabilities.assistants:
            return target
        if not self.app.graphs:
            await self.learn_graphs().wait()
            if target := self.app.assistant_of(summary, thread_id):
                return target
        reason = (
            f"The server runs {len(self.app.graphs)} graphs and this thread has not run yet."
            if self.app.graphs_complete
            else "The server hides its assistants; these graphs were seen on its threads."
            if self.app.graphs else "The server lists no graphs (its assistants are hidden)."
        )
        target = await self.app.push_screen_wait(PickGraphScreen(self.app.graphs, reason))
        if target and thread_id:
            self.app.thread_targets[thread_id] = target
        return target

    async def _repick_graph(self, thread_id: str, refusal: BackendError) -> bool:
        """The server refused the run's graph: ask for another (its refusal lists its
        graphs); True if the user picked one for this thread."""
        if graphs := graphs_in_refusal(refusal.message):
            self.app.graphs, self.app.graphs_complete = graphs, True
        self.app.thread_targets.pop(thread_id, None)
        target = await self.app.push_screen_wait(PickGraphScreen(self.app.graphs, refusal.message))
        if not target:
            self.notify("Nothing was sent; your message is kept.", timeout=4)
            return False
        if self.app.run_options.assistant_id:  # the pick that the server refused
            self.app.run_options.assistant_id = ""
            self.show_run_options()
        self.app.thread_targets[thread_id] = target
        return True

    async def _create_for_message(self, target: str) -> str:
        """A new thread for the first message (no thread open); returns its id."""
        backend = self.app.backend
        assert backend is not None
        graph_id = target if target in self.app.graphs else None
        summary = await backend.create_thread(graph_id=graph_id)
        thread_id = summary.thread_id
        if target:
            self.app.thread_targets[thread_id] = target
        self.thread_id = thread_id  # first: the row highlighted next is then already open
        self._insert_thread(summary, open_it=False)
        await self.chat.show_messages([])
        self.show_header(ThreadState(thread_id=thread_id), summary)
        return thread_id

    @work(exclusive=True, group="graphs", exit_on_error=False)
    async def learn_graphs(self) -> None:
        """What graphs the server runs (for new threads, the pickers and the options)."""
        backend = self.app.backend
        if backend is None or not backend.capabilities.assistants:
            return
        try:
            graphs, complete = await server_graphs(backend)
        except BackendError as error:
            self.app.log_error(f"Listing the server's graphs failed: {error}")
            return
        if graphs and not self._screen_gone and not self.app.graphs_complete:
            self.app.graphs, self.app.graphs_complete = graphs, complete
            self.show_run_options()
            if self.thread_id is None and self.chat.query(".chat-welcome"):
                await self.welcome()  # it can now say where a first message goes

    @work(exclusive=True, group="run")
    async def join_run(self, thread_id: str) -> None:
        backend = self.app.backend
        assert backend is not None
        await self.chat.add_notice(Content.styled("joined the run in progress", "dim italic"))
        await self.stream_into_chat(backend.join_stream(thread_id), thread_id, "Joining the run")

    async def stream_into_chat(
        self, events, thread_id: str, doing: str, echo: ChatMessage | None = None
    ) -> bool:
        """Show a run's events in the chat; False if the server refused the run.

        `echo` (the human message being sent) shows at once; if the server refuses the run
        it is taken back out and its text returns to the composer.
        """
        chat, status, events_log = self.chat, self.run_status, self.inspector.event_log
        status.begin()
        events_log.clear()
        accepted = echo is None
        outcome, detail, last_event_id = "idle", "", ""
        if echo is not None:
            await chat.add_echo(echo)
            self.composer.clear()

        async def apply(batch: list[RunEvent], count: int) -> None:
            nonlocal accepted, outcome, detail, last_event_id
            if self._screen_gone:
                return
            accepted = True
            node = ""
            for event in batch:
                if event.kind == "metadata":
                    self.run_id = event.run_id or self.run_id
                elif event.kind == "interrupt":
                    outcome, detail = "waiting", "the agent is waiting for your answer"
                elif event.kind == "error":
                    outcome, detail = "error", event.text or "the run failed"
                node = event.node or node
                last_event_id = event.event_id or last_event_id
            status.count(count, node)
            events_log.add_events(batch, count)
            try:
                await chat.apply_events(batch)
            except Exception:
                if self._screen_gone:  # taken down while it drew: the app is closing
                    return
                raise

        try:
            with self.app.collector.busy():
                await pump(events, apply)
        except BackendError as error:
            if not accepted and echo is not None and refused_assistant(error.message):
                self._wrong_graph = error  # the sender asks for another graph instead
            else:
                self.report(error, doing)
            if not accepted and echo is not None:
                await chat.remove_message(echo.id)
                if not self.composer.text.strip():
                    self.composer.show_draft(echo.text)
                status.end("error", str(error))
                return False
            outcome, detail = "error", str(error)
            if isinstance(error, (Unreachable, ServerError)) and self.run_id:
                self._cut_run = (thread_id, self.run_id, last_event_id)
                outcome, detail = "offline", "the stream was cut; it is rejoined when the server is back"
        except asyncio.CancelledError:
            status.end("idle")
            raise
        final = None
        if outcome != "offline":  # (else the reply stays open: the rejoined run continues it)
            final = await self._final_state(thread_id)
            await chat.finish_run(final.messages if final is not None else None)
        if outcome == "error":
            await chat.add_notice(
                Content.assemble(("run failed: ", "bold $error"), clean(detail)), "chat-notice -error"
            )
        status.end(outcome, detail)
        self.run_id = None
        self.refresh_thread_row(thread_id, final)
        if thread_id == self.thread_id:
            self.load_history(thread_id)
        return True

    async def _final_state(self, thread_id: str) -> ThreadState | None:
        """The thread's state once a run ended: what the chat must agree with."""
        try:
            return await self.app.backend.get_state(thread_id)  # type: ignore[union-attr]
        except BackendError:
            return None

    @work(group="row", exit_on_error=False)
    async def refresh_thread_row(
        self, thread_id: str, state: ThreadState | None = None, ask: bool = True
    ) -> None:
        """After a run: the row's status and title, the header and the inspector; and if
        the agent now waits for a person, ask them."""
        backend = self.app.backend
        if backend is None:
            return
        try:
            thread = await backend.get_thread(thread_id)
            state = state or await backend.get_state(thread_id)
        except BackendError:
            return
        self.thread_list.update_thread(thread)
        if thread_id == self.thread_id:
            self.thread_state = state
            self.show_header(state, thread)
            self.query_one(Inspector).show_state(state)
            if ask and (pending := detect_pending(state)):
                self.run_status.end("waiting", self._state_detail(state, pending))
                self.ask_human(thread_id, pending)

    # -- answering the agent -------------------------------------------------------------------

    @work(group="modal", exclusive=True)
    async def ask_human(self, thread_id: str, pending: list[PendingInput]) -> None:
        """Show the agent's question; the answer's run streams into the chat."""
        backend = self.app.backend
        if backend is None or thread_id != self.thread_id or not pending:
            return
        summary = self.thread_list.thread(thread_id)
        submit = answer_submitter(
            backend,
            thread_id,
            lambda events: self.stream_answer(events, thread_id),
            assistant_id=thread_graph(summary) or self.app.assistant_of(summary, thread_id),
            context=self.app.run_options.context(),
        )
        title = summary.display_title if summary else thread_id
        position = (1, len(pending)) if len(pending) > 1 else None
        answer = await self.app.push_screen_wait(
            HumanInputScreen(pending[0], submit=submit, thread_title=title, position=position)
        )
        if answer is None:
            self.thread_list.mark_waiting(thread_id, True)
            self.run_status.end("waiting", "the agent is waiting for your answer (a to answer)")

    @work(exclusive=True, group="run")
    async def stream_answer(self, events, thread_id: str) -> None:
        self.thread_list.mark_waiting(thread_id, False)
        await self.stream_into_chat(events, thread_id, "Answering")

    def _pending(self) -> list[PendingInput]:
        if self.thread_id is None or self.thread_state is None:
            return []
        summary = self.thread_list.thread(self.thread_id)
        return detect_pending(self.thread_state, summary.status if summary else None)

    def action_answer(self) -> None:
        if self.thread_id is None:
            self.notify("Open a thread first.", severity="warning", timeout=2)
            return
        if not (pending := self._pending()):
            state = self.thread_state
            paused = f" It is paused before {', '.join(state.next)}: nothing is asked." if state and state.next else ""
            self.notify(f"The agent is not waiting for an answer on this thread.{paused}", timeout=4, markup=False)
            return
        self.ask_human(self.thread_id, pending)

    def action_inbox(self) -> None:
        if self.app.backend is not None:
            self.open_inbox()

    @work(group="modal")
    async def open_inbox(self) -> None:
        backend = self.app.backend
        assert backend is not None
        thread_id = await self.app.push_screen_wait(
            InboxScreen(
                backend,
                assistant_of=lambda thread: thread_graph(thread) or self.app.assistant_of(thread),
                context=self.app.run_options.context(),
                on_answered=lambda tid: self.refresh_thread_row(tid, ask=False),
            )
        )
        if thread_id:
            self.open_thread(thread_id)

    def action_cancel_run(self) -> None:
        row = self.thread_list.thread(self.thread_id) if self.thread_id else None
        busy = self.run_in_progress or (row is not None and row.status == "busy")
        if not busy or self.thread_id is None:
            self.notify("No run in progress.", timeout=2)
            return
        self.cancel_run(self.thread_id, self.run_id)

    @work(group="cancel")
    async def cancel_run(self, thread_id: str, run_id: str | None) -> None:
        backend = self.app.backend
        assert backend is not None
        action = await self.app.push_screen_wait(CancelRunScreen())
        if action is None:
            return
        try:
            run_id = run_id or await backend.active_run(thread_id)
            if run_id is None:
                self.notify("The run has already finished.", timeout=3)
                return
            await backend.cancel_run(thread_id, run_id, action)
        except BackendError as error:
            self.report(error, "Cancelling the run")
            return
        self.notify(f"Run cancelled ({action}).", timeout=3)
        if action == "rollback" and thread_id == self.thread_id:
            self.open_thread(thread_id, ask=False)

    # -- actions -------------------------------------------------------------------------------------

    def action_focus_search(self) -> None:
        self.query_one("#thread-search", Input).focus()

    def action_focus_composer(self) -> None:
        self.composer.focus()

    def action_focus_threads(self) -> None:
        self.thread_list.focus()

    def action_cycle_sort(self) -> None:
        backend = self.app.backend
        if backend is not None and not backend.capabilities.sort:
            self.notify(f"{backend.capabilities.name} cannot sort threads: they are listed in its own order.",
                        severity="warning", timeout=4)
            return
        self.sidebar.cycle_sort()
        self.load_threads()

    def action_refresh(self) -> None:
        self.load_threads()
        if self.thread_id is not None:
            self.open_thread(self.thread_id)

    def show_run_options(self) -> None:
        options = self.app.run_options
        summary = self.thread_list.thread(self.thread_id) if self.thread_id else None
        target = self.app.assistant_of(summary, self.thread_id)
        self.query_one("#run-options", Static).update(
            Content.assemble(
                ("assistant ", "dim"),
                (clean(target or "?"), "bold"),
                (self._target_note(summary, target), "dim"),
                ("  options ", "dim"),
                clean(options.summary()),
                (f"  as {options.send_as}" if options.send_as != "context" else "", "dim"),
                ("  (o to change)", "dim italic"),
            )
        )

    def _target_note(self, summary: ThreadSummary | None, target: str) -> str:
        """Why runs go to `target` (nothing to say when the user picked it)."""
        if self.app.run_options.assistant_id:
            return ""
        if not target:
            return " (asked at the first send)"
        own = thread_graph(summary) or self.app.thread_targets.get(self.thread_id or "")
        return " (the thread's)" if own else " (the server's only graph)"

    def action_run_options(self) -> None:
        if self.app.backend is not None:
            self.edit_run_options()

    @work(group="modal")
    async def edit_run_options(self) -> None:
        backend = self.app.backend
        assert backend is not None
        assistants: list = []
        schema: dict = {}
        target = self.app.assistant_of(self.thread_list.thread(self.thread_id) if self.thread_id else None, self.thread_id)
        try:
            if backend.capabilities.assistants:
                assistants = await backend.list_assistants()
            schemas = await backend.get_schemas(target) if target else {}
            schema = schemas.get("context_schema") or (
                (schemas.get("config_schema") or {}).get("properties", {}).get("configurable") or {}
            )
        except BackendError as error:
            self.report(error, "Reading the assistant's options")
        options = await self.app.push_screen_wait(
            RunOptionsScreen(self.app.run_options, fields_from_schema(schema), assistants, self.app.graphs)
        )
        if options is not None:
            self.app.run_options = options
            self.show_run_options()

    # -- extras of servers that have them (10xGraph) ---------------------------------------------------

    def _can(self, capability: type, what: str) -> bool:
        backend = self.app.backend
        if backend is None or self.thread_id is None:
            self.notify("Open a thread first.", severity="warning", timeout=2)
            return False
        if not isinstance(backend, capability):
            self.notify(f"{backend.capabilities.name} cannot {what}.", severity="warning", timeout=3)
            return False
        return True

    def action_clear_state(self) -> None:
        if self._can(ClearsState, "clear a thread's state"):
            self.clear_state(self.thread_id)  # type: ignore[arg-type]

    @work(group="modal")
    async def clear_state(self, thread_id: str) -> None:
        backend = self.app.backend
        if not isinstance(backend, ClearsState):
            return
        question = Content.assemble("Clear the state of this thread?\n", ("Its conversation and values are removed; the thread stays.", "dim"))
        if not await self.app.push_screen_wait(ConfirmScreen(question, "Clear")):
            return
        try:
            await backend.clear_state(thread_id)
        except BackendError as error:
            self.report(error, "Clearing the state")
            return
        self.notify("State cleared.", timeout=2)
        self.open_thread(thread_id, ask=False)

    def action_message_log(self) -> None:
        if self._can(KeepsMessageLog, "keep a message log apart from the state"):
            self.message_log(self.thread_id)  # type: ignore[arg-type]

    @work(group="modal")
    async def message_log(self, thread_id: str) -> None:
        backend = self.app.backend
        if isinstance(backend, KeepsMessageLog) and await self.app.push_screen_wait(MessageLogScreen(backend, thread_id)):
            self.open_thread(thread_id, ask=False)

    def action_new_thread(self) -> None:
        if self.app.backend is None:
            return
        self.new_thread()

    @work(group="modal")
    async def new_thread(self) -> None:
        backend = self.app.backend
        assert backend is not None
        try:
            assistants = await backend.list_assistants() if backend.capabilities.assistants else []
        except BackendError as error:
            self.report(error, "Listing assistants")
            assistants = []
        created: list[ThreadSummary] = []

        async def submit(request: NewThreadRequest) -> str | None:
            """Create it; on a refusal the dialog stays open with what was typed and why."""
            try:
                created.append(await backend.create_thread(
                    thread_id=request.thread_id, metadata=request.metadata, graph_id=request.graph_id
                ))
            except BackendError as error:
                self.app.log_error(f"Creating the thread failed: {error}")
                if isinstance(error, Conflict):
                    return sentence(error, "Change the id, or leave it empty for a new one.")
                return sentence(error, error.hint)
            return None

        request = await self.app.push_screen_wait(NewThreadScreen(
            assistants, submit, self.app.assistant_of(None), graphs=self.app.graphs,
            id_is_uuid=backend.capabilities.create_thread,
        ))
        if request is None or not created:
            return
        summary = created[0]
        if request.assistant_id:
            self.app.thread_targets[summary.thread_id] = request.assistant_id
        self._insert_thread(summary)
        self.notify("Thread created.", timeout=2)

    def _insert_thread(self, summary: ThreadSummary, *, open_it: bool = True) -> None:
        """A thread made here joins the list at the top, if the search would list it; opened."""
        if not self.filter.admits(summary):
            self.notify("The new thread does not match the search, so the list does not show it.", timeout=4)
            if open_it:
                self.open_thread(summary.thread_id, ask=False)
            return
        self.workers.cancel_group(self, "threads")  # a page in flight must not drop this row
        rows = [summary, *(t for t in self.thread_list.threads if t.thread_id != summary.thread_id)]
        self.thread_list.set_threads(rows, exhausted=self.thread_list.exhausted)
        # Highlighting posts Chosen(summary), which opens it (thread_chosen), in order.
        self.thread_list.highlighted = 0
        self.refresh_counts()

    def _selected(self) -> ThreadSummary | None:
        thread_id = self.thread_list.highlighted_thread_id
        if thread_id is None:
            self.notify("Select a thread first.", severity="warning", timeout=2)
            return None
        return self.thread_list.thread(thread_id)

    def action_copy_thread(self) -> None:
        backend, thread = self.app.backend, self._selected()
        if backend is None or thread is None:
            return
        if not backend.capabilities.copy_thread:
            self.notify(f"{backend.capabilities.name} cannot copy threads.", severity="warning")
            return
        self.copy_thread(thread.thread_id)

    @work(group="copy")
    async def copy_thread(self, thread_id: str) -> None:
        backend = self.app.backend
        assert backend is not None
        try:
            copy = await backend.copy_thread(thread_id)
        except BackendError as error:
            self.report(error, "Copying the thread")
            return
        original = self.thread_list.thread(thread_id)
        if original is not None and not copy.title:
            copy.title = original.title
        self._insert_thread(copy)
        self.notify("Thread copied (with its history).", timeout=3)

    def action_rename_thread(self) -> None:
        if self.app.backend is not None and (thread := self._selected()) is not None:
            self.rename_thread(thread)

    @work(group="modal")
    async def rename_thread(self, thread: ThreadSummary) -> None:
        backend = self.app.backend
        assert backend is not None
        title = await self.app.push_screen_wait(
            PromptScreen("Rename thread", thread.title, "a title for this thread")
        )
        if title is None:
            return
        try:
            where = await self._write_title(thread, title)
        except BackendError as error:
            self.report(error, "Renaming the thread")
            return
        fresh = await self._fetch_thread(thread.thread_id)
        if fresh is not None:
            if where == "metadata":
                fresh.title = title
            self.thread_list.update_thread(fresh)
        if thread.thread_id == self.thread_id:
            self.open_thread(thread.thread_id)
        self.notify(f"Renamed (saved in the thread's {where}).", timeout=3)

    async def _write_title(self, thread: ThreadSummary, title: str) -> str:
        """DeerFlow keeps the title in state values: write it there if the graph has that channel."""
        backend = self.app.backend
        assert backend is not None
        if thread.has_title_channel or await self._graph_has_title(thread):
            try:
                await backend.update_state(thread.thread_id, {"title": title})
                return "state"
            except BackendError:
                if not backend.capabilities.metadata:
                    raise
        await backend.update_metadata(thread.thread_id, {"title": title})
        return "metadata"

    async def _graph_has_title(self, thread: ThreadSummary) -> bool:
        backend = self.app.backend
        assert backend is not None
        if not (assistant := self.app.assistant_of(thread)):
            return False
        try:
            schemas = await backend.get_schemas(assistant)
        except BackendError:
            return False
        properties = (schemas.get("state_schema") or {}).get("properties") or {}
        return "title" in properties

    async def _fetch_thread(self, thread_id: str) -> ThreadSummary | None:
        backend = self.app.backend
        assert backend is not None
        try:
            return await backend.get_thread(thread_id)
        except BackendError:
            return None

    def action_delete_thread(self) -> None:
        if self.app.backend is not None and (thread := self._selected()) is not None:
            self.delete_thread(thread)

    @work(group="modal")
    async def delete_thread(self, thread: ThreadSummary) -> None:
        backend = self.app.backend
        assert backend is not None
        question = Content.assemble(
            "Delete the thread ",
            (one_line(thread.display_title, 50), "bold"),
            ("\n" + thread.thread_id, "dim"),
            "\nand all its checkpoints? This cannot be undone.",
        )
        if not await self.app.push_screen_wait(ConfirmScreen(question)):
            return
        try:
            await backend.delete_thread(thread.thread_id)
        except BackendError as error:
            self.report(error, "Deleting the thread")
            return
        self.drafts.pop(thread.thread_id, None)
        await self._forget_thread(thread.thread_id)
        self.notify("Thread deleted.", timeout=2)

    async def _is_gone(self, thread_id: str) -> bool:
        """True if the server says it has no such thread (not when it cannot say)."""
        try:
            await self.app.backend.get_thread(thread_id)  # type: ignore[union-attr]
        except NotFound:
            return True
        except BackendError:
            pass
        return False

    async def _forget_thread(self, thread_id: str) -> None:
        """Drop a thread the server no longer has: its row, and the chat if it is open.
        The composer keeps its text."""
        self.thread_list.remove_thread(thread_id)
        if self.thread_id == thread_id:
            for group in ("history", "graph", "row"):  # their answers are about the thread gone
                self.workers.cancel_group(self, group)
            self.thread_id = None
            self.thread_state = None
            await self.chat.show_messages([])
            self.query_one("#chat-header", Static).update(Content.styled("no thread open", "dim"))
            self.inspector.clear()
            self.run_status.end("idle")
            self.show_run_options()
