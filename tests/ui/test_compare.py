"""Pilot: compare side by side (=) and fan out (O) on the real server."""

from __future__ import annotations

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, notices, open_tagged, screen_text, settle, tag, wait_for, wait_ready
from textual.command import CommandList, CommandPalette
from textual.widgets import Input
from threadbench.ui.main_screen import MainScreen
from threadbench.ui.screens.compare import CompareScreen
from threadbench.ui.screens.fanout import FanOutScreen
from threadbench.ui.screens.help import HelpScreen

pytestmark = pytest.mark.server


async def conversation(url: str, metadata: dict[str, str], *texts: str) -> str:
    client = get_client(url=url)
    thread = await client.threads.create(metadata=metadata)
    for text in texts:
        await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": text}]})
    return thread["thread_id"]


def palette_prompts(app) -> list[str]:
    results = app.screen.query_one(CommandList)
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


def compare_screen(app) -> CompareScreen:
    assert isinstance(app.screen, CompareScreen), app.screen
    return app.screen


async def back_to_the_first_turn(pilot) -> str:
    """Step back in time (`[`) to the end of the first turn ("hello" answered); its checkpoint id."""
    main = pilot.app.screen
    await wait_for(pilot, lambda: len(main.inspector.timeline.checkpoints) > 5, what="the history")
    main.sidebar.thread_list.focus()
    for _ in range(12):
        await pilot.press("left_square_bracket")
        await settle(pilot)
        viewing = main.inspector.viewing
        if viewing and [m.text for m in viewing.messages if m.type == "human"] == ["hello"] and not viewing.next:
            return viewing.checkpoint_id
    raise AssertionError("no checkpoint ends the first turn")


async def test_two_checkpoints_of_one_thread_side_by_side(server_url):
    metadata = tag()
    thread_id = await conversation(server_url, metadata, "hello", "plan a trip")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        main = app.screen
        left_checkpoint = await back_to_the_first_turn(pilot)  # the left side
        await pilot.press("equals_sign")
        await settle(pilot)
        pick = str(main.query_one("#compare-pick").visual)
        assert "is the left side" in pick and "press =" in pick  # what to do next
        assert main.inspector.timeline.marked_id == left_checkpoint  # the ★ in the timeline

        # the head is the right side
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("equals_sign")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the compare view")
        await settle(pilot)
        screen = compare_screen(app)
        assert app.screen.query_one("#compare-view")
        assert screen.left.checkpoint_id == left_checkpoint and screen.right.head
        kinds = [turn.kind for turn in screen.alignment.turns]
        assert kinds == ["equal", "right"], kinds
        text = screen_text(app)
        assert "only right" in text and "plan a trip" in text
        assert "messages" in str(screen.query_one("#diff-title").visual)  # the state diff
        assert not main.query_one("#compare-pick").display  # the pick is used
        assert main.inspector.timeline.marked_id == ""  # and its ★ gone

        await pilot.press("s")  # swap
        await settle(pilot)
        assert [turn.kind for turn in screen.alignment.turns] == ["equal", "left"]
        await pilot.press("n")  # the next difference
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), what="back to the main screen")


async def test_two_threads_side_by_side_and_open_the_other(server_url):
    metadata = tag()
    first = await conversation(server_url, metadata, "hello", "plan a trip")
    second = await conversation(server_url, metadata, "hello", "show me markup")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        main = app.screen
        main.query_one("#thread-search").value = " ".join(f"{k}={v}" for k, v in metadata.items())
        threads = main.sidebar.thread_list
        await wait_for(pilot, lambda: len(threads.threads) == 2, what="the two threads")
        await settle(pilot)
        threads.focus()
        threads.highlight_thread(first)
        await wait_for(
            pilot,
            lambda: main.conversation.thread_state and main.conversation.thread_state.thread_id == first,
            what="the first",
        )
        await settle(pilot)
        await pilot.press("equals_sign")
        await settle(pilot)
        await pilot.press("equals_sign")  # the same side again: dropped
        await settle(pilot)
        assert main.compare_left is None and not main.query_one("#compare-pick").display
        await pilot.press("equals_sign")
        threads.highlight_thread(second)
        await wait_for(
            pilot, lambda: main.conversation.thread_id == second and main.conversation.thread_state.thread_id == second
        )
        await settle(pilot)
        await pilot.press("equals_sign")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the compare view")
        screen = compare_screen(app)
        assert (screen.left.thread_id, screen.right.thread_id) == (first, second)
        turns = screen.alignment.turns
        assert [turn.kind for turn in turns] == ["equal", "changed"]  # the same greeting (other ids): equal
        rows = turns[1].rows
        assert (rows[0].kind, rows[0].left.text, rows[0].right.text) == ("changed", "plan a trip", "show me markup")
        shown = screen_text(app)
        assert "[bold]not bold[/bold]" in shown and "\x1b" not in shown  # server text is data
        await pilot.press("l")  # open the left side's thread
        await wait_for(
            pilot, lambda: isinstance(app.screen, MainScreen) and main.conversation.thread_id == first, what="opened"
        )


