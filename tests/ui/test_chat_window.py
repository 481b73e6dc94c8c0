"""The chat mounts a window of a long thread's messages: scrolling up brings older ones in (a
screen of them at a time, before the reader reaches the window's top) and lets the newest go,
scrolling down brings them back, home and end jump to either end, and a new message brings
the window back to the end first."""

from __future__ import annotations

import asyncio

from support.driving import press_at_once, wait_for
from textual.app import App, ComposeResult
from threadbench.models import ChatMessage, ToolCall
from threadbench.styles import STYLES
from threadbench.ui.widgets.chat_log import FILLS, MOUNTED, PAGE, ChatLog
from threadbench.ui.widgets.message_views import MessageView

COUNT = 240


class WatchedChat(ChatLog):
    """Notes every scroll of the reader's that reaches the window's top while older messages
    are not mounted (not the window's own, keeping the reader's place as messages come in:
    Textual sets the end of a scroll under way then, and the window's place right after)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.at_the_edge: list[int] = []

    def watch_scroll_y(self, old: float, new: float) -> None:
        if new == 0 and self._first and not self._anchoring:
            self.at_the_edge.append(self._first)
        super().watch_scroll_y(old, new)


class Host(App):
    CSS_PATH = [STYLES / "app.tcss"]  # (a message's height is the app's)

    def compose(self) -> ComposeResult:
        yield WatchedChat(id="chat-log")


def thread() -> list[ChatMessage]:
    return [
        ChatMessage(id=f"m{n}", type="human" if n % 2 == 0 else "ai", text=f"message {n}\n\nsecond line of {n}")
        for n in range(COUNT)
    ]


def mounted(chat: ChatLog) -> list[str]:
    return [view.message.id for view in chat.query_children(MessageView)]


def in_view(chat: ChatLog) -> list[str]:
    return [view.message.id for view in chat.query_children(MessageView) if chat.region.overlaps(view.region)]


async def at_the_top(pilot) -> ChatLog:
    """The thread shown, and `home` pressed in the chat: its first message at the top."""
    chat = pilot.app.query_one(ChatLog)
    await chat.show_messages(thread())
    chat.focus()
    await pilot.press("home")
    await wait_for(pilot, lambda: chat.scroll_y == 0 and mounted(chat)[:1] == ["m0"], what="the first message")
    return chat


async def test_scrolling_up_and_down_a_long_thread_keeps_a_window_of_messages() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        chat = app.query_one(ChatLog)
        await chat.show_messages(thread())
        await pilot.pause()
        assert mounted(chat)[-1] == f"m{COUNT - 1}"
        chat.focus()
        # up a page at a time: what was read stays in view as older pages come in at the top
        for _ in range(30):
            seen = in_view(chat)
            await pilot.press("pageup")
            await wait_for(pilot, lambda: not chat.loading_ahead)
            await pilot.pause()
            assert len(mounted(chat)) <= MOUNTED
            if chat.scroll_y > 0:
                assert set(seen) & set(in_view(chat)) or int(seen[0][1:]) > int(in_view(chat)[-1][1:])
        assert chat.at_the_edge == [], "(older ones come before the window's top is reached)"
        assert mounted(chat)[-1] != f"m{COUNT - 1}", "(the newest went as older ones came in)"
        assert "newer messages" in str(chat.query_one(".less-marker").render())
        # back down: the newest come back
        for _ in range(80):
            await pilot.press("pagedown")
            await wait_for(pilot, lambda: not chat.loading_ahead)
            await pilot.pause()
            assert len(mounted(chat)) <= MOUNTED
            if mounted(chat)[-1] == f"m{COUNT - 1}" and chat.scroll_y == chat.max_scroll_y:
                break
        assert mounted(chat)[-1] == f"m{COUNT - 1}" and not chat.query(".less-marker")


def resting(chat: ChatLog) -> list[MessageView]:
    return [view for view in chat.query_children(MessageView) if view.resting]


async def test_messages_far_from_the_view_rest_and_wake_before_they_come_into_it() -> None:
    """A layout takes the messages near the view only: those mounted far from it keep their
    height with no child displayed, and are displayed again before a scroll shows them."""
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        chat = app.query_one(ChatLog)
        await chat.show_messages(thread())
        chat.focus()
        await pilot.pause()
        for _ in range(12):  # up: older messages mounted, the window laid out anew
            await pilot.press("pageup")
            await wait_for(pilot, lambda: not chat.loading_ahead)
        await pilot.pause()
        far = resting(chat)
        assert far, "(far from the view, messages rest)"
        for view in far:
            assert view.outer_size.height > 0 and not any(child.display for child in view.children)
            assert not chat.region.overlaps(view.region)
        for _ in range(4):  # down to them: each is awake once in view
            await pilot.press("pagedown")
            await wait_for(pilot, lambda: not chat.loading_ahead)
            await pilot.pause()
            for view in chat.query_children(MessageView):
                if chat.region.overlaps(view.region):
                    assert not view.resting and all(child.display for child in view.children)
        assert any(view.is_attached and not view.resting for view in far), "(woken as the view came near)"


async def test_home_end_and_a_new_message_jump_the_window() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        chat = await at_the_top(pilot)
        await pilot.pause()
        assert len(mounted(chat)) <= MOUNTED and "m0" in in_view(chat)
        await pilot.press("end")
        await wait_for(
            pilot,
            lambda: mounted(chat)[-1:] == [f"m{COUNT - 1}"] and chat.scroll_y == chat.max_scroll_y,
            what="the newest message",
        )
        await pilot.press("home")
        await wait_for(pilot, lambda: mounted(chat)[:1] == ["m0"], what="the first message again")
        await chat.add_message(ChatMessage(id="new", type="human", text="a new question"))
        await pilot.pause()
        assert mounted(chat)[-2:] == [f"m{COUNT - 1}", "new"] and len(mounted(chat)) <= MOUNTED
        assert not chat.query(".less-marker")


async def test_a_growing_conversation_keeps_a_window_at_its_end() -> None:
    """A long session lays out as few messages at its end as at its start: while the view
    follows the end, the messages above the newest few screens go, and come back from the top."""
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        chat = app.query_one(ChatLog)
        await chat.show_messages(thread()[:2])
        for n in range(2, 120):
            await chat.add_message(thread()[n])
        await pilot.pause()
        assert len(chat.messages) == 120
        assert 10 < len(mounted(chat)) <= 40 and mounted(chat)[-1] == "m119"
        assert chat.scroll_y == chat.max_scroll_y
        assert f"↑ {120 - len(mounted(chat))} older messages" in str(chat.query_one(".more-marker").render())
        chat.focus()
        await pilot.press("home")
        await wait_for(pilot, lambda: chat.scroll_y == 0 and mounted(chat)[:1] == ["m0"], what="the first message")
        await pilot.press("end")
        await wait_for(pilot, lambda: mounted(chat)[-1:] == ["m119"], what="the newest message")
        await pilot.pause()
        # read up a little: the view no longer follows the end, and nothing above it goes
        assert chat.max_scroll_y > 2
        chat.scroll_to(y=chat.max_scroll_y - 2, animate=False, immediate=True)
        await wait_for(pilot, lambda: not chat.loading_ahead, what="older messages mounted ahead of the reader")
        before = mounted(chat)
        await chat.add_message(ChatMessage(id="new", type="human", text="a new question"))
        await pilot.pause()
        assert mounted(chat) == [*before, "new"]


async def test_a_message_after_reading_far_up_brings_the_view_back_to_follow_the_end() -> None:
    """The reader went to the top and paged down a little; then a question is sent and the
    reply comes: both are shown, the view following the end (the reply had stayed below it)."""
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        chat = await at_the_top(pilot)
        for _ in range(6):  # a key every 0.15 s, each page gliding down as the next comes
            press_at_once(app, "pagedown")
            await asyncio.sleep(0.15)
        await pilot.pause(1.0)
        await chat.add_message(ChatMessage(id="question", type="human", text="a question"))
        await pilot.pause()
        await chat.add_message(ChatMessage(id="reply", type="ai", text="the reply"))
        await wait_for(pilot, lambda: "reply" in in_view(chat), what="the reply in view")
        assert chat.scroll_y == chat.max_scroll_y


def agent_thread(count: int) -> list[ChatMessage]:
    """An agent's turns: a question, two tool calls and their results (a long result text,
    shown folded on one line), an answer."""
    messages: list[ChatMessage] = []
    for n in range(count):
        messages.append(ChatMessage(id=f"h{n}", type="human", text=f"question {n}"))
        for k in range(2):
            call = ToolCall(id=f"c{n}-{k}", name="web_search", args={"query": f"{n} {k}"})
            messages.append(ChatMessage(id=f"t{n}-{k}", type="ai", tool_calls=[call]))
            messages.append(ChatMessage(id=f"r{n}-{k}", type="tool", name="web_search", text="result " * 80))
        messages.append(ChatMessage(id=f"a{n}", type="ai", text=f"answer {n}"))
    return messages


async def scrolled_up_once(pilot, messages: list[ChatMessage]) -> tuple[ChatLog, int]:
    """The thread shown at its end; pageup pressed: (the chat, the older messages mounted by then)."""
    chat = pilot.app.query_one(ChatLog)
    await chat.show_messages(messages)
    await pilot.pause()
    await wait_for(pilot, lambda: not chat.loading_ahead, what="the window")
    await pilot.pause()
    first = chat._first
    chat.focus()
    await pilot.press("pageup")
    await wait_for(pilot, lambda: not chat.loading_ahead, what="older messages")
    await pilot.pause()
    return chat, first - chat._first


async def test_a_thread_of_folds_opens_taller_than_the_view_so_scrolling_up_brings_older_ones() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        chat, older = await scrolled_up_once(pilot, agent_thread(60))
        assert chat.max_scroll_y > 0, "the window fills the view"
        assert older > 0, "pageup mounted older messages"


async def test_a_window_of_hidden_messages_is_filled_with_older_ones_it_can_show() -> None:
    shown = [ChatMessage(id=f"s{n}", type="human", text=f"shown {n}") for n in range(60)]
    hidden = [ChatMessage(id=f"x{n}", type="ai", text=f"hidden {n}", hidden=True) for n in range(80)]
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        chat, older = await scrolled_up_once(pilot, shown + hidden)
        assert chat.max_scroll_y > 0, "older messages were mounted until the view was filled"
        assert any(id.startswith("s") for id in in_view(chat))
        assert older > 0, "and pageup brings more"


async def test_a_thread_of_hidden_messages_alone_is_not_walked_to_its_start_to_fill_the_view() -> None:
    hidden = [ChatMessage(id=f"x{n}", type="ai", text=f"hidden {n}", hidden=True) for n in range(2000)]
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        chat = app.query_one(ChatLog)
        await chat.show_messages(hidden)
        for _ in range(40):
            await pilot.pause(0.05)
        await wait_for(pilot, lambda: not chat.loading_ahead, what="the fill to stop")
        assert chat._first >= 2000 - 40 - FILLS * PAGE > 1000, "it stopped long before the thread's start"
        chat.action_toggle_hidden()  # h: the hidden ones are shown, and the view can scroll
        await pilot.pause()
        assert chat.max_scroll_y > 0
