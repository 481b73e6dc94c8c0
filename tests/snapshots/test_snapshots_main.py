"""Snapshots of the main screen and its modals, on data written to the real server with
fixed ids and fixed text (no run, so nothing random), a frozen clock and no cursor blink."""

from __future__ import annotations

import asyncio

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_snapshot_app, settle, wait_for, wait_ready
from threadbench.config import Profile
from threadbench.models import ChatMessage, RunEvent, ToolCallChunk
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.composer import Composer
from threadbench.ui.widgets.run_status import RunStatus
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server

TOOLS_THREAD = "00000000-0000-4000-8000-000000000001"
LONG_THREAD = "00000000-0000-4000-8000-000000000002"
OTHER_THREAD = "00000000-0000-4000-8000-000000000003"
PAST_THREAD = "00000000-0000-4000-8000-000000000004"
"""Two checkpoints, tagged apart from the others (their list stays three threads)."""

TOOLS_MESSAGES = [
    {"type": "human", "id": "m1", "content": "Plan a small research report on penguins"},
    {
        "type": "ai",
        "id": "m2",
        "content": "I'll start with a plan.",
        "tool_calls": [
            {
                "id": "call_1",
                "name": "write_todos",
                "args": {
                    "todos": [
                        {"content": "Find sources", "status": "completed"},
                        {"content": "Draft the report", "status": "in_progress"},
                    ]
                },
                "type": "tool_call",
            }
        ],
    },
    {
        "type": "tool",
        "id": "m3",
        "tool_call_id": "call_1",
        "name": "write_todos",
        "content": "Updated the todo list (2 items).",
    },
    {
        "type": "ai",
        "id": "m4",
        "content": "",
        "tool_calls": [
            {"id": "call_2", "name": "run_command", "args": {"command": "ls /mnt/data"}, "type": "tool_call"}
        ],
    },
    {
        "type": "tool",
        "id": "m5",
        "tool_call_id": "call_2",
        "name": "run_command",
        "status": "error",
        "content": "Error: permission denied",
    },
    {
        "type": "ai",
        "id": "m6",
        "content": (
            "## Plan\n\n- **Sources**: done\n- **Draft**: in progress\n\n"
            "The `ls` failed, so I used the cached notes. [bold]literal[/bold]"
        ),
    },
]
TOOLS_VALUES = {
    "messages": TOOLS_MESSAGES,
    "title": "Penguin research report",
    "todos": [
        {"content": "Find sources", "status": "completed"},
        {"content": "Draft the report", "status": "in_progress"},
        {"content": "Review", "status": "pending"},
    ],
    "artifacts": ["/mnt/user-data/outputs/report.md"],
    "uploaded_files": [
        {"filename": "notes.txt", "size": 120, "path": "/mnt/user-data/uploads/notes.txt", "extension": ".txt"}
    ],
}


async def seed(url: str) -> None:
    client = get_client(url=url)
    if await client.threads.search(ids=[TOOLS_THREAD]):
        return
    for thread_id, suite in ((OTHER_THREAD, "snap"), (LONG_THREAD, "snap"), (TOOLS_THREAD, "snap")):
        await client.threads.create(thread_id=thread_id, metadata={"suite": suite}, graph_id="agent")
    await client.threads.update_state(
        OTHER_THREAD,
        {"messages": [{"type": "human", "id": "o1", "content": "An older question"}], "title": "Older question"},
        as_node="title",
    )
    long_messages = []
    for i in range(1000):
        long_messages.append({"type": "human", "id": f"h{i}", "content": f"Question number {i}"})
        long_messages.append({"type": "ai", "id": f"a{i}", "content": f"Answer number {i}: **fine**."})
    await client.threads.update_state(
        LONG_THREAD, {"messages": long_messages, "title": "A very long thread"}, as_node="title"
    )
    await client.threads.update_state(TOOLS_THREAD, TOOLS_VALUES, as_node="title")
    await client.threads.create(thread_id=PAST_THREAD, metadata={"suite": "snap-past"}, graph_id="agent")
    for n, answer in ((1, "The first answer."), (2, "The second answer, which the past view does not show.")):
        await client.threads.update_state(
            PAST_THREAD,
            {
                "messages": [
                    {"type": "human", "id": f"p{n}q", "content": f"Question {n}"},
                    {"type": "ai", "id": f"p{n}a", "content": answer},
                ],
                "title": "Two checkpoints",
            },
            as_node="title",
        )


