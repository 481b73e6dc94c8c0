"""Runs recorded as JSON Lines (`threadbench --record DIR`) and read back (`threadbench replay FILE`).

One file per run. The first line says what was recorded: the server (its address without
credentials), the thread as it was, the request and the state before the run. Then one line
per event with its time since the run began, and a last line with the state and the thread
after it. A recording holds no API key, password or session: nothing of the connection but the
server's address is written, and every line is passed through the redaction of the secrets the
app knows before it reaches the disk. No Textual here.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit, urlunsplit

from .messages_key import DEFAULT, messages_key
from .models import ChatMessage, Interrupt, RunEvent, RunRequest, ThreadState, ThreadSummary, ToolCallChunk

FORMAT = "threadbench-recording"
VERSION = 1
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class RecordingError(ValueError):
    """A file that is not a recording this version can read; the message says what is wrong."""


@dataclass
class Recording:
    """One recorded run."""

    server: str
    thread: ThreadSummary
    """The thread's row before the run."""
    state_before: ThreadState
    request: RunRequest | None
    """None when the run was joined (it was started elsewhere)."""
    recorded_at: datetime
    events: list[tuple[float, RunEvent]] = field(default_factory=list)
    """(seconds since the run began, event)."""
    state_after: ThreadState | None = None
    thread_after: ThreadSummary | None = None
    duration: float = 0.0

    @property
    def run_id(self) -> str:
        return next((event.run_id for _, event in self.events if event.run_id), "") or "recorded-run"


# -- events as JSON ----------------------------------------------------------------------------


def event_to_json(event: RunEvent) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in fields(event):
        value = getattr(event, spec.name)
        if spec.name == "message":
            value = value.model_dump(mode="json") if value is not None else None
        elif spec.name == "tool_call_chunks":
            value = [{"index": c.index, "id": c.id, "name": c.name, "args": c.args} for c in value]
        elif spec.name == "data":
            value = _plain(value)
        out[spec.name] = value
    return out


def event_from_json(raw: dict[str, Any]) -> RunEvent:
    known = {spec.name for spec in fields(RunEvent)}
    values = {key: value for key, value in raw.items() if key in known}
    if values.get("message") is not None:
        values["message"] = ChatMessage.model_validate(values["message"])
    values["tool_call_chunks"] = [ToolCallChunk(**chunk) for chunk in values.get("tool_call_chunks") or []]
    if values.get("kind") == "interrupt" and isinstance(values.get("data"), list):
        values["data"] = [Interrupt.model_validate(item) for item in values["data"]]
    return RunEvent(**values)


def _plain(value: Any) -> Any:
    """Event data as JSON: the models some events carry (interrupts) as their dicts."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    return value


def public_address(url: str) -> str:
    """The server's address without user, password, query or fragment (a token can hide there)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


# -- writing -----------------------------------------------------------------------------------


class RunRecorder:
    """Writes one run as it streams: `begin`, then `event` for each event, then `end`."""

    def __init__(self, path: Path, redact: Callable[[str], str] = lambda text: text) -> None:
        self.path = path
        self._redact = redact
        self._file: IO[str] | None = None
        self._started = 0.0

    @classmethod
    def in_folder(cls, folder: Path, thread_id: str, redact: Callable[[str], str] = lambda text: text) -> RunRecorder:
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        return cls(folder / f"{stamp}-{_UNSAFE.sub('_', thread_id)[:36]}.jsonl", redact)

    def begin(self, server: str, thread: ThreadSummary, state: ThreadState, request: RunRequest | None) -> None:
        self._file = self.path.open("w", encoding="utf-8")
        self._started = time.monotonic()
        self._write(
            {
                "type": "recording",
                "format": FORMAT,
                "version": VERSION,
                "recorded_at": datetime.now(UTC).isoformat(),
                "server": public_address(server),
                "thread": thread.model_dump(mode="json"),
                "state_before": state.model_dump(mode="json"),
                "request": request.model_dump(mode="json") if request is not None else None,
            }
        )

    def event(self, event: RunEvent) -> None:
        self._write({"type": "event", "t": round(time.monotonic() - self._started, 4), "event": event_to_json(event)})

    def end(self, state: ThreadState | None, thread: ThreadSummary | None) -> None:
        if self._file is None:
            return
        self._write(
            {
                "type": "end",
                "t": round(time.monotonic() - self._started, 4),
                "state": state.model_dump(mode="json") if state is not None else None,
                "thread": thread.model_dump(mode="json") if thread is not None else None,
            }
        )
        self._file.close()
        self._file = None

    def _write(self, line: dict[str, Any]) -> None:
        assert self._file is not None
        self._file.write(self._redact(json.dumps(line, ensure_ascii=False, default=str)) + "\n")
        self._file.flush()  # a run cut by a crash keeps what came before


