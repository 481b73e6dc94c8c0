"""The chat keeps the final state's order when a run's stream did not carry every message: a
joined run (started by another client) streams the agent's messages, not the person's input,
which the final state then holds before them. Seen in a replayed recording: the question was
drawn under its own answer."""

from __future__ import annotations

from textual.app import App, ComposeResult
from threadbench.models import ChatMessage, RunEvent
from threadbench.ui.widgets.chat_log import ChatLog


class Host(App):
    def compose(self) -> ComposeResult:
        yield ChatLog(id="chat-log")


def said(chat: ChatLog) -> list[str]:
    """The messages as the chat shows them, top to bottom."""
    return [entry.source for entry in chat.entries]


async def test_a_joined_runs_input_is_shown_before_its_reply() -> None:
    before = [ChatMessage(id="h1", type="human", text="hello"), ChatMessage(id="a1", type="ai", text="Hi!")]
    question = ChatMessage(id="h2", type="human", text="plan a report")
    reply = ChatMessage(id="a2", type="ai", text="Here is the plan.")
    app = Host()
    async with app.run_test() as pilot:
        chat = app.query_one(ChatLog)
        await chat.show_messages(before)
        await chat.apply_events(
            [RunEvent(kind="token", message_id="a2", message_type="ai", text="Here is the plan.", last=True)]
        )
        await chat.finish_run([*before, question, reply])
        await pilot.pause()
        assert said(chat) == ["hello", "Hi!", "plan a report", "Here is the plan."]


async def test_messages_after_what_streamed_are_added_at_the_end() -> None:
    before = [ChatMessage(id="h1", type="human", text="hello")]
    reply = ChatMessage(id="a1", type="ai", text="Hi!")
    late = ChatMessage(id="t1", type="ai", text="A note written after the reply.")
    app = Host()
    async with app.run_test() as pilot:
        chat = app.query_one(ChatLog)
        await chat.show_messages(before)
        await chat.apply_events([RunEvent(kind="token", message_id="a1", message_type="ai", text="Hi!", last=True)])
        await chat.finish_run([*before, reply, late])
        await pilot.pause()
        assert said(chat) == ["hello", "Hi!", "A note written after the reply."]