@pytest.fixture(scope="module")
def seeded(server_url):
    asyncio.run(seed(server_url))
    return server_url


async def open_thread(pilot, thread_id: str) -> None:
    app = pilot.app
    await wait_ready(pilot)
    search = app.screen.query_one("#thread-search")
    search.value = "suite=snap"
    threads = app.screen.query_one("#thread-list", ThreadList)
    await wait_for(pilot, lambda: len(threads.threads) == 3, what="the seeded threads")
    threads.highlight_thread(thread_id)
    await wait_for(
        pilot,
        lambda: (
            app.screen.conversation.thread_id == thread_id
            and app.screen.conversation.thread_state is not None
            and app.screen.conversation.thread_state.thread_id == thread_id
        ),
        what="the thread",
    )
    threads.focus()
    await settle(pilot)


def test_main_screen_with_tool_calls_and_todos(seeded, snap_compare):
    async def run_before(pilot):
        await open_thread(pilot, TOOLS_THREAD)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_main_screen_empty_result(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)  # a known thread stays open behind the empty list
        app.screen.query_one("#thread-search").value = "suite=nothing-matches-this"
        await wait_for(pilot, lambda: "0 of 0" in str(app.screen.query_one("#thread-counts").visual))
        app.screen.query_one("#thread-list").focus()
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_long_thread_scrolled_to_the_top(seeded, snap_compare):
    async def run_before(pilot):
        await open_thread(pilot, LONG_THREAD)
        chat = pilot.app.screen.query_one(ChatLog)
        chat.focus()
        await settle(pilot)
        await pilot.press("pageup", "home")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_find_in_the_thread(seeded, snap_compare):
    """ctrl+f in the chat: every match marked, the current one scrolled to, "2 of N"."""

    async def run_before(pilot):
        await open_thread(pilot, TOOLS_THREAD)
        pilot.app.screen.query_one(ChatLog).focus()
        await settle(pilot)
        await pilot.press("ctrl+f", *"the", "enter", "enter")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_an_open_tool_call_with_the_cursor_on_it(seeded, snap_compare):
    async def run_before(pilot):
        await open_thread(pilot, TOOLS_THREAD)
        pilot.app.screen.query_one(ChatLog).focus()
        await settle(pilot)
        await pilot.press("tab", "enter")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_run_in_progress_frozen(seeded, snap_compare):
    async def run_before(pilot):
        await open_thread(pilot, OTHER_THREAD)
        app = pilot.app
        chat = app.screen.query_one(ChatLog)
        status = app.screen.query_one(RunStatus)
        status.begin()
        await chat.add_message(ChatMessage(id="live-h", type="human", text="Search the web for penguin facts"))
        events = [
            RunEvent(
                kind="token", message_id="live-ai", message_type="ai", node="agent", reasoning="The user wants facts; "
            ),
            RunEvent(
                kind="token",
                message_id="live-ai",
                message_type="ai",
                node="agent",
                text="Here is what I found so far:\n\n- Emperor penguins",
            ),
            RunEvent(
                kind="token",
                message_id="live-ai",
                message_type="ai",
                node="agent",
                tool_call_chunks=[ToolCallChunk(0, "call_9", "web_search", '{"query": "penguin fa')],
            ),
        ]
        await chat.apply_events(events)
        status.count(42, "agent")
        status._redraw()
        app.screen.query_one(Composer).load_text("a draft typed while it runs")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_new_thread_screen(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "NewThreadScreen")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_delete_confirm_screen(seeded, snap_compare):
    async def run_before(pilot):
        await open_thread(pilot, TOOLS_THREAD)
        await pilot.press("x")
        await wait_for(pilot, lambda: pilot.app.screen.__class__.__name__ == "ConfirmScreen")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_run_options_screen(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        await pilot.press("o")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "RunOptionsScreen")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_run_options_screen_where_the_graphs_options_cannot_be_read(seeded, snap_compare):
    """As on a server whose auth hides the assistants: DeerFlow's options, and why."""
    from threadbench.run_options import fields_from_schema
    from threadbench.ui.screens.run_options import RunOptionsScreen

    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        note = "The server shows no assistant of support_bot, so the graph's own options could not be read."
        app.push_screen(
            RunOptionsScreen(app.session.run_options, fields_from_schema({}), [], ["support_bot"], note=note)
        )
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "RunOptionsScreen")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_run_options_screen_with_the_gateways_models(seeded, snap_compare):
    """The models the real Gateway named (recorded), the first chosen: no thinking, greyed out."""
    import json
    from pathlib import Path

    from threadbench.models import ServerModel
    from threadbench.run_options import fields_from_schema
    from threadbench.ui.screens.run_options import RunOptionsScreen

    recorded = json.loads((Path(__file__).parents[1] / "data" / "gateway" / "recorded.json").read_text())
    named = next(e["answer"] for e in recorded if e["name"] == "models")["models"]
    models = [ServerModel.model_validate({k: v for k, v in m.items() if v is not None}) for m in named]

    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        app.push_screen(
            RunOptionsScreen(app.session.run_options, fields_from_schema({}), [], ["lead_agent"], models=models)
        )
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "RunOptionsScreen")
        await settle(pilot)
        app.screen.query_one("#option-model_name").value = "fake-model"
        app.screen.query_one("#option-mode").value = "flash"
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_cancel_run_screen(seeded, snap_compare):
    from threadbench.ui.screens.cancel_run import CancelRunScreen

    async def run_before(pilot):
        await open_thread(pilot, OTHER_THREAD)
        pilot.app.push_screen(CancelRunScreen())
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_new_thread_refused_keeps_what_was_typed(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "NewThreadScreen")
        dialog = app.screen
        dialog.query_one("#new-thread-id").value = OTHER_THREAD  # in use: the server refuses it
        dialog.query_one("#new-thread-metadata").load_text('{"team": "research"}')
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "already exists" in dialog.error_text, what="the refusal")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


