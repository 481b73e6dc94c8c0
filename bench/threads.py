"""Threads: 100,000 threads on the server (10,000 with --quick); the first page, search as
you type, scrolling to the end. --smoke: 1,100 threads (past the list's window of 1,000 rows),
one start.

Seeding: 100,000 threads with a title and a topic in their metadata, in bulk through the
route bench.run's server adds (bench/bulk_seed.py; a second or two), or on another server
with threads.create, 50 at a time, one batch after another (more in flight ran out of the
SDK's connection pool; 30-60 a second on the embedded server, slower as it fills),
tagged so that a server shared with other benchmarks can be told apart; the benchmark
reads them with a filter on that tag only where it types one. The seeding time is reported.

    first page   app: MainScreen mounted (the app is ready) -> first rows painted; a fresh
                 app each time, 5 starts (3 with --quick), the worst reported.
                 sdk: the same requests the app makes (threads.search with the app's
                 select/extract, and threads.count), in this process.
    search       a word typed one key at a time into the search box; for each key:
                 the app's last search request answered -> the filtered rows painted.
                 sdk: the same search requests, timed alone.
    memory       RSS with the first page, and after scrolling (key `end`, page after
                 page) to the last row; growth per 1,000 rows in the first and the
                 last quarter tells whether memory follows the rows (data) or more.
"""

from __future__ import annotations

import asyncio

from langgraph_sdk import get_client

from bench.common import (
    POLL,
    cli,
    emit,
    make_app,
    median,
    ms,
    now,
    painted,
    press,
    rss_mb,
    running,
    settle,
    sized,
    verdict,
    wait_until,
)

COUNT = 100_000
BATCH = 50
BULK = 10_000
TOPICS = ["glacier", "penguin", "ledger", "harbor", "orbit", "cactus", "violin", "meadow"]
WORD = "penguin"
MEMORY_FLAT_MB = 25.0
"""Allowed RSS growth from the first page to the last row (the list holds a window of rows:
anything that grew with what was scrolled past would show above it)."""


def thread_metadata(tag: str, n: int) -> dict:
    topic = TOPICS[n % len(TOPICS)]
    return {"bench": tag, "n": n, "topic": topic, "title": f"{topic.title()} notes #{n}: what the agent found"}


async def seed(url: str, tag: str, count: int = COUNT) -> tuple[float, str]:
    """Seconds taken, and how: in bulk where the server has bench/bulk_seed.py's route
    (bench.run's server), else one threads.create each, BATCH at a time."""
    import httpx

    client = get_client(url=url, timeout=120)
    start = now()
    existing = await client.threads.count(metadata={"bench": tag})
    if existing >= count:
        return 0.0, "before"  # a server this benchmark ran on already
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        for first in range(existing, count, BULK):
            metadata = [thread_metadata(tag, n) for n in range(first, min(count, first + BULK))]
            answer = await http.post("/bench/threads", json={"metadata": metadata})
            if answer.status_code == 404:
                break  # not bench.run's server
            answer.raise_for_status()
        else:
            return now() - start, "in bulk"
    for first in range(existing, count, BATCH):
        await asyncio.gather(
            *(
                client.threads.create(graph_id="agent", metadata=thread_metadata(tag, n))
                for n in range(first, min(count, first + BATCH))
            )
        )
    return now() - start, "one request each"


async def sdk_first_page(client) -> float:
    from threadbench.backends.langgraph import THREAD_FIELDS
    from threadbench.normalize import TITLE_EXTRACT

    start = now()
    await asyncio.gather(
        client.threads.search(
            limit=50, offset=0, sort_by="updated_at", sort_order="desc", select=THREAD_FIELDS, extract=TITLE_EXTRACT
        ),
        client.threads.count(),
    )
    return ms(now() - start)


async def sdk_search_page(client, offset: int) -> float:
    from threadbench.backends.langgraph import THREAD_FIELDS
    from threadbench.normalize import TITLE_EXTRACT

    start = now()
    await client.threads.search(
        limit=50, offset=offset, sort_by="updated_at", sort_order="desc", select=THREAD_FIELDS, extract=TITLE_EXTRACT
    )
    return ms(now() - start)


async def first_page_once(url: str) -> float:
    """A fresh app: MainScreen mounted with its backend (ready) -> the first rows painted."""
    from threadbench.ui.main_screen import MainScreen

    app = make_app(url)
    ready_at: list[float] = []

    async def watch_ready() -> None:
        while True:
            stack = app._screen_stack
            if stack and isinstance(stack[-1], MainScreen) and stack[-1].is_mounted and app.session.backend is not None:
                ready_at.append(now())
                return
            await asyncio.sleep(POLL / 2)

    watcher = asyncio.create_task(watch_ready())
    async with running(app):
        await wait_until(lambda: app.screen.sidebar.thread_list.row_count > 0, what="first page")
        shown = await painted(app)
        await watcher
    return ms(shown - ready_at[0])


