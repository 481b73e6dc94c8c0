"""Snapshot of a reply with Markdown tables (markdown_table.py): the grid's lines, the header,
inline styles in cells, a long cell wrapped in a column that gave way, a row missing a cell.
The thread is written to the real server with fixed ids and text."""

from __future__ import annotations

import asyncio

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_snapshot_app, screen_lines, settle, wait_for
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server

THREAD_ID = "00000000-0000-4000-8000-0000000000e1"
REPLY = """Here is how the three graphs compare:

| graph | nodes | checkpointer | notes |
|---|---|---|---|
| `lead_agent` | 3 | Postgres | **interrupts** before `tools`; asks the planner when a step is ambiguous |
| support_bot | 1 | memory | |
| researcher | 12 | SQLite | fans out to *four* workers |

And the runs of last night:

| run | status |
|---|---|
| 1f2e | success |
| 9a0c | error: timeout after 300 s |
"""


async def seed(url: str) -> None:
    client = get_client(url=url)
    if await client.threads.search(ids=[THREAD_ID]):
        return
    await client.threads.create(thread_id=THREAD_ID, metadata={"suite": "tables-snap"}, graph_id="agent")
    messages = [
        {"type": "human", "id": "t-q", "content": "Compare the graphs, and list last night's runs."},
        {"type": "ai", "id": "t-a", "content": REPLY},
    ]
    await client.threads.update_state(THREAD_ID, {"messages": messages, "title": "Graphs compared"}, as_node="title")


@pytest.fixture(scope="module")
def seeded(server_url):
    asyncio.run(seed(server_url))
    return server_url


def test_a_reply_with_tables(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await wait_for(pilot, lambda: app.session.backend is not None)
        app.screen.query_one("#thread-search").value = "suite=tables-snap"
        threads = app.screen.query_one("#thread-list", ThreadList)
        await wait_for(pilot, lambda: len(threads.threads) == 1, what="the seeded thread")
        threads.highlighted = 0
        await wait_for(pilot, lambda: any("9a0c" in line for line in screen_lines(app)), what="both tables")
        app.screen.conversation.chat.focus()
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)
