"""Files attached to the next message (a server that takes them: DeerFlow's Gateway): the
path a person types, completed from the file system and checked against the server's limits
before anything is sent."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .artifacts import size_text
from .models import UploadLimits


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file on this machine to upload with the next message."""

    path: Path
    size: int

    @property
    def name(self) -> str:
        return self.path.name


def limits_text(limits: UploadLimits | None) -> str:
    """The server's limits in words (DeerFlow's take any type of file)."""
    if limits is None:
        return "The server did not say its limits: it checks the files when they are sent."
    return (
        f"Up to {limits.max_files} files a message, {size_text(limits.max_file_size)} each, "
        f"{size_text(limits.max_total_size)} in all; any type."
    )


def attachment_for(typed: str, attached: list[Attachment], limits: UploadLimits | None) -> Attachment | str:
    """The file `typed` names, or why it cannot be attached (one sentence): missing, not a
    file, unreadable, attached already, or over the server's limits."""
    text = typed.strip()
    if not text:
        return "Type the path of a file."
    path = Path(text).expanduser()
    path = path if path.is_absolute() else Path.cwd() / path
    if not path.exists():
        return f"There is no file at {path}."
    if not path.is_file():
        return f"{path} is not a file (tab completes a folder's names)."
    if not os.access(path, os.R_OK):
        return f"{path} cannot be read (permission denied)."
    if any(item.path == path for item in attached):
        return f"{path.name} is attached already."
    if any(item.name == path.name for item in attached):
        return f"A file named {path.name} is attached already: the server keeps one file of a name."
    size = path.stat().st_size
    if limits is not None:
        if size > limits.max_file_size:
            most = size_text(limits.max_file_size)
            return f"{path.name} is {size_text(size)}: the server takes files of at most {most}."
        if len(attached) + 1 > limits.max_files:
            return f"The server takes at most {limits.max_files} files a message: remove one first (ctrl+l)."
        total = sum(item.size for item in attached) + size
        if total > limits.max_total_size:
            return (
                f"With {path.name} the files come to {size_text(total)}: the server takes at most "
                f"{size_text(limits.max_total_size)} a message."
            )
    return Attachment(path, size)


def complete_path(value: str) -> str | None:
    """`value` completed to the first name in its folder that starts with what follows its
    last "/" (a folder's name ends with "/"; names starting with "." only when typed so);
    None when nothing does or the folder cannot be read."""
    if not value:
        return None
    folder_text, _, start = value.rpartition("/")
    folder_text = folder_text + "/" if "/" in value else ""
    folder = Path(folder_text or ".").expanduser()
    try:
        names = sorted(entry.name for entry in os.scandir(folder) if entry.name.startswith(start))
    except OSError:
        return None
    names = [name for name in names if start.startswith(".") or not name.startswith(".")]
    for name in names:
        if name == start and not (folder / name).is_dir():
            continue
        suffix = "/" if (folder / name).is_dir() else ""
        found = folder_text + name + suffix
        if found != value:
            return found
    return None
