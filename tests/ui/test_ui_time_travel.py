"""Pilot: time travel on the real server: step back, read the past, fork, replay, edit."""

from __future__ import annotations

import asyncio
import uuid

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
    working,
)
from support.waiting import eventually
from threadbench.ui.regions import history
from threadbench.ui.regions.conversation import Conversation
from threadbench.ui.regions.inspector import Inspector
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.screens.edit_state import EditStateScreen
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.thread_list import ThreadList

pytestmark = pytest.mark.server


async def three_turns(url: str) -> str:
    client = get_client(url=url)
    thread = await client.threads.create(metadata={"suite": uuid.uuid4().hex[:10]})
    for text in ("hello", "tell me more", "thanks"):
        await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": text}]})
    return thread["thread_id"]


async def open_it(pilot, url: str, thread_id: str) -> None:
    app = pilot.app
    await wait_ready(pilot)
    thread = await get_client(url=url).threads.get(thread_id)
    app.screen.query_one("#thread-search").value = f"suite={thread['metadata']['suite']}"
    threads = app.screen.query_one("#thread-list", ThreadList)
    await wait_for(pilot, lambda: [t.thread_id for t in threads.threads] == [thread_id])
    threads.focus()
    if app.screen.conversation.thread_id != thread_id:
        threads.highlighted = 0
    inspector = app.screen.query_one(Inspector)

    def its_history() -> bool:  # (the thread open before may still be in the timeline)
        shown = inspector.timeline.checkpoints
        return app.screen.conversation.thread_id == thread_id and len(shown) > 5 and shown[0].thread_id == thread_id

    await wait_for(pilot, its_history, what="history")


async def test_a_thread_opens_whole_when_its_first_paint_is_never_reported(server_url, monkeypatch):
    """Textual runs a call_after_refresh callback on the screen on top when it is handed over,
    and a dialog closed before its next frame never runs it: the open does not wait for it for
    ever, and the timeline still loads. (The fault made by dropping every such callback of the
    conversation: the real race is a dialog opened and closed within a frame.)"""
    monkeypatch.setattr(Conversation, "call_after_refresh", lambda self, callback, *args, **kwargs: True)
    thread_id = await three_turns(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_it(pilot, server_url, thread_id)
        await wait_for(pilot, lambda: not working(app, "open"), what="the open done")
        assert "thanks" in screen_text(app)


def chat_rows(app, chat: ChatLog) -> list[str]:
    """The chat's rows as the terminal shows them."""
    region = chat.region
    return [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]


async def test_step_back_read_the_past_fork_and_replay(server_url):
    thread_id = await three_turns(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_it(pilot, server_url, thread_id)
        inspector = app.screen.query_one(Inspector)
        live_humans = [m.text for m in app.screen.conversation.thread_state.messages if m.type == "human"]
        assert live_humans == ["hello", "tell me more", "thanks"]

        # step back until the chat shows the conversation before the last turn
        for _ in range(12):
            await pilot.press("left_square_bracket")
            await settle(pilot)
            chat = app.screen.query_one(ChatLog)
            humans = [m.text for m in chat.messages if m.type == "human"]
            if humans == ["hello", "tell me more"]:
                break
        assert humans == ["hello", "tell me more"]
        assert inspector.is_past_view
        assert any("past view" in row for row in chat_rows(app, chat))  # clearly marked as a past view
        past = inspector.timeline.selected

        # fork here with an edited title
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditStateScreen))
        editor = app.screen.query_one("#state-editor")
        editor.load_text('{"title": "Forked title"')  # invalid JSON: refused locally
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EditStateScreen)
        assert editor.text == '{"title": "Forked title"'
        editor.load_text('{"title": "Forked title"}')
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, EditStateScreen))
        await wait_for(
            pilot, lambda: app.screen.conversation.thread_state.title == "Forked title", what="the fork is the head"
        )
        state = await get_client(url=server_url).threads.get_state(thread_id)
        assert state["values"]["title"] == "Forked title"
        assert state["parent_checkpoint"]["checkpoint_id"] == past.checkpoint_id
        assert [m["content"] for m in state["values"]["messages"] if m["type"] == "human"] == ["hello", "tell me more"]
        await wait_for(
            pilot,
            lambda: inspector.timeline.checkpoints and inspector.timeline.checkpoints[0].title == "Forked title",
            what="timeline head",
        )

        # replay from an older checkpoint: the run streams into the chat
        await pilot.press("left_square_bracket", "left_square_bracket")
        await settle(pilot)
        assert inspector.is_past_view
        await pilot.press("p")  # p runs the graph: asked first
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        # what lasts, not the "running" status: a short replay starts and ends between two looks
        client = get_client(url=server_url)

        async def branched() -> bool:  # some checkpoint has two children: a branch
            history = await client.threads.get_history(thread_id, limit=100)
            parents = [h["parent_checkpoint"]["checkpoint_id"] for h in history if h.get("parent_checkpoint")]
            return len(parents) != len(set(parents))

        await eventually(branched, what="the replay's branch in the history")
        await wait_for(pilot, lambda: app.screen.query_one("#run-status").state == "idle", what="replay ends")


