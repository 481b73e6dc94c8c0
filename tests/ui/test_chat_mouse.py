"""The mouse never crashes the app (issue 54): drags across a real thread drawn in the chat
(messages, open folds, a code block wider than the view, a table, the gutter, the padding,
past the end of a line, out of the chat and off the screen) select what the person dragged
over, without the gutters; a drag that starts or ends left of a line's text takes it whole."""

from __future__ import annotations

import random

import pytest
from langgraph_sdk import get_client
from support.driving import make_app, open_tagged, screen_lines, tag, wait_for, wait_ready, working
from textual import events
from textual.geometry import Offset
from threadbench.thread_import import supersteps_from_messages
from threadbench.ui.widgets.chat_entries import EDGE, ChatLine
from threadbench.ui.widgets.chat_log import ChatLog

pytestmark = pytest.mark.server

CODE_LINE = "    return {'A': 3, 'B': 5}[plan]  # " + "a comment wider than the view " * 5
REPLY = f"""## The plans

Plan A is the cheaper one.

```python
def cost(plan):
{CODE_LINE}
```

| plan | cost |
|------|------|
| A    | 3    |
| B    | 5    |

- first point
- second point

> a quote to end with
"""
THREAD = [
    {"type": "human", "content": "Compare the two plans and show me the code."},
    {
        "type": "ai",
        "content": "Let me look them up.",
        "additional_kwargs": {"reasoning_content": "First I weigh the plans.\nThen I search for their costs."},
        "tool_calls": [{"name": "search", "args": {"query": "plan costs"}, "id": "c1", "type": "tool_call"}],
    },
    {"type": "tool", "content": "Plan A costs 3.\nPlan B costs 5.", "name": "search", "tool_call_id": "c1"},
    {"type": "ai", "content": REPLY},
    {"type": "human", "content": "Thanks, that helps."},
    {"type": "ai", "content": "You are welcome."},
]


async def open_thread(pilot, url: str) -> ChatLog:
    """The thread written on the server, opened, its three folds open (the reasoning, the tool
    call, its result), the chat at its top."""
    metadata = tag()
    steps = supersteps_from_messages(THREAD, "agent")
    thread = await get_client(url=url).threads.create(graph_id="agent", metadata=metadata, supersteps=steps)
    await wait_ready(pilot)
    await open_tagged(pilot, metadata, thread["thread_id"])
    chat = pilot.app.screen.query_one(ChatLog)
    await wait_for(pilot, lambda: "You are welcome." in chat.text(), what="the thread drawn")
    chat.focus()
    await pilot.press("home")
    for _ in range(3):
        await pilot.press("tab", "enter")
    await wait_for(pilot, lambda: len(chat.opened) == 3, what="the folds open")
    await pilot.press("home")
    return chat


def mouse(app, kind: type[events.MouseEvent], at: Offset) -> None:
    """A mouse event as the terminal's driver posts it: anywhere, off the screen too."""
    x, y = at
    app.post_message(kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y))


