"""The server's other objects: a store with 10,000 items and an assistant with 100 versions.

Seeding: 10,000 items in one namespace (put_item, 10 at a time), and one assistant edited
99 times (100 versions).

    store first page     StoreScreen.open_namespace (enter on the namespace) -> the first
                         50 items painted. sdk: store.search_items(limit=50) alone.
    store next page      ctrl+end (the cursor to the last row) -> the next 50 rows painted
                         (paged from the server, never all 10,000).
    versions             the assistant highlighted -> its first 50 versions painted, and
                         ctrl+end -> all 100. sdk: assistants.get_versions.
    stall                the worst event-loop stall while all of that happened.

Moves are keys, as a person makes them (the app defers a full garbage collection while keys
come); where a call stands for a key (enter on the namespace, enter in the search box), the
app is told a key came.
"""

from __future__ import annotations

import asyncio
import uuid

from langgraph_sdk import get_client

from bench.common import (
    StallMeter,
    cli,
    emit,
    make_app,
    median,
    ms,
    now,
    painted,
    press,
    running,
    settle,
    timed_ms,
    verdict,
    wait_until,
)

ITEMS = 10_000
AT_ONCE = 10
"""Items put at the same time while seeding (50 at once, the in-memory server reset connections)."""
VERSIONS = 100


async def seed(client, quick: bool) -> tuple[list[str], str, float]:
    start = now()
    namespace = ["bench", uuid.uuid4().hex[:8], "items"]
    for first in range(0, ITEMS, AT_ONCE):
        await asyncio.gather(
            *(
                client.store.put_item(namespace, f"item-{n:05d}", {"n": n, "title": f"Item {n}", "tags": ["a", "b"]})
                for n in range(first, first + AT_ONCE)
            )
        )
    made = await client.assistants.create("agent", name=f"bench-{namespace[1]}", metadata={"bench": namespace[1]})
    for version in range(2, VERSIONS + 1):
        await client.assistants.update(made["assistant_id"], name=f"bench-{namespace[1]}", metadata={"v": version})
    return namespace, made["assistant_id"], now() - start


async def main(args) -> list:
    from threadbench.ui.screens.assistants import AssistantsScreen
    from threadbench.ui.screens.store import StoreScreen

    client = get_client(url=args.url)
    namespace, assistant_id, seconds = await seed(client, args.quick)
    sdk_items = await timed_ms(lambda: client.store.search_items(namespace, limit=50))
    sdk_versions = await timed_ms(lambda: client.assistants.get_versions(assistant_id, limit=50))

    firsts: list[float] = []
    nexts: list[float] = []
    versions_first: list[float] = []
    versions_all: list[float] = []
    meter = StallMeter()
    app = make_app(args.url)
    async with running(app):
        await wait_until(lambda: app.backend is not None and app.screen.thread_list is not None, what="main screen")
        await settle(app, 0.5)
        store = StoreScreen(app.backend)
        await app.push_screen(store)
        tree = store.namespace_tree
        await wait_until(lambda: len(tree.root.children) > 0, timeout=60, what="the namespaces")
        await settle(app, 0.3)
        meter.start()
        table = store.table
        for _ in range(3 if args.quick else 5):
            table.clear()
            store.items = {}
            await settle(app, 0.2)
            start = now()
            app.collector.input_seen()  # (the enter on the namespace that this call stands for)
            store.open_namespace(namespace)
            await wait_until(lambda: table.row_count == 50, what="the first page")
            firsts.append(ms(await painted(app) - start))
            await settle(app, 0.2)
        table.focus()
        await settle(app, 0.1)
        for _ in range(5 if args.quick else 10):
            rows = table.row_count
            start = now()
            press(app, "ctrl+end")  # the cursor to the last row
            await wait_until(lambda r=rows: table.row_count > r, what="the next page")
            nexts.append(ms(await painted(app) - start))
            await settle(app, 0.1)
        store_rows = table.row_count
        app.collector.input_seen()  # (the escape that this call stands for)
        store.dismiss(None)
        await settle(app, 0.3)

        assistants = AssistantsScreen(app.backend)
        app.collector.input_seen()  # (the A key that this call stands for)
        await app.push_screen(assistants)
        await settle(app, 0.3)
        assistants.query_one("#assistant-search").value = f"bench={namespace[1]}"
        versions = assistants.versions_table
        for _ in range(3 if args.quick else 5):
            versions.clear()
            assistants.versions, assistants.versions_of = {}, ""
            start = now()
            app.collector.input_seen()  # (the enter in the search box that this call stands for)
            assistants.load()  # the search (enter): the assistant, then its versions
            await wait_until(lambda: versions.row_count == 50, what="the first versions")
            versions_first.append(ms(await painted(app) - start))
            await settle(app, 0.2)
            versions.focus()
            await settle(app, 0.1)
            start = now()
            press(app, "ctrl+end")  # the cursor to the last row
            await wait_until(lambda: versions.row_count == VERSIONS, what="every version")
            versions_all.append(ms(await painted(app) - start))
            await settle(app, 0.2)
        await meter.stop()

    return [
        verdict(
            "store: first page of 10,000 items",
            max(firsts),
            150.0,
            baseline=median(sdk_items),
            note=f"median {median(firsts):.0f} ms; 50 per page (seeded in {seconds:.0f} s)",
        ),
        verdict(
            "store: next page while scrolling",
            max(nexts),
            100.0,
            baseline=median(sdk_items),
            note=f"median {median(nexts):.0f} ms; {store_rows} rows after {len(nexts)} pages",
        ),
        verdict(
            "assistant: 100 versions, first page",
            max(versions_first),
            200.0,
            baseline=median(sdk_versions),
            note=f"median {median(versions_first):.0f} ms from the search (assistant, then versions)",
        ),
        verdict(
            "assistant: 100 versions, the rest",
            max(versions_all),
            100.0,
            baseline=median(sdk_versions),
            note=f"median {median(versions_all):.0f} ms",
        ),
        verdict(
            "store and versions: worst event-loop stall",
            meter.max_ms,
            50.0,
            note=f"p99 {meter.p99_ms:.1f} ms",
        ),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
