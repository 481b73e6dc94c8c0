"""A full collection (collector.py) waits while a run streams and while its end is shown:
one that came as the stream ended froze the reply's last frames (bench/soak.py)."""

from __future__ import annotations

import pytest
from support.driving import make_app, send_in_new_thread, wait_for, wait_ready
from threadbench.ui.regions import runs
from threadbench.ui.widgets.chat_log import ChatLog

pytestmark = pytest.mark.server


async def test_the_collector_waits_until_the_runs_end_is_shown(server_url, monkeypatch):
    seen: dict[str, bool] = {}
    app = make_app(server_url)
    final_state, finish_run = runs.final_state, ChatLog.finish_run

    async def noting_final_state(*args):
        seen["final state"] = app.collector.is_busy
        return await final_state(*args)

    async def noting_finish_run(self, *args):
        seen["finished reply"] = app.collector.is_busy
        return await finish_run(self, *args)

    monkeypatch.setattr(runs, "final_state", noting_final_state)
    monkeypatch.setattr(ChatLog, "finish_run", noting_finish_run)
    async with app.run_test() as pilot:
        await wait_ready(pilot)
        await send_in_new_thread(pilot, "hello")
        await wait_for(
            pilot,
            lambda: "finished reply" in seen and not app.screen.conversation.run_in_progress,
            what="the run's end",
        )
        assert seen == {"final state": True, "finished reply": True}
        await wait_for(pilot, lambda: not app.collector.is_busy, what="the collector free again")
