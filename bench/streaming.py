"""Streaming: a 5,000-word reply rich in code blocks, tables and nested lists, the app against
the bare langgraph-sdk on the same server; then three threads streaming at once.

Each repetition creates a fresh thread and sends "rich 5000" (the demo agent streams about
5,000 words of Markdown: headings, short paragraphs, a code fence every ~150 words, tables,
nested lists, block quotes; one word per chunk). The SDK side reads runs.stream(...) with
the app's stream modes and notes when the first and the last token arrive. The app side
opens the thread, sends the message the way the composer does (MainScreen.send_message)
and notes when the first and the last token are painted in the chat; a Probe around its
backend notes when its own SDK client received the first token. SDK and app runs
alternate; medians are compared.

    stream time  first token received -> last token (SDK: received; app: painted).
                 The server's queue wait before a run starts (0.5-1 s, not ours) is left
                 out on both sides; the end-to-end figures are reported too.
    first token  app painted - app's SDK client received (same run).
    stall        lateness of a 5 ms timer on the app's event loop while the reply streams:
                 the worst over every run, and the 99th percentile of all the samples.

Three at once: what the app shows when three of a user's threads stream together (another
client's runs, a fan-out): the open thread's reply streams into the chat (sent from the
composer) while another client (bench/other_client.py, its own process) streams the same
reply on two more threads; the app lists those as busy (its thread list polls the
statuses) and does not stream them, since the chat follows one thread. The stall is
measured as above, on the app's loop, while all three stream.

--quick: 3 repetitions (5 otherwise). --smoke: 1, of "rich 200".
"""

from __future__ import annotations

import asyncio
import sys

from langgraph_sdk import get_client

from bench.common import (
    ROOT,
    Probe,
    StallMeter,
    cli,
    emit,
    make_app,
    median,
    ms,
    now,
    p99,
    painted,
    ratio_verdict,
    running,
    settle,
    sized,
    verdict,
    wait_until,
)

WORDS = 5_000
"""The reply's length: the demo agent's "rich 5000"."""
STREAM_MODES = ["messages-tuple", "updates", "values", "custom"]  # RunRequest's defaults


async def sdk_run(client, thread_id: str, prompt: str) -> dict:
    pieces: list[str] = []
    first = last = None
    start = now()
    async for part in client.runs.stream(
        thread_id,
        "agent",
        input={"messages": [{"type": "human", "content": prompt}]},
        stream_mode=STREAM_MODES,
    ):
        if part.event == "messages" and isinstance(part.data, list) and part.data:
            chunk = part.data[0]
            if isinstance(chunk, dict) and chunk.get("type") == "AIMessageChunk" and chunk.get("content"):
                last = now()
                first = first or last
                pieces.append(chunk["content"])
    return {"start": start, "first": first, "last": last, "text": "".join(pieces)}


def reply_text(chat) -> str | None:
    """The text of the reply being streamed (the chat's last message, if it is the AI's)."""
    from threadbench.ui.widgets.chat_entries import MessageEntry

    last = chat.entries[-1] if chat.entries else None
    return last.source if isinstance(last, MessageEntry) and last.kind == "ai" else None


async def app_run(app, probe: Probe, client, prompt: str, tail: str, thread_id: str | None = None) -> dict:
    screen = app.screen
    if thread_id is None:
        thread = await client.threads.create(graph_id="agent", metadata={"bench": "streaming"})
        thread_id = thread["thread_id"]
    screen.conversation.open_thread(thread_id)
    await wait_until(
        lambda: (
            screen.conversation.thread_id == thread_id
            and screen.conversation.thread_state is not None
            and screen.conversation.thread_state.thread_id == thread_id
        ),
        what="thread opened",
    )
    await settle(app)
    chat = screen.conversation.chat
    probe.clear()
    meter = StallMeter().start()
    start = now()
    screen.conversation.send_message(prompt)
    await wait_until(lambda: reply_text(chat), timeout=60, what="first token")
    first_shown = await painted(app)
    await wait_until(lambda: (reply_text(chat) or "").rstrip().endswith(tail), timeout=120, what="last token")
    last_shown = await painted(app)
    await meter.stop()
    await wait_until(lambda: not screen.conversation.run_in_progress, timeout=60, what="run end")
    await settle(app)
    return {
        "start": start,
        "first_received": probe.last("token:first"),
        "last_received": probe.last("token:last"),
        "first_shown": first_shown,
        "last_shown": last_shown,
        "stall_max": meter.max_ms,
        "stall_p99": meter.p99_ms,
        "lateness": list(meter.lateness),
    }


