"""Timeline: a thread with 1,000 checkpoints; its first page, and diffs between checkpoints.

Seeding: 1,000 update_state calls on one thread, alternating the nodes that write: every
call changes the todo list (a status moves on, a todo is added), every fifth call adds a
message too, so the thread ends with 200 messages and 1,000 checkpoints.

    first page   the app's get_history request starts (after get_state, when the thread
                 opens) -> the timeline's rows painted. sdk: threads.get_history with the
                 app's page size, timed alone.
    diff         the `[` key's action (one checkpoint back in time) -> the diff view
                 shows that checkpoint against its parent, painted; and with the head
                 marked (m), a checkpoint 20 steps back against the head.
"""

from __future__ import annotations

import asyncio
import uuid

from langgraph_sdk import get_client

from bench.common import (
    cli,
    emit,
    make_app,
    median,
    ms,
    now,
    painted,
    running,
    settle,
    timed_ms,
    verdict,
    wait_until,
)

CHECKPOINTS = 1_000
STATUSES = ["pending", "in_progress", "completed"]


def update(n: int) -> dict:
    todos = [
        {"content": f"Task {k}: check source {k}", "status": STATUSES[min(2, (n - k) // 3)] if n >= k else "pending"}
        for k in range(max(0, n - 8), n + 1)
    ]
    values: dict = {"todos": todos}
    if n % 5 == 0:
        values["messages"] = [
            {
                "type": "ai" if n % 10 else "human",
                "id": f"m{n}",
                "content": f"Checkpoint {n}: moved task {n} along and noted why.",
            }
        ]
    return values


async def seed(client) -> tuple[str, float]:
    start = now()
    thread_id = str(uuid.uuid4())
    await client.threads.create(thread_id=thread_id, graph_id="agent", metadata={"bench": "timeline"})
    for n in range(CHECKPOINTS):
        await client.threads.update_state(thread_id, update(n), as_node="agent" if n % 2 else "tools")
    return thread_id, now() - start


async def main(args) -> list:
    from threadbench.ui.regions.history import FIRST_HISTORY_PAGE as HISTORY_PAGE

    client = get_client(url=args.url)
    thread_id, seconds = await seed(client)
    sdk_page = await timed_ms(lambda: client.threads.get_history(thread_id, limit=HISTORY_PAGE))

    pages: list[float] = []
    steps: list[float] = []
    marked: list[float] = []
    app = make_app(args.url, probe=True)
    async with running(app):
        screen = app.screen
        await wait_until(lambda: screen.thread_list.option_count > 0, what="thread list")
        probe = app.backend
        await settle(app, 0.5)
        inspector = screen.inspector
        inspector.active = "tab-timeline"
        timeline = inspector.timeline
        for _ in range(3 if args.quick else 5):
            timeline.clear()
            screen.conversation.thread_id = None  # as if no thread were open: open_thread loads it again
            await settle(app, 0.2)
            probe.clear()
            screen.open_thread(thread_id)
            await wait_until(lambda: probe.last("get_history:start") is not None, timeout=60, what="history asked")
            await wait_until(lambda: len(timeline.model.rows) > 0, timeout=60, what="first page")
            pages.append(ms(await painted(app) - probe.last("get_history:start")))
            await settle(app, 0.3)

        diff_view = inspector.diff_view
        for _ in range(6 if args.quick else 10):
            before = diff_view.diff
            start = now()
            screen.action_older_checkpoint()  # the `[` key
            await wait_until(lambda: diff_view.diff is not before, what="diff")
            steps.append(ms(await painted(app) - start))
            await settle(app, 0.2)

        screen.action_live_head()
        await settle(app, 0.3)
        timeline.action_mark()  # m: the head
        await settle(app, 0.3)
        for _ in range(20):
            screen.action_older_checkpoint()
            await asyncio.sleep(0)
        await settle(app, 0.5)
        for _ in range(3):
            before = diff_view.diff
            start = now()
            screen.action_older_checkpoint()
            await wait_until(lambda: diff_view.diff is not before, what="marked diff")
            marked.append(ms(await painted(app) - start))
            await settle(app, 0.2)
        rows = len(timeline.model.rows)

    return [
        verdict(
            "timeline: first page of 1,000 checkpoints",
            max(pages),
            200.0,
            baseline=median(sdk_page),
            note=f"median {median(pages):.0f} ms from the request; {HISTORY_PAGE} per page (seeded in {seconds:.0f} s)",
        ),
        verdict(
            "timeline: diff between two checkpoints",
            max(steps + marked),
            50.0,
            note=f"median {median(steps):.0f} ms one step back, {median(marked):.0f} ms against the "
            f"marked head 20+ steps away; {rows} rows loaded",
        ),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
