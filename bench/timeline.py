"""Timeline: a thread with 5,000 checkpoints; its first page, diffs between checkpoints, and
the jump to the previous or next human turn.

Seeding: one threads.create with 5,000 supersteps (each an update as a node would write it;
a superstep is an update_state on the server, about 60 times faster than one request each),
laid out as DeerFlow writes a thread, about 20 checkpoints per turn: each step changes the
todo list (a status moves on, a todo is added); the first step of a turn adds the person's
message, later steps the agent's tool call, its result and the answer. 250 turns, 1,000
messages, 5,000 checkpoints.

    first page   the app's get_history request starts (after get_state, when the thread
                 opens) -> the timeline's rows painted; the note gives the part after the
                 server answered too. sdk: threads.get_history with the app's page size,
                 timed alone just before each of the app's opens (the in-memory server
                 holding the other benchmarks' data pauses now and then, for either).
    diff         the `[` key's action (one checkpoint back in time) -> the diff view
                 shows that checkpoint against its parent, painted; and with the head
                 marked (m), a checkpoint 20 steps back against the head.
    turn jump    `{` (the previous human turn) and `}` (the next), 20 checkpoints apart
                 with middleware steps between: key -> the timeline cursor, the diff and
                 the past chat of that checkpoint painted; over history already loaded
                 (the first turns back are loaded by the `[` steps before).

--quick: 3 opens, 6 steps back (5 and 10 otherwise). --smoke: each step once, on 100
checkpoints, 2 turns back and forth.
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
    press,
    running,
    settle,
    sized,
    timed_ms,
    verdict,
    wait_until,
)

CHECKPOINTS = 5_000
PER_TURN = 20
"""DeerFlow writes about 20 checkpoints per turn (its middleware steps)."""
STATUSES = ["pending", "in_progress", "completed"]
JUMPS = 6


def update(n: int) -> dict:
    todos = [
        {"content": f"Task {k}: check source {k}", "status": STATUSES[min(2, (n - k) // 3)] if n >= k else "pending"}
        for k in range(max(0, n - 8), n + 1)
    ]
    values: dict = {"todos": todos}
    turn, step = divmod(n, PER_TURN)
    said = {
        0: {"type": "human", "content": f"Turn {turn}: check tasks {n} to {n + PER_TURN - 1} and say why."},
        6: {
            "type": "ai",
            "content": "",
            "tool_calls": [{"id": f"call{turn}", "name": "search", "args": {"query": f"task {n}"}}],
        },
        7: {"type": "tool", "tool_call_id": f"call{turn}", "name": "search", "content": f"3 results for task {n}"},
        15: {"type": "ai", "content": f"Turn {turn}: moved the tasks along and noted why."},
    }.get(step)
    if said is not None:
        values["messages"] = [{**said, "id": f"m{n}"}]
    return values


async def seed(client, checkpoints: int) -> tuple[str, float]:
    """The thread, and the seconds its seeding took (a server seeded before keeps it: 0)."""
    tag = f"timeline-{checkpoints}"
    found = await client.threads.search(metadata={"bench": tag}, limit=1)
    if found:
        return found[0]["thread_id"], 0.0
    start = now()
    thread_id = str(uuid.uuid4())
    supersteps = [
        # the person's message as the input writes it; the other steps as nodes with names
        # of their own (middleware), alternating
        {"updates": [{"values": update(n), "as_node": "__start__" if n % PER_TURN == 0 else ("agent", "tools")[n % 2]}]}
        for n in range(checkpoints)
    ]
    await client.threads.create(thread_id=thread_id, graph_id="agent", metadata={"bench": tag}, supersteps=supersteps)
    return thread_id, now() - start


async def main(args) -> list:
    from threadbench.ui.regions.history import FIRST_HISTORY_PAGE as HISTORY_PAGE

    checkpoints = sized(args, full=CHECKPOINTS, quick=CHECKPOINTS, smoke=100)
    reps = sized(args, full=5, quick=3, smoke=1)
    steps_back = sized(args, full=10, quick=6, smoke=1)
    marked_steps = sized(args, full=3, quick=3, smoke=1)
    jumps_each_way = sized(args, full=JUMPS, quick=JUMPS, smoke=2)
    client = get_client(url=args.url)
    thread_id, seconds = await seed(client, checkpoints)

    pages: list[float] = []
    sdk_page: list[float] = []  # timed before each of the app's opens: a pause of the server shows on both
    answered: list[float] = []  # of each page's time, the part after get_history returned
    steps: list[float] = []
    marked: list[float] = []
    app = make_app(args.url, probe=True)
    async with running(app):
        screen = app.screen
        await wait_until(lambda: screen.sidebar.thread_list.row_count > 0, what="thread list")
        probe = app.session.backend
        await settle(app, 0.5)
        inspector = screen.inspector
        inspector.active = "tab-timeline"
        timeline = inspector.timeline
        for _ in range(reps):
            timeline.clear()
            screen.conversation.thread_id = None  # as if no thread were open: open_thread loads it again
            await settle(app, 0.2)
            sdk_page += await timed_ms(lambda: client.threads.get_history(thread_id, limit=HISTORY_PAGE), times=1)
            probe.clear()
            screen.conversation.open_thread(thread_id)
            await wait_until(lambda: probe.last("get_history:start") is not None, timeout=60, what="history asked")
            await wait_until(lambda: len(timeline.model.rows) > 0, timeout=60, what="first page")
            shown = await painted(app)
            pages.append(ms(shown - probe.last("get_history:start")))
            answered.append(ms(shown - probe.last("get_history:end")))
            await settle(app, 0.3)

        diff_view = inspector.diff_view
        timeline.focus()  # keys go to the main screen's bindings from here
        await settle(app, 0.2)
        for _ in range(steps_back):
            before = diff_view.diff
            start = now()
            press(app, "left_square_bracket", "[")  # `[`: a key, as a person presses it (the app notes input)
            await wait_until(lambda: diff_view.diff is not before, what="diff")
            steps.append(ms(await painted(app) - start))
            await settle(app, 0.2)

        await screen.inspector.action_live_head()
        await settle(app, 0.3)
        timeline.action_mark()  # m: the head
        await settle(app, 0.3)
        for _ in range(20):
            await screen.inspector.action_older_checkpoint()
            await asyncio.sleep(0)
        await settle(app, 0.5)
        for _ in range(marked_steps):
            before = diff_view.diff
            start = now()
            press(app, "left_square_bracket", "[")
            await wait_until(lambda: diff_view.diff is not before, what="marked diff")
            marked.append(ms(await painted(app) - start))
            await settle(app, 0.2)

        # -- the previous / next human turn -------------------------------------------------------
        chat = screen.conversation.chat
        while len(timeline.model.rows) < (jumps_each_way + 2) * PER_TURN and not timeline.exhausted:
            loaded = len(timeline.model.rows)
            timeline.option_list.highlighted = loaded - 1  # older pages load as the cursor nears the end
            await wait_until(lambda: len(timeline.model.rows) > loaded, timeout=60, what="older checkpoints")
        await screen.inspector.action_live_head()
        await settle(app, 0.3)
        timeline.action_mark()  # unmark: each jump diffs against its parent
        await settle(app, 0.3)
        jumps: list[float] = []
        for older in [True] * jumps_each_way + [False] * jumps_each_way:
            current = timeline.option_list.highlighted or 0
            target = timeline.model.turn_index(current, older)
            if target is None and not older:
                target = 0  # past the last turn: the live head
            assert target is not None and target >= 0, f"a turn before row {current}"
            want = timeline.model.rows[target].checkpoint
            before = diff_view.diff
            start = now()
            press(app, *(("left_curly_bracket", "{") if older else ("right_curly_bracket", "}")))  # `{` / `}`
            await wait_until(
                lambda: (
                    timeline.selected is want
                    and diff_view.diff is not before
                    and chat.messages
                    and chat.messages[-1].id == want.messages[-1].id
                ),
                what="turn shown",
            )
            jumps.append(ms(await painted(app) - start))
            await settle(app, 0.2)
        rows = len(timeline.model.rows)

    return [
        verdict(
            f"timeline: first page of {checkpoints:,} checkpoints",
            max(pages),
            200.0,
            baseline=median(sdk_page),
            note=f"median {median(pages):.0f} ms from the request (sdk: {max(sdk_page):.0f} worst); "
            f"after the server's answer {max(answered):.0f} worst, {median(answered):.0f} median; "
            f"{HISTORY_PAGE} per page (seeded in {seconds:.0f} s)",
        ),
        verdict(
            "timeline: diff between two checkpoints",
            max(steps + marked),
            50.0,
            note=f"median {median(steps):.0f} ms one step back, {median(marked):.0f} ms against the "
            f"marked head 20+ steps away; {rows} rows loaded",
        ),
        verdict(
            "timeline: jump to the previous/next human turn",
            max(jumps),
            50.0,
            note=f"median {median(jumps):.0f} ms; {jumps_each_way} turns back with {{ and forward with }}, "
            f"{PER_TURN} checkpoints apart",
        ),
    ]


if __name__ == "__main__":
    ARGS = cli(__doc__.splitlines()[0])
    emit(asyncio.run(main(ARGS)), ARGS.json)
