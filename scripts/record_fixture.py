"""Record the run tests/test_record_replay.py replays: the second turn of a thread of the demo
agent, asked to "plan a report" (todos, tool calls, a file in artifacts, a Markdown reply)
after a "hello" (not recorded), on an embedded server with persistence off, through the app's
own RecordingBackend.

    python scripts/record_fixture.py        (writes tests/data/recordings/demo_plan_report.jsonl)

Run it again only when the recording format changes; the snapshot of the replay changes with it.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "tests" / "data" / "recordings" / "demo_plan_report.jsonl"


async def record(url: str, folder: Path) -> Path:
    from threadbench.backends.langgraph import LangGraphBackend
    from threadbench.backends.recording import RecordingBackend
    from threadbench.models import RunRequest

    inner = LangGraphBackend(url)
    backend = RecordingBackend(inner, folder)
    try:
        thread = await backend.create_thread(graph_id="agent")
        for text, recorder in (("hello", inner), ("plan a report", backend)):
            request = RunRequest(assistant_id="agent", input={"messages": [{"role": "user", "content": text}]})
            async for _ in recorder.stream_run(thread.thread_id, request):
                pass
    finally:
        await inner.close()
    return backend.written[0]


def main() -> int:
    from threadbench.embedded.launcher import EmbeddedServer

    with tempfile.TemporaryDirectory(prefix="tb-record-") as data:
        server = EmbeddedServer(Path(data))
        server.start()
        try:
            server.wait_ready(timeout=120)
            written = asyncio.run(record(server.url, Path(data) / "recordings"))
            TARGET.parent.mkdir(parents=True, exist_ok=True)
            TARGET.write_text(written.read_text())
        finally:
            server.stop()
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