async def main(args) -> list:
    client = get_client(url=args.url)
    tag = "threads"
    count = sized(args, full=COUNT, quick=10_000, smoke=1_100)
    starts = sized(args, full=5, quick=3, smoke=1)
    seconds, how = await seed(args.url, tag, count)
    total = await client.threads.count()

    sdk_pages = [await sdk_first_page(client) for _ in range(5)]

    first_pages = [await first_page_once(args.url) for _ in range(starts)]

    app = make_app(args.url, probe=True)
    async with running(app) as pilot:
        screen = app.screen
        threads = screen.sidebar.thread_list
        await wait_until(lambda: threads.row_count > 0, what="first page")
        probe = app.session.backend
        await settle(app, 0.5)

        # -- search as you type ------------------------------------------------------------------
        search = screen.query_one("#thread-search")
        search.focus()
        await settle(app, 0.2)
        keystrokes: list[float] = []
        sdk_keys: list[float] = []
        for index, char in enumerate(WORD):
            rows_before = threads.threads
            probe.clear()
            press(app, char)
            typed = WORD[: index + 1]
            await wait_until(
                lambda: (
                    threads.threads is not rows_before
                    and screen.sidebar.filter.words == [typed]
                    and all(screen.sidebar.filter.matches(t) for t in threads.threads)
                ),
                timeout=30,
                what=f"results for {typed!r}",
            )
            shown = await painted(app)
            answered = [t for t in probe.marks.get("search_threads:end", []) if t <= shown]
            pages = len(probe.marks.get("search_threads:end", []))
            keystrokes.append(ms(shown - answered[-1]))
            sdk_keys.append(sum([await sdk_search_page(client, 50 * page) for page in range(pages)]))
            await settle(app, 0.05)  # the count request ends too, before the next key
        await settle(app, 0.3)

        # -- scrolling to the end ------------------------------------------------------------------
        await pilot.press("escape")  # back to the list; the filter stays...
        search.value = ""  # ...so clear it: all threads
        await wait_until(
            lambda: (
                len(threads.threads) >= 50
                and not threads.exhausted
                and not any(w.group == "threads" and w.is_running for w in screen.workers)
            ),
            what="all threads again",
        )
        await settle(app, 0.3)
        threads.focus()

        def reached() -> int:
            """Rows down to the last one held (the list holds a window of them)."""
            return threads.window.last_row_number

        rss_first = rss_mb()
        samples: list[tuple[int, float]] = [(reached(), rss_first)]
        start = now()
        while not threads.exhausted:
            count = reached()
            for attempt in range(6):  # the `end` key; again if the app let that one go
                if threads.highlighted == threads.row_count - 1:
                    threads.action_cursor_up()
                threads.action_last()
                try:
                    await wait_until(
                        lambda: (reached() > count or threads.exhausted) and not screen.sidebar.loading_more,
                        timeout=5,
                        what="next page",
                    )
                    break
                except TimeoutError:
                    if attempt == 5:
                        raise TimeoutError(
                            f"no page after row {count:,} (window {threads.row_count} rows, "
                            f"cursor {threads.highlighted}, loading {screen.sidebar.loading_more})"
                        ) from None
            if reached() // 1000 != count // 1000:
                samples.append((reached(), rss_mb()))
        scroll_seconds = now() - start
        rows = reached()
        rss_end = rss_mb()
        samples.append((rows, rss_end))
        await settle(app, 0.5)  # the thread under the cursor opens: let it, before leaving

    growth = rss_end - rss_first
    quarter = max(1, len(samples) // 4)

    def per_thousand(part):
        (r0, m0), (r1, m1) = part[0], part[-1]
        return (m1 - m0) / max(1, (r1 - r0) / 1000)

    early, late = per_thousand(samples[: quarter + 1]), per_thousand(samples[-quarter - 1 :])
    results = [
        verdict(
            "threads: first page after the app is ready",
            max(first_pages),
            150.0,
            baseline=median(sdk_pages),
            note=f"median {median(first_pages):.0f} ms over {len(first_pages)} starts; "
            f"{total:,} threads on the server (seeded {how} in {seconds:.0f} s)",
        ),
        verdict(
            "threads: search keystroke after the answer",
            max(keystrokes),
            100.0,
            baseline=median(sdk_keys),
            note=f"median {median(keystrokes):.0f} ms over {len(keystrokes)} keys of {WORD!r}",
        ),
        verdict(
            "threads: RSS growth scrolling to the end",
            growth,
            MEMORY_FLAT_MB,
            unit="MB",
            note=f"{rss_first:.0f} -> {rss_end:.0f} MB over {rows:,} rows in {scroll_seconds:.1f} s; "
            f"{early:.1f} MB/1000 rows early, {late:.1f} late",
        ),
    ]
    results[1].details = {"keystrokes_ms": keystrokes, "sdk_ms": sdk_keys}
    results[2].details = {"samples": samples}
    return results


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
