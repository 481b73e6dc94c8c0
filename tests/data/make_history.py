"""Capture real checkpoint history and graph payloads from the demo agent, as JSON fixtures.

Run from the repo root:  .venv/bin/python tests/data/make_history.py

It starts the embedded LangGraph server (persistence off) with the bundled demo agent,
makes one thread with two turns (todos, artifacts, a title, an uploaded file), then forks
it twice: update_state(checkpoint_id=...) at the checkpoint where the todos were written
(one todo marked completed), and a run with checkpoint_id at the end of the first turn
with an edited human message ("edit and resend"). The history then holds two branch
points. It saves, exactly as the server sent them:

- history_branch.json   every get_history item of that thread (newest first), paged by `before`
- graph_xray.json       assistants.get_graph("agent", xray=True)
- graph_plain.json      assistants.get_graph("agent")

Ids and timestamps change from run to run; the tests only rely on the shapes.
The server is stopped before the script exits.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from langgraph_sdk import get_client  # noqa: E402
from threadbench.embedded.launcher import EmbeddedServer  # noqa: E402


async def run(client, thread_id: str, text: str, checkpoint_id: str | None = None) -> None:
    kwargs = {"checkpoint_id": checkpoint_id} if checkpoint_id else {}
    await client.runs.wait(
        thread_id,
        "agent",
        input={"messages": [{"type": "human", "content": text}]} if text else None,
        **kwargs,
    )


async def full_history(client, thread_id: str, page: int = 5) -> list[dict]:
    items: list[dict] = []
    before = None
    while True:
        kwargs = {"before": {"configurable": {"checkpoint_id": before}}} if before else {}
        chunk = await client.threads.get_history(thread_id, limit=page, **kwargs)
        items.extend(chunk)
        if len(chunk) < page:
            return items
        before = chunk[-1]["checkpoint_id"]


async def capture(url: str) -> None:
    client = get_client(url=url)
    thread = await client.threads.create()
    tid = thread["thread_id"]
    await run(client, tid, "plan a report about penguins")
    await run(client, tid, "upload hello")
    history = await full_history(client, tid)
    inputs = sorted((h for h in history if h["metadata"].get("source") == "input"), key=lambda h: h["metadata"]["step"])
    end_of_turn_one = inputs[1]["parent_checkpoint_id"]
    # A fork by update_state: go back to where the tools had written the todos and change one.
    todos_written = min((h for h in history if h["values"].get("todos")), key=lambda h: h["metadata"]["step"])
    todos = [dict(todo) for todo in todos_written["values"]["todos"]]
    todos[1]["status"] = "completed"
    await client.threads.update_state(
        tid, {"todos": todos}, as_node="tools", checkpoint_id=todos_written["checkpoint_id"]
    )
    # Edit and resend: run again from the end of the first turn with an edited message.
    await run(client, tid, "write a file please", checkpoint_id=end_of_turn_one)
    history = await full_history(client, tid)
    (HERE / "history_branch.json").write_text(json.dumps(history, indent=1, ensure_ascii=False) + "\n")
    graph = await client.assistants.get_graph("agent", xray=True)
    (HERE / "graph_xray.json").write_text(json.dumps(graph, indent=1) + "\n")
    graph = await client.assistants.get_graph("agent")
    (HERE / "graph_plain.json").write_text(json.dumps(graph, indent=1) + "\n")
    print(f"{len(history)} checkpoints saved")


def main() -> None:
    server = EmbeddedServer(data_dir=Path(tempfile.mkdtemp(prefix="tb-history-")), persist=False)
    server.start()
    try:
        server.wait_ready(timeout=90)
        asyncio.run(capture(server.url))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
