"""A thread as a file: Markdown to read, JSON to keep (and load back).

    thread_markdown(summary, state, history=None, include_state=True) -> str
    thread_json(summary, state, history=None) -> str
    load_thread_json(text) -> ExportedThread          (JSON round-trips)
    fetch_history(backend, thread_id)                 every checkpoint, newest first, paged

Pure functions over threadbench.models (fetch_history only calls the Backend protocol); nothing
here imports Textual.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .models import ChatMessage, ThreadState, ThreadSummary

FORMAT = "threadbench.thread/1"
HISTORY_PAGE = 100
MAX_HISTORY = 10_000
ROLE_TITLES = {"human": "Human", "ai": "AI", "tool": "Tool", "system": "System", "other": "Message"}


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def fence(text: str, language: str = "") -> str:
    """`text` in a code fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{language}\n{text.rstrip()}\n{marks}"


def _when(moment: datetime | None) -> str:
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def message_markdown(message: ChatMessage) -> str:
    title = ROLE_TITLES.get(message.type, "Message")
    if message.type == "tool":
        title += f" · {message.name}" if message.name else ""
        title += " (error)" if message.is_error else ""
    elif message.name:
        title += f" · {message.name}"
    parts = [f"### {title}"]
    if message.hidden:
        parts.append("_hidden from the chat (hide_from_ui)_")
    if message.reasoning:
        quoted = "\n".join("> " + line if line else ">" for line in message.reasoning.strip().splitlines())
        parts.append("> **Reasoning**\n>\n" + quoted)
    if message.type == "tool":
        if message.text.strip():
            parts.append(fence(message.text))
    elif message.text.strip():
        parts.append(message.text.strip())
    for call in message.tool_calls:
        parts.append(f"**Tool call** `{call.name}`" + (f" ({call.id})" if call.id else ""))
        parts.append(fence(_json(call.args), "json"))
    return "\n\n".join(parts)


def thread_markdown(
    summary: ThreadSummary | None,
    state: ThreadState,
    history: list[ThreadState] | None = None,
    *,
    include_state: bool = True,
) -> str:
    """The conversation as Markdown, then (optionally) the state values and the checkpoints."""
    thread_id = state.thread_id or (summary.thread_id if summary else "")
    title = state.title or (summary.title if summary else "") or thread_id
    lines = [f"# {title}", ""]
    facts = [f"- Thread: `{thread_id}`"]
    if summary is not None:
        if summary.status:
            facts.append(f"- Status: {summary.status}")
        if summary.graph_id:
            facts.append(f"- Graph: {summary.graph_id}")
        if summary.created_at:
            facts.append(f"- Created: {_when(summary.created_at)}")
        if summary.updated_at:
            facts.append(f"- Updated: {_when(summary.updated_at)}")
        if summary.metadata:
            shown = {k: v for k, v in summary.metadata.items() if not str(k).startswith("_")}
            if shown:
                facts.append("- Metadata: " + ", ".join(f"`{k}={v}`" for k, v in shown.items()))
    if state.checkpoint_id:
        facts.append(f"- Checkpoint: `{state.checkpoint_id}`")
    facts.append(f"- Messages: {len(state.messages)}")
    lines += facts + ["", "## Conversation", ""]
    if not state.messages:
        lines += ["_No messages._", ""]
    for message in state.messages:
        lines += [message_markdown(message), ""]
    if state.interrupts:
        lines += ["## Waiting for a human", ""]
        for interrupt in state.interrupts:
            lines += [fence(_json(interrupt.value), "json"), ""]
    if include_state:
        values = {k: v for k, v in state.values.items() if k != state.messages_key}
        lines += ["## State", ""]
        lines += [fence(_json(values), "json") if values else "_No values besides the messages._", ""]
        if state.next:
            lines += ["Next: " + ", ".join(f"`{n}`" for n in state.next), ""]
    if history:
        lines += [f"## History ({len(history)} checkpoints, newest first)", ""]
        lines += ["| step | source | wrote | messages | checkpoint | created |", "|---:|---|---|---:|---|---|"]
        for checkpoint in history:
            step = "" if checkpoint.step is None else str(checkpoint.step)
            wrote = ", ".join(checkpoint.writers) or "—"
            lines.append(
                f"| {step} | {checkpoint.source} | {wrote} | {len(checkpoint.messages)} "
                f"| `{checkpoint.checkpoint_id}` | {_when(checkpoint.created_at)} |"
            )
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def thread_json(
    summary: ThreadSummary | None,
    state: ThreadState,
    history: list[ThreadState] | None = None,
    *,
    exported_at: datetime | None = None,
) -> str:
    """The thread, its state and (optionally) its history as JSON; load_thread_json reads it back."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "exported_at": (exported_at or datetime.now(UTC)).isoformat(),
        "thread": summary.model_dump(mode="json") if summary is not None else None,
        "state": state.model_dump(mode="json"),
    }
    if history is not None:
        document["history"] = [checkpoint.model_dump(mode="json") for checkpoint in history]
    return json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n"


@dataclass
class ExportedThread:
    summary: ThreadSummary | None
    state: ThreadState
    history: list[ThreadState] = field(default_factory=list)


def load_thread_json(text: str) -> ExportedThread:
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a Threadbench thread export (format {FORMAT})")
    thread = data.get("thread")
    return ExportedThread(
        summary=ThreadSummary.model_validate(thread) if thread else None,
        state=ThreadState.model_validate(data["state"]),
        history=[ThreadState.model_validate(item) for item in data.get("history") or []],
    )


async def fetch_history(backend: Any, thread_id: str, *, limit: int = MAX_HISTORY) -> list[ThreadState]:
    """Every checkpoint of the thread, newest first, fetched in pages (at most `limit`)."""
    found: list[ThreadState] = []
    before: str | None = None
    while len(found) < limit:
        page = await backend.get_history(thread_id, limit=min(HISTORY_PAGE, limit - len(found)), before=before)
        if not page:
            break
        found.extend(page)
        last = page[-1].checkpoint_id
        if len(page) < HISTORY_PAGE or not last or last == before:
            break
        before = last
    return found


def default_file_name(summary: ThreadSummary | None, state: ThreadState, extension: str) -> str:
    """`penguin-research-report-3f2a1b2c.md`: a slug of the title and the id's start."""
    thread_id = state.thread_id or (summary.thread_id if summary else "thread")
    title = state.title or (summary.title if summary else "")
    slug = re.sub(r"[^a-z0-9]+", "-", title.casefold()).strip("-")[:40].strip("-")
    stem = f"{slug}-{thread_id[:8]}" if slug else f"thread-{thread_id[:8]}"
    return f"{stem}.{extension}"