async def drag(pilot, start: Offset, end: Offset) -> str | None:
    """Press at `start`, move through the middle to `end`, let go: what ctrl+c would copy."""
    app = pilot.app
    middle = Offset((start.x + end.x) // 2, (start.y + end.y) // 2)
    mouse(app, events.MouseDown, start)
    await pilot.pause()  # (a hand is slower than the app: a scrollbar's thumb takes the mouse before it is let go)
    for kind, at in ((events.MouseMove, middle), (events.MouseMove, end), (events.MouseUp, end)):
        mouse(app, kind, at)
    await pilot.pause()
    assert app.is_running, f"the app ended on a drag from {start} to {end}"
    return app.screen.get_selected_text()


def drawn_lines(chat: ChatLog) -> list[ChatLine]:
    """Every line of the thread, as drawn for the chat's width."""
    return [found[1] for n in range(chat.virtual_size.height) if (found := chat.line_at(n))]


def middle(region) -> Offset:
    return Offset(region.x + region.width // 2, region.y + region.height // 2)


def where(app, chat: ChatLog, text: str, at: int = 0) -> Offset:
    """The screen cell of `text`'s character `at`, in the chat."""
    region = chat.region
    for y in range(region.y, region.bottom):
        row = screen_lines(app)[y][region.x : region.right]
        if text in row:
            return Offset(region.x + row.index(text) + at, y)
    raise AssertionError(f"{text!r} is not in the chat's view")


async def test_drags_between_many_points_never_crash_and_take_only_the_lines_text(server_url):
    app = make_app(server_url)
    async with app.run_test(size=(140, 40)) as pilot:  # (the thread taller than the view)
        chat = await open_thread(pilot, server_url)
        drawn = [line.content.plain for line in drawn_lines(chat)]
        region, screen = chat.scrollable_content_region, app.screen
        inside = [
            Offset(x, y)
            for y in range(region.y, region.bottom, 5)
            for x in (region.x, region.x + 1, region.x + 3, region.x + 20, region.right - 1, region.right + 1)
        ]  # the padding (drawn by the chat: its inset), the gutter, the text, past a line's end, the scrollbar
        outside = [Offset(region.x + 5, 0), Offset(region.x + 5, 60), Offset(150, region.y + 5), Offset(-3, -3)]
        for widget_id in ("#sidebar", "#inspector", "#composer", "#run-status"):
            if (widget := screen.query_one(widget_id)).display and widget.region:
                outside.append(middle(widget.region))
        chance = random.Random(54)
        points = inside + outside
        for start in points:
            for end in chance.sample([point for point in points if point != start], 2):  # (not a double click)
                for a, b in ((start, end), (end, start)):
                    text = await drag(pilot, a, b)
                    assert text is None or EDGE not in text, (a, b, text)
                    on_lines = a in inside and b in inside and region.x <= min(a.x, b.x) <= max(a.x, b.x) < region.right
                    if text and on_lines:
                        lines = text.split("\n")
                        assert all(any(line in whole for whole in drawn) for line in lines), (a, b, text)
                        assert len(lines) <= abs(a.y - b.y) + 1 + 2, (a, b, text)  # (+ an auto-scroll's rows)


async def test_known_drags_select_what_was_dragged_over(server_url):
    app = make_app(server_url)
    async with app.run_test(size=(140, 80)) as pilot:  # (the whole thread in view: nothing auto-scrolls)
        chat = await open_thread(pilot, server_url)
        left = chat.scrollable_content_region.x + chat.inset  # (the gutter's first cell)

        # within a line, the cell under the end included; past a line's end (it crashed)
        assert await drag(pilot, where(app, chat, "two plans"), where(app, chat, "code.", 4)) == (
            "two plans and show me the code."
        )
        assert await drag(pilot, where(app, chat, "Plan A is"), where(app, chat, "Plan A is", 40)) == (
            "Plan A is the cheaper one."
        )
        # from a line's first character past the end of the next, either way
        first, then = where(app, chat, "First I weigh"), where(app, chat, "Then I search", 40)
        whole = "First I weigh the plans.\nThen I search for their costs."
        assert await drag(pilot, first, then) == whole
        assert await drag(pilot, then, first) == whole
        # from the gutter: the line whole, no gutter taken (test_drags_from_and_to_the_edge_of_a_line
        # has more), and from a margin's blank row: as far as it, not the thread's end
        assert await drag(pilot, Offset(left, first.y), then) == whole
        two = where(app, chat, "two plans")
        assert await drag(pilot, two, Offset(left + 10, two.y + 1)) == "two plans and show me the code."
        # across messages and folds: each line's text, no gutter, a margin an empty line
        title = next(line.content.plain for line in drawn_lines(chat) if "▼ tool result" in line.content.plain)
        assert title.startswith(" ▼ tool result search  Plan A costs 3. Plan B costs")  # (as far as the width goes)
        assert await drag(pilot, where(app, chat, "look them"), where(app, chat, "Plan B costs 5.", 5)) == (
            'look them up.\n ▼ tool call search  {"query": "plan costs"} \n\n{\n  "query": "plan costs"\n}\n\n'
            f"{title}\n\nPlan A costs 3.\nPlan B"
        )
        # a table's row, from its gutter
        row = where(app, chat, "│ A")
        assert await drag(pilot, row, Offset(left + 40, row.y)) == "│ A    │ 3    │"
        # a code line scrolled sideways: what shows of it
        chat.scroll_to(x=10)
        await wait_for(pilot, lambda: chat.scroll_x == 10, what="the code scrolled")
        code = where(app, chat, "'A': 3")
        last = chat.scrollable_content_region.right - 1
        shown = screen_lines(app)[code.y][left + 2 : last + 1]
        assert await drag(pilot, Offset(left + 2, code.y), Offset(last, code.y)) == shown
        assert shown == ("  " + CODE_LINE)[10 : 10 + len(shown)]  # (a code block's lines start two cells in)
        chat.scroll_to(x=0)
        # out of the chat, over the composer: from there to the thread's end (and what lies between)
        text = await drag(pilot, where(app, chat, "Thanks"), middle(app.screen.query_one("#composer").region))
        assert text is not None and text.startswith("Thanks, that helps.\n\nYou are welcome.")
        # a drag that ends on a fold's title does not open or close it
        opened = set(chat.opened)
        await drag(pilot, where(app, chat, "Plan B costs 5"), where(app, chat, "▼ tool call"))
        assert chat.opened == opened


def backgrounds(chat: ChatLog, y: int) -> list[tuple[str, object]]:
    """Each cell of the chat's screen row `y`: its character and its background."""
    return [(char, segment.style.bgcolor) for segment in chat.render_line(y - chat.region.y) for char in segment.text]


def lit(chat: ChatLog, y: int, before: list[tuple[str, object]]) -> str:
    """The characters of the chat's screen row `y` drawn on another background than `before`
    (the row with nothing selected): what the selection lights."""
    now = backgrounds(chat, y)
    return "".join(char for (char, back), (_, was) in zip(now, before, strict=True) if back != was)


async def test_drags_from_and_to_the_edge_of_a_line_take_it_whole(server_url):
    """A drag that starts or ends left of a line's text, in its gutter or in the chat's left
    padding, takes that line whole (from its start, or to its end) and no gutter. The chat
    is scrolled: Textual counted a drag from its own padding by the view's row, not the
    thread's line (the chat draws that column itself now, its inset)."""
    app = make_app(server_url)
    async with app.run_test(size=(140, 40)) as pilot:
        chat = await open_thread(pilot, server_url)
        chat.scroll_to(y=3)
        await wait_for(pilot, lambda: chat.scroll_y == 3, what="the chat scrolled")
        first, then = where(app, chat, "First I weigh"), where(app, chat, "Then I search")  # (an open fold's body)
        pad = chat.region.x
        assert chat.inset == 1 and chat.scrollable_content_region.x == pad, "the padding column is the chat's own"
        assert screen_lines(app)[first.y][pad : first.x] == " █   "
        whole = "First I weigh the plans.\nThen I search for their costs."
        for x in (pad, pad + 1, first.x - 1):  # the padding, the gutter's edge, its last cell
            edge_first, edge_then = Offset(x, first.y), Offset(x, then.y)
            for a, b, selected in (
                (edge_first, then + (3, 0), "First I weigh the plans.\nThen"),  # from a line's edge: from its start
                (first + (8, 0), edge_then, "weigh the plans.\nThen I search for their costs."),  # to it: to its end
                (edge_first, edge_then, whole),
                (edge_first, Offset(pad + 1, then.y), whole),  # (the padding to the gutter)
                (edge_then, then + (3, 0), "Then"),  # within a line
            ):
                assert await drag(pilot, a, b) == selected, (a, b)
                assert await drag(pilot, b, a) == selected, (b, a)
        # what is lit is what is copied: the text whole, not the padding nor the gutter
        app.screen.clear_selection()
        rows = {y: backgrounds(chat, y) for y in (first.y, then.y)}
        await drag(pilot, Offset(pad, then.y), Offset(pad, first.y))
        assert [lit(chat, y, rows[y]) for y in (first.y, then.y)] == whole.split("\n")
        # across messages and a margin's row, from its padding to a line's gutter
        margin = where(app, chat, "▼ tool result") + (0, -1)
        title = next(line.content.plain for line in drawn_lines(chat) if "▼ tool result" in line.content.plain)
        under = Offset(pad + 1, margin.y + 3)  # ("Plan A costs 3.")
        assert await drag(pilot, Offset(pad, margin.y), under) == f"\n{title}\n\nPlan A costs 3."
        brace = Offset(pad + 1, margin.y - 3)  # (to the margin's row: its empty line, which the screen strips)
        assert await drag(pilot, brace, Offset(pad, margin.y)) == '{\n  "query": "plan costs"\n}'


async def mouse_over(pilot, widget) -> None:
    """Clicks, drags and the wheel over `widget`'s region: the app still runs after each."""
    app, region = pilot.app, widget.region
    points = [
        Offset(x, y)
        for y in range(region.y, region.bottom, max(1, region.height // 5))
        for x in (region.x, region.x + region.width // 2, region.right - 1)
    ]
    for start, end in zip(points, reversed(points), strict=True):
        await drag(pilot, start, end)
        for kind in (events.MouseDown, events.MouseUp, events.MouseScrollDown, events.MouseScrollDown):
            mouse(app, kind, start)
        mouse(app, events.MouseScrollUp, end)
        await pilot.pause()
        assert app.is_running, f"the app ended after the mouse at {start} over {widget}"


async def test_clicks_drags_and_the_wheel_over_the_other_line_views_never_crash(server_url):
    metadata = tag()
    client = get_client(url=server_url)
    thread = await client.threads.create(graph_id="agent", metadata=metadata)
    for text in ("think", "plan a report"):
        await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": text}]})
    app = make_app(server_url)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, metadata, thread["thread_id"])
        screen = app.screen
        screen.query_one("#composer").focus()
        await pilot.press(*"hello", "enter")  # (a run streamed here: the Events tab's rows)
        inspector = screen.inspector
        await wait_for(pilot, lambda: inspector.event_log.count > 0 and not working(app, "run"), what="the run")
        await mouse_over(pilot, screen.query_one("#thread-list"))
        for tab, view in (("tab-state", "#state-tree"), ("tab-timeline", "#timeline"), ("tab-events", "#event-lines")):
            inspector.active = tab
            await pilot.pause()
            await mouse_over(pilot, screen.query_one(view))
        screen.query_one("#thread-list").focus()
        await pilot.press("R")
        await wait_for(pilot, lambda: app.screen.query("#runs-table"), what="the runs screen")
        await mouse_over(pilot, app.screen.query_one("#runs-table"))
