"""Pilot: the run options dialog (o) offers DeerFlow's modes, each setting the options DeerFlow's
UI sets, and on the Gateway (the stand-in, answering GET /models as the real one did) lists its
models by display name with their description; a model without thinking greys the switch out."""

from __future__ import annotations

import pytest
from support.driving import TERMINAL, make_app, notices, open_tagged, screen_text, settle, wait_for, wait_ready
from test_ui_gateway import opened_on_gateway, seeded_thread
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.run_options import RunOptionsScreen

pytestmark = pytest.mark.server


async def open_options(pilot) -> RunOptionsScreen:
    app = pilot.app
    app.screen.sidebar.thread_list.focus()
    await pilot.press("o")
    await wait_for(pilot, lambda: isinstance(app.screen, RunOptionsScreen), what="the run options")
    await settle(pilot)
    return app.screen


async def pick_mode(pilot, screen: RunOptionsScreen, position: int) -> None:
    """The mode's list opened from the keyboard, the `position`-th mode chosen (1: flash)."""
    screen.query_one("#option-mode").focus()
    await pilot.press("enter", "home", *["down"] * position, "enter")
    await settle(pilot)


async def test_a_mode_sets_the_options_deerflows_ui_sets(server_url):
    metadata, thread_id = await seeded_thread(server_url, "be_chat", "hi")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = await open_options(pilot)
        assert "ultra · pro with subagents" not in screen_text(app)
        await pick_mode(pilot, screen, 4)
        assert "ultra · pro with subagents" in screen_text(app)
        switches = {name: screen.query_one(f"#option-{name}").value for name in ("thinking_enabled", "is_plan_mode")}
        assert switches == {"thinking_enabled": True, "is_plan_mode": True}
        await pick_mode(pilot, screen, 2)  # thinking: no plan, no subagents, low effort
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), what="the dialog closed")
        assert app.session.run_options.values == {"thinking_enabled": True, "reasoning_effort": "low"}
        assert "thinking, reasoning_effort=low" in str(app.screen.query_one("#run-options").visual)


async def test_the_gateways_models_by_name_and_a_model_without_thinking_greys_it_out(gateway_origin):
    async with opened_on_gateway(gateway_origin, "be_chat", "hi") as (app, pilot, _):
        screen = await open_options(pilot)
        assert "no description · this model does not think" in screen_text(app)
        assert screen.query_one("#option-thinking_enabled").disabled
        assert "Fake Model (loopback)" not in screen_text(app)
        screen.query_one("#option-model_name").focus()
        await pilot.press("enter", "down", "enter")  # the first model, by its display name
        await settle(pilot)
        assert "Fake Model (loopback)" in screen_text(app)
        await pick_mode(pilot, screen, 3)  # pro: this model cannot think, so flash, as DeerFlow's UI does
        assert "flash · fast and efficient" in screen_text(app)
        assert not screen.query_one("#option-thinking_enabled").value
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), what="the dialog closed")
        assert app.session.run_options.values == {"model_name": "fake-model", "reasoning_effort": "minimal"}
        assert not notices(app, "error")
