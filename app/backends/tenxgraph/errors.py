"""10xGraph's refusals ({"error": {code, message, details}}) as typed errors, in words a person reads."""

from __future__ import annotations

import re
from typing import Any

import httpx

from ..base import (
    BackendError,
    Conflict,
    Invalid,
    NotFound,
    ServerError,
    Unauthorized,
)
from ..http import error_type

STATUS_ERRORS = {413: Invalid, 429: Conflict}
"""10xGraph's refusals beyond the shared table: a body too large, too many requests."""
_PYDANTIC_NOISE = re.compile(r"\s*\[type=[^\]]*\]\s*$")


def _readable_pydantic(message: str) -> str:
    """'3 validation errors for X\\nctx.5\\n  Input should be ... [type=...]' -> one line."""
    lines = message.splitlines()
    if len(lines) < 3 or "validation error" not in lines[0]:
        return message
    parts: list[str] = []
    loc = ""
    for line in lines[1:]:
        if not line.strip() or line.strip().startswith("For further information"):
            continue
        if not line.startswith(" "):
            loc = line.strip()
        else:
            parts.append(f"{loc}: {_PYDANTIC_NOISE.sub('', line.strip())}" if loc else line.strip())
    return _join_problems(parts) or message


def _join_problems(parts: list[str], most: int = 3) -> str:
    if not parts:
        return ""
    text = "; ".join(parts[:most])
    if len(parts) > most:
        text += f" (and {len(parts) - most} more)"
    return text


def _validation_text(message: str, details: Any) -> str:
    """A 422's message and details as one sentence: 'limit: Input should be a valid integer'."""
    parts: list[str] = []
    if isinstance(details, list):
        for item in details:
            if not isinstance(item, dict):
                continue
            loc = [str(p) for p in item.get("loc") or [] if p not in ("body", "query", "path", "header")]
            msg = str(item.get("msg") or item.get("message") or "").strip()
            msg = msg.removeprefix("Value error, ")
            if msg:
                parts.append(f"{'.'.join(loc)}: {msg}" if loc else msg)
    if parts:
        return _join_problems(parts)
    return _readable_pydantic(message) or "The server rejected the request"


def _error_from_response(response: httpx.Response, *, not_found: str | None = None) -> BackendError:
    """A failed response (the {"error": {code, message, details}} envelope) as a typed error."""
    status = response.status_code
    message, details, code = "", None, ""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):
            message = str(error.get("message") or "")
            details = error.get("details")
            code = str(error.get("code") or "")
        elif isinstance(body.get("detail"), str):
            message = body["detail"]
    elif response.text.strip():
        message = response.text.strip()[:300]
    kind = error_type(status, also=STATUS_ERRORS, otherwise=ServerError)
    if status == 401:
        return Unauthorized(
            message or "The server wants a valid token",
            status=status,
            hint="10xGraph wants a JWT bearer token: give it with --api-key, the LANGGRAPH_API_KEY "
            "environment variable, or a config-file profile's api_key_env.",
        )
    if status == 403:
        return Unauthorized(
            "This thread belongs to another user" + (f" ({message})" if message else ""),
            status=status,
            hint="Use a token of the user who owns the thread.",
        )
    if kind is NotFound:
        return NotFound(not_found or message or "Not found", status=status)
    if kind is Conflict:
        return Conflict(message or "The server is busy", status=status)
    if kind is Invalid:
        return Invalid(_validation_text(message, details), status=status)
    if not_found and body is None and status == 500:
        # 10xGraph answers an unknown message id with a plain-text 500.
        return NotFound(not_found, status=status)
    text = message or response.reason_phrase or "Server error"
    if code and code not in ("HTTPException", "VALIDATION_ERROR"):
        text = f"{text} ({code})"
    return ServerError(text, status=status)
