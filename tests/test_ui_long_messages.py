"""A long reply opened from the server: its last blocks are built at once, the ones above
only when they come into view (Textual lays out every displayed widget on every layout)."""

from __future__ import annotations

import pytest
from langgraph_sdk import get_client

from app.ui.widgets.message_views import AIMessageView, BlockFrame
from ui_support import TERMINAL, make_app, open_tagged, screen_text, tag, wait_for, wait_ready

pytestmark = pytest.mark.server


async def test_a_long_reply_builds_the_blocks_above_when_they_are_seen(server_url):
    client = get_client(url=server_url)
    metadata = tag()
    thread = await client.threads.create(metadata=metadata, graph_id="agent")
    await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": "long 2000"}]})
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread["thread_id"])
        chat = app.screen.chat
        await wait_for(pilot, lambda: chat.query(AIMessageView), what="the reply")
        view = chat.query_one(AIMessageView)
        blocks = view.markdown
        frames = [block for block in blocks._composed if isinstance(block, BlockFrame)]
        assert frames and frames[0].deferred, "the top of a long reply is not built while out of view"
        assert blocks.text == view.message.text  # nothing lost: copy, export and redraws read this
        first_line = view.message.text.strip().splitlines()[0]
        assert first_line not in screen_text(app)

        chat.focus()
        await pilot.press("home")  # to the top: the blocks up there are built as they show
        await wait_for(pilot, lambda: not frames[0].deferred, what="the first block built")
        await wait_for(pilot, lambda: first_line in screen_text(app), what="the reply's first line on screen")
        assert frames[0].markdown.source == frames[0].source
