"""Snapshots of compare side by side and of a fan-out, on threads written to the real server
with fixed ids and text (the fan-out runs the demo agent, whose replies are fixed by the
message and the run options), a frozen clock and no cursor blink."""

from __future__ import annotations

import asyncio

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_snapshot_app, settle, wait_for, wait_ready
from textual.widgets import Input
from threadbench.ui.screens.compare import CompareScreen
from threadbench.ui.screens.fanout import FanOutScreen
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server

LEFT = "00000000-0000-4000-8000-0000000000b1"  # fixed ids: unique among all the tests
RIGHT = "00000000-0000-4000-8000-0000000000b2"
SHARED = [
    {"type": "human", "id": "c1", "content": "Plan a weekend trip to Lisbon"},
    {"type": "ai", "id": "c2", "content": "Here is a plan: **Saturday** Alfama and the castle, **Sunday** Belém."},
]


def branch(answer: str, follow_up: str, reply: str, todo: str) -> dict:
    return {
        "messages": [
            *SHARED,
            {"type": "human", "id": f"{todo}-q", "content": follow_up},
            {"type": "ai", "id": f"{todo}-a", "content": reply},
        ],
        "title": "Lisbon weekend",
        "todos": [{"content": "Book the hotel", "status": "completed"}, {"content": todo, "status": "pending"}],
        "answer": answer,
    }


async def seed(url: str) -> None:
    client = get_client(url=url)
    if await client.threads.search(ids=[LEFT]):
        return
    for thread_id in (LEFT, RIGHT):
        await client.threads.create(thread_id=thread_id, metadata={"suite": "snap-compare"}, graph_id="agent")
        await client.threads.update_state(thread_id, {"messages": SHARED, "title": "Lisbon weekend"}, as_node="title")
    await client.threads.update_state(
        LEFT,
        branch(
            "cheap", "Make it cheaper", "Take the tram 28 and eat at a tasca: about 60 euros a day.", "Buy tram passes"
        ),
        as_node="title",
    )
    await client.threads.update_state(
        RIGHT,
        branch(
            "fast", "Make it faster", "Take a tuk-tuk and skip the queues: about 150 euros a day.", "Book a tuk-tuk"
        ),
        as_node="title",
    )


@pytest.fixture(scope="module")
def seeded(server_url):
    asyncio.run(seed(server_url))
    return server_url


async def open_row(pilot, thread_id: str) -> None:
    app = pilot.app
    threads = app.screen.query_one("#thread-list", ThreadList)
    threads.focus()
    threads.highlight_thread(thread_id)
    await wait_for(
        pilot,
        lambda: (
            app.screen.conversation.thread_state is not None
            and app.screen.conversation.thread_state.thread_id == thread_id
        ),
        what="the thread open",
    )
    await settle(pilot)


async def listed(pilot) -> None:
    app = pilot.app
    await wait_ready(pilot)
    app.screen.query_one("#thread-search").value = "suite=snap-compare"
    threads = app.screen.query_one("#thread-list", ThreadList)
    await wait_for(pilot, lambda: len(threads.threads) == 2, what="the two seeded threads")


def test_compare_two_threads(seeded, snap_compare):
    async def run_before(pilot):
        await listed(pilot)
        await open_row(pilot, LEFT)
        await pilot.press("equals_sign")
        await open_row(pilot, RIGHT)
        await pilot.press("equals_sign")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, CompareScreen), what="the compare view")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_compare_pick_line(seeded, snap_compare):
    async def run_before(pilot):
        await listed(pilot)
        await open_row(pilot, LEFT)
        await pilot.press("equals_sign")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_fan_out_form(seeded, snap_compare):
    async def run_before(pilot):
        await listed(pilot)
        await open_row(pilot, LEFT)
        await pilot.press("O")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, FanOutScreen), what="the fan-out form")
        screen = pilot.app.screen
        await pilot.press(*"Which day is best?")
        screen.query_one("#fanout-set-2", Input).value = "model_name=demo-large reasoning_effort=high"
        screen.query_one("#fanout-set-3", Input).value = "model_name=demo-small thinking_enabled=maybe x"
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_fan_out_columns(seeded, snap_compare):
    async def run_before(pilot):
        await listed(pilot)
        await open_row(pilot, LEFT)
        await pilot.press("O")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, FanOutScreen), what="the fan-out form")
        screen = pilot.app.screen
        await pilot.press(*"Which day is best?")
        screen.query_one("#fanout-set-2", Input).value = "model_name=demo-large reasoning_effort=high"
        screen.query_one("#fanout-set-3", Input).value = "model_name=demo-small"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: len(screen.columns) == 3 and all(c.status == "done" for c in screen.columns),
            timeout=120,
            what="three forks done",
        )
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)
