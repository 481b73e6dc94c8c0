"""Snapshots of the screens of the server's other objects: the runs of a thread, the
assistants with their versions, the store and the crons. Written to the real server with
fixed ids and text; what the server stamps with the time or a random id (run and cron ids,
times, a run's metadata) is fixed by a thin wrapper of the backend, the clock is frozen."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from langgraph_sdk import get_client
from support.driving import FIXED_NOW, TERMINAL, StableCheckpointIds, make_app, settle, wait_for
from threadbench.ui.screens.assistants import AssistantsScreen
from threadbench.ui.screens.crons import CronsScreen
from threadbench.ui.screens.runs import RunsScreen
from threadbench.ui.screens.store import StoreScreen
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server

THREAD = "00000000-0000-4000-8000-0000000000c1"
SUITE = "objects-snap"
ASSISTANTS = {
    "00000000-0000-4000-8000-0000000000d1": ("Researcher", {"thinking_enabled": True}),
    "00000000-0000-4000-8000-0000000000d2": ("Quick answers", {"thinking_enabled": False}),
}
STORE_ROOT = "snap-objects"


async def seed(url: str) -> None:
    client = get_client(url=url)
    if not await client.threads.search(ids=[THREAD]):
        await client.threads.create(thread_id=THREAD, metadata={"suite": SUITE}, graph_id="be_chat")
        for text in ("first question", "second question"):
            await client.runs.wait(
                THREAD, "be_chat", input={"messages": [{"role": "user", "content": text}]}, context={"tone": "dry"}
            )
        be_chat = (await client.assistants.search(graph_id="be_chat", limit=1))[0]["assistant_id"]
        await client.crons.create_for_thread(THREAD, be_chat, schedule="0 9 * * 1-5", input={"messages": []})
        await client.crons.create_for_thread(THREAD, be_chat, schedule="30 4 1 1 *", input={"messages": []})
    for assistant_id, (name, context) in ASSISTANTS.items():
        await client.assistants.create(
            "agent",
            assistant_id=assistant_id,
            if_exists="do_nothing",
            name=name,
            context=context,
            metadata={"suite": SUITE},
        )
    versions = await client.assistants.get_versions(next(iter(ASSISTANTS)))
    if len(versions) == 1:
        await client.assistants.update(next(iter(ASSISTANTS)), name="Researcher", context={"thinking_enabled": True})
        await client.assistants.update(
            next(iter(ASSISTANTS)), name="Researcher (deep)", context={"thinking_enabled": True}
        )
    for key, value in {"theme": {"dark": True}, "language": {"code": "en"}, "timezone": {"tz": "UTC"}}.items():
        await client.store.put_item([STORE_ROOT, "users", "ada"], key, value)
    await client.store.put_item([STORE_ROOT, "users", "grace"], "theme", {"dark": False})
    await client.store.put_item([STORE_ROOT, "shared"], "motd", {"text": "[bold]not markup[/bold]"})


async def unschedule(url: str) -> None:
    client = get_client(url=url)
    for cron in await client.crons.search(thread_id=THREAD, limit=100):
        await client.crons.delete(cron["cron_id"])


@pytest.fixture(scope="module")
def seeded(server_url):
    """The crons fire rarely (09:00 on weekdays, 04:30 on 1 January) and go with the module:
    one left on the session's server ran THREAD every half hour, under other tests."""
    asyncio.run(seed(server_url))
    yield server_url
    asyncio.run(unschedule(server_url))