async def open_past_thread(pilot) -> None:
    """The thread of two checkpoints open, its timeline loaded."""
    await wait_ready(pilot)
    screen = pilot.app.screen
    screen.query_one("#thread-search").value = "suite=snap-past"
    threads = screen.query_one("#thread-list", ThreadList)
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [PAST_THREAD], what="the thread")
    threads.highlighted = 0
    await wait_for(pilot, lambda: len(screen.inspector.timeline.model.rows) >= 2, what="the timeline")


def test_past_view_of_the_chat(seeded, snap_compare):
    async def run_before(pilot):
        await open_past_thread(pilot)
        screen = pilot.app.screen
        screen.sidebar.thread_list.focus()
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: screen.inspector.is_past_view, what="the past view")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def long_reply() -> str:
    """About 9,000 characters of Markdown: blocks above the last two are built when seen."""
    sections = []
    for n in range(12):
        sections.append(
            f"## Part {n}\n\nThis part explains step {n} of the plan in a few plain words.\n\n"
            + "".join(f"- point {n}.{i}: checked\n" for i in range(8))
            + f"\nSo step {n} is done, and the next one starts from its notes.\n"
        )
    return "\n".join(sections)


def test_long_reply_opened_at_its_end(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, OTHER_THREAD)
        await app.screen.conversation.chat.show_messages(
            [
                ChatMessage(id="q", type="human", text="Write the whole plan out"),
                ChatMessage(id="r", type="ai", text=long_reply()),
            ]
        )
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_send_thread_screen(seeded, snap_compare):
    app = make_snapshot_app(seeded)
    app.settings.profiles = {
        "staging": Profile(name="staging", url="https://staging.example.com"),
        "prod": Profile(name="prod", url="https://agents.example.com/api", api_key_env="PROD_KEY"),
    }

    async def run_before(pilot):
        await open_thread(pilot, TOOLS_THREAD)
        await pilot.press("M")
        await wait_for(pilot, lambda: pilot.app.screen.__class__.__name__ == "ChooseScreen")
        await settle(pilot)

    assert snap_compare(app, terminal_size=TERMINAL, run_before=run_before)


