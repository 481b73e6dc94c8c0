"""The thread browser (#sidebar): the search box (#thread-search), counts and sort, and the
thread list; it owns the search, paging, sorting and status polling, and (in its base
ThreadActions, thread_actions.py) the thread operations (new, copy, send, rename, delete).

It reads which thread the conversation has open through `follow()` (set by the screen) and
tells the screen what the conversation should do with Messages: NothingListed (the server has
no thread: welcome the user), FirstListed (the newest row was highlighted), Busy (the open
thread runs elsewhere) and, from its base, Made, Renamed and Deleted. Choosing a row posts
ThreadList.Chosen.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from ...backends.base import BackendError, TellsAsking, Unauthorized
from ...models import ThreadSummary
from ...search_index import ConversationSearch
from ...thread_filter import ThreadFilter, parse_filter
from ..pane_layout import CLOSE_OVER
from ..report import gone, report
from ..typed_keys import typed_keys
from ..widgets.safe_input import SafeInput
from ..widgets.thread_list import ThreadList
from ..workers import work
from .open_thread import OpenThread
from .thread_actions import ThreadActions

SORTS = [
    ("updated_at", "desc", "updated ↓"),
    ("updated_at", "asc", "updated ↑"),
    ("created_at", "desc", "created ↓"),
    ("created_at", "asc", "created ↑"),
]
PAGE_SIZE = 50
MAX_FILL_PAGES = 20
"""With a local filter (free text), fetch at most this many pages to fill the screen."""
MAX_TEXT_HITS = 1000
"""Threads a search inside conversations lists at most (the best matches)."""
STATUS_POLL_SECONDS = 5.0

if TYPE_CHECKING:
    from ..app import ThreadbenchApp


class ThreadSidebar(ThreadActions):
    app: ThreadbenchApp

    @dataclass
    class NothingListed(Message):
        """No thread open, none on the server (no search): the conversation welcomes."""

    @dataclass
    class FirstListed(Message):
        """No thread was open: the newest row was highlighted (and opens)."""

    @dataclass
    class Busy(Message):
        """A run started elsewhere on the open thread: follow it."""

        thread_id: str

    @dataclass
    class SearchChosen(Message):
        """Enter in the search box: the first match opens and the composer takes what is typed
        next (the keys typed behind enter are held until the screen releases them)."""

        thread_id: str

    SCREEN_KEYS: ClassVar[list[Binding]] = [
        Binding("slash", "focus_search", "Search", id="main.search", tooltip="Search threads"),
        Binding(
            "s",
            "cycle_sort",
            "Sort",
            show=False,
            id="main.sort",
            tooltip="Sort the threads (updated or created, either way)",
        ),
        Binding("escape", "focus_threads", "Threads", show=False, id="main.threads", tooltip="Back to the thread list"),
    ]
    """The keys of the main screen this region acts on (main_keys.py binds them on the screen)."""

    BINDINGS = [
        Binding(
            "down",
            "focus_threads",
            "To the matches",
            show=False,
            id="search.matches",
            tooltip="From the search box to the matches (enter opens the first)",
        ),
        CLOSE_OVER,
    ]
    """Down in the search box goes to the list (the list takes its own down); escape closes the
    pane where it lies over the chat."""

    def __init__(self, clock=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._clock = clock
        self.sort_index = 0
        self.filter: ThreadFilter = ThreadFilter()
        self._open: OpenThread | None = None
        self._loading_more = False
        self._loading_earlier = False
        self._total: int | None = None
        """The server's count of threads for the current search (None: unknown, or filtered here)."""
        self._text_search: ConversationSearch | None = None

    def compose(self) -> ComposeResult:
        yield SafeInput(
            placeholder='/ search  status:interrupted  key=value  graph:agent  id:3f2a  "words said"',
            id="thread-search",
            select_on_focus=False,
        )
        yield Static(id="thread-counts")
        yield ThreadList(clock=self._clock, id="thread-list")

    # -- what the screen calls -----------------------------------------------------------------

    def follow(self, conversation: OpenThread) -> None:
        self._open = conversation

    def start(self) -> None:
        """The backend is ready: list the threads and keep their statuses fresh."""
        self.load_threads()
        self.set_interval(STATUS_POLL_SECONDS, self.poll_statuses)

    @property
    def thread_list(self) -> ThreadList:
        return self.query_one("#thread-list", ThreadList)

    def thread(self, thread_id: str) -> ThreadSummary | None:
        return self.thread_list.thread(thread_id)

    def update_thread(self, thread: ThreadSummary) -> None:
        """A row's fresh copy: drawn again, and moved where the sort puts it when what the list
        is sorted by changed (the open thread ran: under "updated ↓" it goes to the top). A row
        whose place is below the rows held stays where it is (it is the open thread's)."""
        threads = self.thread_list
        held = threads.thread(thread.thread_id)
        threads.update_thread(thread)
        field = self.sort[0]
        if held is None or getattr(held, field) == getattr(thread, field):
            return
        others = [row for row in threads.threads if row.thread_id != thread.thread_id]
        place = self._place_among(thread, others)
        if place is not None and place != threads.index_of(thread.thread_id):
            threads.move_thread(thread.thread_id, place)

    def _place_among(self, thread: ThreadSummary, rows: list[ThreadSummary]) -> int | None:
        """Where the sort puts `thread` among `rows` (held in that sort); None when its place
        is below them, where the pages not yet loaded are."""
        field, order, _ = self.sort
        value = getattr(thread, field)
        if value is not None:
            for index, row in enumerate(rows):
                other = getattr(row, field)
                if other is not None and (value > other if order == "desc" else value < other):
                    return index
        return len(rows) if self.thread_list.exhausted else None

    def mark_waiting(self, thread_id: str, waiting: bool) -> None:
        self.thread_list.mark_waiting(thread_id, waiting)

    def remove_thread(self, thread_id: str) -> None:
        """A thread the server no longer has: its row goes, and the count follows."""
        if self.thread_list.remove_thread(thread_id):
            if self._total:
                self._total -= 1  # said at once; the server's count follows
            self.refresh_counts()

    @property
    def sort(self) -> tuple[str, str, str]:
        return SORTS[self.sort_index]

    @property
    def loading_more(self) -> bool:
        """A page below the list's window is being fetched."""
        return self._loading_more

    @property
    def loading_earlier(self) -> bool:
        """Rows above the list's window (dropped as the user went down) are being fetched again."""
        return self._loading_earlier

    def show_counts(self, shown: int, total: int | None, note: str = "") -> None:
        """ "N of M threads"; "N threads" when the total is not known."""
        last = total if total is not None else shown
        noun = "thread" if last == 1 else "threads"
        counted = f"{shown:,} of {total:,} {noun}" if total is not None else f"{shown:,} {noun}"
        parts: list = [(counted, "bold" if total else "dim")]
        parts.append(("  sort " + self.sort[2], "dim"))
        if note:
            parts.append(("  " + note, "$warning"))
        self.query_one("#thread-counts", Static).update(Content.assemble(*parts))

    def show_note(self, note: str) -> None:
        self.query_one("#thread-counts", Static).update(Content.styled(note, "dim italic"))

    @property
    def _open_thread_id(self) -> str | None:
        return self._open.thread_id if self._open is not None else None

    # -- its keys ------------------------------------------------------------------------------

    def action_focus_search(self) -> None:
        self.query_one("#thread-search", Input).focus()

    def action_focus_threads(self) -> None:
        self.thread_list.focus()

    def action_cycle_sort(self) -> None:
        backend = self.app.session.backend
        if backend is not None and not backend.capabilities.sort:
            self.notify(
                f"{backend.capabilities.name} cannot sort threads: they are listed in its own order.",
                severity="warning",
                timeout=4,
            )
            return
        self.sort_index = (self.sort_index + 1) % len(SORTS)
        self.load_threads()

    # -- search and pages ------------------------------------------------------------------------

    @on(Input.Changed, "#thread-search")
    def search_changed(self, event: Input.Changed) -> None:
        self.filter = parse_filter(event.value)
        if self.filter.problems:
            self.notify("; ".join(self.filter.problems), severity="warning", timeout=4, markup=False)
        self.load_threads()

    @on(Input.Submitted, "#thread-search")
    def search_submitted(self) -> None:
        """Enter: open the first match and write in it, as enter in a picker goes to what it
        found. The keys typed behind enter wait for the search's answer (they are the
        composer's, a draft, never the list's one-letter commands)."""
        typed_keys(self).hold()
        self._open_first_match()

    @work(exclusive=True, group="search-enter", exit_on_error=False)
    async def _open_first_match(self) -> None:
        chosen = False
        try:
            while running := [w for w in self.workers if w.node is self and w.group == "threads" and not w.is_finished]:
                with contextlib.suppress(Exception):  # (cancelled by a newer search: that one is awaited next)
                    await running[0].wait()
            rows = self.thread_list.threads
            if gone(self):
                return
            if not rows:
                self.notify("No thread matches the search: change it, or escape to the list.", timeout=3)
                return
            self.post_message(self.SearchChosen(rows[0].thread_id))
            chosen = True
        finally:
            if not chosen:  # (else the screen releases them once the composer has the focus)
                typed_keys(self).release()

    @work(exclusive=True, group="threads")
    async def load_threads(self, first: bool = False) -> None:
        """Load the first page for the current filter and sort (a new search cancels this);
        `first` highlights its first row (home, when that row had been dropped)."""
        backend = self.app.session.backend
        if backend is None:
            return
        flt = self.filter
        try:
            if not await self._find_said(flt):
                return
            count_task = self._count_soon(flt)
            shown, offset, exhausted = await self._fetch_filled(flt, 0, PAGE_SIZE)
            if not shown and exhausted and (as_text := flt.numbers_as_text()) is not None:
                # `tag=123` found no number 123: look for the text "123" (a tag of digits)
                count_task.cancel()
                count_task = self._count_soon(as_text)
                shown, offset, exhausted = await self._fetch_filled(as_text, 0, PAGE_SIZE)
                if shown and self.filter is flt:
                    self.filter = flt = as_text  # the next pages and the polls ask for the text
            if gone(self):
                return
            self.thread_list.set_threads(shown, exhausted=exhausted, end=offset)
            total = await count_task if backend.capabilities.count else None
        except BackendError as error:
            report(self, error, "Loading threads")
            if isinstance(error, Unauthorized):
                self.show_note("the server refused the API key: ctrl+o to give another")
            return
        if gone(self):
            return
        self._total = None if flt.is_local else total
        self._show_counts(flt)
        self.read_asking()
        open_id = self._open_thread_id
        if open_id is None and shown and self.thread_list.highlighted is None:
            self.thread_list.highlighted = 0  # shows the newest thread (its question waits for enter)
            self.post_message(self.FirstListed())
        elif first and shown:
            self.thread_list.highlighted = 0
        elif open_id is None and not shown and flt.is_empty:
            self.post_message(self.NothingListed())

    def _count_soon(self, flt: ThreadFilter) -> asyncio.Task:
        """The server's count for `flt`, asked alongside the first page."""
        backend = self.app.session.live_backend
        task = asyncio.create_task(backend.count_threads(flt.query(*self.sort[:2], 1, 0)))
        # when the search fails too, its error is the one reported: this one is only read
        task.add_done_callback(lambda task: task.cancelled() or task.exception())
        return task

    async def _find_said(self, flt: ThreadFilter) -> bool:
        """For quoted words: the threads whose conversations hold them, from the local index,
        become the ids the server is asked for. False when none does (the list then says so).
        The index answers as it is while it is brought up to date (its progress in the counts
        line); the search runs again if that changed anything. A first build is waited for."""
        self.thread_list.found_lines = {}
        if not flt.phrases:
            return True
        app = self.app
        if self._text_search is None:
            self._text_search = ConversationSearch(app.settings.data_dir)
        embedded = app.embedded.server is not None and app.session.connection_url == app.embedded.server.url
        server_key = f"embedded:{app.settings.data_dir}" if embedded else app.session.connection_url or ""

        def progress(done: int, total: int) -> None:
            if self.filter.phrases and total:
                self.show_note(f"reading conversations: {done:,} of {total:,} threads changed since last time")

        # Only the threads the rest of the search lets through need to be read again.
        scoped = flt.query("updated_at", "desc", 1, 0) if (flt.status or flt.metadata or flt.graph_id) else None
        found = await self._text_search.find(app.session.live_backend, server_key, flt.phrases, progress, scoped)
        if found.fresher is not None:
            self._search_again_after(found.fresher, flt)
        hits = found.hits
        flt.ids = [hit.thread_id for hit in hits][:MAX_TEXT_HITS]
        self.thread_list.found_lines = {hit.thread_id: hit.line for hit in hits}
        if flt.ids:
            return True
        self.thread_list.set_threads([], exhausted=True, end=0)
        said = " and ".join(f"“{phrase}”" for phrase in flt.phrases)
        self.show_note(f"no conversation says {said}")
        return False

    @work(group="search-fresher", exclusive=True, exit_on_error=False)
    async def _search_again_after(self, refresh: asyncio.Task[tuple[int, int]], flt: ThreadFilter) -> None:
        read_again, _ = await asyncio.shield(refresh)
        if read_again and self.filter is flt and not gone(self):
            self.load_threads()

    async def _fetch_filled(self, flt: ThreadFilter, offset: int, want: int) -> tuple[list[ThreadSummary], int, bool]:
        """Fetch pages from `offset` until `want` rows match the filter or the server runs out."""
        backend = self.app.session.live_backend
        sort_by, order, _ = self.sort
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
        backend = self.app.session.live_backend
        sort_by, order, _ = self.sort
        shown: list[ThreadSummary] = []
        for offset in range(start, end, PAGE_SIZE):
            page = await backend.search_threads(flt.query(sort_by, order, min(PAGE_SIZE, end - offset), offset))
            shown.extend(t for t in page if flt.matches(t))
        return shown

    def _show_counts(self, flt: ThreadFilter) -> None:
        """ "N of M threads": N counts down to the last row held, M is the search's count."""
        notes = ["filtered here"] if flt.is_local else []
        if flt.as_text:
            notes.append("numbers as text")
        self.show_counts(self.thread_list.window.last_row_number, self._total, ", ".join(notes))

    @work(exclusive=True, group="counts", exit_on_error=False)
    async def refresh_counts(self) -> None:
        """ "N of M threads" after the app added a row itself (a thread it created): M again."""
        backend, flt = self.app.session.backend, self.filter
        if backend is not None and backend.capabilities.count and not flt.is_local:
            with contextlib.suppress(BackendError):  # outages are the connection indicator's to tell
                self._total = await backend.count_threads(flt.query(*self.sort[:2], 1, 0))
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
            self.read_asking()
        except BackendError as error:
            report(self, error, "Loading more threads")
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
            report(self, error, "Loading earlier threads")
        finally:
            self._loading_earlier = False

    @on(ThreadList.NeedFirst)
    def need_first(self) -> None:
        self.load_threads(first=True)

    async def poll_statuses(self) -> None:
        """Keep statuses fresh while runs happen on other threads (one light request)."""
        backend = self.app.session.backend
        rows = self.thread_list.threads
        running = self._open is not None and self._open.run_in_progress
        if backend is None or not rows or running:
            return
        opens = self._open.opens if self._open is not None else 0
        try:
            fresh = await backend.search_threads(
                self.filter.query(*self.sort[:2], min(len(rows), 100), self.thread_list.poll_offset)
            )
        except BackendError:
            return  # the connection indicator reports outages; polling stays quiet
        known = {t.thread_id: t for t in self.thread_list.threads}
        for thread in fresh:
            is_open = thread.thread_id == self._open_thread_id
            if is_open and self._open is not None and (opens != self._open.opens or self._open.run_in_progress):
                continue  # opened while the poll was out: its row is fresher than this answer
            held = known.get(thread.thread_id)
            if held is not None and (held.status != thread.status or held.title != thread.title):
                self.thread_list.update_thread(thread)
                if is_open and thread.status == "busy":
                    self.post_message(self.Busy(thread.thread_id))  # a run started elsewhere: follow it
        self.read_asking()

    @work(exclusive=True, group="asking")
    async def read_asking(self) -> None:
        """Mark the idle rows on screen whose agent waits on a question, where the server's
        rows do not say (DeerFlow's Gateway): the backend reads their state once per update."""
        backend = self.app.session.backend
        if not isinstance(backend, TellsAsking):
            return
        idle = [thread for thread in self.thread_list.visible_threads() if thread.status == "idle"]
        found = await backend.threads_asking(idle) if idle else {}
        if gone(self):
            return
        for thread_id, asking in found.items():
            if (thread_id in self.thread_list.waiting) != asking:
                self.thread_list.mark_waiting(thread_id, asking)

    # -- thread operations -----------------------------------------------------------------------

    def insert_thread(self, summary: ThreadSummary, *, open_it: bool = True) -> None:
        """A thread made here joins the list where the sort puts it (the top, but under an
        ascending sort the end), if the search would list it; opened."""
        others = [t for t in self.thread_list.threads if t.thread_id != summary.thread_id]
        place = self._place_among(summary, others)
        admitted = self.filter.admits(summary)
        if not admitted or place is None:
            why = "does not match the search" if not admitted else f"is at the end of the list (sort {self.sort[2]})"
            self.notify(f"The new thread {why}, so the list does not show it.", timeout=4)
            if open_it:
                self.post_message(ThreadList.Chosen(summary.thread_id, opened=False))
            return
        self.workers.cancel_group(self, "threads")  # a page in flight must not drop this row
        rows = [*others[:place], summary, *others[place:]]
        self.thread_list.set_threads(rows, exhausted=self.thread_list.exhausted)
        # Highlighting posts Chosen(summary), which opens it (the screen routes it), in order.
        self.thread_list.highlighted = place
        self.refresh_counts()
