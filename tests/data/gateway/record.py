"""Record what a real DeerFlow Gateway answers, as test data for the Gateway stand-in.

DeerFlow is on no package registry, so CI cannot run it: tests/backends/test_gateway_recorded.py
sends the same requests to the stand-in (tests/support/deerflow_gateway_proxy.py) and checks
that it answers as the real Gateway did: the same status, the same shape of JSON (keys and
types; graph-specific values are not compared), the same stream events, and refusals word for
word.

Run it against a running Gateway whose model answers a message containing "clarify" with an
ask_clarification tool call (options given), and one containing "report" by writing
/mnt/user-data/outputs/report.md with write_file and presenting it with present_files (so the
thread's state names it in `artifacts`), and answers a prompt asking for a JSON array (the
follow-up suggestions) with one:

    GATEWAY=http://127.0.0.1:8001 EMAIL=me@example.com PASSWORD=... \
        .venv/bin/python tests/data/gateway/record.py

It writes recorded.json here. No cookie, token or password is written.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
API = "/api"


def sse_events(text: str) -> list[str]:
    """The event names of an SSE answer, in order (data is not kept: it is the graph's)."""
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("event:")]


class Recorder:
    def __init__(self, origin: str) -> None:
        self.client = httpx.Client(base_url=origin, timeout=60)
        self.exchanges: list[dict[str, Any]] = []

    def csrf(self) -> dict[str, str]:
        token = self.client.cookies.get("csrf_token")
        return {"X-CSRF-Token": token} if token else {}

    def send(
        self,
        name: str,
        method: str,
        path: str,
        body: Any = None,
        *,
        form: Any = None,
        files: Any = None,
        keep: bool = True,
    ) -> Any:
        headers = self.csrf() if method != "GET" else {}
        kwargs: dict[str, Any] = {"json": body} if body is not None else {}
        if form is not None:
            kwargs = {"data": form}
        if files is not None:  # (multipart: recorded as the names and sizes of its files)
            kwargs = {"files": files}
            body = {"files": [(field, part[0], len(part[1])) for field, part in files]}
        response = self.client.request(method, path, headers=headers, **kwargs)
        kind = response.headers.get("content-type", "").split(";")[0]
        answer: Any = sse_events(response.text) if kind == "text/event-stream" else _json(response)
        if keep:
            self.exchanges.append(
                {
                    "name": name,
                    "method": method,
                    "path": path,
                    "body": body,
                    "status": response.status_code,
                    "content_type": kind,
                    "answer": answer,
                }
            )
        return answer


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


def record(origin: str, email: str, password: str) -> list[dict[str, Any]]:
    rec = Recorder(origin)
    rec.send("health", "GET", "/health")
    rec.send("no session: a read", "GET", f"{API}/threads/00000000-0000-0000-0000-000000000000")
    rec.send("no session: a write", "POST", f"{API}/threads/search", {"limit": 1})
    rec.send(
        "login: wrong password",
        "POST",
        "/api/v1/auth/login/local",
        form={"username": email, "password": "wrong-password-1"},
    )
    rec.send("login", "POST", "/api/v1/auth/login/local", form={"username": email, "password": password}, keep=False)
    assert "access_token" in rec.client.cookies, "the login set no session"
    rec.send("ok", "GET", f"{API}/ok")
    rec.send("info", "GET", f"{API}/info")
    rec.send("assistants: search", "POST", f"{API}/assistants/search", {"limit": 10})
    thread = rec.send("threads: create", "POST", f"{API}/threads", {"metadata": {"recorded": True}})
    tid = thread["thread_id"]
    rec.send("threads: create with an id in use", "POST", f"{API}/threads", {"thread_id": tid})
    rec.send("threads: count", "POST", f"{API}/threads/count", {})
    rec.send("threads: copy", "POST", f"{API}/threads/{tid}/copy", {})
    run = {"assistant_id": "lead_agent", "on_disconnect": "continue"}
    said = {"input": {"messages": [{"type": "human", "content": "hello"}]}}
    rec.send(
        "runs: stream_resumable true",
        "POST",
        f"{API}/threads/{tid}/runs/stream",
        {**run, **said, "stream_mode": ["values"], "stream_resumable": True},
    )
    rec.send(
        "runs: stream mode messages",
        "POST",
        f"{API}/threads/{tid}/runs/stream",
        {**run, **said, "stream_mode": ["values", "messages"]},
    )
    rec.send(
        "runs: multitask enqueue",
        "POST",
        f"{API}/threads/{tid}/runs/stream",
        {**run, **said, "stream_mode": ["values"], "multitask_strategy": "enqueue"},
    )
    rec.send(
        "runs: stream",
        "POST",
        f"{API}/threads/{tid}/runs/stream",
        {**run, **said, "stream_mode": ["values", "messages-tuple", "updates", "custom"], "stream_resumable": False},
    )
    rec.send("threads: search", "POST", f"{API}/threads/search", {"limit": 5})
    rec.send("threads: get", "GET", f"{API}/threads/{tid}")
    rec.send("threads: state", "GET", f"{API}/threads/{tid}/state")
    history = rec.send("threads: history", "POST", f"{API}/threads/{tid}/history", {"limit": 5})
    rec.send(
        "threads: history before the last of a page",
        "POST",
        f"{API}/threads/{tid}/history",
        {"limit": 5, "before": history[-1]["checkpoint_id"]},
    )
    rec.send(
        "threads: history before as a config",
        "POST",
        f"{API}/threads/{tid}/history",
        {"limit": 5, "before": {"configurable": {"checkpoint_id": history[-1]["checkpoint_id"]}}},
    )
    runs = rec.send("runs: list", "GET", f"{API}/threads/{tid}/runs")
    rec.send("runs: cancel a finished run", "POST", f"{API}/threads/{tid}/runs/{runs[0]['run_id']}/cancel")
    clarify = {"input": {"messages": [{"type": "human", "content": "please clarify"}]}}
    rec.send(
        "runs: a clarification",
        "POST",
        f"{API}/threads/{tid}/runs/stream",
        {**run, **clarify, "stream_mode": ["values", "messages-tuple"]},
    )
    rec.send("threads: state waiting on a clarification", "GET", f"{API}/threads/{tid}/state")
    record_artifacts_and_models(rec, run)
    record_uploads_and_follow_ups(rec, run)
    return rec.exchanges


