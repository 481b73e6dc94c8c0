"""The chat as a person uses it (chat_log.py): a long thread opens at its end and scrolls
to its top and back with the page keys, home and end; a streamed reply looks as the whole
text does; folds open and close with tab and enter or a click; hidden messages show with h;
a drag selects text without the gutters; a link opens when clicked."""

from __future__ import annotations

import random

import pytest
from support.drawn_cells import ChatOf, screen_cells
from support.driving import screen_lines
from textual.app import App
from textual.geometry import Offset
from textual.selection import Selection
from threadbench.embedded.demo.canned import rich_markdown
from threadbench.models import ChatMessage, RunEvent, ToolCall
from threadbench.ui.widgets.chat_log import ChatLog


def long_thread(count: int) -> list[ChatMessage]:
    messages = []
    for n in range(count // 2):
        messages.append(ChatMessage(id=f"h{n}", type="human", text=f"Question {n}?"))
        messages.append(ChatMessage(id=f"a{n}", type="ai", text=f"**Answer {n}.** " + "word " * (n % 40 + 5)))
    return messages


class Chat(ChatOf):
    """The chat alone, as tall as the screen, with the focus."""

    CSS = "ChatLog { height: 1fr; }"

    def on_mount(self) -> None:  # (and ChatOf's: it shows the messages)
        self.query_one(ChatLog).focus()


def shown(app: App) -> str:
    return "\n".join(screen_lines(app))


async def test_a_long_thread_opens_at_its_end_and_scrolls_to_its_top_and_back():
    app = Chat(long_thread(4000))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chat = app.query_one(ChatLog)
        assert "Answer 1999." in shown(app) and "Question 0?" not in shown(app)
        before = shown(app)
        await pilot.press("pageup")
        assert shown(app) != before and "Answer 1999." not in shown(app)
        top_line = screen_lines(app)[0]
        await pilot.pause()
        assert screen_lines(app)[0] == top_line  # drawing what came into view moved nothing
        await pilot.press("home")
        assert "Question 0?" in shown(app) and chat.scroll_y == 0
        for _ in range(3):
            await pilot.press("pagedown")
        assert "Question 0?" not in shown(app)
        await pilot.press("end")
        assert "Answer 1999." in shown(app)


async def test_pages_held_down_go_faster_and_reach_the_top():
    app = Chat(long_thread(4000))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chat = app.query_one(ChatLog)
        presses = 0
        while chat.scroll_y > 0 and presses < 2000:
            await pilot.press("pageup")
            presses += 1
        assert chat.scroll_y == 0 and "Question 0?" in shown(app)
        assert presses < chat.virtual_size.height / 22  # (more than a page at a time, once held)


async def test_a_new_message_follows_the_end_unless_the_reader_scrolled_up():
    app = Chat(long_thread(200))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chat = app.query_one(ChatLog)
        await chat.add_message(ChatMessage(id="new", type="human", text="the newest question"))
        await pilot.pause()
        assert "the newest question" in shown(app)
        await pilot.press("pageup", "pageup")
        await chat.add_message(ChatMessage(id="newer", type="human", text="another one"))
        await pilot.pause()
        assert "another one" not in shown(app)
        await pilot.press("end")
        assert "another one" in shown(app)


async def test_a_growing_reply_lays_out_no_screen_and_shows_its_last_line(monkeypatch):
    """A layout of the screen (every widget) for each token batch was most of a streaming
    frame: while the scrolled space stays taller than the view, a new height is set without one."""
    app = Chat(long_thread(20))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chat = app.query_one(ChatLog)
        layouts = []
        refresh = chat.refresh

        def counted(*regions, layout=False, **kwargs):
            layouts.append(layout)
            return refresh(*regions, layout=layout, **kwargs)

        monkeypatch.setattr(chat, "refresh", counted)
        heights = {chat.virtual_size.height}
        for n in range(200):
            event = RunEvent(kind="token", message_id="r", message_type="ai", text=f"line {n} of the reply\n\n")
            await chat.apply_events([event])
            await pilot.pause()
            assert f"line {n} of the reply" in screen_lines(app)[-1], "the newest line at the bottom"
            heights.add(chat.virtual_size.height)
        assert len(heights) > 100, "sized to its lines as they came"
        assert not any(layouts), "and no layout asked for"
        assert chat.vertical_scrollbar.window_virtual_size == chat.virtual_size.height, "the scrollbar told"
        await pilot.press("home")
        assert screen_lines(app)[0].strip() == "", "(the first message's margin)"
        assert "Question 0?" in screen_lines(app)[1], "the first line at the top"
        await pilot.press("end")
        await chat.finish_run([*long_thread(20), ChatMessage(id="r", type="ai", text=chat.entries[-1].source)])
        await pilot.pause()
        assert chat.virtual_size.height == chat._rows.total
        assert "line 199 of the reply" in screen_lines(app)[-1]


async def test_a_short_thread_in_a_view_a_row_shorter_shows_no_scrollbar():
    """When a run starts its status can take a row from the chat: a short thread, drawn at the
    view's bottom, must not show a scrollbar for it (a flash, and two layouts of the screen)."""
    app = Chat(long_thread(4))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chat = app.query_one(ChatLog)
        shown_bars: list[bool] = []
        app.watch(chat, "show_vertical_scrollbar", lambda shown: shown_bars.append(shown), init=False)
        chat.styles.height = 23
        await pilot.pause()
        await pilot.pause()
        assert not any(shown_bars) and not chat.show_vertical_scrollbar
        assert "word" in screen_lines(app)[22] and not screen_lines(app)[23].strip(), "at the view's bottom"
        assert chat.virtual_size.height == chat._rows.total, "blank rows drawn, not scrolled"


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_a_reply_streamed_in_any_pieces_looks_as_its_whole_text(theme):
    text = rich_markdown(1500)
    chance = random.Random(7)
    pieces, start = [], 0
    while start < len(text):
        size = chance.randint(1, 60)
        pieces.append(text[start : start + size])
        start += size

    class Streamed(ChatOf):
        async def on_mount(self, event) -> None:
            event.prevent_default()  # (not ChatOf's: nothing shown at once)
            chat = self.query_one(ChatLog)
            for piece in pieces:
                await chat.apply_events([RunEvent(kind="token", message_id="r", message_type="ai", text=piece)])
            await chat.finish_run([ChatMessage(id="r", type="ai", text=text)])

    whole = await screen_cells(ChatOf([ChatMessage(id="r", type="ai", text=text)]), 80, theme, height=400)
    streamed = await screen_cells(Streamed([]), 80, theme, height=400)
    assert streamed == whole


async def test_folds_open_and_close_with_tab_and_enter_and_a_click():
    call = ToolCall(id="c1", name="search", args={"query": "penguins"})
    messages = [
        ChatMessage(id="h", type="human", text="find penguins"),
        ChatMessage(id="a", type="ai", text="Searching.", tool_calls=[call]),
        ChatMessage(id="t", type="tool", name="search", text="3 results about penguins", tool_call_id="c1"),
    ]
    app = Chat(messages)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()

        def body_shown() -> bool:  # the arguments as pretty JSON, under the title
            return any(line.strip(" █") == '"query": "penguins"' for line in screen_lines(app))

        assert "▶ tool call search" in shown(app) and not body_shown()
        await pilot.press("tab", "enter")
        assert "▼ tool call search" in shown(app) and body_shown()
        await pilot.press("enter")
        assert not body_shown()
        row = next(y for y, line in enumerate(screen_lines(app)) if "▶ tool result" in line)
        await pilot.click(ChatLog, offset=(5, row))
        assert "▼ tool result" in shown(app) and "  3 results about penguins" in shown(app)


async def test_h_shows_hidden_messages():
    messages = [
        ChatMessage(id="h", type="human", text="visible question"),
        ChatMessage(id="x", type="human", text="a hidden reminder", hidden=True),
    ]
    app = Chat(messages)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "a hidden reminder" not in shown(app)
        await pilot.press("h")
        assert "a hidden reminder" in shown(app)


async def test_a_selection_takes_the_text_without_the_gutters():
    app = Chat(
        [ChatMessage(id="h", type="human", text="first line of mine"), ChatMessage(id="a", type="ai", text="an answer")]
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chat = app.query_one(ChatLog)
        first = next(n for n in range(20) if (found := chat.line_at(n)) and "first line" in found[1].content.plain)
        app.screen.selections = {chat: Selection(Offset(0, first), Offset(9, first + 2))}
        await pilot.pause()
        assert app.screen.get_selected_text() == "first line of mine\n\nan answer"


async def test_a_link_opens_when_clicked(monkeypatch):
    app = Chat([ChatMessage(id="a", type="ai", text="See [the docs](https://example.com/docs) here.")])
    opened: list[str] = []
    monkeypatch.setattr(app, "open_url", lambda url, **kwargs: opened.append(url))
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.pause()
        row = next(y for y, line in enumerate(screen_lines(app)) if "the docs" in line)
        await pilot.click(ChatLog, offset=(screen_lines(app)[row].index("the docs") + 2, row))
        await pilot.pause()
    assert opened == ["https://example.com/docs"]


def test_server_text_in_a_message_is_data(tmp_path):
    async def run() -> str:
        app = Chat([ChatMessage(id="h", type="human", text="a [b]question[/b] \x1b[31m")])
        async with app.run_test(size=(60, 10)) as pilot:
            await pilot.pause()
            return shown(app)

    import asyncio

    text = asyncio.run(run())
    assert "a [b]question[/b] ␛[31m" in text


async def test_find_marks_every_match_and_n_goes_to_the_next_across_the_thread():
    app = Chat(long_thread(400))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chat = app.query_one(ChatLog)
        assert chat.find("QUESTION 3?") == 1  # (any case)
        await pilot.press("n")
        assert chat.find_position == (1, 1) and "Question 3?" in shown(app)  # scrolled far up to it
        assert chat.find("answer 19") == 11  # 19, 190-199
        await pilot.press("n", "n")
        assert chat.find_position == (2, 11) and "Answer 190." in shown(app)
        await pilot.press("N", "N")
        assert chat.find_position == (11, 11) and "Answer 199." in shown(app)
        chat.find("")
        await pilot.press("n")  # no find: n is not the chat's
        assert chat.find_position == (0, 0)


async def test_scrolling_to_the_end_with_a_key_or_the_scrollbar_is_immediate_and_never_ends_the_app():
    """Each step of an animated scroll settled the view, which scrolled it itself at the end
    and so stopped the animation under Textual's animator: removing it failed (KeyError)."""
    app = Chat(long_thread(40))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chat = app.query_one(ChatLog)
        await pilot.press("up", "up", "down", "down")
        await pilot.wait_for_animation()
        assert app.is_running and chat.scroll_y == chat.max_scroll_y
        await pilot.press("pageup")
        chat.vertical_scrollbar.action_scroll_down()  # (a click on the scrollbar below its thumb)
        await pilot.pause()
        await pilot.wait_for_animation()
        assert app.is_running and chat.scroll_y == chat.max_scroll_y
