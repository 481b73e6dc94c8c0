"""A long thread: 10,000 messages, opened in the app, then scrolled to the top.

Seeding: one thread whose state holds 10,000 messages (human questions and Markdown
answers of 30-120 words, every tenth answer with a tool call and its result), written
with one update_state call.

    open         the app's get_state answered -> the newest messages painted and the
                 chat scrollable (it has more to scroll than it shows). Then one scroll
                 step up is timed too (from the call to the paint).
    to the top   from the newest messages, `pageup` again and again (each as soon as the
                 last is painted, as a held key) until the first message is in view; each
                 step: the key -> the view scrolled and painted, what the reader sees. The
                 worst step is one verdict, the time to the top another (a time budget stops
                 it, saying how far it got); the note gives the event loop's longest stall.
    sdk          threads.get_state of the same thread, timed alone.
    memory       the benchmark process's RSS with the thread open and scrolled to the top
                 (the app, its SDK client and this harness; no server).

--quick: 3 opens (5 otherwise). --smoke: 1 open of a 300-message thread.
"""

from __future__ import annotations

import asyncio
import uuid

from langgraph_sdk import get_client

from bench.common import (
    StallMeter,
    cli,
    emit,
    make_app,
    median,
    ms,
    now,
    painted,
    press,
    rss_mb,
    running,
    settle,
    sized,
    timed_ms,
    verdict,
    wait_until,
)

MESSAGES = 10_000
TOP_BUDGET = 300.0
"""Seconds the scroll to the top may take before it stops (and says how far it got)."""
WORDS = (
    "agent thread checkpoint stream token reply graph state tool result message server "
    "client frame widget layout render cache page search filter history branch fork"
).split()


def answer(n: int) -> str:
    words = [WORDS[(n * 7 + i * 3) % len(WORDS)] for i in range(30 + (n * 37) % 90)]
    half = len(words) // 2
    return (
        f"**Step {n}.** "
        + " ".join(words[:half])
        + ".\n\n- "
        + " ".join(words[half : half + 6])
        + "\n- `"
        + words[-1]
        + "`\n\n"
        + " ".join(words[half + 6 :])
        + "."
    )


def messages(count: int = MESSAGES) -> list[dict]:
    out: list[dict] = []
    n = 0
    while len(out) < count:
        out.append({"type": "human", "id": f"h{n}", "content": f"Question {n}: what happened at step {n}?"})
        if n % 10 == 9 and len(out) + 3 <= count:
            call_id = f"call{n}"
            out.append(
                {
                    "type": "ai",
                    "id": f"t{n}",
                    "content": "",
                    "tool_calls": [{"id": call_id, "name": "search", "args": {"query": f"step {n}"}}],
                }
            )
            out.append(
                {
                    "type": "tool",
                    "id": f"r{n}",
                    "tool_call_id": call_id,
                    "name": "search",
                    "content": f"3 results for step {n}",
                }
            )
        out.append({"type": "ai", "id": f"a{n}", "content": answer(n)})
        n += 1
    return out[:count]


async def seed(client, count: int) -> str:
    thread_id = str(uuid.uuid4())
    await client.threads.create(thread_id=thread_id, graph_id="agent", metadata={"bench": "long-thread"})
    await client.threads.update_state(
        thread_id, {"messages": messages(count), "title": f"A {count:,}-message thread"}, as_node="title"
    )
    return thread_id


async def main(args) -> list:
    count = sized(args, full=MESSAGES, quick=MESSAGES, smoke=300)
    reps = sized(args, full=5, quick=3, smoke=1)
    client = get_client(url=args.url)
    thread_id = await seed(client, count)
    sdk = await timed_ms(lambda: client.threads.get_state(thread_id))

    opens: list[float] = []
    scrolls: list[float] = []
    app = make_app(args.url, probe=True)
    async with running(app):
        screen = app.screen
        await wait_until(lambda: screen.sidebar.thread_list.row_count > 0, what="thread list")
        probe = app.session.backend
        await settle(app, 0.5)
        chat = screen.conversation.chat
        for _ in range(reps):
            await chat.show_messages([])  # start from an empty chat each time
            screen.conversation.thread_id = None  # as if no thread were open: open_thread loads it again
            await settle(app, 0.2)
            probe.clear()
            screen.conversation.open_thread(thread_id)
            await wait_until(lambda: probe.last("get_state:end") is not None, timeout=60, what="get_state")
            await wait_until(lambda: len(chat.entries) > 0 and chat.max_scroll_y > 0, timeout=60, what="messages")
            shown = await painted(app)
            opens.append(ms(shown - probe.last("get_state:end")))
            await settle(app, 0.2)
            start = now()
            before = chat.scroll_y
            chat.scroll_relative(y=-5, animate=False)
            await wait_until(lambda: chat.scroll_y != before, what="scrolled")
            scrolls.append(ms(await painted(app) - start))
            await settle(app, 0.2)
        rss = rss_mb()
        drawn = len(chat._drawn)

        # -- scrolling to the top, a page at a time ------------------------------------------------
        chat.scroll_end(animate=False)
        chat.focus()
        await settle(app, 0.3)
        first_id = chat.messages[0].id

        def top_in_view() -> bool:
            return chat.scroll_y == 0 and chat.messages[0].id == first_id

        steps: list[float] = []
        meter = StallMeter().start()
        begun = now()
        while not top_in_view() and now() - begun < TOP_BUDGET:
            before = (chat.scroll_y, chat.virtual_size.height)
            start = now()
            press(app, "pageup")
            await wait_until(
                lambda: (chat.scroll_y, chat.virtual_size.height) != before or top_in_view(), what="scrolled up"
            )
            steps.append(ms(await painted(app, since=start) - start))
        await meter.stop()
        reached_top = top_in_view()
        top_seconds = now() - begun
        rss_top = rss_mb()
        drawn_top = len(chat._drawn)

    return [
        verdict(
            f"long thread: {count:,} messages visible",
            max(opens),
            100.0,
            baseline=median(sdk),
            note=f"median {median(opens):.0f} ms; after get_state; one scroll step {median(scrolls):.0f} ms; "
            f"{drawn} of {count} messages drawn",
        ),
        verdict(
            "long thread: RSS scrolled to the top",
            max(rss, rss_top),
            150.0,
            unit="MB",
            note=f"whole benchmark process: {rss:.0f} MB open, {rss_top:.0f} MB scrolled to the top "
            f"({drawn_top} messages' lines kept)",
        ),
        verdict(
            "long thread: every pageup step to the top",
            max(steps) if reached_top else float("inf"),
            33.0,
            note=f"median {median(steps):.0f} ms over {len(steps)} steps"
            + ("" if reached_top else f" (stopped before the top after {TOP_BUDGET:.0f} s; worst {max(steps):.0f} ms)")
            + f"; longest stall {meter.max_ms:.0f} ms (p99 {meter.p99_ms:.0f})",
        ),
        verdict(
            "long thread: the top reached with pageup held",
            top_seconds * 1000 if reached_top else float("inf"),
            30_000.0,
            note=f"{top_seconds:.1f} s, {len(steps)} steps (a held key scrolls a page more every ten repeats)",
        ),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
