"""The open (or highlighted) thread, out of the app: exported to a file (ctrl+s: Markdown or
JSON, with its history if asked), or its last reply copied to the clipboard (y)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from textual.content import Content

from ..logs import log
from .text import clean

if TYPE_CHECKING:
    from .app import ThreadbenchApp

TOAST_WIDTH, TOAST_GUTTER = 60, 3
"""A toast's width, at most half the screen's (Textual's Toast), and its padding and edge."""


def export_open_thread(app: ThreadbenchApp) -> None:
    main = app.main_screen
    if main is None or app.session.backend is None:
        return
    thread_id = main.conversation.thread_id or main.sidebar.thread_list.highlighted_thread_id
    if thread_id is None:
        app.notify("Open a thread first.", severity="warning", timeout=2)
        return
    app.run_worker(export_thread(app, thread_id), group="export", exclusive=True, exit_on_error=False)


async def export_thread(app: ThreadbenchApp, thread_id: str) -> None:
    from ..backends.base import BackendError
    from ..export import default_file_name, fetch_history, thread_json, thread_markdown
    from ..models import ThreadState
    from .screens.confirm import ConfirmScreen
    from .screens.export import ExportScreen

    backend = app.session.backend
    main = app.main_screen
    assert backend is not None and main is not None
    summary = main.sidebar.thread_list.thread(thread_id)
    stem = default_file_name(summary, ThreadState(thread_id=thread_id), "md").removesuffix(".md")
    title = summary.display_title if summary else thread_id
    request = await app.push_screen_wait(ExportScreen(title, thread_id, stem, history=backend.capabilities.history))
    if request is None:
        return
    if request.path.exists():
        question = Content.assemble("Replace ", (str(request.path), "bold"), "?")
        if not await app.push_screen_wait(ConfirmScreen(question, confirm_label="Replace")):
            return
    try:
        state = await backend.get_state(thread_id)
        history = await fetch_history(backend, thread_id) if request.include_history else None
    except BackendError as error:
        app.notify(clean(f"Export failed: {error}"), severity="error", timeout=8, markup=False)
        return
    if request.format == "json":
        text = thread_json(summary, state, history)
    else:
        text = thread_markdown(summary, state, history, include_state=request.include_state)
    try:
        request.path.write_text(text, encoding="utf-8")
    except OSError as error:
        app.notify(f"Cannot write {request.path}: {error.strerror or error}", severity="error", markup=False)
        return
    log.info("exported thread %s to %s", thread_id, request.path)
    width = min(TOAST_WIDTH, app.size.width // 2) - TOAST_GUTTER
    app.notify(f"Exported to\n{path_lines(str(request.path.resolve()), width)}", timeout=6, markup=False)


def path_lines(path: str, width: int) -> str:
    """`path` in lines of at most `width` cells, each broken after a "/" (a toast wrapped it at
    a hyphen, as if the name were cut there); a name longer than a line is folded where it must."""
    lines = [""]
    for part in re.findall(r"[^/]*/|[^/]+$", path):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def copy_last_reply(app: ThreadbenchApp) -> None:
    main = app.main_screen
    state = main.conversation.thread_state if main is not None else None
    messages = state.messages if state is not None else []
    reply = next((m for m in reversed(messages) if m.type == "ai" and m.text.strip()), None)
    if reply is None:
        app.notify("No reply to copy.", timeout=2)
        return
    app.copy_to_clipboard(reply.text)
    app.notify(f"Copied the last reply ({len(reply.text):,} characters).", timeout=2)