# -- reading -----------------------------------------------------------------------------------


def load_recording(path: Path) -> Recording:
    """The run recorded in `path`; raises RecordingError saying what is wrong with the file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise RecordingError(
            f"Cannot read {path}: {error.strerror or error}. A recording is one .jsonl file of a --record folder."
        ) from None
    except UnicodeDecodeError:
        raise RecordingError(f"{path} is not a recording (not UTF-8 text).") from None
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise RecordingError(f"{path}, line {number}, is not JSON: {error.msg}.") from None
        if not isinstance(row, dict):
            raise RecordingError(f"{path}, line {number}, is not a JSON object.")
        rows.append(row)
    if not rows or rows[0].get("format") != FORMAT:
        raise RecordingError(f"{path} is not a Threadbench recording (made by `threadbench --record DIR`).")
    head = rows[0]
    if head.get("version") != VERSION:
        raise RecordingError(
            f"{path} is a recording of version {head.get('version')}; this Threadbench reads {VERSION}."
        )
    try:
        recording = Recording(
            server=str(head.get("server") or ""),
            thread=ThreadSummary.model_validate(head["thread"]),
            state_before=ThreadState.model_validate(head["state_before"]),
            request=RunRequest.model_validate(head["request"]) if head.get("request") else None,
            recorded_at=datetime.fromisoformat(head["recorded_at"]),
        )
        for row in rows[1:]:
            if row.get("type") == "event":
                recording.events.append((float(row["t"]), event_from_json(row["event"])))
            elif row.get("type") == "end":
                recording.duration = float(row.get("t") or 0.0)
                if row.get("state"):
                    recording.state_after = ThreadState.model_validate(row["state"])
                if row.get("thread"):
                    recording.thread_after = ThreadSummary.model_validate(row["thread"])
    except KeyError as error:
        raise RecordingError(f"{path} is a damaged recording: a line lacks the key {error}.") from None
    except (TypeError, ValueError) as error:
        raise RecordingError(f"{path} is a damaged recording: {error}.") from None
    if not recording.duration and recording.events:
        recording.duration = recording.events[-1][0]
    return recording


@dataclass(frozen=True)
class RecordingInfo:
    """What a list of recordings shows of one, read from its first line only."""

    path: Path
    recorded_at: datetime
    server: str
    thread_title: str
    sent: str
    """What the run was sent: the last input message, else what kind of run it was."""


def list_recordings(folder: Path, limit: int = 100) -> list[RecordingInfo]:
    """The newest `limit` recordings in `folder`, newest first; other files are left out."""
    try:
        paths = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    found = []
    for path in paths:
        try:
            with path.open(encoding="utf-8") as file:
                head = json.loads(file.readline())
            if not isinstance(head, dict) or head.get("format") != FORMAT:
                continue
            thread = ThreadSummary.model_validate(head["thread"])
            request = RunRequest.model_validate(head["request"]) if head.get("request") else None
            found.append(
                RecordingInfo(
                    path=path,
                    recorded_at=datetime.fromisoformat(head["recorded_at"]),
                    server=str(head.get("server") or ""),
                    thread_title=thread.display_title,
                    sent=_what_was_sent(request),
                )
            )
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
            continue
        if len(found) == limit:
            break
    return found


def _what_was_sent(request: RunRequest | None) -> str:
    if request is None:
        return "a run joined as it streamed"
    messages = (request.input or {}).get(messages_key(request.input) or DEFAULT)
    if isinstance(messages, list) and messages and isinstance(messages[-1], dict):
        content = messages[-1].get("content")
        if isinstance(content, str) and content.strip():
            return content
    if request.command is not None:
        return "an answer to the agent"
    return "a replay from a checkpoint" if request.checkpoint_id else "a run"
