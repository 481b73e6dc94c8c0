"""A long reply opened from the server: its last blocks are built at once, the ones above
only when they come into view (Textual lays out every displayed widget on every layout)."""

from __future__ import annotations

import gc
import weakref

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, open_tagged, screen_text, send_in_new_thread, tag, wait_for, wait_ready
from textual.widgets import Markdown
from threadbench.ui.widgets.composer import Composer
from threadbench.ui.widgets.markdown_blocks import BlockFrame
from threadbench.ui.widgets.message_views import AIMessageView

pytestmark = pytest.mark.server


async def test_a_long_reply_builds_the_blocks_above_when_they_are_seen(server_url):
    client = get_client(url=server_url)
    metadata = tag()
    thread = await client.threads.create(metadata=metadata, graph_id="agent")
    await client.runs.wait(
        thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": "long 2000"}]}
    )
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


async def test_a_streamed_reply_lets_go_of_every_block_far_above_the_end(server_url):
    """Also a block that came back into view while the screen caught up with the end
    (it was painted once) is let go again, however many let-go blocks lie below it."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await send_in_new_thread(pilot, "long 5000")
        chat = app.screen.chat
        blocks = None

        def let_go_with_more_below():
            nonlocal blocks
            views = chat.query(AIMessageView)
            if not views:
                return None
            blocks = views.first().markdown
            frames = blocks._frames
            for index, frame in enumerate(frames[:-1]):
                if (frame.set_aside or frame.deferred) and any(f.set_aside or f.deferred for f in frames[index + 1 :]):
                    return frame
            return None

        await wait_for(pilot, let_go_with_more_below, what="a block let go, more let go below it")
        old = let_go_with_more_below()
        # What painting it does, had the view been catching up with the end:
        if old.deferred:
            await old.materialize()
        else:
            old.bring_back()
        await blocks._keep_to_a_screen()  # what the next append does first
        assert app.screen.run_in_progress, "(the reply was still streaming)"
        assert old.set_aside or old.deferred
        await wait_for(pilot, lambda: not app.screen.run_in_progress, timeout=60, what="the run's end")


async def test_replies_above_the_view_let_go_of_their_widgets_and_build_them_when_seen(server_url):
    """A session of many long replies kept every block's widgets (set aside, not let go):
    11 MB and about 100 widgets a reply, and the layouts grew with them; then the frames
    that let go kept them alive in Textual's caches."""
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await send_in_new_thread(pilot, "long 1500")
        screen = app.screen
        chat = screen.chat
        await wait_for(pilot, lambda: not screen.run_in_progress, timeout=60, what="the first reply")
        first = chat.query(AIMessageView).first()
        assert first.markdown.query(Markdown), "(in view: built)"
        built = [weakref.ref(markdown) for markdown in first.markdown.query(Markdown)]
        first_text = first.markdown.text
        first_line = first_text.strip().splitlines()[0]
        for text in ("long 1500", "hello"):
            screen.query_one(Composer).focus()
            await pilot.press(*text, "enter")
            await wait_for(pilot, lambda: screen.run_in_progress, what="the next run")
            await wait_for(pilot, lambda: not screen.run_in_progress, timeout=60, what="its end")
        # far above: its blocks let go, or the whole reply left the chat's window
        assert not first.is_attached or not first.markdown.query(Markdown)
        assert chat.messages[1].text == first_text  # nothing lost
        first = None

        def freed() -> bool:  # (a reply that left the window is taken apart a second later: teardown.py)
            gc.collect()
            return all(ref() is None for ref in built)

        # Textual's caches kept them (6 MB a reply) before the frames forgot them
        await wait_for(pilot, freed, timeout=10, what="nothing keeps what it let go")
        chat.focus()
        await pilot.press("home")
        await wait_for(pilot, lambda: first_line in screen_text(app), what="its first line on screen, built when seen")


async def test_closing_the_app_while_a_reply_streams_is_clean(server_url):
    """The app takes its widgets down before it stops the worker that streams into them."""
    for _ in range(3):  # (a race: a few tries)
        app = make_app(server_url)
        async with app.run_test(size=TERMINAL) as pilot:  # raises what the app raised
            await wait_ready(pilot)
            await send_in_new_thread(pilot, "long 5000")
            chat = app.screen.chat
            await wait_for(
                pilot,
                lambda: chat.query(AIMessageView) and len(chat.query_one(AIMessageView).markdown._frames) >= 3,
                what="the reply streaming",
            )
