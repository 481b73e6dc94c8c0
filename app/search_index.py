"""Search inside conversations: a local SQLite FTS5 index of every thread's messages, tool calls,
tool results and title, one file per server in the data dir. No Textual here.

Servers search thread metadata only; this index is what finds a thread by what was said in it.
It is a cache: each thread's row keeps the `updated_at` it was indexed at, so a refresh reads
again only the threads that changed, and drops those the server no longer has. Deleting the
file loses nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .backends.base import Backend, NotFound
from .models import ChatMessage, ThreadQuery, ThreadState, ThreadSummary

PAGE = 100
READ_AT_ONCE = 8
"""Threads whose state a refresh asks for at the same time (a server answers a few at once faster)."""
SNIPPET_WORDS = 8
SCHEMA = """
CREATE TABLE IF NOT EXISTS threads (thread_id TEXT PRIMARY KEY, updated_at TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS lines USING fts5(
    thread_id UNINDEXED, kind UNINDEXED, text, tokenize = 'unicode61 remove_diacritics 2'
);
"""


@dataclass(frozen=True)
class Hit:
    thread_id: str
    line: str
    """The matching line, shortened around the words found (… marks a cut)."""


def index_path(data_dir: Path, server_url: str) -> Path:
    """One file per server: the URL's hash names it (the URL itself may hold a path or port)."""
    digest = hashlib.sha256(server_url.rstrip("/").encode()).hexdigest()[:16]
    return data_dir / "search" / f"{digest}.sqlite3"


def message_lines(message: ChatMessage) -> Iterable[tuple[str, str]]:
    """(kind, text) for what a person would search a message for."""
    if message.text.strip():
        yield message.type, message.text
    for call in message.tool_calls:
        args = json.dumps(call.args, ensure_ascii=False, default=str) if call.args else ""
        yield "tool call", f"{call.name} {args}".strip()


def _lines(thread: ThreadSummary, state: ThreadState) -> Iterable[tuple[str, str, str]]:
    if thread.title:
        yield thread.thread_id, "title", thread.title
    for message in state.messages:
        for kind, text in message_lines(message):
            yield thread.thread_id, kind, text


def fts_query(phrases: list[str]) -> str:
    """Each phrase as an FTS5 string (quotes doubled): all must match, words in order."""
    return " AND ".join('"' + phrase.replace('"', '""') + '"' for phrase in phrases if phrase.strip())


@dataclass(frozen=True)
class Found:
    hits: list[Hit]
    fresher: asyncio.Task[tuple[int, int]] | None = None
    """The refresh still going on when the index answered (None: the answer is fresh).
    It returns (threads read again, threads listed): search again if it read any."""


class SearchIndex:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()  # written from a worker thread, read from the event loop's
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def has_threads(self) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM threads LIMIT 1").fetchone() is not None

    def indexed(self) -> dict[str, str]:
        """thread id -> the updated_at it was indexed at."""
        with self._lock:
            return dict(self._db.execute("SELECT thread_id, updated_at FROM threads"))

    def stale(self, threads: list[ThreadSummary]) -> list[ThreadSummary]:
        """The threads that changed since they were indexed (or never were)."""
        known = self.indexed()
        return [t for t in threads if known.get(t.thread_id) != _stamp(t)]

    def put(self, thread: ThreadSummary, state: ThreadState) -> None:
        self.put_many([(thread, state)])

    def put_many(self, read: list[tuple[ThreadSummary, ThreadState]]) -> None:
        """Index these threads as they are now (one transaction)."""
        rows: list[tuple[str, str, str]] = []
        for thread, state in read:
            rows.extend(_lines(thread, state))
        with self._lock, self._db:
            self._db.executemany("DELETE FROM lines WHERE thread_id = ?", [(t.thread_id,) for t, _ in read])
            self._db.executemany("INSERT INTO lines (thread_id, kind, text) VALUES (?, ?, ?)", rows)
            self._db.executemany(
                "INSERT OR REPLACE INTO threads (thread_id, updated_at) VALUES (?, ?)",
                [(t.thread_id, _stamp(t)) for t, _ in read],
            )

    def drop(self, thread_ids: Iterable[str]) -> None:
        ids = [(thread_id,) for thread_id in thread_ids]
        with self._lock, self._db:
            self._db.executemany("DELETE FROM lines WHERE thread_id = ?", ids)
            self._db.executemany("DELETE FROM threads WHERE thread_id = ?", ids)

    def search(self, phrases: list[str], limit: int = 500) -> list[Hit]:
        """Threads whose lines hold every phrase (best match first), each with its best line."""
        query = fts_query(phrases)
        if not query:
            return []
        # A thread matches when each phrase is in one of its lines, not only when one line has all.
        per_phrase: list[dict[str, str]] = []
        with self._lock:
            for phrase in phrases:
                found: dict[str, str] = {}
                for thread_id, line in self._db.execute(
                    "SELECT thread_id, snippet(lines, 2, '', '', '…', ?) FROM lines WHERE lines MATCH ? ORDER BY rank",
                    (SNIPPET_WORDS, fts_query([phrase])),
                ):
                    found.setdefault(thread_id, line)
                per_phrase.append(found)
        if not per_phrase:
            return []
        first, *others = per_phrase
        hits = [Hit(thread_id, line) for thread_id, line in first.items() if all(thread_id in o for o in others)]
        return hits[:limit]


async def refresh(
    index: SearchIndex,
    backend: Any,
    progress: Callable[[int, int], None] = lambda done, total: None,
    scope: ThreadQuery | None = None,
    run_in_thread: Callable[..., Awaitable[Any]] | None = None,
) -> tuple[int, int]:
    """Bring the index up to date with the server: the threads are listed (by pages), the
    changed ones read again. `scope` (status, metadata, graph) limits that to the threads a
    search can list anyway; without it, every thread, and those the server no longer has
    are dropped. Returns (threads read again, threads listed). `run_in_thread` runs the
    SQLite writes off the event loop (asyncio.to_thread by default)."""
    to_thread = run_in_thread or asyncio.to_thread
    base = scope or ThreadQuery()
    threads: list[ThreadSummary] = []
    while True:
        query = base.model_copy(update={"limit": PAGE, "offset": len(threads), "ids": []})
        page = await backend.search_threads(query)
        threads.extend(page)
        if len(page) < PAGE:
            break
    if scope is None:
        listed = {t.thread_id for t in threads}
        gone = [thread_id for thread_id in index.indexed() if thread_id not in listed]
        if gone:
            await to_thread(index.drop, gone)
    stale = index.stale(threads)
    progress(0, len(stale))
    done = 0
    writing: asyncio.Future[Any] | None = None  # the last batch's write, while the next is read
    try:
        for first in range(0, len(stale), READ_AT_ONCE):
            batch = stale[first : first + READ_AT_ONCE]
            states = await asyncio.gather(*(_state_or_none(backend, t.thread_id) for t in batch))
            read = [(thread, state) for thread, state in zip(batch, states, strict=True) if state is not None]
            if writing is not None:
                await writing
            writing = asyncio.ensure_future(to_thread(index.put_many, read))
            done += len(batch)
            progress(done, len(stale))
        if writing is not None:
            await writing
    finally:
        if writing is not None and not writing.done():
            writing.cancel()
    return len(stale), len(threads)


async def _state_or_none(backend: Backend, thread_id: str) -> ThreadState | None:
    try:
        return await backend.get_state(thread_id)
    except NotFound:  # deleted meanwhile: dropped at the next refresh
        return None


def _stamp(thread: ThreadSummary) -> str:
    return thread.updated_at.isoformat() if thread.updated_at else ""


REFRESH_SECONDS = 60.0
"""A text search reads the server again for changed threads at most this often."""


class ConversationSearch:
    """The index of the server in use, kept up to date (read again at most every
    REFRESH_SECONDS). A search answers from the index at once when it holds anything, while
    the refresh goes on behind it (`Found.fresher` says when it is done); only a first build
    is waited for. The searches typed while it refreshes share the same refresh."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._index: SearchIndex | None = None
        self._key = ""
        self._refreshes: dict[str, tuple[asyncio.Task[tuple[int, int]], float]] = {}
        """scope -> its last refresh and when it began."""

    def index_for(self, server_key: str) -> SearchIndex:
        if self._index is None or server_key != self._key:
            if self._index is not None:
                self._index.close()
            self._index, self._key = SearchIndex(index_path(self.data_dir, server_key)), server_key
            self._refreshes.clear()
        return self._index

    async def find(
        self,
        backend: Any,
        server_key: str,
        phrases: list[str],
        progress: Callable[[int, int], None],
        scope: ThreadQuery | None = None,
    ) -> Found:
        """The threads that said `phrases`: from the index as it is, or, the first time (an
        empty index), once the threads in `scope` are indexed."""
        index = self.index_for(server_key)
        key = scope.model_dump_json(include={"status", "metadata", "graph_id"}) if scope else ""
        task, started = self._refreshes.get(key, (None, 0.0))
        now = time.monotonic()
        failed = task is not None and task.done() and (task.cancelled() or task.exception() is not None)
        if task is None or failed or (task.done() and now - started > REFRESH_SECONDS):
            task = asyncio.ensure_future(refresh(index, backend, progress, scope))
            self._refreshes[key] = (task, now)
        if not task.done() and not await asyncio.to_thread(index.has_threads):
            await asyncio.shield(task)  # a keystroke cancels this search, not the refresh
        hits = await asyncio.to_thread(index.search, phrases)
        return Found(hits, None if task.done() else task)

    def close(self) -> None:
        for task, _ in self._refreshes.values():
            task.cancel()
        if self._index is not None:
            self._index.close()
