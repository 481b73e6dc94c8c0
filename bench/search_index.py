"""Search inside conversations: 10,000 threads, each a short conversation, indexed and searched.

Seeding: 10,000 threads (1,000 with --quick; 20, and 2 words searched, with --smoke) created with
their conversation as supersteps (no run needed), four messages each; thread n says the word
`ticket<n>` once, in a reply.

    build        the first quoted search typed (`bench=<run> "ticket00042"`, the rest of the
                 search scoping it to the seeded threads) -> its one row painted: every thread
                 listed and read, its messages indexed. sdk: the same network work alone
                 (the threads listed by pages of 100, every state read, 8 at once).
    memory       the app process's RSS growth over the build, and the index file's size.
    search       once indexed, the last key of a quoted word (`"ticket0123` + `4`) -> the one
                 thread that says it painted, for several words. sdk: threads.search for that
                 thread by id (the request the app makes after the index answers).
"""

from __future__ import annotations

import asyncio
import tempfile
import uuid
from pathlib import Path

from langgraph_sdk import get_client

from bench.common import (
    cli,
    emit,
    make_app,
    median,
    ms,
    now,
    painted,
    press,
    ratio_verdict,
    rss_mb,
    running,
    settle,
    sized,
    timed_ms,
    verdict,
    wait_until,
)

THREADS = 10_000
AT_ONCE = 4
"""Threads created at the same time while seeding (the in-memory server answers 4 at once best)."""
READ_AT_ONCE = 8
SEARCHED = [123, 4567, 8901, 2468, 7777, 31, 9999]


def conversation(n: int) -> list[dict]:
    texts = [
        ("human", "__start__", f"Can you look into order {n % 97} for me? It never arrived."),
        ("ai", "agent", f"I found the order. The courier marked it delivered on day {n % 28 + 1}."),
        ("human", "__start__", "That is wrong, nobody was home. Please open a claim."),
        ("ai", "agent", f"Done: claim ticket{n:05d} is open and the courier will call you back."),
    ]
    return [
        {"updates": [{"values": {"messages": [{"type": kind, "content": text}]}, "as_node": node}]}
        for kind, node, text in texts
    ]


async def seed(client, run: str, count: int) -> tuple[list[str], float]:
    """The threads' ids (thread n at n) and the seconds it took."""
    start = now()
    ids: list[str] = []
    for first in range(0, count, AT_ONCE):
        made = await asyncio.gather(
            *(
                client.threads.create(graph_id="agent", metadata={"bench": run}, supersteps=conversation(n))
                for n in range(first, min(count, first + AT_ONCE))
            )
        )
        ids.extend(thread["thread_id"] for thread in made)
    return ids, now() - start


async def sdk_read_all(client, run: str) -> float:
    """The network work of a build: every thread of the run listed, and its state read."""
    start = now()
    ids: list[str] = []
    while True:
        page = await client.threads.search(metadata={"bench": run}, limit=100, offset=len(ids), select=["thread_id"])
        ids.extend(t["thread_id"] for t in page)
        if len(page) < 100:
            break
    for first in range(0, len(ids), READ_AT_ONCE):
        await asyncio.gather(*(client.threads.get_state(i) for i in ids[first : first + READ_AT_ONCE]))
    return ms(now() - start)


async def main(args) -> list:
    from threadbench.search_index import index_path

    count = sized(args, full=THREADS, quick=1_000, smoke=20)
    searched = sized(args, full=SEARCHED, quick=SEARCHED, smoke=SEARCHED[:2])
    client = get_client(url=args.url)
    run = uuid.uuid4().hex[:10]
    made, seconds = await seed(client, run, count)
    ids = {n % count: made[n % count] for n in searched}
    sdk_build = await sdk_read_all(client, run)

    data_dir = Path(tempfile.mkdtemp(prefix="tb-bench-index-"))
    app = make_app(args.url)
    app.settings.data_dir = data_dir
    builds: list[float] = []
    searches: list[float] = []
    async with running(app):
        screen = app.screen
        threads = screen.sidebar.thread_list
        await wait_until(lambda: threads.row_count > 0, what="first page")
        await settle(app, 0.5)
        search = screen.query_one("#thread-search")
        search.focus()
        await settle(app, 0.2)

        first = next(iter(ids))
        rss_before = rss_mb()
        start = now()
        search.value = f'bench={run} "ticket{first:05d}"'
        await wait_until(lambda: [t.thread_id for t in threads.threads] == [ids[first]], timeout=900, what="built")
        builds.append(ms(await painted(app) - start))
        rss_after = rss_mb()
        index_file = index_path(data_dir, app.session.connection_url or "")
        index_mb = index_file.stat().st_size / 1e6 if index_file.exists() else float("nan")
        await settle(app, 0.3)

        for n in list(ids)[1:]:
            word = f"ticket{n:05d}"
            search.value = f'bench={run} "{word[:-1]}'
            await wait_until(lambda: "no conversation says" in str(screen.query_one("#thread-counts").visual))
            await settle(app, 0.2)
            start = now()
            press(app, word[-1])
            await wait_until(lambda n=n: [t.thread_id for t in threads.threads] == [ids[n]], what=f"{word} found")
            searches.append(ms(await painted(app) - start))
            await settle(app, 0.2)

    sdk_search = await timed_ms(lambda: client.threads.search(ids=[ids[first]], limit=50))
    return [
        ratio_verdict(
            f"index: build for {count:,} threads",
            builds[0],
            sdk_build,
            1.25,
            note=f"{builds[0] / 1000:.1f} s to index them all, the SDK reading them {sdk_build / 1000:.1f} s "
            f"(seeded in {seconds:.0f} s)",
        ),
        verdict(
            f"index: memory for {count:,} threads",
            rss_after - rss_before,
            100.0,
            unit="MB",
            note=f"RSS {rss_before:.0f} -> {rss_after:.0f} MB over the build; the index file {index_mb:.1f} MB",
        ),
        verdict(
            "index: quoted search painted after the key",
            max(searches),
            100.0,
            baseline=median(sdk_search),
            note=f"median {median(searches):.0f} ms over {len(searches)} words; sdk: the server's rows by id",
        ),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
