"""Pilot tests of the workbench's polish: the command palette, the help screen, export,
server profiles (ConnectionScreen), the theme, the keymap, $EDITOR and the clipboard."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import stat
import tempfile
import tomllib
from pathlib import Path

import pytest
import threadbench.ui
from langgraph_sdk import get_client
from support.driving import FIXED_NOW, TERMINAL, notices, settle, tag, wait_for, wait_ready
from textual.command import CommandList, CommandPalette
from textual.dom import DOMNode
from textual.widgets import Checkbox, DataTable, Input, Select
from threadbench.config import Settings
from threadbench.export import load_thread_json, thread_json, thread_markdown
from threadbench.models import ChatMessage, ThreadState, ThreadSummary, ToolCall
from threadbench.settings_file import Profile
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.connection import ConnectionScreen
from threadbench.ui.screens.export import ExportScreen
from threadbench.ui.screens.help import HelpScreen, binding_classes, help_groups
from threadbench.ui.screens.new_thread import NewThreadScreen
from threadbench.ui.widgets.composer import Composer
from threadbench.ui.widgets.thread_list import ThreadList

MESSAGES = [
    {"type": "human", "id": "p1", "content": "Where do penguins live?"},
    {
        "type": "ai",
        "id": "p2",
        "content": "",
        "tool_calls": [
            {"id": "call_p", "name": "web_search", "args": {"query": "penguin habitat"}, "type": "tool_call"}
        ],
    },
    {"type": "tool", "id": "p3", "tool_call_id": "call_p", "name": "web_search", "content": "Antarctica and islands"},
    {"type": "ai", "id": "p4", "content": "Mostly in the **Southern Hemisphere**."},
]


def make(url: str | None, **settings) -> ThreadbenchApp:
    settings.setdefault("data_dir", Path(tempfile.mkdtemp(prefix="tb-polish-")))
    return ThreadbenchApp(
        Settings(url=url, **settings), backend_kind="langgraph", clock=lambda: FIXED_NOW, monotonic=lambda: 0.0
    )


async def seed(url: str, metadata: dict, titles: list[str], messages: list[dict] | None = None) -> list[str]:
    client = get_client(url=url)
    ids = []
    for title in titles:
        thread = await client.threads.create(metadata=metadata, graph_id="agent")
        await client.threads.update_state(
            thread["thread_id"], {"messages": messages or MESSAGES, "title": title}, as_node="title"
        )
        ids.append(thread["thread_id"])
    return ids


async def ready(pilot) -> MainScreen:
    """The main screen has loaded its first page (and opened the first thread, if any)."""
    app = pilot.app
    await wait_for(pilot, lambda: app.session.backend is not None and isinstance(app.screen, MainScreen))
    screen = app.screen
    await wait_for(pilot, lambda: screen.query_one("#thread-counts").visual is not None, what="the first page")
    await wait_for(pilot, lambda: not any(w.is_running for w in screen.workers if w.group in ("threads", "open")))
    await pilot.pause()
    return screen


async def show_only(pilot, metadata: dict, count: int) -> ThreadList:
    app = pilot.app
    await ready(pilot)
    key, value = next(iter(metadata.items()))
    app.screen.query_one("#thread-search", Input).value = f"{key}={value}"
    threads = app.screen.query_one("#thread-list", ThreadList)
    await wait_for(pilot, lambda: len(threads.threads) == count, what=f"{count} threads")
    threads.focus()
    await pilot.pause()
    return threads


async def open_first(pilot, threads: ThreadList) -> str:
    threads.highlighted = 0
    thread_id = threads.threads[0].thread_id
    screen = pilot.app.screen
    await wait_for(
        pilot,
        lambda: (
            screen.conversation.thread_state is not None and screen.conversation.thread_state.thread_id == thread_id
        ),
    )
    return thread_id


def palette_prompts(app) -> list[str]:
    results = app.screen.query_one(CommandList)
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


# -- pure: export formats ---------------------------------------------------------------------------


def sample_thread() -> tuple[ThreadSummary, ThreadState, list[ThreadState]]:
    summary = ThreadSummary(thread_id="t-1", status="idle", title="Penguins", graph_id="agent", metadata={"suite": "x"})
    state = ThreadState(
        thread_id="t-1",
        values={"title": "Penguins", "todos": [{"content": "Find sources", "status": "completed"}]},
        messages=[
            ChatMessage(id="1", type="human", text="Where do penguins live?"),
            ChatMessage(
                id="2", type="ai", text="", tool_calls=[ToolCall(id="c", name="web_search", args={"q": "```x"})]
            ),
            ChatMessage(id="3", type="tool", name="web_search", text="Antarctica", status="error"),
            ChatMessage(id="4", type="ai", text="Mostly **south**.", reasoning="think"),
        ],
        checkpoint_id="cp-2",
        metadata={"step": 2, "source": "update", "writes": {"title": {}}},
    )
    history = [state, state.model_copy(update={"checkpoint_id": "cp-1", "metadata": {"step": 1, "source": "loop"}})]
    return summary, state, history


def test_markdown_export_has_the_conversation_state_and_history():
    summary, state, history = sample_thread()
    text = thread_markdown(summary, state, history)
    assert text.startswith("# Penguins\n")
    for piece in (
        "### Human",
        "Where do penguins live?",
        "**Tool call** `web_search`",
        "### Tool · web_search (error)",
        "Antarctica",
        "Mostly **south**.",
        "> **Reasoning**",
        "## State",
        "Find sources",
        "## History (2 checkpoints, newest first)",
        "`cp-1`",
    ):
        assert piece in text, piece
    assert "````json" in text  # the fence outgrows the backticks inside the args
    without = thread_markdown(summary, state, None, include_state=False)
    assert "## State" not in without and "## History" not in without


def test_json_export_round_trips():
    summary, state, history = sample_thread()
    loaded = load_thread_json(thread_json(summary, state, history))
    assert loaded.summary == summary and loaded.state == state and loaded.history == history
    assert "history" not in json.loads(thread_json(summary, state))


# -- help ------------------------------------------------------------------------------------------


def test_every_class_with_bindings_is_in_the_help_screen():
    """A new widget or screen with keys cannot be forgotten by the help screen."""
    listed = {owner for _, owner, _ in binding_classes(ThreadbenchApp)}
    missing = []
    for module_info in pkgutil.walk_packages(threadbench.ui.__path__, "threadbench.ui."):
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, DOMNode) and cls.__module__ == module.__name__ and cls.__dict__.get("BINDINGS"):
                if cls not in listed:
                    missing.append(cls.__qualname__)
    assert not missing, f"add to app/ui/screens/help.py binding_classes: {missing}"


@pytest.mark.server
async def test_help_lists_every_binding_of_the_app_and_the_main_screen(server_url):
    app = make(server_url, keymap={"main.sort": "f9"})
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)  # (on a server with no thread yet, the first listing focuses the composer)
        app.screen.query_one(ThreadList).focus()
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_screen = app.screen
        rows = help_screen.rows
        by_id = {row.binding_id: row for row in rows if row.binding_id}
        for owner in (ThreadbenchApp, MainScreen):
            for binding in owner.BINDINGS:
                assert binding.id in by_id, binding
                row = by_id[binding.id]
                assert row.description in (binding.tooltip, binding.description)
                if binding.id != "main.sort":
                    assert set(binding.key.split(",")) <= set(row.keys)
        assert by_id["main.sort"].keys == ["f9"]  # the keymap's key, not the default
        table = help_screen.query_one("#help-table", DataTable)
        assert table.row_count >= len(rows)
        # what is typed filters at once (no / first), the arrows move in the table meanwhile
        assert isinstance(help_screen.focused, Input)
        await pilot.press(*"export")
        await pilot.pause()
        assert 1 <= table.row_count < 10
        first = table.cursor_row
        await pilot.press("down")
        assert table.cursor_row == first + 1 and isinstance(help_screen.focused, Input)
        await pilot.press("escape")  # leaves the filter? no: escape closes the help
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))


def test_help_groups_need_no_server():
    app = make("http://127.0.0.1:1")
    groups = {group.title: group for group in help_groups(app)}
    assert {"Everywhere", "Main screen", "Thread list", "Composer", "State tree", "Timeline"} <= set(groups)
    thread_list = {row.description: row.keys for row in groups["Thread list"].rows}
    assert {"j", "down"} <= set(thread_list["Down"])  # the widget's key joins the inherited one


# -- command palette ---------------------------------------------------------------------------------


@pytest.mark.server
async def test_the_palette_finds_a_thread_by_title_and_opens_it(server_url):
    meta = tag()
    ids = await seed(server_url, meta, ["Palette alpha thread", "Palette beta thread"])
    app = make(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await show_only(pilot, meta, 2)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"beta")
        await wait_for(pilot, lambda: any("Palette beta thread" in p for p in palette_prompts(app)), what="the hit")
        assert palette_prompts(app)[0].startswith("Open thread: Palette beta thread")
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.conversation.thread_id == ids[1]
        )
        await wait_for(
            pilot,
            lambda: (
                app.screen.conversation.thread_state is not None
                and app.screen.conversation.thread_state.thread_id == ids[1]
            ),
        )
        assert app.screen.query_one(ThreadList).highlighted_thread_id == ids[1]


@pytest.mark.server
async def test_the_palette_finds_a_thread_the_list_has_not_loaded_by_its_id(server_url):
    meta = tag()
    hidden = (await seed(server_url, tag(), ["Palette hidden thread"]))[0]
    await seed(server_url, meta, ["Palette visible thread"])
    app = make(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await show_only(pilot, meta, 1)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        app.screen.query_one(Input).value = hidden
        await wait_for(pilot, lambda: any(hidden in p for p in palette_prompts(app)), what="the server hit")
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.conversation.thread_id == hidden
        )
        assert app.screen.query_one(ThreadList).thread(hidden) is not None


@pytest.mark.server
async def test_the_palette_runs_every_action_of_the_app_and_main_screen(server_url):
    app = make(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await ready(pilot)
        app.screen.query_one(ThreadList).focus()
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await wait_for(pilot, lambda: len(palette_prompts(app)) > 10)
        prompts = "\n".join(palette_prompts(app))
        for owner in (ThreadbenchApp, MainScreen):
            labels: dict[str, list[str]] = {}
            for binding in owner.BINDINGS:
                if binding.action != "command_palette":  # the palette itself
                    labels.setdefault(binding.action, []).append(binding.tooltip or binding.description)
            for action, names in labels.items():  # one command per action (n and ctrl+n: one)
                assert any(name in prompts for name in names), (action, names)
        await pilot.press(*"new thread")
        await wait_for(pilot, lambda: palette_prompts(app) and palette_prompts(app)[0].startswith("New"))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen), what="the new-thread screen")


# -- export ------------------------------------------------------------------------------------------------


@pytest.mark.server
async def test_export_writes_markdown_and_json_with_history(server_url, tmp_path: Path):
    meta = tag()
    await seed(server_url, meta, ["Export me please"])
    app = make(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        threads = await show_only(pilot, meta, 1)
        thread_id = await open_first(pilot, threads)
        # Markdown, default options
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
        path_input = app.screen.query_one("#export-path", Input)
        assert path_input.value.endswith(f"export-me-please-{thread_id[:8]}.md")
        path_input.value = str(tmp_path / "thread.md")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: (tmp_path / "thread.md").exists(), what="the Markdown file")
        whole = f"Exported to {(tmp_path / 'thread.md').resolve()}"  # (the whole path, broken after a /)
        await wait_for(pilot, lambda: whole in [n.replace("\n", " ", 1).replace("\n", "") for n in notices(app)])
        markdown = (tmp_path / "thread.md").read_text()
        for piece in (
            "# Export me please",
            "Where do penguins live?",
            "web_search",
            "Antarctica and islands",
            "Mostly in the **Southern Hemisphere**.",
            "## State",
        ):
            assert piece in markdown, piece
        # JSON with the history
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
        await pilot.click("#export-json")
        await pilot.click("#export-history")
        await pilot.pause()
        assert app.screen.query_one("#export-path", Input).value.endswith(".json")  # followed the format
        assert app.screen.query_one("#export-history", Checkbox).value
        app.screen.query_one("#export-path", Input).value = str(tmp_path / "thread.json")
        await pilot.click("#export-ok")
        await wait_for(pilot, lambda: (tmp_path / "thread.json").exists(), what="the JSON file")
        exported = load_thread_json((tmp_path / "thread.json").read_text())
        assert exported.state.thread_id == thread_id and exported.summary.title == "Export me please"
        assert [m.text for m in exported.state.messages][0] == "Where do penguins live?"
        assert len(exported.history) >= 1 and exported.history[0].checkpoint_id == exported.state.checkpoint_id
        # an existing file is replaced only after asking
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
        app.screen.query_one("#export-path", Input).value = str(tmp_path / "thread.md")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert (tmp_path / "thread.md").read_text() == markdown


@pytest.mark.server
async def test_y_copies_the_last_reply(server_url):
    meta = tag()
    await seed(server_url, meta, ["Copy me"])
    app = make(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        threads = await show_only(pilot, meta, 1)
        await open_first(pilot, threads)
        threads.focus()
        await pilot.press("y")
        assert app.clipboard == "Mostly in the **Southern Hemisphere**."


# -- connection and profiles ------------------------------------------------------------------------


@pytest.mark.server
async def test_switching_to_a_profile_through_the_connection_screen(server_url):
    meta = tag()
    await seed(server_url, meta, ["After the switch"])
    profiles = {"test": Profile(name="test", url=server_url, backend="auto", api_key_env="TB_TEST_KEY")}
    app = make(server_url, profiles=profiles)
    async with app.run_test(size=TERMINAL) as pilot:
        await ready(pilot)
        old_backend, old_screen = app.session.backend, app.screen
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen))
        app.screen.query_one("#connection-profile", Select).value = "test"
        await pilot.pause()
        assert app.screen.query_one("#connection-url", Input).value == server_url
        assert "$TB_TEST_KEY" in app.screen.query_one("#connection-key", Input).placeholder
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.session.connection_profile == "test", what="the switch")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen is not old_screen)
        assert app.session.backend is not old_backend and app.session.backend.url == server_url
        assert app.session.backend_kind == "langgraph"  # detected
        await show_only(pilot, meta, 1)  # the new screen lists the server's threads


@pytest.mark.server
async def test_a_failed_switch_keeps_the_connection_and_says_why(server_url):
    from threadbench.embedded.launcher import free_port

    app = make(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await ready(pilot)
        backend, screen = app.session.backend, app.screen
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectionScreen))
        app.screen.query_one("#connection-url", Input).value = "not a url"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "not a server address" in str(app.screen.query_one("#connection-error").visual)
        app.screen.query_one("#connection-url", Input).value = f"http://127.0.0.1:{free_port()}"
        app.screen.query_one("#connection-key", Input).value = "typed-secret-key"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any("Cannot connect" in text for text in notices(app)), what="the error")
        assert app.session.backend is backend and app.screen is screen
    log_text = (app.settings.data_dir / "threadbench.log").read_text()
    assert "cannot connect to http://127.0.0.1:" in log_text  # logged, with the URL only
    assert "typed-secret-key" not in log_text


# -- theme, keymap, editor ----------------------------------------------------------------------------


@pytest.mark.server
async def test_the_theme_is_remembered_in_the_config_file(server_url, tmp_path: Path):
    config = tmp_path / "config.toml"
    config.write_text('# mine\n\n[profiles.x]\nurl = "http://127.0.0.1:1"\n')
    app = make(server_url, config_path=config)
    async with app.run_test(size=TERMINAL) as pilot:
        await ready(pilot)
        assert "theme" not in tomllib.loads(config.read_text())  # starting writes nothing
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"nord")
        await wait_for(pilot, lambda: any(p == "nord" for p in palette_prompts(app)))
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "nord")
        await pilot.pause()
    data = tomllib.loads(config.read_text())
    assert data["theme"] == "nord" and data["profiles"]["x"]["url"] == "http://127.0.0.1:1"
    assert config.read_text().startswith("# mine\n")
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    again = make(server_url, config_path=config, theme="nord")
    async with again.run_test(size=TERMINAL) as pilot:
        await ready(pilot)
        assert again.theme == "nord"


@pytest.mark.server
async def test_keymap_overrides_rebind_keys(server_url):
    app = make(server_url, keymap={"main.new": "f9"})  # (an unknown id: tests/unit/test_start_errors.py)
    async with app.run_test(size=TERMINAL) as pilot:
        await ready(pilot)
        app.screen.query_one(ThreadList).focus()
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)  # n no longer opens it
        await pilot.press("f9")
        await wait_for(pilot, lambda: isinstance(app.screen, NewThreadScreen))


@pytest.mark.server
async def test_f4_edits_the_composer_in_editor(server_url, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    script = tmp_path / "fake-editor"
    script.write_text('#!/bin/sh\nprintf "written in the editor\\nsecond line\\n" > "$1"\n')
    script.chmod(0o755)
    monkeypatch.setenv("VISUAL", str(script))
    app = make(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await ready(pilot)
        composer = app.screen.query_one(Composer)
        composer.focus()
        composer.load_text("a draft")
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause()
        assert composer.text == "written in the editor\nsecond line"
        app.screen.query_one(ThreadList).focus()
        await pilot.press("f4")  # nothing to edit there: says so
        await pilot.pause()
        assert any("Focus a text box" in text for text in notices(app))


async def test_a_failing_editor_leaves_the_text_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from textual.app import App
    from textual.widgets import TextArea
    from threadbench.ui.editor import edit_in_editor, editor_command

    class Editing(App):
        def compose(self):
            yield TextArea("keep me")

    monkeypatch.setenv("VISUAL", "false")
    app = Editing()
    async with app.run_test() as pilot:
        assert edit_in_editor(app, "keep me") is None
        monkeypatch.setenv("VISUAL", "true")  # exits 0 without saving: unchanged
        assert edit_in_editor(app, "keep me") is None
        await pilot.pause()
    assert editor_command({"EDITOR": "code --wait"}) == ["code", "--wait"]
    assert editor_command({"VISUAL": "nvim", "EDITOR": "nano"}) == ["nvim"]
    assert editor_command({}) == ["vi"]


# -- mouse ---------------------------------------------------------------------------------------------------


@pytest.mark.server
async def test_clicking_a_thread_opens_it(server_url):
    meta = tag()
    ids = await seed(server_url, meta, ["Click one", "Click two"])
    app = make(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        threads = await show_only(pilot, meta, 2)
        index = threads.index_of(ids[0])
        await pilot.click("#thread-list", offset=(3, index * 2))
        await wait_for(pilot, lambda: app.screen.conversation.thread_id == ids[0], what="the clicked thread")
        await pilot.click("#inspector Tab#--content-tab-tab-timeline")
        await pilot.pause()
        assert app.screen.query_one("#inspector").active == "tab-timeline"
