"""Pilot: no sentence cut or doubled, at 160 and 120 columns: the Graph tab's notes, the chat's
header, the run options line wrap, the run status keeps to one row (the rest in f1); a paused
thread says "paused" once; a run's assistant named (not a UUID) shows whole in the runs table."""

from __future__ import annotations

import pytest
from langgraph_sdk import get_client
from support.driving import make_app, open_tagged, screen_lines, tag, wait_for, wait_ready
from threadbench.models import Capabilities
from threadbench.server_objects import RunInfo
from threadbench.ui.regions.inspector import Inspector

pytestmark = pytest.mark.server


def inspector_shown(app) -> bool:
    return app.screen.query_one(Inspector).display


def region_text(app, widget) -> str:
    """What the screen shows inside `widget`, its lines joined by spaces (a wrapped sentence
    reads whole)."""
    region = widget.region
    lines = screen_lines(app)[region.y : region.bottom]
    return " ".join(" ".join(line[region.x : region.right].split()) for line in lines).strip()


@pytest.mark.parametrize("width", [160, 120])
async def test_the_gateways_notes_and_hints_are_whole(gateway_origin, width):
    url = gateway_origin + "/api"
    metadata = tag()
    client = get_client(url=url)
    thread = await client.threads.create(graph_id="be_chat", metadata=metadata)
    await client.threads.update_state(thread["thread_id"], {"messages": [{"type": "human", "content": "hi"}]})
    app = make_app(url, assistant="")
    app.session.backend_kind = "deerflow-gateway"
    async with app.run_test(size=(width, 45)) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread["thread_id"])
        screen = app.screen
        options = screen.query_one("#run-options")
        await wait_for(
            pilot, lambda: region_text(app, options).endswith("(o to change)"), what=region_text(app, options)
        )
        header = region_text(app, screen.query_one("#chat-header"))
        assert header.endswith("· 1 messages"), header
        if not inspector_shown(app):
            await pilot.press("ctrl+backslash")  # (below 140 columns the inspector comes over the chat)
        await pilot.click("#--content-tab-tab-graph")
        inspector = screen.query_one(Inspector)
        drawing = inspector.graph_view.query_one("#graph-drawing")
        note = "DeerFlow's Gateway does not describe its graph."
        await wait_for(
            pilot, lambda: note in region_text(app, drawing), what=f"{note!r}, not {region_text(app, drawing)!r}"
        )


async def test_a_paused_thread_says_paused_once(server_url):
    metadata = tag()
    client = get_client(url=server_url)
    thread = await client.threads.create(graph_id="be_chat", metadata=metadata)
    await client.threads.update_state(
        thread["thread_id"], {"messages": [{"type": "human", "content": "hi"}]}, as_node="__start__"
    )
    app = make_app(server_url, assistant="")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread["thread_id"])
        status = app.screen.query_one("#run-status")
        await wait_for(pilot, lambda: "paused" in region_text(app, status), what="the pause")
        said = region_text(app, status)  # (one row: the end of the sentence is cut there, and is in f1)
        assert said.startswith("paused before ") and said.count("paused") == 1, said
        assert status.full_text.count("paused") == 1, status.full_text
        assert status.full_text.endswith("(p replays, or send a message)"), status.full_text


async def test_a_named_assistant_shows_whole_in_the_runs_table():
    from textual.app import App
    from threadbench.ui.screens.runs import RunsScreen

    class GatewayRuns:
        capabilities = Capabilities(name="DeerFlow's Gateway")

        async def list_runs(self, thread_id, *, limit=50, offset=0):
            return [RunInfo(run_id="r-1", thread_id=thread_id, assistant_id="lead_agent", status="success")]

        async def get_run(self, thread_id, run_id):
            return (await self.list_runs(thread_id))[0]

    app = App()
    async with app.run_test(size=(160, 45)) as pilot:
        app.clock = lambda: None
        screen = RunsScreen(GatewayRuns(), "t-1")
        app.push_screen(screen)
        await wait_for(pilot, lambda: screen.is_mounted and screen.table.row_count == 1, what="the run")
        assert "lead_agent" in region_text(app, screen.table)
