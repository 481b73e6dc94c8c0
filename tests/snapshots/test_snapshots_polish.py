"""Snapshots of the help screen, the command palette (with a query typed) and the connection
screen, over threads written to the real server with fixed ids and text, a frozen clock and
no cursor blink."""

from __future__ import annotations

import asyncio

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_snapshot_app, settle, wait_for
from textual.command import CommandList, CommandPalette
from threadbench.settings_file import Profile
from threadbench.ui.screens.connection import ConnectionScreen
from threadbench.ui.screens.help import HelpScreen
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server

THREADS = {
    "00000000-0000-4000-8000-0000000000a1": "Penguin colonies in Antarctica",
    "00000000-0000-4000-8000-0000000000a2": "Penguin diet and hunting",
    "00000000-0000-4000-8000-0000000000a3": "Release checklist for v2",
}
PROFILES = {
    "local": Profile(name="local", url="http://127.0.0.1:2024", backend="langgraph"),
    "staging": Profile(
        name="staging",
        url="https://staging.example.com",
        backend="auto",
        api_key_env="TB_SNAPSHOT_KEY_UNSET",
        email="ada@example.com",
        password_env="TB_SNAP_PASSWORD",
    ),
}


async def seed(url: str) -> None:
    client = get_client(url=url)
    if await client.threads.search(ids=list(THREADS)):
        return
    for number, (thread_id, title) in enumerate(THREADS.items()):
        await client.threads.create(thread_id=thread_id, metadata={"suite": "polish-snap"}, graph_id="agent")
        messages = [
            {"type": "human", "id": f"q{number}", "content": f"Tell me about: {title}"},
            {"type": "ai", "id": f"a{number}", "content": f"Here is a short note on **{title}**."},
        ]
        await client.threads.update_state(thread_id, {"messages": messages, "title": title}, as_node="title")


@pytest.fixture(scope="module")
def seeded(server_url):
    asyncio.run(seed(server_url))
    return server_url


async def show_seeded(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: app.session.backend is not None)
    app.screen.query_one("#thread-search").value = "suite=polish-snap"
    threads = app.screen.query_one("#thread-list", ThreadList)
    await wait_for(pilot, lambda: len(threads.threads) == len(THREADS), what="the seeded threads")
    first = next(iter(THREADS))
    threads.highlight_thread(first)
    await wait_for(
        pilot,
        lambda: (
            app.screen.conversation.thread_state is not None and app.screen.conversation.thread_state.thread_id == first
        ),
    )
    threads.focus()
    await settle(pilot)


def test_help_screen(seeded, snap_compare):
    async def run_before(pilot):
        await show_seeded(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_help_screen_filtered(seeded, snap_compare):
    async def run_before(pilot):
        await show_seeded(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.press(*"copy")  # (typed at once: the filter has the focus)
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_command_palette_with_a_query(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await show_seeded(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"penguin")

        def hits() -> int:
            results = app.screen.query_one(CommandList)
            return sum("Open thread" in str(results.get_option_at_index(i).prompt) for i in range(results.option_count))

        await wait_for(pilot, lambda: hits() == 2, what="both penguin threads")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_connection_screen(seeded, snap_compare):
    app = make_snapshot_app(seeded)
    app.settings.profiles = dict(PROFILES)

    async def run_before(pilot):
        await show_seeded(pilot)
        app.session.connection_url = "http://127.0.0.1:2024"  # the test server's port changes every run
        app.session.connection_profile = "local"
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen))
        await settle(pilot)

    assert snap_compare(app, terminal_size=TERMINAL, run_before=run_before)


def test_connection_screen_with_a_profile_whose_key_is_missing(seeded, snap_compare):
    app = make_snapshot_app(seeded)
    app.settings.profiles = dict(PROFILES)

    async def run_before(pilot):
        await show_seeded(pilot)
        app.session.connection_url = "http://127.0.0.1:2024"
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen))
        app.screen.query_one("#connection-profile").value = "staging"
        await settle(pilot)

    assert snap_compare(app, terminal_size=TERMINAL, run_before=run_before)
