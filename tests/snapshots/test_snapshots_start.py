"""Snapshot of the first frame (shell.py): the main screen's outline and what it waits for,
while the main screen's modules load (made slow here: support/loading.py)."""

from __future__ import annotations

from support.driving import TERMINAL, make_snapshot_app
from support.loading import slow_main_screen_load
from threadbench.ui.shell import ShellScreen


def test_the_first_frame_while_the_main_screen_loads(tmp_path, monkeypatch, snap_compare):
    slow_main_screen_load(tmp_path, monkeypatch, 3.0)

    async def run_before(pilot):
        assert isinstance(pilot.app.screen, ShellScreen)
        await pilot.pause()

    # (nothing answers at this address, and nothing asks it before the main screen loads)
    app = make_snapshot_app("http://127.0.0.1:9")
    assert snap_compare(app, terminal_size=TERMINAL, run_before=run_before)
