"""The server's other objects: a store with 10,000 items and an assistant with 100 versions.

Seeding: 10,000 items in one namespace (put_item, 10 at a time), and one assistant edited
99 times (100 versions).

    store first page     StoreScreen.open_namespace (enter on the namespace) -> the first
                         50 items painted. sdk: store.search_items(limit=50) alone.
    store next page      ctrl+end (the cursor to the last row) -> the next 50 rows painted
                         (paged from the server, never all 10,000).
    versions             the assistant highlighted -> its first 50 versions painted, and
                         ctrl+end -> all 100. sdk: assistants.get_versions.
    stall                the worst event-loop stall while the user pages and searches.
    full collection      the app's full garbage collection, made once the user is idle
                         (held off while the lines above are measured, as while a reply
                         streams): how long a key that comes just then waits. If none
                         is due after IDLE_WAIT idle (few young collections since the
                         last), one is made then, as the app makes it.
    dialog opened        S (store) and A (assistants) on the main screen -> the dialog painted
                         (its first layout and paint of the whole screen: the opening's cost,
                         kept out of the stall line as the first paint of any screen is).
                         The app builds both while the user is idle after start; the bench
                         waits for that, as a person reads the screen before a key. The note
                         gives an open before that (built on the key) too.

--quick: 3 first pages and searches, 5 pages down (5 and 10 otherwise). --smoke: each once, on
100 items and 60 versions, the idle collection waited for 2 checks at most.

Moves are keys, as a person makes them (the app defers a full garbage collection while keys
come); where a call stands for a key (enter on the namespace, enter in the search box), the
app is told a key came.
"""

from __future__ import annotations

import asyncio
import gc
import uuid
from functools import partial

from langgraph_sdk import get_client
from threadbench.ui.collector import CHECK_SECONDS

from bench.common import (
    StallMeter,
    cli,
    emit,
    full_collections,
    make_app,
    median,
    ms,
    now,
    p99,
    painted,
    press,
    running,
    settle,
    sized,
    timed_ms,
    verdict,
    wait_until,
)

ITEMS = 10_000
AT_ONCE = 10
"""Items put at the same time while seeding (50 at once, the in-memory server reset connections)."""
VERSIONS = 100
IDLE_WAIT = 10 * CHECK_SECONDS
"""Seconds idle to wait for the app's own full collection."""


async def seed(client, items: int, versions: int) -> tuple[list[str], str, float]:
    start = now()
    namespace = ["bench", uuid.uuid4().hex[:8], "items"]
    for first in range(0, items, AT_ONCE):
        await asyncio.gather(
            *(
                client.store.put_item(namespace, f"item-{n:05d}", {"n": n, "title": f"Item {n}", "tags": ["a", "b"]})
                for n in range(first, first + AT_ONCE)
            )
        )
    made = await client.assistants.create("agent", name=f"bench-{namespace[1]}", metadata={"bench": namespace[1]})
    for version in range(2, versions + 1):
        await client.assistants.update(made["assistant_id"], name=f"bench-{namespace[1]}", metadata={"v": version})
    return namespace, made["assistant_id"], now() - start


async def open_dialog(app, key: str, kind: type, opened: dict[str, float]):
    """The dialog `key` opens, from the main screen; how long until it is painted goes in `opened`."""
    press(app, "escape")  # out of the composer, where the key would be typed
    await wait_until(lambda: app.focused is not None and app.focused.id != "composer", what="the composer left")
    await settle(app, 0.3)
    start = now()
    press(app, key)
    await wait_until(lambda: isinstance(app.screen, kind) and app.screen.is_mounted, what=f"{kind.__name__} open")
    opened[kind.__name__] = ms(await painted(app) - start)
    await settle(app, 0.3, within=app.screen)
    return app.screen


async def painted_after(app, act, shown, what: str) -> float:
    """ms from `act()` until `shown()` holds and the screen is painted."""
    start = now()
    act()
    await wait_until(shown, what=what)
    return ms(await painted(app) - start)


def entered(app, call):
    """What a key stands for, done by a call (the app is told a key came)."""

    def act() -> None:
        app.collector.input_seen()
        call()

    return act


def last_row(app):
    """ctrl+end: the cursor to the last row (the next page comes)."""
    return partial(press, app, "ctrl+end")


async def page_the_store(app, store, namespace: list[str], opens: int, pages: int, meter: StallMeter) -> dict:
    """The first page of the namespace, `opens` times, then `pages` pages down with ctrl+end."""
    firsts: list[float] = []
    nexts: list[float] = []
    table = store.table
    meter.start()
    for _ in range(opens):
        table.clear()
        store.items = {}
        await settle(app, 0.2)
        opened = entered(app, lambda: store.open_namespace(namespace))  # (enter on the namespace)
        firsts.append(await painted_after(app, opened, lambda: table.row_count == 50, "the first page"))
        await settle(app, 0.2)
    table.focus()
    await settle(app, 0.1)
    for _ in range(pages):
        rows = table.row_count
        nexts.append(await painted_after(app, last_row(app), lambda r=rows: table.row_count > r, "the next page"))
        await settle(app, 0.1)
    await meter.stop()
    return {"firsts": firsts, "nexts": nexts, "rows": table.row_count}


