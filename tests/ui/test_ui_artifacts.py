"""Pilot: the artifacts view (d, #artifacts-view) on DeerFlow's Gateway (the stand-in serves the
files a test writes, typed as the real Gateway types them): the thread's artifacts listed, one
shown (Markdown drawn, code highlighted, anything else described), saved (never overwriting
without asking) and opened in $EDITOR; on a server that serves no files, it says so."""

from __future__ import annotations

import asyncio

import pytest
from langgraph_sdk import get_client
from support.driving import (
    TERMINAL,
    make_app,
    notices,
    open_tagged,
    screen_lines,
    screen_text,
    settle,
    tag,
    wait_for,
    wait_ready,
)
from test_ui_gateway import gateway_app
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.artifacts import ArtifactsScreen
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.screens.prompt import PromptScreen

pytestmark = pytest.mark.server

OUT = "/mnt/user-data/outputs/"
FILES = {
    OUT + "report.md": b"# Quarterly report\n\n- one finding\n",
    OUT + "plot.py": b"def plot():\n    return 42\n",
    OUT + "data.bin": b"\x00\x01\x02",
}


async def thread_with_artifacts(url: str, paths: list[str] | None = None) -> tuple[dict, str]:
    metadata = tag()
    client = get_client(url=url)
    thread = await client.threads.create(graph_id="agent", metadata=metadata)
    values = {"messages": [{"type": "human", "content": "write a report"}], "artifacts": paths or list(FILES)}
    await client.threads.update_state(thread["thread_id"], values, as_node="agent")
    return metadata, thread["thread_id"]


async def open_artifacts(pilot, thread_id: str) -> ArtifactsScreen:
    app = pilot.app
    main = app.screen
    await wait_for(
        pilot,
        lambda: (main.inspector.live_state or None) and main.inspector.live_state.thread_id == thread_id,
        what="the state",
    )
    main.sidebar.thread_list.focus()
    await pilot.press("d")
    await wait_for(pilot, lambda: isinstance(app.screen, ArtifactsScreen), what="the artifacts view")
    await settle(pilot)
    return app.screen


async def show(pilot, index: int, what: str) -> None:
    await pilot.press("home", *["down"] * index, "enter")
    await wait_for(pilot, lambda: what in "\n".join(screen_lines(pilot.app)), what=what)


async def test_the_gateways_artifacts_are_shown_saved_and_edited(gateway_stand_in, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    edited = tmp_path / "editor"
    edited.mkdir()
    monkeypatch.setenv("EDITOR", f"cp -t {edited}")
    url = gateway_stand_in.url + "/api"
    metadata, thread_id = await thread_with_artifacts(url)
    for path, content in FILES.items():
        gateway_stand_in.write_artifact(thread_id, path, content)
    app, _ = gateway_app(url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = await open_artifacts(pilot, thread_id)
        assert screen.id == "artifacts-view" or screen.query("#artifacts-view")
        assert all(path in "\n".join(screen_lines(app)) for path in FILES)
        await show(pilot, 0, "Quarterly report")  # Markdown drawn: the heading without its #
        assert "# Quarterly" not in "\n".join(screen_lines(app))
        await show(pilot, 1, "return 42")  # code, with line numbers
        assert "2     return 42" in "\n".join(screen_lines(app))
        await show(pilot, 2, "data.bin: application/octet-stream, 3 bytes")

        await pilot.press("s")  # saved under its name in the current directory
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen), what="the path prompt")
        await pilot.press("enter")
        await wait_for(pilot, lambda: (tmp_path / "data.bin").exists(), what="the saved file")
        assert (tmp_path / "data.bin").read_bytes() == FILES[OUT + "data.bin"]

        (tmp_path / "report.md").write_text("mine")
        await wait_for(pilot, lambda: isinstance(app.screen, ArtifactsScreen), what="back in the view")
        await show(pilot, 0, "Quarterly report")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen), what="the path prompt")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked before overwriting")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ArtifactsScreen), what="back in the view")
        assert (tmp_path / "report.md").read_text() == "mine"
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen), what="the path prompt")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked before overwriting")
        await pilot.press("y")
        await wait_for(pilot, lambda: (tmp_path / "report.md").read_bytes() == FILES[OUT + "report.md"], what="saved")

        await pilot.press("e")  # a copy in $EDITOR
        await wait_for(pilot, lambda: list(edited.glob("*.md")), what="the copy the editor got")
        assert next(edited.glob("*.md")).read_bytes() == FILES[OUT + "report.md"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), what="back to the main screen")
        assert not notices(app, "error")


async def test_a_server_that_serves_no_files_lists_what_the_state_holds(server_url):
    metadata, thread_id = await thread_with_artifacts(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        await open_artifacts(pilot, thread_id)
        assert all(path in "\n".join(screen_lines(app)) for path in FILES)
        await pilot.press("home", "enter")
        await settle(pilot)
        assert "serves no files: the state holds their paths only" in screen_text(app)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, ArtifactsScreen) and "Show a file first" in " ".join(notices(app))


async def test_a_long_path_shows_its_name_whole_on_one_row_its_folder_shortened(server_url):
    long_name = OUT + "research/2026/quarter-four/quarter-notes.md"
    metadata, thread_id = await thread_with_artifacts(server_url, [long_name, OUT + "report.md"])
    app = make_app(server_url)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = await open_artifacts(pilot, thread_id)
        region = screen.query_one("#artifact-list").content_region
        rows = [line[region.x : region.right].strip() for line in screen_lines(app)[region.y : region.bottom]]
        assert rows[0].startswith("…") and rows[0].endswith("/quarter-four/quarter-notes.md"), (
            "the name whole, on the path's one row, the folder cut at its start"
        )
        assert "/mnt/user-data/outputs/report.md" in rows[1], "a path that fits, whole"


def test_artifacts_view_snapshot_with_a_report_drawn(gateway_stand_in, snap_compare):
    url = gateway_stand_in.url + "/api"
    metadata, thread_id = asyncio.run(thread_with_artifacts(url))
    for path, content in FILES.items():
        gateway_stand_in.write_artifact(thread_id, path, content)
    app, _ = gateway_app(url)

    async def run_before(pilot):
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = await open_artifacts(pilot, thread_id)
        await show(pilot, 0, "Quarterly report")
        await wait_for(pilot, lambda: screen.shown is not None and screen.shown.path == OUT + "report.md")
        await settle(pilot)

    assert snap_compare(app, terminal_size=TERMINAL, run_before=run_before)
