import asyncio

from threadbench.models import RunEvent, ToolCallChunk
from threadbench.streaming import coalesce, pump


def token(text, mid="m1", **kw):
    return RunEvent(kind="token", message_id=mid, text=text, size=len(text), **kw)


def test_coalesce_merges_tokens_of_one_message_only():
    events = [
        token("Hel"),
        token("lo"),
        RunEvent(kind="updates", node="agent"),
        token("a", mid="m2"),
        token("b", mid="m2", tool_call_chunks=[ToolCallChunk(0, "c1", "search", '{"q"')]),
        token("", mid="m2", tool_call_chunks=[ToolCallChunk(0, "", "", ': "x"}')]),
    ]
    merged = coalesce(events)
    assert [e.kind for e in merged] == ["token", "updates", "token"]
    assert merged[0].text == "Hello" and merged[0].size == 5
    assert merged[2].text == "ab"
    assert merged[2].tool_call_chunks[0].args == '{"q": "x"}'
    assert events[0].text == "Hel"  # the caller's events are untouched


def test_merged_tokens_carry_the_id_of_the_last_one():
    """A cut stream resumes after the last event read: a merged event ends where its last part does."""
    merged = coalesce([token("a", event_id="1-0"), token("b", event_id="2-0"), token("c")])
    assert [(e.text, e.event_id) for e in merged] == [("abc", "2-0")]


async def test_pump_applies_everything_in_order_and_batches():
    async def source():
        for i in range(500):
            yield token(str(i % 10))
        yield RunEvent(kind="end")

    batches, counts = [], []

    async def apply(batch, count):
        batches.append(batch)
        counts.append(count)
        await asyncio.sleep(0.001)

    await pump(source(), apply, frame=0.01)
    text = "".join(e.text for b in batches for e in b if e.kind == "token")
    assert text == "".join(str(i % 10) for i in range(500))
    assert batches[-1][-1].kind == "end"
    assert len(batches) < 500
    assert sum(counts) == 501


async def test_pump_reraises_reader_errors_after_applying_what_came_before():
    async def source():
        yield token("partial")
        raise ConnectionError("cut")

    seen = []

    async def apply(batch, count):
        seen.extend(batch)

    try:
        await pump(source(), apply, frame=0.001)
    except ConnectionError:
        pass
    else:
        raise AssertionError("the error was swallowed")
    assert seen and seen[0].text == "partial"


async def test_pump_shows_a_runs_first_token_at_once_and_paces_the_ones_after():
    async def source():
        yield RunEvent(kind="metadata", run_id="r1")
        await asyncio.sleep(0.02)
        yield token("first")
        await asyncio.sleep(0.02)
        yield token(" second")
        await asyncio.sleep(0.3)
        yield token(" third")
        yield RunEvent(kind="end")  # the end: what is left goes without waiting

    loop = asyncio.get_running_loop()
    start = loop.time()
    applied: list[tuple[float, list[str]]] = []

    async def apply(batch, count):
        applied.append((loop.time() - start, [e.text or e.kind for e in batch]))

    await pump(source(), apply, frame=0.5)
    (t_meta, meta), (t_first, first), (t_second, second) = applied
    assert meta == ["metadata"] and first == ["first"] and second == [" second third", "end"]
    assert t_first < 0.25  # not held back a frame by the metadata batch before it
    assert t_second - t_first >= 0.3  # " second" waited: tokens after the first are paced
