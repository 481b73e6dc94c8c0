"""Soak: 100 runs of 1,000 words in one session; memory and the stall, start against end.

One app session, one thread: the composer's way (MainScreen.send_message) sends "rich 1000"
100 times (the demo agent's structured reply: code fences, tables, nested lists, ~1,000
words), each run waited for to its end, as a person would in a long conversation. The
chat then holds 200 messages, the newest mounted and the rest paged in on demand.

    rss growth   VmRSS of the benchmark process after the last run minus after the first
                 (the first run loads what any first reply loads: Markdown parser, code
                 highlighting; and the app, idle for the first time, builds the dialogs it
                 keeps ahead). Before each reading a full collection runs and its freed
                 memory goes back to the system, as the app does itself once the user is
                 idle (app/ui/collector.py, heap.py). The growth from before the first run
                 is in the note.
    stall        lateness of a 5 ms timer on the app's event loop during each run: the worst
                 and the 99th percentile of the first runs against the last runs (5 each).

--quick: 20 runs, 3 at each end. --smoke: 2 runs of "rich 100", 1 at each end.
"""

from __future__ import annotations

import asyncio
import gc

from langgraph_sdk import get_client
from threadbench.ui import heap

from bench.common import (
    StallMeter,
    cli,
    emit,
    make_app,
    ms,
    p99,
    painted,
    rss_mb,
    running,
    settle,
    sized,
    verdict,
    wait_until,
)
from bench.streaming import reply_text

WORDS = 1_000
"""Each reply's length: the demo agent's "rich 1000"."""


async def one_run(app, prompt: str, tail: str) -> list[float]:
    """One run sent from the composer, to its end; the loop's lateness while it streamed."""
    screen = app.screen
    chat = screen.conversation.chat
    shown = len(chat.messages)  # the new reply is the one after the message sent
    meter = StallMeter().start()
    screen.conversation.send_message(prompt)
    await wait_until(
        lambda: len(chat.messages) >= shown + 2 and (reply_text(chat) or "").rstrip().endswith(tail),
        timeout=120,
        what="last token",
    )
    await painted(app)
    await meter.stop()
    await wait_until(lambda: not screen.conversation.run_in_progress, timeout=60, what="run end")
    return list(meter.lateness)


def rss_now() -> float:
    gc.collect()
    heap.give_back()
    return rss_mb()


async def main(args) -> list:
    runs = sized(args, full=100, quick=20, smoke=2)
    ends = sized(args, full=5, quick=3, smoke=1)
    words = sized(args, full=WORDS, quick=WORDS, smoke=100)
    prompt = f"rich {words}"
    client = get_client(url=args.url)
    warm = await client.threads.create(graph_id="agent", metadata={"bench": "soak"})
    pieces = []
    async for part in client.runs.stream(
        warm["thread_id"], "agent", input={"messages": [{"type": "human", "content": prompt}]}, stream_mode="values"
    ):
        if part.event == "values" and isinstance(part.data, dict):
            pieces = part.data.get("messages") or pieces
    tail = str(pieces[-1]["content"]).rstrip()[-60:]

    app = make_app(args.url)
    lateness: list[list[float]] = []
    async with running(app):
        await wait_until(lambda: app.session.backend is not None, what="backend")
        await settle(app, 0.5)
        thread = await client.threads.create(graph_id="agent", metadata={"bench": "soak"})
        thread_id = thread["thread_id"]
        screen = app.screen
        screen.conversation.open_thread(thread_id)
        await wait_until(
            lambda: (
                screen.conversation.thread_state is not None and screen.conversation.thread_state.thread_id == thread_id
            ),
            what="thread opened",
        )
        await settle(app)
        rss_before = rss_now()
        rss_after_first = rss_before
        for index in range(runs):
            lateness.append(await one_run(app, prompt, tail))
            await settle(app, 0.1)
            if index == 0:  # (and the dialogs the app builds ahead when idle, once: kept_screens.py)
                await wait_until(lambda: app.kept_screens.all_ready, timeout=60, what="dialogs built ahead")
                rss_after_first = rss_now()
        rss_end = rss_now()
        messages = len(screen.conversation.chat.messages)

    start, end = lateness[:ends], lateness[-ends:]
    start_max = max(ms(max(run)) for run in start)
    end_max = max(ms(max(run)) for run in end)
    start_p99 = ms(p99([x for run in start for x in run]))
    end_p99 = ms(p99([x for run in end for x in run]))
    growth = rss_end - rss_after_first
    details = {
        "runs": runs,
        "messages_in_chat": messages,
        "rss_before_mb": rss_before,
        "rss_after_first_mb": rss_after_first,
        "rss_end_mb": rss_end,
        "stall_max_ms_per_run": [ms(max(run, default=0.0)) for run in lateness],
        "stall_p99_ms_per_run": [ms(p99(run)) for run in lateness],
    }
    return [
        verdict(
            f"soak: RSS growth over {runs} runs of {words:,} words",
            growth,
            10.0,
            unit="MB",
            details=details,
            note=f"{rss_after_first:.0f} -> {rss_end:.0f} MB after the first run; "
            f"{rss_end - rss_before:+.0f} MB from before it; {messages} messages in the chat",
        ),
        verdict(
            "soak: stall at the end (max)",
            end_max,
            start_max,
            note=f"last {ends} runs; the first {ends}: {start_max:.0f} ms",
        ),
        verdict(
            "soak: stall at the end (p99)",
            end_p99,
            start_p99,
            note=f"last {ends} runs; the first {ends}: {start_p99:.0f} ms",
        ),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