async def test_fan_out_streams_four_forks_side_by_side(server_url):
    metadata = tag()
    thread_id = await conversation(server_url, metadata, "hello")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        main = app.screen
        main.sidebar.thread_list.focus()
        await pilot.press("O")
        await wait_for(pilot, lambda: isinstance(app.screen, FanOutScreen), what="the fan-out form")
        screen = app.screen
        assert screen.query_one("#fanout-view")
        await settle(pilot)
        await pilot.press(*"tell me about penguins")
        sets = ["model_name=alpha", "model_name=beta reasoning_effort=high", "model_name='[bold]gamma'", "bad =x"]
        for number, text in enumerate(sets, 1):
            screen.query_one(f"#fanout-set-{number}", Input).value = text
        await pilot.press("ctrl+s")  # set 4 is wrong: said, and nothing is lost
        await settle(pilot)
        assert "Set 4" in str(screen.query_one("#fanout-error").visual)
        assert screen.query_one("#fanout-set-4", Input).has_focus and not screen.columns
        screen.query_one("#fanout-set-4", Input).value = "thinking_enabled=maybe"  # checked against the schema
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "Set 4: thinking_enabled is true or false" in str(screen.query_one("#fanout-error").visual)
        assert not screen.columns
        screen.query_one("#fanout-set-4", Input).value = "-"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(screen.columns) == 4, what="four columns")
        await wait_for(
            pilot,
            lambda: all(column.status in ("done", "failed") for column in screen.columns),
            timeout=120,
            what="the four forks to end",
        )
        statuses = [(column.status, str(column.query_one(".fanout-status").visual)) for column in screen.columns]
        assert [status for status, _ in statuses] == ["done"] * 4, statuses  # (what a failed one said)
        replies = [column.reply.source for column in screen.columns]
        assert "model: alpha" in replies[0] and "model: beta" in replies[1] and "effort: high" in replies[1]
        assert "[bold]gamma" in replies[2]  # literal
        assert "[bold]gamma" in str(screen.columns[2].query_one(".fanout-options").visual)

        # each fork is a copy of the thread, tagged, with the message after the first turn
        client = get_client(url=server_url)
        forks = [column.thread_id for column in screen.columns]
        assert len(set(forks)) == 4 and thread_id not in forks
        for fork in forks:
            state = await client.threads.get_state(fork)
            humans = [m["content"] for m in state["values"]["messages"] if m["type"] == "human"]
            assert humans == ["hello", "tell me about penguins"]
            assert (await client.threads.get(fork))["metadata"]["fanout_of"] == thread_id
        original = await client.threads.get_state(thread_id)
        assert [m["content"] for m in original["values"]["messages"] if m["type"] == "human"] == ["hello"]

        # compare two forks, then open the second in the main screen
        await pilot.press("1", "c")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="two forks compared")
        assert [turn.kind for turn in app.screen.alignment.turns][-1] == "changed"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, FanOutScreen))
        await pilot.press("2", "enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, MainScreen) and main.conversation.thread_id == forks[1], what="fork 2"
        )


