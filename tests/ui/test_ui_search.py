"""The search box against the real server: what a person types finds what it names.

A tag made only of digits was the "search race" of issue 17: the tests tag their threads
with uuid4().hex[:10], which is all digits about once in 120 tags; `suite=1234567890` asked
the server for the number, the thread held the text, and the search found nothing. The app
now asks for the text when the number finds nothing; these tests use such a tag every time.
"""

from __future__ import annotations

import random

import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, open_tagged, wait_ready

pytestmark = pytest.mark.server


def digits() -> str:
    """A tag only of digits, as uuid4().hex[:10] sometimes is (unique on the shared server)."""
    return str(random.randrange(10**9, 10**10))


async def test_a_tag_of_digits_typed_unquoted_finds_its_thread(server_url):
    tag = {"suite": digits()}
    thread = await get_client(url=server_url).threads.create(metadata=tag, graph_id="agent")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, tag, thread["thread_id"])
        counts = str(app.screen.query_one("#thread-counts").visual)
        assert counts.startswith("1 of 1 thread") and "numbers as text" in counts, counts


async def test_a_number_tag_is_found_as_a_number_first(server_url):
    value = int(digits())
    thread = await get_client(url=server_url).threads.create(metadata={"ticket": value}, graph_id="agent")
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await open_tagged(pilot, {"ticket": str(value)}, thread["thread_id"])
        counts = str(app.screen.query_one("#thread-counts").visual)
        assert counts.startswith("1 of 1 thread") and "as text" not in counts, counts
