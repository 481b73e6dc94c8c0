"""The files an agent made (DeerFlow's state `artifacts`): which a thread names, and how each
is shown: Markdown drawn, code highlighted, text as text, anything else described."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Literal

ArtifactKind = Literal["markdown", "code", "text", "other"]

MARKDOWN = {".md", ".markdown", ".mdx"}
CODE = {
    ".py": "python", ".js": "javascript", ".mjs": "javascript", ".ts": "typescript", ".tsx": "tsx",
    ".jsx": "jsx", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".sh": "bash",
    ".bash": "bash", ".html": "html", ".css": "css", ".sql": "sql", ".go": "go", ".rs": "rust",
    ".java": "java", ".c": "c", ".h": "c", ".cpp": "cpp", ".rb": "ruby", ".xml": "xml", ".svg": "xml",
}  # fmt: skip
"""Code by its extension, and the lexer that highlights it."""


def artifact_paths(values: dict[str, Any]) -> list[str]:
    """The paths a thread's state names in `artifacts` (DeerFlow's), in order, once each."""
    found = values.get("artifacts")
    if not isinstance(found, list):
        return []
    return list(dict.fromkeys(path for path in found if isinstance(path, str) and path))


def listed(path: str, width: int) -> tuple[str, str]:
    """(folder, name) of `path` as a list `width` cells wide shows it: the name whole, the
    folder cut at its start ("…") so that both fit on one row, or left out when the name
    alone fills it."""
    folder, slash, name = path.rpartition("/")
    folder += slash
    room = width - len(name)
    if len(folder) <= room:
        return folder, name
    return ("…" + folder[len(folder) - room + 1 :] if room >= 2 else ""), name


def file_name(path: str) -> str:
    return PurePosixPath(path).name or "artifact"


def kind_of(path: str, content: bytes, content_type: str = "") -> ArtifactKind:
    """How to show a file: by its extension, then by its content type and bytes (text is
    UTF-8 without a NUL byte)."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in MARKDOWN or content_type == "text/markdown":
        return "markdown" if is_text(content) else "other"
    if not is_text(content):
        return "other"
    if suffix in CODE:
        return "code"
    return "text"


def is_text(content: bytes) -> bool:
    if b"\x00" in content:
        return False
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def lexer_for(path: str) -> str:
    return CODE.get(PurePosixPath(path).suffix.lower(), "text")


def size_text(size: int) -> str:
    if size < 1000:
        return f"{size} bytes"
    value, unit = size / 1000, "kB"
    for bigger in ("MB", "GB"):
        if value < 1000:
            break
        value, unit = value / 1000, bigger
    return f"{value:.1f} {unit}"


def description(path: str, content: bytes, content_type: str = "") -> str:
    """What a file that is not shown is: its name, type and size."""
    kind = content_type or "unknown type"
    return f"{file_name(path)}: {kind}, {size_text(len(content))}; not text, so not shown here (s saves it)."
