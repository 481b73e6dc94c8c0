"""Another client streaming runs on the same server: the load of the three-at-once case.

    python -m bench.other_client --url URL --prompt "rich 5000" THREAD_ID [THREAD_ID ...]

Starts one run per thread with the bare langgraph-sdk and reads every stream to its end,
as another workbench or a fan-out would. It runs as its own process, so the streams it
reads cost the benchmarked app's event loop nothing (another client's would not either),
but they take their share of the machine, as they would. It prints "started" when the runs
are asked for and "done <n>" with the number of chunks read when every stream has ended.
"""

from __future__ import annotations

import argparse
import asyncio

from langgraph_sdk import get_client

STREAM_MODES = ["messages-tuple", "updates", "values", "custom"]


async def stream_one(client, thread_id: str, prompt: str) -> int:
    chunks = 0
    async for _part in client.runs.stream(
        thread_id, "agent", input={"messages": [{"type": "human", "content": prompt}]}, stream_mode=STREAM_MODES
    ):
        chunks += 1
    return chunks


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--prompt", required=True)
    parser.add_argument("threads", nargs="+")
    args = parser.parse_args()
    client = get_client(url=args.url)
    runs = [asyncio.create_task(stream_one(client, thread_id, args.prompt)) for thread_id in args.threads]
    print("started", flush=True)
    counts = await asyncio.gather(*runs)
    print(f"done {sum(counts)}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