def test_main_screen_search_inside_conversations(seeded, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        threads = app.screen.query_one("#thread-list")
        app.screen.query_one("#thread-search").value = 'suite=snap "cached notes"'
        await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [TOOLS_THREAD], what="the match")
        threads.focus()
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def _recorded(name: str):
    import json
    from pathlib import Path

    recorded = json.loads((Path(__file__).parents[1] / "data" / "gateway" / "recorded.json").read_text())
    return next(e["answer"] for e in recorded if e["name"] == name)


def test_attach_dialog_with_the_gateways_limits(seeded, snap_compare):
    """ctrl+u's dialog: the limits the real Gateway answered, a file attached already, a path typed."""
    from pathlib import Path

    from threadbench.models import UploadLimits
    from threadbench.ui.screens.attach import AttachScreen
    from threadbench.uploads import Attachment

    limits = UploadLimits.model_validate(_recorded("uploads: limits"))

    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        attached = [Attachment(Path("/home/me/notes.txt"), 46)]
        app.push_screen(AttachScreen(attached, limits, typed="/nowhere/penguins/colony-counts.csv"))
        await wait_for(pilot, lambda: isinstance(app.screen, AttachScreen))
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_composer_with_an_attachment_and_follow_ups(seeded, snap_compare):
    """The lines above the composer: the questions the real Gateway suggested, two files attached."""
    from pathlib import Path

    from threadbench.uploads import Attachment

    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        conversation = app.screen.conversation
        conversation.attachments[TOOLS_THREAD] = [
            Attachment(Path("/home/me/notes.txt"), 46),
            Attachment(Path("/home/me/colony-counts.csv"), 23_456),
        ]
        conversation.show_attachments()
        conversation.follow_ups = _recorded("suggestions")["suggestions"]
        conversation.show_follow_ups()
        app.screen.query_one(Composer).focus()
        await pilot.press(*"compare the two files")
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)


def test_uploads_screen(seeded, snap_compare):
    """U: the thread's uploads as the real Gateway listed them (a server that takes files)."""
    from threadbench.models import UploadedFile
    from threadbench.ui.screens.uploads import UploadsScreen

    listed = [
        UploadedFile.model_validate({k: v for k, v in f.items() if v is not None})
        for f in _recorded("uploads: list")["files"]
    ]
    listed.append(listed[0].model_copy(update={"filename": "colony-counts.csv", "size": 23_456}))

    class Uploads:  # what the real Gateway listed, without a Gateway (the Pilot tests use the stand-in)
        async def list_uploads(self, thread_id: str) -> list[UploadedFile]:
            return listed

    async def run_before(pilot):
        app = pilot.app
        await open_thread(pilot, TOOLS_THREAD)
        app.push_screen(UploadsScreen(Uploads(), TOOLS_THREAD, "Penguin research"))  # type: ignore[arg-type]
        await wait_for(pilot, lambda: isinstance(app.screen, UploadsScreen) and len(app.screen.files) == 2)
        await settle(pilot)

    assert snap_compare(make_snapshot_app(seeded), terminal_size=TERMINAL, run_before=run_before)
