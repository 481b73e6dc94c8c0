"""A route the benchmarks' server adds (langgraph.json `http.app`): create threads in bulk.

POST /bench/threads {"metadata": [{...}, ...]} makes one idle thread per metadata dict,
each a microsecond newer than the one before, and answers {"created": N}.

Why: the in-memory server looks a new thread's id up in a list of every thread, twice, so
creating threads one request each slows as the server fills (30-60 a second, 100,000 in
30-70 minutes). Appended here they take a second or two. The threads are the same records
the server's own create makes; what the benchmarks then measure (search, count, paging) goes
through the public API only. Runs inside the server process: imports the in-memory runtime.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def create_threads(request: Request) -> JSONResponse:
    from langgraph_runtime_inmem.database import connect

    body = await request.json()
    metadata = body.get("metadata")
    if not isinstance(metadata, list) or not all(isinstance(m, dict) for m in metadata):
        return JSONResponse({"detail": '"metadata" must be a list of objects'}, status_code=422)
    start = datetime.now(UTC)
    async with connect() as conn:
        threads = conn.store["threads"]
        for n, meta in enumerate(metadata):
            at = start + timedelta(microseconds=n)
            threads.append(
                {
                    "thread_id": uuid.uuid4(),
                    "created_at": at,
                    "updated_at": at,
                    "state_updated_at": at,
                    "metadata": meta,
                    "status": "idle",
                    "config": {},
                    "values": None,
                }
            )
    return JSONResponse({"created": len(metadata)})


app = Starlette(routes=[Route("/bench/threads", create_threads, methods=["POST"])])