async def test_edit_state_with_invalid_json_sends_nothing(server_url):
    thread_id = await three_turns(server_url)
    before = await get_client(url=server_url).threads.get_state(thread_id)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_it(pilot, server_url, thread_id)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditStateScreen))
        editor = app.screen.query_one("#state-editor")
        editor.load_text('{\n  "title": "x",\n  "todos": [\n}')
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EditStateScreen)
        assert editor.text == '{\n  "title": "x",\n  "todos": [\n}'
        assert "line 4" in str(app.screen.query_one("#edit-state-error").visual)
        await pilot.press("escape")
    after = await get_client(url=server_url).threads.get_state(thread_id)
    assert after["checkpoint"]["checkpoint_id"] == before["checkpoint"]["checkpoint_id"]


async def test_the_past_view_notice_stays_in_view_while_a_long_past_chat_scrolls(server_url):
    client = get_client(url=server_url)
    metadata = tag()
    thread = await client.threads.create(metadata=metadata, graph_id="agent")
    thread_id = thread["thread_id"]
    for turn in range(2):  # two checkpoints of 30 messages each: the past one fills screens too
        await client.threads.update_state(
            thread_id,
            {
                "messages": [
                    {
                        "type": "human" if n % 2 == 0 else "ai",
                        "content": f"turn {turn} message {n}\n\nwith a second paragraph",
                        "id": f"m-{turn}-{n}",
                    }
                    for n in range(30)
                ]
            },
        )
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        inspector = app.screen.query_one(Inspector)
        await wait_for(pilot, lambda: len(inspector.timeline.checkpoints) >= 2, what="history")
        chat = app.screen.query_one(ChatLog)
        chat.focus()
        await pilot.press("[")
        await wait_for(pilot, lambda: inspector.is_past_view and "past view" in screen_text(app), what="the past view")
        assert chat.max_scroll_y > 0, "(the past chat is longer than the screen)"

        def notice_in_view() -> bool:  # on the chat's first row
            return "past view" in chat_rows(app, chat)[0]

        await pilot.press("end")
        await wait_for(pilot, lambda: chat.scroll_y == chat.max_scroll_y, what="the end")
        await pilot.pause()
        assert notice_in_view()
        await pilot.press("home")
        await wait_for(pilot, lambda: chat.scroll_y == 0, what="the top")
        await pilot.pause()
        assert notice_in_view()


