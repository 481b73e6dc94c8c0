"""Edit text in the user's editor ($VISUAL, else $EDITOR, else vi), the way git does.

The app is suspended while the editor runs (the terminal is the editor's), then resumes
and gets the file's new text. In a browser (textual-serve) there is no terminal to hand
over, so editing there is refused with a clear reason.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from textual.app import App, SuspendNotSupported


class EditorError(Exception):
    """The editor could not run, or failed; str() says why and what to do."""


def editor_command(environ: dict[str, str] | None = None) -> list[str]:
    environ = dict(os.environ) if environ is None else environ
    for name in ("VISUAL", "EDITOR"):
        if value := environ.get(name, "").strip():
            return shlex.split(value)
    return ["vi"]


def edit_in_editor(app: App, text: str, suffix: str = ".md") -> str | None:
    """The text after the user edited it, or None when the editor failed (exit status not 0)
    or was quit without saving a change."""
    if app.is_web:
        raise EditorError("Editing in $EDITOR needs a terminal; it is not available in the browser.")
    command = editor_command()
    handle, name = tempfile.mkstemp(prefix="threadbench-", suffix=suffix)
    path = Path(name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        before = path.stat().st_mtime_ns
        try:
            with app.suspend():
                status = _run(command, path)
        except SuspendNotSupported:
            if not app.is_headless:
                raise EditorError("This terminal cannot hand the screen to an editor.") from None
            status = _run(command, path, stdin=subprocess.DEVNULL)  # tests: nobody to see the terminal
        if status != 0:
            return None
        edited = path.read_text(encoding="utf-8")
        if edited == text and path.stat().st_mtime_ns == before:
            return None
        return edited
    finally:
        path.unlink(missing_ok=True)


def _run(command: list[str], path: Path, **kwargs) -> int:
    try:
        return subprocess.run([*command, str(path)], check=False, **kwargs).returncode
    except FileNotFoundError:
        raise EditorError(f"No editor {command[0]!r}: set $VISUAL or $EDITOR (for example EDITOR=nano).") from None


def edit_focused(app: App) -> None:
    """Edit the focused text box (the composer, the state editor, an answer) in $EDITOR."""
    from textual.widgets import Input, TextArea

    widget = app.focused
    if isinstance(widget, TextArea):
        text, suffix = widget.text, ".json" if widget.language == "json" else ".md"
    elif isinstance(widget, Input) and not widget.password:
        text, suffix = widget.value, ".txt"
    else:
        app.notify("Focus a text box first: the composer (i), the state editor, an answer.", timeout=3)
        return
    try:
        edited = edit_in_editor(app, text, suffix)
    except EditorError as error:
        app.notify(str(error), severity="warning", timeout=5, markup=False)
        return
    if edited is None or (isinstance(widget, TextArea) and widget.read_only):
        return
    edited = edited.removesuffix("\n")
    if isinstance(widget, TextArea):
        widget.load_text(edited)
        widget.move_cursor(widget.document.end)
    else:
        widget.value = " ".join(edited.splitlines())
    widget.focus()
