"""Snapshot of the first frame (shell.py): the main screen's outline and what it waits for,
while the main screen's modules load (held here until the screenshot is taken: support/loading.py)."""

from __future__ import annotations

from support.driving import TERMINAL, make_snapshot_app
from textual.app import App
from threadbench.ui.shell import ShellScreen


def test_the_first_frame_while_the_main_screen_loads(held_load, snap_compare):
    async def run_before(pilot):
        assert isinstance(pilot.app.screen, ShellScreen)
        await pilot.pause()

    # (nothing answers at this address, and nothing asks it before the main screen loads)
    app = make_snapshot_app("http://127.0.0.1:9")

    def exit_after_the_screenshot(*args, **kwargs):
        held_load.let_go()  # (the loading thread ends with the app: the app's loop waits for it)
        return App.exit(app, *args, **kwargs)

    app.exit = exit_after_the_screenshot
    assert snap_compare(app, terminal_size=TERMINAL, run_before=run_before)