def record_artifacts_and_models(rec: Recorder, run: dict[str, Any]) -> None:
    """A report the agent wrote (its state's `artifacts`), the file served, a missing one; the models."""
    tid = rec.send("threads: create for a report", "POST", f"{API}/threads", {"metadata": {"recorded": True}})[
        "thread_id"
    ]
    report = {"input": {"messages": [{"type": "human", "content": "write a report"}]}}
    rec.send("runs: a report", "POST", f"{API}/threads/{tid}/runs/stream", {**run, **report, "stream_mode": ["values"]})
    state = rec.send("threads: state with artifacts", "GET", f"{API}/threads/{tid}/state")
    path = state["values"]["artifacts"][0].lstrip("/")
    rec.send("artifacts: a report", "GET", f"{API}/threads/{tid}/artifacts/{path}")
    missing = path.rsplit("/", 1)[0] + "/missing.md"
    rec.send("artifacts: a file that is not there", "GET", f"{API}/threads/{tid}/artifacts/{missing}")
    rec.send("models", "GET", f"{API}/models")


NOTES = b"Threadbench notes\nThe answer is 42.\n"


def record_uploads_and_follow_ups(rec: Recorder, run: dict[str, Any]) -> None:
    """A file uploaded, listed, sent with a message as DeerFlow's UI sends it, deleted; the
    refusals (too many files, a file not there); the upload limits; the follow-up questions."""
    tid = rec.send("threads: create for uploads", "POST", f"{API}/threads", {"metadata": {"recorded": True}})[
        "thread_id"
    ]
    uploads = f"{API}/threads/{tid}/uploads"
    rec.send("uploads: limits", "GET", f"{uploads}/limits")
    rec.send("uploads: list of none", "GET", f"{uploads}/list")
    sent = rec.send("uploads: a file", "POST", uploads, files=[("files", ("notes.txt", NOTES, "text/plain"))])
    rec.send("uploads: list", "GET", f"{uploads}/list")
    eleven = [("files", (f"f{i}.txt", b"x", "text/plain")) for i in range(11)]
    rec.send("uploads: too many files", "POST", uploads, files=eleven)
    info = sent["files"][0]
    message = {
        "type": "human",
        "content": [{"type": "text", "text": "read notes.txt"}],
        "additional_kwargs": {
            "files": [
                {"filename": info["filename"], "size": info["size"], "path": info["virtual_path"], "status": "uploaded"}
            ]
        },
    }
    rec.send(
        "runs: a message with a file",
        "POST",
        f"{API}/threads/{tid}/runs/stream",
        {**run, "input": {"messages": [message]}, "stream_mode": ["values"], "context": {"thread_id": tid}},
    )
    state = rec.send("threads: state after a message with a file", "GET", f"{API}/threads/{tid}/state")
    rec.send("suggestions: config", "GET", f"{API}/suggestions/config")
    turns = [
        {"role": "user" if m["type"] == "human" else "assistant", "content": m["content"]}
        for m in state["values"]["messages"]
        if m["type"] in ("human", "ai") and isinstance(m["content"], str) and m["content"]
    ]
    rec.send("suggestions", "POST", f"{API}/threads/{tid}/suggestions", {"messages": turns[-6:], "n": 3})
    rec.send("uploads: delete", "DELETE", f"{uploads}/{info['filename']}")
    rec.send("uploads: delete a file not there", "DELETE", f"{uploads}/{info['filename']}")
    rec.send("uploads: list after the delete", "GET", f"{uploads}/list")


def main() -> int:
    origin = os.environ.get("GATEWAY", "http://127.0.0.1:8001").rstrip("/")
    exchanges = record(origin, os.environ["EMAIL"], os.environ["PASSWORD"])
    (HERE / "recorded.json").write_text(json.dumps(exchanges, indent=1) + "\n")
    print(f"{len(exchanges)} exchanges recorded from {origin}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