async def search_the_versions(app, assistants, searches: int, count: int, meter: StallMeter) -> dict:
    """The search (the assistant, then its first versions), then ctrl+end to all `count`, `searches` times."""
    firsts: list[float] = []
    rests: list[float] = []
    versions = assistants.versions_table
    meter.start()
    for _ in range(searches):
        versions.clear()
        assistants.versions, assistants.versions_of = {}, ""
        searched = entered(app, assistants.load)  # (enter in the search box)
        firsts.append(await painted_after(app, searched, lambda: versions.row_count == 50, "the first versions"))
        await settle(app, 0.2, within=assistants)
        versions.focus()
        await settle(app, 0.1, within=assistants)
        rests.append(await painted_after(app, last_row(app), lambda: versions.row_count == count, "every version"))
        await settle(app, 0.2, within=assistants)
    await meter.stop()
    return {"firsts": firsts, "rests": rests}


async def main(args) -> list:
    from threadbench.ui.screens.assistants import AssistantsScreen
    from threadbench.ui.screens.store import StoreScreen

    items_made = sized(args, full=ITEMS, quick=ITEMS, smoke=100)
    versions_made = sized(args, full=VERSIONS, quick=VERSIONS, smoke=60)
    reps = sized(args, full=5, quick=3, smoke=1)
    pages = sized(args, full=10, quick=5, smoke=1)
    idle_wait = sized(args, full=IDLE_WAIT, quick=IDLE_WAIT, smoke=2 * CHECK_SECONDS)
    client = get_client(url=args.url)
    namespace, assistant_id, seconds = await seed(client, items_made, versions_made)
    sdk_items = await timed_ms(lambda: client.store.search_items(namespace, limit=50))
    sdk_versions = await timed_ms(lambda: client.assistants.get_versions(assistant_id, limit=50))

    opened: dict[str, float] = {}
    paging, searching = StallMeter(), StallMeter()
    app = make_app(args.url)
    async with running(app):
        await wait_until(
            lambda: app.session.backend is not None and app.screen.sidebar.thread_list is not None, what="main screen"
        )
        await settle(app, 0.5)
        ready = app.kept_screens.ready
        await wait_until(lambda: len(ready()) == 2, timeout=10 * CHECK_SECONDS, what="the dialogs built ahead")
        store = await open_dialog(app, "S", StoreScreen, opened)
        await wait_until(lambda: len(store.namespace_tree.root.children) > 0, timeout=60, what="the namespaces")
        await settle(app, 0.3)
        # Full collections wait while these are measured, as while a reply streams; the one
        # the app makes when the user is idle is measured on its own below.
        with app.collector.busy():
            items = await page_the_store(app, store, namespace, reps, pages, paging)
        press(app, "escape")
        await wait_until(lambda: not isinstance(app.screen, StoreScreen), what="the store closed")
        await settle(app, 0.3)

        assistants = await open_dialog(app, "A", AssistantsScreen, opened)
        assistants.query_one("#assistant-search").value = f"bench={namespace[1]}"
        with app.collector.busy():
            versions = await search_the_versions(app, assistants, reps, versions_made, searching)
        with full_collections() as collections:
            try:
                await wait_until(lambda: collections, timeout=idle_wait, what="the idle full collection")
                collected = "the app's own, once the user was idle"
            except TimeoutError:  # none due: the young collections since the last are too few
                gc.collect(2)
                collected = f"none was due after {idle_wait:.0f} s idle: one made then, as the app makes it"
        press(app, "escape")  # (the dialog left open, its opener's worker would wait on it)
        await wait_until(lambda: not isinstance(app.screen, AssistantsScreen), what="the assistants closed")
        await settle(app, 0.3)
        app.kept_screens.drop()  # as on a new connection: the next open builds the dialog on the key
        cold: dict[str, float] = {}
        await open_dialog(app, "S", StoreScreen, cold)
        press(app, "escape")
        await wait_until(lambda: not isinstance(app.screen, StoreScreen), what="the store closed")

    stalls = paging.lateness + searching.lateness
    return [
        verdict(
            f"store: first page of {items_made:,} items",
            max(items["firsts"]),
            150.0,
            baseline=median(sdk_items),
            note=f"median {median(items['firsts']):.0f} ms; 50 per page (seeded in {seconds:.0f} s)",
        ),
        verdict(
            "store: next page while scrolling",
            max(items["nexts"]),
            100.0,
            baseline=median(sdk_items),
            note=f"median {median(items['nexts']):.0f} ms; {items['rows']} rows after {len(items['nexts'])} pages",
        ),
        verdict(
            f"assistant: {versions_made} versions, first page",
            max(versions["firsts"]),
            200.0,
            baseline=median(sdk_versions),
            note=f"median {median(versions['firsts']):.0f} ms from the search (assistant, then versions)",
        ),
        verdict(
            f"assistant: {versions_made} versions, the rest",
            max(versions["rests"]),
            100.0,
            baseline=median(sdk_versions),
            note=f"median {median(versions['rests']):.0f} ms",
        ),
        verdict(
            "store and versions: worst event-loop stall",
            ms(max(stalls)),
            50.0,
            note=f"p99 {ms(p99(stalls)):.1f} ms; while paging and searching",
        ),
        verdict(
            "store and versions: the idle full collection",
            max(collections),
            50.0,
            note=f"a key that comes while it runs waits this long; {collected}",
        ),
        verdict(
            "store and assistants: dialog opened",
            max(opened.values()),
            100.0,
            note=", ".join(f"{name} {value:.0f} ms" for name, value in opened.items())
            + f"; key to first paint, built ahead while idle (built on the key: {cold['StoreScreen']:.0f} ms)",
        ),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