async def test_braces_jump_between_human_turns_past_the_steps_between(server_url):
    thread_id = await three_turns(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_it(pilot, server_url, thread_id)
        inspector = app.screen.query_one(Inspector)
        timeline = inspector.timeline
        chat = app.screen.query_one(ChatLog)

        def humans() -> list[str]:
            return [m.text for m in chat.messages if m.type == "human"]

        def at_turn(said: list[str]) -> bool:
            # the checkpoint where the human message was added: it is the newest message shown
            return inspector.is_past_view and humans() == said and chat.messages[-1].type == "human"

        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: at_turn(["hello", "tell me more", "thanks"]), what="the third turn")
        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: at_turn(["hello", "tell me more"]), what="the second turn")
        # the first turn may lie beyond the first page of history: it is loaded, then shown
        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: at_turn(["hello"]), what="the first turn")
        first = timeline.selected
        await pilot.press("left_curly_bracket")  # none earlier: the cursor stays, and it says so
        await wait_for(pilot, lambda: any("No earlier human turn" in n for n in notices(app)), what="the notice")
        assert timeline.selected is first

        await pilot.press("right_curly_bracket")
        await wait_for(pilot, lambda: at_turn(["hello", "tell me more"]), what="forward to the second turn")
        await pilot.press("right_curly_bracket", "right_curly_bracket")
        await wait_for(pilot, lambda: not inspector.is_past_view, what="the live head after the last turn")
        assert humans() == ["hello", "tell me more", "thanks"] and chat.messages[-1].type == "ai"


