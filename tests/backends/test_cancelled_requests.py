"""Requests cancelled by their caller (a worker replaced as the user moves on) leave the
connection pool usable: against the real LangGraph and 10xGraph servers.

httpcore 1.0.9 leaks a pool slot when a request is cancelled while the pool gets it a
connection (encode/httpcore#1093); enough of them and every later request waits for a slot
that never frees. The backends send each request through `Uncancelled` (backends/http.py).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

import pytest
from support.waiting import eventually
from threadbench.backends.base import Backend, NotFound, ServerError
from threadbench.backends.http import Uncancelled
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.backends.tenxgraph import TenXGraphBackend

NO_THREAD = "00000000-0000-0000-0000-000000000000"
ROUNDS, AT_ONCE = 40, 150
"""More at once than the pool's 100 connections: requests wait for a slot, where a cancel leaks one."""


async def cancel_rounds(call: Callable[[], Awaitable[object]]) -> None:
    """Rounds of requests sent together and cancelled as they go, as a user scrolling fast
    through threads cancels the open of each one passed: on their way into the pool, or in
    flight (once some of them are answered, the others at every stage of theirs)."""
    chance = random.Random(7)
    for round in range(ROUNDS):
        tasks = [asyncio.ensure_future(call()) for _ in range(AT_ONCE)]
        if round % 2:
            await until_answered(tasks, chance.randrange(1, AT_ONCE // 2))  # in flight
        else:
            for _ in range(chance.randrange(8)):  # on the way into the pool
                await asyncio.sleep(0)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def until_answered(tasks: list[asyncio.Future], count: int, timeout: float = 30.0) -> None:
    """Until `count` of `tasks` are done."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    pending = {task for task in tasks if not task.done()}
    while len(tasks) - len(pending) < count:
        left = deadline - loop.time()
        assert left > 0, f"only {len(tasks) - len(pending)} of {len(tasks)} requests answered in {timeout:g} s"
        _, pending = await asyncio.wait(pending, timeout=left, return_when=asyncio.FIRST_COMPLETED)


def pool_of(client) -> object:
    return client._transport._pool  # httpcore's pool: no public way to see its connections


async def assert_pool_recovers(backend: Backend, pool) -> None:
    await eventually(lambda: not pool._requests, 30, "the requests let run to finish")
    connecting = [c for c in pool.connections if "CONNECTING" in repr(c)]
    assert not connecting, f"{len(connecting)} of {len(pool.connections)} connections left connecting"
    started = time.monotonic()
    answers = await asyncio.gather(*(backend.get_state(NO_THREAD) for _ in range(120)), return_exceptions=True)
    failed = {type(a).__name__ for a in answers if isinstance(a, Exception) and not isinstance(a, NotFound)}
    assert not failed  # (an unknown thread: NotFound from LangGraph, an empty state from 10xGraph)
    assert time.monotonic() - started < 5  # the pool's wait for a slot is 5 s: nobody waited it out


async def test_langgraph_pool_survives_cancelled_requests(server_url: str) -> None:
    backend = LangGraphBackend(server_url)
    try:
        await cancel_rounds(lambda: backend.get_state(NO_THREAD))
        await assert_pool_recovers(backend, pool_of(backend._client.http.client))
    finally:
        await backend.close()


async def test_tenxgraph_pool_survives_cancelled_requests(tenxgraph_url: str) -> None:
    backend = TenXGraphBackend(tenxgraph_url)
    try:
        await cancel_rounds(lambda: backend.get_state(NO_THREAD))
        await assert_pool_recovers(backend, pool_of(backend._client))
    finally:
        await backend.close()


async def test_a_cancelled_caller_is_let_go_and_its_request_runs_to_the_end() -> None:
    guard = Uncancelled()
    sent, answer, done = asyncio.Event(), asyncio.Event(), asyncio.Event()
    finished: list[str] = []

    async def request(name: str) -> str:  # a server that answers when the test says
        sent.set()
        await answer.wait()
        finished.append(name)
        done.set()
        return name

    caller = asyncio.ensure_future(guard.run(request("sent")))
    await asyncio.wait_for(sent.wait(), 10)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller  # at once, not after the request
    assert finished == []
    answer.set()
    await asyncio.wait_for(done.wait(), 10)
    assert finished == ["sent"]
    assert await guard.run(request("next")) == "next"


async def test_requests_past_the_slots_wait_and_a_cancelled_wait_sends_nothing() -> None:
    guard = Uncancelled()
    release = asyncio.Event()
    started: list[int] = []

    async def request(n: int) -> int:
        started.append(n)
        await release.wait()
        return n

    running = [asyncio.ensure_future(guard.run(request(n))) for n in range(Uncancelled.SLOTS)]
    waiting = asyncio.ensure_future(guard.run(request(-1)))
    await eventually(lambda: len(started) == Uncancelled.SLOTS, 10, "every slot's request sent")
    assert -1 not in started and not waiting.done()
    waiting.cancel()
    release.set()
    assert await asyncio.gather(*running) == list(range(Uncancelled.SLOTS))
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert -1 not in started


async def test_a_5xx_does_not_close_the_client_under_requests_waiting_their_turn(server_url) -> None:
    """After a 5xx the client is renewed and the old one closed: closed under requests that
    had taken it and waited for a slot, they failed with "Cannot send a request, as the
    client has been closed" instead of the server's answer (seen at start on DeerFlow). The
    real server answers 500 to a search by values while a thread has null values."""
    backend = LangGraphBackend(server_url)
    try:
        thread = await backend.create_thread(graph_id="be_chat")

        async def failing() -> None:
            with pytest.raises(ServerError):
                await backend._call("search by values", lambda c: c.threads.search(values={"x": 1}, limit=1))

        results = await asyncio.gather(
            *(backend.get_thread(thread.thread_id) for _ in range(Uncancelled.SLOTS + 20)),
            failing(),
            *(backend.get_thread(thread.thread_id) for _ in range(Uncancelled.SLOTS)),
            return_exceptions=True,
        )
        failures = [result for result in results if isinstance(result, BaseException)]
        assert not failures, failures[:3]
    finally:
        await backend.close()