async def three_at_once(app, probe: Probe, client, prompt: str, tail: str, url: str) -> dict:
    """The open thread's reply streams in the chat while another client streams two more."""
    threads = [await client.threads.create(graph_id="agent", metadata={"bench": "streaming"}) for _ in range(3)]
    other = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.other_client",
        "--url",
        url,
        "--prompt",
        prompt,
        *(t["thread_id"] for t in threads[1:]),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    assert other.stdout is not None
    await other.stdout.readline()  # "started"
    try:
        run = await app_run(app, probe, client, prompt, tail, thread_id=threads[0]["thread_id"])
        ended = (await asyncio.wait_for(other.stdout.readline(), 120)).decode().strip()
        run["other_client"] = ended
    finally:
        if other.returncode is None:
            other.kill()
        await other.wait()
    return run


async def main(args) -> list:
    reps = sized(args, full=5, quick=3, smoke=1)
    words = sized(args, full=WORDS, quick=WORDS, smoke=200)
    prompt = f"rich {words}"
    client = get_client(url=args.url)
    sdk_runs: list[dict] = []
    app_runs: list[dict] = []
    # One SDK run first: the reply's last words, and a warm server.
    warm = await client.threads.create(graph_id="agent", metadata={"bench": "streaming"})
    first = await sdk_run(client, warm["thread_id"], prompt)
    tail = first["text"].rstrip()[-60:]

    app = make_app(args.url, probe=True)
    async with running(app):
        await wait_until(lambda: app.session.backend is not None, what="backend")
        await settle(app, 0.5)
        probe = app.session.backend
        for _ in range(reps):
            thread = await client.threads.create(graph_id="agent", metadata={"bench": "streaming"})
            sdk_runs.append(await sdk_run(client, thread["thread_id"], prompt))
            app_runs.append(await app_run(app, probe, client, prompt, tail))
        three_runs = [await three_at_once(app, probe, client, prompt, tail, args.url) for _ in range(reps)]

    sdk_stream = [ms(r["last"] - r["first"]) for r in sdk_runs]
    app_stream = [ms(r["last_shown"] - r["first_received"]) for r in app_runs]
    sdk_total = [ms(r["last"] - r["start"]) for r in sdk_runs]
    app_total = [ms(r["last_shown"] - r["start"]) for r in app_runs]
    first_token = [ms(r["first_shown"] - r["first_received"]) for r in app_runs]
    after_read = [ms(r["last_shown"] - r["last_received"]) for r in app_runs]
    lateness = [x for r in app_runs for x in r["lateness"]]
    stall_max = max(r["stall_max"] for r in app_runs)
    stall_p99 = ms(p99(lateness)) if lateness else 0.0
    three_lateness = [x for r in three_runs for x in r["lateness"]]
    three_max = max(r["stall_max"] for r in three_runs)
    three_p99 = ms(p99(three_lateness)) if three_lateness else 0.0
    three_stream = [ms(r["last_shown"] - r["first_received"]) for r in three_runs]

    details = {
        "sdk_stream_ms": sdk_stream,
        "app_stream_ms": app_stream,
        "sdk_total_ms": sdk_total,
        "app_total_ms": app_total,
        "app_last_shown_after_last_received_ms": after_read,
        "first_token_ms": first_token,
        "stall_max_ms_per_run": [r["stall_max"] for r in app_runs],
        "words": len(first["text"].split()),
        "stall_p99_ms_per_run": [ms(p99(r["lateness"])) for r in app_runs],
        "three_stall_max_ms_per_run": [r["stall_max"] for r in three_runs],
        "three_app_stream_ms": three_stream,
    }
    ratios = [app / sdk for app, sdk in zip(app_stream, sdk_stream, strict=True) if sdk]
    worst = max(range(len(ratios)), key=ratios.__getitem__)  # the worst repetition decides
    stream = ratio_verdict(
        f"streaming: last token of {words:,} rich words",
        app_stream[worst],
        sdk_stream[worst],
        1.0,
        unit="ms",
        details=details,
        note=f"worst of {len(ratios)} runs; median {median(app_stream) / median(sdk_stream):.3f}x; end to end "
        f"{median(app_total) / median(sdk_total):.2f}x (app {median(app_total):.0f} ms, "
        f"sdk {median(sdk_total):.0f} ms); shown {median(after_read):.0f} ms after the app read it",
    )
    runs_note = f"worst of {len(app_runs)} runs"
    stall = verdict("streaming: event-loop stall (max)", stall_max, 33.0, note=f"p99 {stall_p99:.0f} ms; {runs_note}")
    stall_p = verdict("streaming: event-loop stall (p99)", stall_p99, 10.0, note=f"all samples of {len(app_runs)} runs")
    three = verdict(
        "streaming, 3 threads at once: stall (max)",
        three_max,
        50.0,
        note=f"worst of {len(three_runs)} runs; the chat's reply painted {median(three_stream):.0f} ms "
        f"after its first token (alone: {median(app_stream):.0f} ms)",
    )
    three_p = verdict("streaming, 3 threads at once: stall (p99)", three_p99, 20.0)
    first_result = verdict(
        "streaming: first token after the SDK got it",
        median(first_token),
        50.0,
        note=f"max {max(first_token):.0f} ms over {len(first_token)} runs",
    )
    return [stream, stall, stall_p, first_result, three, three_p]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
