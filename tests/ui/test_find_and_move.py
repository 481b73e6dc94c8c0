"""Pilot: find and move from anywhere (issue 54). ctrl+f opens the chat's find bar from the
composer and the thread list (the composer's own ctrl+f deleted a word, and the next word was
sent), escape in it goes back to where the person was; tab leaves the chat after its last fold
and shift+tab before its first; alt+s, alt+t, alt+g and alt+e show and focus the inspector's
tabs from anywhere; the palette finds actions by the words people use."""

from __future__ import annotations

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, open_tagged, press_at_once, settle, tag, wait_for, wait_ready
from textual.command import CommandList, CommandPalette
from threadbench.ui.regions.inspector import TAB_FOCUS
from threadbench.ui.widgets.chat_find import ChatFind
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server


async def thread_with_folds(url: str) -> tuple[dict[str, str], str]:
    """A thread whose replies hold folds (reasoning, tool calls and their results)."""
    metadata = tag()
    client = get_client(url=url)
    thread = await client.threads.create(metadata=metadata)
    await client.runs.wait(
        thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": "plan file think hello"}]}
    )
    return metadata, thread["thread_id"]


async def test_ctrl_f_finds_from_the_composer_and_the_list_and_escape_goes_back(server_url):
    metadata, thread_id = await thread_with_folds(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = app.screen
        finder = screen.query_one(ChatFind)
        composer = screen.query_one(Composer)
        threads = screen.sidebar.thread_list
        for start in (composer, threads):
            start.focus()
            await pilot.pause()
            if start is composer:
                composer.show_draft("my draft stays")
            await pilot.press("ctrl+f")
            await wait_for(pilot, lambda: screen.focused is finder.input, what="the find bar")
            for key in "todos":
                await pilot.press(key)
            await wait_for(pilot, lambda: "match" in str(finder.query_one("#chat-find-count").visual), what="marks")
            count = str(finder.query_one("#chat-find-count").visual)
            assert count.endswith(" matches") or count == "1 match", count
            await pilot.press("escape")
            await wait_for(pilot, lambda: screen.focused is start, what="the focus back where ctrl+f was pressed")
            assert not finder.has_class("-open")
        assert composer.text == "my draft stays"  # nothing deleted, nothing typed there, nothing sent
        assert len(screen.conversation.thread_state.messages) == len(
            (await get_client(url=server_url).threads.get_state(thread_id))["values"]["messages"]
        )


async def test_tab_leaves_the_chat_after_its_last_fold_and_shift_tab_before_its_first(server_url):
    metadata, thread_id = await thread_with_folds(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = app.screen
        chat = screen.query_one(ChatLog)
        await wait_for(pilot, lambda: chat.entries, what="the chat")
        for step, key in ((1, "tab"), (-1, "shift+tab")):
            chat.focus()
            await pilot.press("end" if step < 0 else "home")
            visited: list[str] = []
            for _ in range(40):
                await pilot.press(key)
                if screen.focused is not chat:
                    break
                visited.append(chat.cursor or "")
            assert screen.focused is not chat, f"{key} never left the chat: {visited[-5:]}"
            assert len(visited) >= 3 and len(set(visited)) == len(visited), visited  # each fold once


async def test_alt_letters_show_and_focus_each_inspector_tab_from_anywhere(server_url):
    metadata, thread_id = await thread_with_folds(server_url)
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread_id)
        screen = app.screen
        composer = screen.query_one(Composer)
        for key, tab in zip(
            ("alt+t", "alt+g", "alt+e", "alt+s"), ("tab-timeline", "tab-graph", "tab-events", "tab-state"), strict=True
        ):
            composer.focus()
            await pilot.pause()
            press_at_once(
                app, key
            )  # as a terminal sends it: escape and the letter, read as alt+letter carrying the letter
            await wait_for(pilot, lambda: screen.inspector.active == tab, what=f"{key} shows {tab}")
            assert screen.focused is screen.query_one(TAB_FOCUS[tab])
            assert composer.text == ""  # typed nowhere
        footer = {str(k.description): str(k.key_display) for k in screen.query("FooterKey")}
        assert footer.get("Tabs") == "alt+s/t/g/e"


def palette_prompts(app) -> list[str]:
    results = app.screen.query_one(CommandList)
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


async def test_the_palette_finds_actions_by_the_words_people_use(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        app.screen.sidebar.thread_list.focus()
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        wanted = {
            "timeline": "Inspector: the Timeline tab",
            "events": "Inspector: the Events tab",
            "graph": "Inspector: the Graph tab",
            "find": "Find words in the open thread",
            "settings": "Run options",
        }

        async def ask(word: str) -> None:
            await pilot.press(*["backspace"] * 12, *word)

        for word, first in wanted.items():
            await ask(word)
            await wait_for(
                pilot,
                lambda: palette_prompts(app) and any(p.startswith(first) for p in palette_prompts(app)[:3]),
                what=f"{first!r} among the first hits for {word!r}",
            )
        await ask("theme")
        await wait_for(pilot, lambda: any("theme" in p.casefold() for p in palette_prompts(app)), what="the theme")
        await settle(pilot)
        themes = [p for p in palette_prompts(app) if "theme" in p.split("\n")[0].casefold()]
        assert len(themes) == 1, themes
        await ask("graph")
        await wait_for(
            pilot, lambda: palette_prompts(app) and palette_prompts(app)[0].startswith("Inspector: the Graph")
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette))
        await wait_for(pilot, lambda: app.screen.inspector.active == "tab-graph", what="the Graph tab")
