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
    async def source():  # (each event a turn of the event loop: the writer runs between them)
        for i in range(500):
            yield token(str(i % 10))
            await asyncio.sleep(0)
        yield RunEvent(kind="end")

    batches, counts = [], []

    async def apply(batch, count):
        batches.append(batch)
        counts.append(count)

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
    """The source sends each event once what came before it is applied (it has no clock of
    its own): the one wait is pump's frame."""
    frame = 0.5
    loop = asyncio.get_running_loop()
    applied: list[tuple[float, list[str]]] = []
    changed = asyncio.Event()

    async def apply(batch, count):
        applied.append((loop.time(), [e.text or e.kind for e in batch]))
        changed.set()

    async def once_applied(batches: int) -> None:
        while len(applied) < batches:
            changed.clear()
            await asyncio.wait_for(changed.wait(), 10)

    async def source():
        yield RunEvent(kind="metadata", run_id="r1")
        await once_applied(1)
        yield token("first")
        await once_applied(2)
        yield token(" second")
        yield token(" third")
        await once_applied(3)
        yield token(" fourth")
        yield RunEvent(kind="end")  # the end: what is left goes without waiting

    await pump(source(), apply, frame=frame)
    (t_meta, meta), (t_first, first), (t_second, second), (t_last, last) = applied
    assert meta == ["metadata"] and first == ["first"] and second == [" second third"] and last == [" fourth", "end"]
    assert t_first - t_meta < frame / 2  # not held back a frame by the metadata batch before it
    assert t_second - t_first >= frame * 0.9  # " second" waited: tokens after the first are paced
    assert t_last - t_second < frame / 2  # the end did not wait out the frame
