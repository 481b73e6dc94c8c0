"""A thread with a long history and a few human turns, written on the real server."""

from __future__ import annotations

from langgraph_sdk import get_client


async def turns_and_updates(url: str, graph: str, turns: list[str], updates: int, metadata: dict) -> str:
    """A thread of `graph` on `url` (the real server, not a stand-in): each text in `turns`
    is a run, and between two runs `updates` state writes add checkpoints, so the history is
    about len(turns) * (updates + 3) checkpoints long."""
    async with get_client(url=url) as client:
        thread = await client.threads.create(graph_id=graph, metadata=metadata)
        thread_id = thread["thread_id"]
        for number, text in enumerate(turns):
            if number:
                for update in range(updates):
                    await client.threads.update_state(thread_id, {"title": f"title {number}.{update}"}, as_node="model")
            await client.runs.wait(thread_id, graph, input={"messages": [{"type": "human", "content": text}]})
    return thread_id


async def full_history(url: str, thread_id: str) -> list[dict]:
    """Every checkpoint of the thread, newest first, as the real server answers them."""
    async with get_client(url=url) as client:
        return await client.threads.get_history(thread_id, limit=1000)
