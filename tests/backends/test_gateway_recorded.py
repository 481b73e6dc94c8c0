"""The Gateway stand-in answers as the real DeerFlow Gateway did.

tests/data/gateway/recorded.json holds what a real Gateway (bytedance/deer-flow f1f4af99,
backend 2.1.0, auth on) answered to each request of tests/data/gateway/record.py. Each
request is sent again to the stand-in (tests/support/deerflow_gateway_proxy.py, in front of
the real LangGraph test server) and its answer must match: the same status; for a refusal
the same words (ids aside); for a file (an artifact) the same type and bytes; for JSON the
same keys, all the way down except inside graph-specific objects (values, metadata, config,
...), and the same answer for the models, the upload limits and the follow-ups; for a stream
the same kind of events, from the run's metadata to its end.

An upload is recorded as the names and sizes of its files, and sent again as files of that
size. Not replayed here: what needs a session (the stand-in has no auth: tests/graphs/deerflow_auth
is the login's stand-in; its wrong-password answer is checked against the recording below).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.server

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "gateway" / "recorded.json").read_text())
OPAQUE = {"values", "metadata", "config", "context", "kwargs", "input", "interrupts", "ctx"}
"""Objects whose keys are the graph's or the run's, not the Gateway's: not compared inside."""
NEEDS_A_SESSION = {"no session: a read", "no session: a write", "login: wrong password"}
GRAPHS = {"runs: a clarification": "hi_deerflow"}
"""The stand-in serves the test graphs: a run of DeerFlow's lead_agent goes to be_chat, its
clarification to hi_deerflow (DeerFlow's ClarificationMiddleware reproduced)."""
ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def shape_difference(ours: Any, theirs: Any, where: str = "") -> str:
    """Where `ours` differs from `theirs` in shape ("" if nowhere): the keys of each object
    (not inside OPAQUE ones), an object against a list against a scalar; the first items of
    two lists that both have some."""
    kinds = [dict if isinstance(v, dict) else list if isinstance(v, list) else None for v in (ours, theirs)]
    if kinds[0] != kinds[1] and None not in kinds:
        return f"{where}: {kinds[0]} against {kinds[1]}"
    if isinstance(ours, dict) and isinstance(theirs, dict):
        if set(ours) != set(theirs):
            return f"{where}: keys {sorted(set(ours) ^ set(theirs))} differ"
        for key in ours:
            if key not in OPAQUE and (found := shape_difference(ours[key], theirs[key], f"{where}.{key}")):
                return found
    if isinstance(ours, list) and isinstance(theirs, list) and ours and theirs:
        return shape_difference(ours[0], theirs[0], f"{where}[0]")
    return ""


def words(answer: Any) -> str:
    return ID.sub("<id>", json.dumps(answer, sort_keys=True))


def sse_events(text: str) -> list[str]:
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("event:")]


def replay(client: httpx.Client, exchange: dict, ids: dict[str, str]) -> tuple[int, Any, str]:
    path, body = exchange["path"], exchange["body"]
    for real, ours in ids.items():
        path = path.replace(real, ours)
        body = json.loads(json.dumps(body).replace(real, ours)) if body is not None else None
    if isinstance(body, dict) and body.get("assistant_id") == "lead_agent":
        body["assistant_id"] = GRAPHS.get(exchange["name"], "be_chat")
    if exchange["name"].startswith("uploads:") and exchange["method"] == "POST":  # multipart: names and sizes kept
        files = [(field, (name, b"x" * size, "text/plain")) for field, name, size in body["files"]]
        response = client.post(path, files=files)
    else:
        response = client.request(exchange["method"], path, json=body)
    kind = response.headers.get("content-type", "").split(";")[0]
    if kind == "text/event-stream":
        return response.status_code, sse_events(response.text), kind
    return response.status_code, response.json() if kind == "application/json" else response.text, kind


def test_the_stand_in_answers_every_recorded_request_as_the_real_gateway(gateway_stand_in) -> None:
    ids: dict[str, str] = {}
    with httpx.Client(base_url=gateway_stand_in.url, timeout=60) as client:
        for exchange in RECORDED:
            if exchange["name"] in NEEDS_A_SESSION:
                continue
            if exchange["name"] == "runs: a clarification":  # on a thread of the clarifying graph
                asking = client.post("/api/threads", json={"graph_id": "hi_deerflow"}).json()["thread_id"]
                ids[exchange["path"].split("/")[3]] = asking
            real = exchange["answer"]
            name = exchange["name"]
            if name == "artifacts: a report":  # the file the real agent wrote, in the stand-in's folder
                thread_path, path = exchange["path"].split("/artifacts/")
                thread_id = thread_path.rsplit("/", 1)[-1]
                gateway_stand_in.write_artifact(ids[thread_id], path, real.encode())
            status, answer, kind = replay(client, exchange, ids)
            assert status == exchange["status"], (name, answer)
            assert kind == exchange["content_type"], (name, kind)
            if name.startswith("threads: create") and "id in use" not in name:
                ids[real["thread_id"]] = answer["thread_id"]
            elif exchange["name"] == "runs: list":
                ids[real[0]["run_id"]] = answer[0]["run_id"]
            elif name.startswith("threads: history") and status == 200:
                for theirs, ours in zip(real, answer, strict=False):
                    ids[theirs["checkpoint_id"]] = ours["checkpoint_id"]
            if status >= 400:
                assert words(answer) == words(real), name
            elif not kind.endswith("json") and kind != "text/event-stream":
                assert answer == real, name  # a file, as it was served
            elif exchange["content_type"] == "text/event-stream":
                assert answer[0] == "metadata" and answer[-1] == "end" and set(answer) <= set(real), (name, answer)
            else:
                assert not shape_difference(answer, real), (name, shape_difference(answer, real))
                if name in ("models", "uploads: limits", "suggestions: config", "suggestions"):
                    assert answer == real, name
                if name == "threads: history before the last of a page":
                    assert len(answer) == len(real) == 1  # the cursor alone
                    assert answer[0]["checkpoint_id"] == ids[real[0]["checkpoint_id"]]


def test_the_login_stand_in_refuses_a_wrong_password_as_the_real_gateway(deerflow_url: str) -> None:
    real = next(e for e in RECORDED if e["name"] == "login: wrong password")
    response = httpx.post(
        f"{deerflow_url}/api/v1/auth/login/local",
        data={"username": "nobody@example.com", "password": "wrong-password-1"},
    )
    assert (
        response.status_code == real["status"] and response.json()["detail"]["code"] == real["answer"]["detail"]["code"]
    )