async def test_a_step_in_time_is_painted_in_one_frame_with_its_state_and_chat(server_url):
    """`[`, `]`, `{`, `}` and `g` show the cursor, the state (diff) and the chat of the checkpoint
    in the same frame: no frame shows the cursor on one checkpoint and the rest on another."""
    thread_id = await three_turns(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_it(pilot, server_url, thread_id)
        screen = app.screen
        inspector = screen.query_one(Inspector)
        timeline = inspector.timeline
        chat = screen.query_one(ChatLog)
        frames: list[tuple[str, str, str]] = []

        def shown() -> tuple[str, str, str]:
            """The checkpoint under the cursor, the one the state shows, the chat's last message
            and the cursor's ("" at the live head)."""
            index = timeline.option_list.highlighted or 0
            cursor = timeline.model.rows[index].checkpoint
            viewing = inspector.viewing
            wanted = cursor.messages[-1].id if cursor.messages and index else ""
            last = chat.messages[-1].id if chat.messages and viewing is not None else ""
            return (cursor.checkpoint_id if index else "", viewing.checkpoint_id if viewing else "", f"{wanted}={last}")

        paint = screen._compositor_refresh

        def noted_paint() -> None:
            frames.append(shown())
            paint()

        screen._compositor_refresh = noted_paint
        for key in ["left_square_bracket"] * 4 + ["right_square_bracket", "left_curly_bracket", "right_curly_bracket"]:
            await pilot.press(key)
            await settle(pilot)
        await pilot.press("left_curly_bracket", "g")
        await settle(pilot)
        assert any(cursor for cursor, _, _ in frames), "no step painted"
        torn = [frame for frame in frames if frame[0] != frame[1] or len(set(frame[2].split("="))) != 1]
        assert torn == []


async def whole_timeline(pilot, server_url: str, thread_id: str):
    """The thread opened, its whole history in the timeline."""
    await open_it(pilot, server_url, thread_id)
    timeline = pilot.app.screen.query_one(Inspector).timeline
    await wait_for(pilot, lambda: timeline.exhausted, what="the whole history shown")
    return timeline


async def test_after_a_run_the_timeline_reads_only_the_checkpoints_it_wrote(server_url):
    """Checkpoints never change: after a run the timeline reads the newest page, finds the
    head it showed in it, and keeps the rows it had (a session of long runs read and kept
    the older pages again after every run)."""
    thread_id = await three_turns(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        timeline = await whole_timeline(pilot, server_url, thread_id)
        before = [c.checkpoint_id for c in timeline.checkpoints]
        reads: list[dict] = []
        real_read = app.session.backend.get_history

        async def counted_read(thread_id: str, **kwargs):  # a spy: the real server answers
            reads.append(kwargs)
            return await real_read(thread_id, **kwargs)

        app.session.backend.get_history = counted_read
        app.screen.query_one("#composer").focus()
        await pilot.press(*"once more", "enter")
        client = get_client(url=server_url)
        await wait_for(pilot, lambda: len(timeline.checkpoints) > len(before), what="the run's checkpoints")
        history = await client.threads.get_history(thread_id, limit=100)
        assert [c.checkpoint_id for c in timeline.checkpoints] == [h["checkpoint"]["checkpoint_id"] for h in history]
        assert [c.checkpoint_id for c in timeline.checkpoints][-len(before) :] == before
        assert reads == [{"limit": 5}]  # one page: the head it showed was in it
        options = timeline.option_list
        assert str(options.get_option_at_index(options.option_count - 1).prompt) == "start of the thread"
        assert timeline.selected is timeline.checkpoints[0]  # the cursor on the new head


async def test_after_a_run_the_timeline_keeps_the_newest_checkpoints_and_reads_older_ones_again(
    server_url, monkeypatch
):
    """Each checkpoint holds a whole state: a session of runs on one thread kept every one it
    had seen (a soak of 100 runs: 400 states). After a run the timeline keeps the newest
    KEPT_AFTER_A_RUN; `{` past them reads the older ones from the server again."""
    monkeypatch.setattr(history, "KEPT_AFTER_A_RUN", 8)
    thread_id = await three_turns(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        timeline = await whole_timeline(pilot, server_url, thread_id)
        head = timeline.checkpoints[0].checkpoint_id
        app.screen.query_one("#composer").focus()
        await pilot.press(*"once more", "enter")
        await wait_for(pilot, lambda: timeline.checkpoints[0].checkpoint_id != head, what="the run's checkpoints")
        await settle(pilot)
        assert len(timeline.checkpoints) == 8 and not timeline.exhausted
        options = timeline.option_list
        last = options.get_option_at_index(options.option_count - 1)
        assert "older checkpoints load as you scroll" in str(last.prompt)
        everything = await get_client(url=server_url).threads.get_history(thread_id, limit=100)
        app.screen.sidebar.thread_list.focus()
        for _ in range(len(everything)):
            await pilot.press("left_curly_bracket")
            await settle(pilot)
        await wait_for(pilot, lambda: timeline.exhausted, what="the older checkpoints read again")
        assert [c.checkpoint_id for c in timeline.checkpoints] == [h["checkpoint"]["checkpoint_id"] for h in everything]


async def test_the_timeline_of_the_thread_left_goes_as_another_opens(server_url):
    """While the new thread's checkpoints are on their way, the timeline shows none: `[`
    stepped through the thread left, showing its past under the new thread's name."""
    left, opened = await three_turns(server_url), await three_turns(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await open_it(pilot, server_url, left)
        main = app.screen
        inspector = main.query_one(Inspector)
        gate = asyncio.Event()
        real_read = app.session.backend.get_history

        async def held_read(thread_id: str, **kwargs):  # the real server answers, once let through
            await gate.wait()
            return await real_read(thread_id, **kwargs)

        app.session.backend.get_history = held_read
        suite = (await get_client(url=server_url).threads.get(opened))["metadata"]["suite"]
        await open_tagged(pilot, {"suite": suite}, opened)
        await wait_for(pilot, lambda: "no checkpoints" in screen_text(app), what="the timeline emptied")
        assert inspector.timeline.checkpoints == []
        main.sidebar.thread_list.focus()
        await pilot.press("left_square_bracket")
        await pilot.pause()  # the key handled (settle would wait for the held read)
        assert not inspector.is_past_view and "past view" not in screen_text(app)
        gate.set()
        await wait_for(pilot, lambda: bool(inspector.timeline.checkpoints), what="its own checkpoints")
        assert {c.thread_id for c in inspector.timeline.checkpoints} == {opened}
