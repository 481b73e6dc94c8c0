"""Record and replay (issue 19): `--record DIR` writes every run the app streams; `threadbench
replay FILE` shows it again with no server. Recorded against the real LangGraph server; the
replays need none. tests/data/recordings/demo_plan_report.jsonl is a run of the demo agent recorded
once with `python scripts/record_fixture.py`: the snapshot replays it, so it is the same every
time."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
from support.driving import FIXED_NOW, TERMINAL, ai_texts, screen_text, wait_for, wait_ready
from threadbench.__main__ import main
from threadbench.backends.base import Invalid, NotFound
from threadbench.backends.langgraph import LangGraphBackend
from threadbench.backends.recording import RecordingBackend
from threadbench.backends.replay import ReplayBackend
from threadbench.cli import UsageError, record_folder
from threadbench.config import Settings
from threadbench.models import (
    ChatMessage,
    Interrupt,
    RunEvent,
    RunRequest,
    ThreadQuery,
    ThreadState,
    ThreadSummary,
    ToolCallChunk,
)
from threadbench.recording import (
    RecordingError,
    RunRecorder,
    event_from_json,
    event_to_json,
    list_recordings,
    load_recording,
    public_address,
)
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.widgets.state_tree import StateTree

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "recordings" / "demo_plan_report.jsonl"
SECRET = "lsv2_sk_0123456789abcdef0123456789abcdef_recordme"


def say(text: str) -> RunRequest:
    return RunRequest(assistant_id="agent", input={"messages": [{"role": "user", "content": text}]})


# -- the format ---------------------------------------------------------------------------------


def test_every_kind_of_event_survives_the_file() -> None:
    events = [
        RunEvent(kind="metadata", run_id="r1", data={"run_id": "r1"}, event="metadata"),
        RunEvent(
            kind="token",
            message_id="m1",
            message_type="ai",
            text="Hel",
            tool_call_chunks=[ToolCallChunk(index=0, id="c1", name="search", args='{"q": ')],
            size=12,
            event_id="7",
        ),
        RunEvent(kind="message", message=ChatMessage(id="m2", type="tool", text="42", tool_call_id="c1")),
        RunEvent(kind="values", data={"title": "T", "messages": [{"type": "human", "content": "hi"}]}),
        RunEvent(kind="interrupt", data=[Interrupt(id="i1", value={"question": "Which?"}, node="ask")]),
        RunEvent(kind="error", text="boom"),
    ]
    back = [event_from_json(json.loads(json.dumps(event_to_json(event)))) for event in events]
    assert back == events


def test_the_address_keeps_no_credentials() -> None:
    assert public_address("https://user:pw@host.example:8443/api?token=abc#x") == "https://host.example:8443/api"
    assert public_address("http://127.0.0.1:2024") == "http://127.0.0.1:2024"


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "Cannot read"),
        ("not json\n", "line 1, is not JSON"),
        ('{"format": "something-else"}\n', "not a Threadbench recording"),
        ('{"format": "threadbench-recording", "version": 99}\n', "version 99"),
        ('{"format": "threadbench-recording", "version": 1}\n', "damaged recording"),
        (b"\xff\xfe\x00", "not UTF-8"),
    ],
)
def test_a_file_that_is_not_a_recording_says_what_is_wrong(tmp_path: Path, content, says: str) -> None:
    path = tmp_path / "run.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    with pytest.raises(RecordingError, match=says):
        load_recording(path)


def test_a_cut_recording_still_replays_what_it_holds(tmp_path: Path) -> None:
    recorder = RunRecorder(tmp_path / "cut.jsonl")
    recorder.begin("http://h", ThreadSummary(thread_id="t1"), ThreadState(thread_id="t1"), say("hi"))
    recorder.event(RunEvent(kind="token", message_id="m", text="Hel"))
    # no end(): the app was killed mid-run
    recording = load_recording(tmp_path / "cut.jsonl")
    assert [event.text for _, event in recording.events] == ["Hel"]
    assert recording.state_after is None and recording.request == say("hi")


# -- recording a real run -------------------------------------------------------------------------


async def test_a_run_on_the_real_server_is_recorded_without_the_key(server_url: str, tmp_path: Path) -> None:
    inner = LangGraphBackend(server_url)
    backend = RecordingBackend(inner, tmp_path, redact=lambda text: text.replace(SECRET, "[redacted]"))
    try:
        thread = await backend.create_thread()
        request = say("hello there").model_copy(update={"configurable": {"pasted": SECRET}})
        streamed = [event async for event in backend.stream_run(thread.thread_id, request)]
        assert backend.capabilities is inner.capabilities  # the rest goes to the server as it is
    finally:
        await inner.close()
    (path,) = backend.written
    text = path.read_text()
    assert SECRET not in text and "[redacted]" in text
    recording = load_recording(path)
    assert recording.server == server_url and recording.thread.thread_id == thread.thread_id
    assert recording.state_before.messages == []
    assert [event for _, event in recording.events] == streamed
    times = [at for at, _ in recording.events]
    assert times == sorted(times) and recording.duration >= times[-1]
    assert recording.state_after is not None and recording.state_after.messages[-1].type == "ai"
    assert recording.thread_after is not None and recording.thread_after.status == "idle"


async def test_a_refused_run_is_recorded_as_refused(server_url: str, tmp_path: Path) -> None:
    inner = LangGraphBackend(server_url)
    backend = RecordingBackend(inner, tmp_path)
    try:
        thread = await backend.create_thread()
        with pytest.raises(Exception):  # noqa: B017 - whichever error the server's refusal maps to
            async for _ in backend.stream_run(thread.thread_id, RunRequest(assistant_id="no_such_graph_here")):
                pass
    finally:
        await inner.close()
    recording = load_recording(backend.written[0])
    assert recording.state_after is None and recording.request is not None


# -- replaying --------------------------------------------------------------------------------------


async def test_the_replay_serves_one_thread_that_runs_once_then_rests() -> None:
    recording = load_recording(FIXTURE)
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    backend = ReplayBackend(recording, FIXTURE, sleep=sleep)
    thread_id = recording.thread.thread_id
    (row,) = await backend.search_threads(ThreadQuery())
    assert row.status == "busy" and await backend.active_run(thread_id) == recording.run_id
    assert await backend.search_threads(ThreadQuery(offset=50)) == []
    assert (await backend.get_state(thread_id)) == recording.state_before

    replayed = [event async for event in backend.join_stream(thread_id)]
    assert replayed == [event for _, event in recording.events]
    # Each event waits until its recorded time (the fake sleep takes none: a wait is that time).
    last = recording.events[-1][0]
    # (less the little time the replay itself took, so only roughly in order)
    assert all(b >= a - 0.1 for a, b in zip(waits, waits[1:], strict=False)) and last - 0.5 <= waits[-1] <= last
    assert (await backend.get_thread(thread_id)).status == "idle"
    assert await backend.active_run(thread_id) is None
    assert (await backend.get_state(thread_id)) == recording.state_after
    history = await backend.get_history(thread_id)
    assert history == [recording.state_after, recording.state_before]
    assert await backend.get_history(thread_id, before=history[0].checkpoint_id) == [recording.state_before]
    assert [event async for event in backend.join_stream(thread_id)] == []  # once only

    with pytest.raises(Invalid, match="read-only"):
        async for _ in backend.stream_run(thread_id, say("hi")):
            pass
    after = RunRequest(checkpoint_id=recording.state_after.checkpoint_id)
    with pytest.raises(Invalid, match="read-only"):
        async for _ in backend.stream_run(thread_id, after):
            pass
    # Replaying from where the run began (p in the timeline) replays it again.
    again = RunRequest(checkpoint_id=recording.state_before.checkpoint_id)
    assert [event async for event in backend.stream_run(thread_id, again)] == replayed
    for write in (backend.create_thread(), backend.delete_thread(thread_id), backend.copy_thread(thread_id)):
        with pytest.raises(Invalid, match="read-only"):
            await write
    with pytest.raises(NotFound):
        await backend.get_state("another-thread")


async def test_cancel_stops_the_replay_where_it_is() -> None:
    recording = load_recording(FIXTURE)
    backend = ReplayBackend(recording, FIXTURE, instant=True)
    seen = []
    async for event in backend.join_stream(recording.thread.thread_id):
        seen.append(event)
        if len(seen) == 3:
            await backend.cancel_run(recording.thread.thread_id, recording.run_id)
    assert len(seen) == 3 < len(recording.events)
    assert (await backend.get_thread(recording.thread.thread_id)).status == "interrupted"


def test_the_list_of_recordings_is_newest_first_and_skips_other_files(tmp_path: Path) -> None:
    import os

    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_bytes(FIXTURE.read_bytes())
    head, *rest = FIXTURE.read_text().splitlines()
    joined = json.loads(head) | {"request": None}
    new.write_text("\n".join([json.dumps(joined), *rest]))
    os.utime(old, (1, 1))
    (tmp_path / "notes.jsonl").write_text('{"some": "other file"}\n')
    (tmp_path / "broken.jsonl").write_text("not json\n")
    found = list_recordings(tmp_path)
    assert [info.path for info in found] == [new, old]
    assert [info.sent for info in found] == ["a run joined as it streamed", "plan a report"]
    assert found[1].thread_title == "Hello" and found[1].server == "http://127.0.0.1:44537"
    assert list_recordings(tmp_path / "missing") == []


# -- in the app ----------------------------------------------------------------------------------------


def replay_app(backend: ReplayBackend, data_dir: Path) -> ThreadbenchApp:
    settings = Settings(url=backend.url, data_dir=data_dir)
    return ThreadbenchApp(settings, backend=backend, clock=lambda: FIXED_NOW, monotonic=lambda: 0.0)


async def test_enter_replays_the_run_and_the_inspector_follows_the_state(tmp_path: Path) -> None:
    recording = load_recording(FIXTURE)
    gate = asyncio.Event()
    first_values = next(i for i, (_, e) in enumerate(recording.events) if e.kind == "values")

    async def sleep(seconds: float) -> None:
        await gate.wait()  # the replay waits here until the test has looked

    backend = ReplayBackend(recording, FIXTURE, sleep=sleep)
    # No waits before the first values event; then one before each later event.
    recording.events[: first_values + 1] = [(0.0, event) for _, event in recording.events[: first_values + 1]]
    app = replay_app(backend, tmp_path)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        assert "recording demo_plan_report.jsonl" in screen_text(app)
        app.screen.query_one("#thread-list").focus()
        await pilot.press("enter")
        tree = app.screen.query_one("#state-tree", StateTree)
        values = recording.events[first_values][1].data
        await wait_for(pilot, lambda: tree.state is not None and tree.state.values == values, what="mid-run values")
        assert "running" in str(app.screen.query_one("#run-status").visual)
        gate.set()
        reply = recording.state_after.messages[-1].text
        await wait_for(
            pilot,
            lambda: any(reply[:40] in text for text in ai_texts(app)),  # (streamed, or drawn once finished)
            what="the recorded reply",
        )
        await wait_for(pilot, lambda: tree.state == recording.state_after, what="the recorded end state")


async def test_a_message_typed_in_a_replay_is_refused_and_kept(tmp_path: Path) -> None:
    recording = load_recording(FIXTURE)
    app = replay_app(ReplayBackend(recording, FIXTURE, instant=True), tmp_path)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        app.screen.query_one("#thread-list").focus()
        await pilot.press("enter")
        composer = app.screen.query_one("#composer")
        await wait_for(pilot, lambda: composer.has_focus, what="the composer")
        await wait_for(pilot, lambda: "idle" in str(app.screen.query_one("#run-status").visual), what="replayed")
        for key in "again":
            await pilot.press(key)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "read-only" in screen_text(app), what="the refusal")
        assert composer.text == "again"


def test_snapshot_replayed_run(snap_compare, tmp_path: Path) -> None:
    app = replay_app(ReplayBackend(load_recording(FIXTURE), FIXTURE, instant=True), tmp_path)

    async def replayed(pilot) -> None:
        await wait_ready(pilot)
        app.screen.query_one("#thread-list").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: "idle" in str(app.screen.query_one("#run-status").visual), what="replayed")
        await wait_for(pilot, lambda: not any(w.is_running for w in app.screen.workers), what="settled")
        app.screen.query_one("#composer").focus()
        await pilot.pause()

    assert snap_compare(app, terminal_size=TERMINAL, run_before=replayed)


# -- the command line ---------------------------------------------------------------------------------


def test_replay_of_a_missing_file_says_so(tmp_path: Path, capsys) -> None:
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "Cannot read" in capsys.readouterr().err


def test_record_folder_that_cannot_be_written_is_refused_at_once(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UsageError, match="Cannot write recordings"):
        record_folder(blocker / "sub")
    assert record_folder(tmp_path / "new" / "dir") == tmp_path / "new" / "dir"


async def test_the_app_records_when_asked(server_url: str, tmp_path: Path) -> None:
    settings = Settings(url=server_url, data_dir=tmp_path, record_dir=tmp_path / "rec")
    app = ThreadbenchApp(settings)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        assert "◉ rec" in screen_text(app)
        assert isinstance(app.session.backend, RecordingBackend) and app.session.backend.folder == tmp_path / "rec"


# -- F8 records, F9 replays: from inside the app -----------------------------------------------------


async def test_f8_records_the_runs_made_and_f9_replays_one(server_url: str, tmp_path: Path) -> None:
    from support.driving import ai_texts, make_app, notices, send_in_new_thread
    from threadbench.ui.screens.choose import ChooseScreen

    app = make_app(server_url, tmp_path)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await pilot.press("f8")
        folder = tmp_path / "recordings"
        await wait_for(pilot, lambda: "◉ rec" in screen_text(app), what="the recording mark")
        assert isinstance(app.session.backend, RecordingBackend) and app.session.backend.folder == folder
        await send_in_new_thread(pilot, "hello recorder")
        await wait_for(pilot, lambda: len(ai_texts(app)) == 1, what="the reply")
        await wait_for(pilot, lambda: len(list(folder.glob("*.jsonl"))) == 1, what="the recording")
        written = next(folder.glob("*.jsonl"))
        await wait_for(pilot, lambda: load_recording(written).state_after is not None, what="its end")
        # The recording can end before the chat has drawn the last tokens: compare whole replies only.
        reply = load_recording(written).state_after.messages[-1].text
        await wait_for(pilot, lambda: ai_texts(app) == [reply], what="the whole reply drawn")

        app.screen.query_one("#thread-list").focus()
        await pilot.press("f8")
        await wait_for(pilot, lambda: "◉ rec" not in screen_text(app), what="the mark gone")
        assert not isinstance(app.session.backend, RecordingBackend)
        assert any("1 run written" in n for n in notices(app))
        await pilot.press("f8")
        await wait_for(pilot, lambda: "◉ rec" in screen_text(app), what="recording again")

        await pilot.press("f9")
        await wait_for(pilot, lambda: isinstance(app.screen, ChooseScreen), what="the recordings")
        first = app.screen.query_one("#choose-list").get_option_at_index(0)
        assert "hello recorder" in str(first.prompt)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.session.backend, ReplayBackend), what="the replay")
        await wait_ready(pilot)
        assert "◉ rec" not in screen_text(app)
        app.screen.query_one("#thread-list").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: ai_texts(app)[-1:] == [reply], timeout=60, what="the replayed reply")


async def test_f9_with_no_recordings_says_where_it_looked(tmp_path: Path) -> None:
    from support.driving import notices

    app = replay_app(ReplayBackend(load_recording(FIXTURE), FIXTURE, instant=True), tmp_path)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        await pilot.press("f9")
        await wait_for(pilot, lambda: any("No recordings in" in n for n in notices(app)), what="the note")
        await pilot.press("f8")
        await wait_for(pilot, lambda: any("no server run to record" in n for n in notices(app)), what="the refusal")
        assert app.session.recording_to is None


def test_snapshot_choose_a_recording(snap_compare) -> None:
    data_dir = Path("/tmp/threadbench-snapshot-recordings")  # the dialog names the folder
    shutil.rmtree(data_dir, ignore_errors=True)
    (data_dir / "recordings").mkdir(parents=True)
    (data_dir / "recordings" / FIXTURE.name).write_bytes(FIXTURE.read_bytes())
    app = replay_app(ReplayBackend(load_recording(FIXTURE), FIXTURE, instant=True), data_dir)

    async def chooser(pilot) -> None:
        await wait_ready(pilot)
        await pilot.press("f9")
        await wait_for(pilot, lambda: app.screen.query("#choose-list"), what="the recordings")
        await pilot.pause()

    assert snap_compare(app, terminal_size=TERMINAL, run_before=chooser)
