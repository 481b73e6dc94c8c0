"""Why the embedded server stopped at start-up, as one paragraph read from its log: the
server's own words on the graph it could not load (every line of them: "Please check that:"
is followed by a list), the file and line of the user's code it failed in, and what to do.
The graph files are reached through links with plain names (launcher.link_graph_files): the
paragraph names the user's files instead."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..sentences import whole_sentences

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
GRAPH_LOAD = re.compile(r"GraphLoadError: (.*)")
ERROR_LINE = re.compile(r"^[\w.]*(Error|Exception)\b[:(]")
FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)')
OURS = str(Path(__file__).parents[1])
RECORD_END = re.compile(r"^\s*(\[[\w.]+\]|\d{4}-\d\d-\d\dT)")
"""Where a multi-line log record ends: structlog's logger name, or the next record's time."""
LIST_ITEM = re.compile(r"^\d+\. ")
NO_MODULE = re.compile(r"No module named '([\w.]+)'")


def failure_paragraph(log: str, links: Path, status: int | None, log_path: Path) -> str:
    lines = [ANSI.sub("", line).rstrip() for line in log.splitlines()]
    real = real_names(links)
    where = user_frame(lines, real)
    start = next((i for i in range(len(lines) - 1, -1, -1) if GRAPH_LOAD.search(lines[i])), None)
    if start is None:
        errors = list(dict.fromkeys(line.strip() for line in lines if ERROR_LINE.search(line.strip())))
        said = " ".join(whole_sentences(line) for line in errors[-2:]) or "It wrote no error."
        return (
            f"The embedded LangGraph server stopped at start-up (status {status}). {rename(said, real)} "
            f"Its log is {log_path}."
        )
    found = GRAPH_LOAD.search(lines[start])
    assert found is not None
    pieces = [found.group(1)]
    for line in lines[start + 1 :]:
        if not line.strip() or RECORD_END.match(line):
            break
        pieces.append(line.strip())
    said = rename(joined(pieces), real)
    todo = "Fix it"
    if missing := NO_MODULE.search(said):
        install = f"{sys.executable} -m pip install …"
        todo = f"Install {missing.group(1)} into the Python threadbench runs on ({install}), or fix the import"
    at = f" The error is at {where[0]}, line {where[1]}." if where else ""
    return (
        f"The embedded server could not load your graph: {said}{at} {todo}, then start threadbench again "
        f"(the server's whole log is {log_path})."
    )


def real_names(links: Path) -> dict[str, str]:
    """Each way the log names a linked graph file (its path, "graphs/NAME", NAME), to the user's file."""
    names: dict[str, str] = {}
    for link in sorted(links.glob("*.py")) if links.is_dir() else []:
        target = str(link.resolve())
        names.update({str(link): target, f"{links.name}/{link.name}": target, link.name: target})
    return names


def rename(text: str, real: dict[str, str]) -> str:
    if not real:
        return text
    pattern = re.compile("|".join(re.escape(name) for name in sorted(real, key=len, reverse=True)))
    return pattern.sub(lambda match: real[match.group(0)], text)


def user_frame(lines: list[str], real: dict[str, str]) -> tuple[str, str] | None:
    """The last place of the traceback in the user's code (not in an installed package or Python's own)."""
    frames = [found.groups() for line in lines if (found := FRAME.match(line))]
    own = [
        (real.get(file, file), number)
        for file, number in frames
        if not file.startswith(("<", sys.base_prefix, OURS)) and "site-packages" not in file
    ]
    return own[-1] if own else None


def joined(pieces: list[str]) -> str:
    """The server's lines as sentences: a list's items end with ";", other lines with "."."""
    text = ""
    for index, piece in enumerate(pieces):
        following = pieces[index + 1] if index + 1 < len(pieces) else ""
        if following and not piece.endswith((".", ":", "!", "?", ";")):
            piece += ";" if LIST_ITEM.match(following) else "."
        text += (" " if text else "") + piece
    return whole_sentences(text)