async def test_fan_out_from_a_past_checkpoint_forks_there(server_url):
    metadata = tag()
    thread_id = await conversation(server_url, metadata, "hello", "plan a trip")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        base = await back_to_the_first_turn(pilot)
        await pilot.press("O")
        await wait_for(pilot, lambda: isinstance(app.screen, FanOutScreen), what="the fan-out form")
        screen = app.screen
        await pilot.press(*"say thanks")
        made = await get_client(url=server_url).assistants.create("agent", context={"model_name": "from-assistant"})
        screen.query_one("#fanout-set-2", Input).value = f"assistant_id={made['assistant_id']}"  # another assistant
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: screen.columns and all(c.status == "done" for c in screen.columns), timeout=120, what="done"
        )
        assert "model: threadbench-demo" in screen.columns[0].reply.source
        assert "model: from-assistant" in screen.columns[1].reply.source
        client = get_client(url=server_url)
        for column in screen.columns:
            state = await client.threads.get_state(column.thread_id)
            assert [m["content"] for m in state["values"]["messages"] if m["type"] == "human"] == [
                "hello",
                "say thanks",
            ]
            history = await client.threads.get_history(column.thread_id, limit=50)
            assert base in [h["checkpoint"]["checkpoint_id"] for h in history]


async def test_a_fork_whose_agent_asks_a_question_says_so_and_opens(server_url):
    metadata = tag()
    thread_id = await conversation(server_url, metadata, "hello")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        main = app.screen
        main.sidebar.thread_list.focus()
        await pilot.press("O")
        await wait_for(pilot, lambda: isinstance(app.screen, FanOutScreen), what="the fan-out form")
        screen = app.screen
        await pilot.press(*"please clarify the scope")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.columns and screen.columns[0].status == "asking", timeout=120)
        assert "asks a question" in str(screen.columns[0].query_one(".fanout-status").visual)
        fork = screen.columns[0].thread_id
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, MainScreen) and main.conversation.thread_id == fork, what="the fork"
        )
        assert fork != thread_id


async def test_on_the_gateway_fan_out_says_why_not_and_a_past_side_says_it_has_no_messages(gateway_origin):
    """DeerFlow's Gateway (the stand-in in front of the real server): no copy, no fork, and
    only the newest checkpoint holds the messages."""
    url = gateway_origin + "/api"
    metadata = tag()
    thread_id = await conversation(url, metadata, "hello", "plan a trip")
    app = make_app(url)
    app.session.backend_kind = "deerflow-gateway"
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        main = app.screen
        await wait_for(pilot, lambda: len(main.inspector.timeline.checkpoints) > 3, what="the history")
        main.sidebar.thread_list.focus()
        await pilot.press("O")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any("cannot fan out: it cannot copy a thread or fork" in text for text in notices(app, "warning"))
        await pilot.press("equals_sign", "left_square_bracket", "left_square_bracket")
        await settle(pilot)
        await pilot.press("equals_sign")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the compare view")
        assert "keeps the messages of the newest checkpoint only" in str(app.screen.query_one("#compare-title").visual)


async def test_compare_and_fan_out_are_in_the_help_and_the_palette(server_url):
    metadata = tag()
    thread_id = await conversation(server_url, metadata, "hello")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        app.screen.sidebar.thread_list.focus()
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        ids = {row.binding_id for row in app.screen.rows}
        assert {"main.compare", "main.fan_out", "compare.next", "fanout.run"} <= ids
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"compare")
        await wait_for(
            pilot, lambda: palette_prompts(app)[:1] and palette_prompts(app)[0].startswith("Compare side by side")
        )
        await pilot.press("enter")  # picks the open thread as the left side
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.compare_left is not None)
        assert app.screen.query_one("#compare-pick").display
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"fan out")
        await wait_for(pilot, lambda: palette_prompts(app)[:1] and palette_prompts(app)[0].startswith("Fan out"))


async def test_fan_out_on_a_graph_that_answers_whole_messages(any_server_url):
    """support_bot (a graph this project did not name; auth hides the assistants) returns its
    replies whole, with no tokens: each column still shows its reply."""
    metadata = tag()
    client = get_client(url=any_server_url)
    thread = await client.threads.create(metadata=metadata, graph_id="support_bot")
    await client.runs.wait(thread["thread_id"], "support_bot", input={"messages": [{"type": "human", "content": "hi"}]})
    app = make_app(any_server_url, assistant="")
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread["thread_id"])
        app.screen.sidebar.thread_list.focus()
        await pilot.press("O")
        await wait_for(pilot, lambda: isinstance(app.screen, FanOutScreen), what="the fan-out form")
        screen = app.screen
        await pilot.press(*"where is my order")
        screen.query_one("#fanout-set-2", Input).value = "tone=brief"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: screen.columns and all(c.status == "done" for c in screen.columns), timeout=120, what="done"
        )
        assert all("You said: where is my order" in column.reply.source for column in screen.columns)
        assert screen.target == "support_bot"