class StableObjects(StableCheckpointIds):
    """Run and cron ids, times and a run's server metadata fixed; only this suite's
    namespaces and crons (the session's server holds other tests' too)."""

    async def list_runs(self, thread_id, **kwargs):
        runs = await self._backend.list_runs(thread_id, **kwargs)
        stable = []
        for number, run in enumerate(runs):
            stable.append(
                run.model_copy(
                    update={
                        "run_id": f"00000000-0000-4000-8000-00000000e{len(runs) - number:03d}",
                        "created_at": FIXED_NOW - timedelta(minutes=5 * (number + 1)),
                        "updated_at": FIXED_NOW - timedelta(minutes=5 * (number + 1)) + timedelta(seconds=1.5),
                        "metadata": {"graph_id": run.graph_id},
                    }
                )
            )
        return stable

    async def store_namespaces(self, prefix=None, **kwargs):
        found = await self._backend.store_namespaces(prefix, **kwargs)
        return [ns for ns in found if ns and ns[0] == STORE_ROOT]

    async def store_items(self, namespace, **kwargs):
        items = await self._backend.store_items(namespace, **kwargs)
        return [item.model_copy(update={"created_at": FIXED_NOW, "updated_at": FIXED_NOW}) for item in items]

    async def list_crons(self, **kwargs):
        crons = [c for c in await self._backend.list_crons(limit=200) if c.thread_id == THREAD]
        crons.sort(key=lambda c: c.schedule)
        return [
            c.model_copy(
                update={
                    "cron_id": f"00000000-0000-4000-8000-00000000f{number:03d}",
                    "next_run_date": FIXED_NOW + timedelta(hours=number + 1),
                }
            )
            for number, c in enumerate(crons)
        ]

    async def search_assistants(self, **kwargs):
        found = await self._backend.search_assistants(**kwargs)
        return [a.model_copy(update={"created_at": FIXED_NOW, "updated_at": FIXED_NOW}) for a in found]

    async def assistant_versions(self, assistant_id, **kwargs):
        found = await self._backend.assistant_versions(assistant_id, **kwargs)
        return [a.model_copy(update={"created_at": FIXED_NOW, "updated_at": FIXED_NOW}) for a in found]


def snapshot_app(url: str):
    return make_app(url, assistant="", wrap_backend=StableObjects)


async def open_seeded_thread(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: app.session.backend is not None)
    app.screen.query_one("#thread-search").value = f"suite={SUITE}"
    threads = app.screen.query_one("#thread-list", ThreadList)
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [THREAD], what="the seeded thread")
    threads.highlighted = 0
    await wait_for(pilot, lambda: app.screen.conversation.thread_state is not None, what="the thread open")
    threads.focus()


def test_runs_screen(seeded, snap_compare):
    async def run_before(pilot):
        await open_seeded_thread(pilot)
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, RunsScreen))
        table = pilot.app.screen.query_one("#runs-table")
        await wait_for(pilot, lambda: table.row_count == 2, what="two runs")
        await settle(pilot)

    assert snap_compare(snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_assistants_screen(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_seeded_thread(pilot)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, AssistantsScreen))
        await pilot.press("slash", *f"suite={SUITE}", "enter")
        table = app.screen.query_one("#assistants-table")
        versions = app.screen.query_one("#assistant-versions")
        await wait_for(pilot, lambda: table.row_count == 2, what="the two assistants")
        await wait_for(pilot, lambda: versions.row_count == 3, what="the three versions of the first")
        await settle(pilot)

    assert snap_compare(snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_store_screen(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_seeded_thread(pilot)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, StoreScreen))
        tree = app.screen.query_one("#store-tree")
        await wait_for(pilot, lambda: tree.root.children, what="the namespaces")
        ada = tree.root.children[0].children[1].children[0]  # snap-objects / users / ada
        tree.move_cursor(ada)
        await pilot.press("enter")
        table = app.screen.query_one("#store-items")
        await wait_for(pilot, lambda: table.row_count == 3, what="ada's items")
        await settle(pilot)

    assert snap_compare(snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_crons_screen(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_seeded_thread(pilot)
        await pilot.press("C")
        await wait_for(pilot, lambda: isinstance(app.screen, CronsScreen))
        table = app.screen.query_one("#crons-table")
        await wait_for(pilot, lambda: table.row_count == 2, what="the two crons")
        await settle(pilot)

    assert snap_compare(snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)
