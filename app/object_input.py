"""What a person types about the server's objects: a store namespace, a JSON object checked
against the graph's schema, a run to run again. Raises TypedWrong with a sentence to show."""

from __future__ import annotations

import json
from typing import Any

from .human_input.validation import validate_args
from .models import RunRequest
from .server_objects import RunInfo


class TypedWrong(ValueError):
    """What was typed cannot be sent; str() says why, fit to show a person."""


def parse_namespace(text: str, *, allow_empty: bool = False) -> list[str]:
    """A namespace typed as parts separated by "/" ("users/alice/notes").

    A part may not be empty nor hold a dot (the server joins parts with dots)."""
    stripped = text.strip()
    if not stripped:
        if allow_empty:
            return []
        raise TypedWrong('Type a namespace: its parts separated by "/", like users/alice.')
    parts = [part.strip() for part in stripped.split("/")]
    if any(not part for part in parts):
        raise TypedWrong(
            f'The namespace {stripped!r} has an empty part: write parts separated by "/", like users/alice.'
        )
    dotted = [part for part in parts if "." in part]
    if dotted:
        raise TypedWrong(f"A namespace part may not contain a dot: {dotted[0]!r}.")
    return parts


def namespace_text(namespace: list[str] | tuple[str, ...]) -> str:
    return "/".join(namespace)


def parse_json_object(text: str, what: str, *, schema: dict[str, Any] | None = None, empty: Any = None) -> Any:
    """A JSON object typed by a person, checked against `schema` when one is given.

    An empty text gives `empty` (when it is not None). Raises TypedWrong saying what and where."""
    if not text.strip():
        if empty is not None:
            return empty
        raise TypedWrong(f'Type the {what} as a JSON object, like {{"key": "value"}}.')
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise TypedWrong(
            f"The {what} is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})."
        ) from None
    if not isinstance(value, dict):
        raise TypedWrong(f'The {what} must be a JSON object, like {{"key": "value"}}.')
    problems = validate_args(value, schema, what) if schema else []
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise TypedWrong(f"The graph's schema refuses the {what}: {problems[0]}{more}.")
    return value


def schema_of(schemas: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The schema for an assistant's `config` (the configurable part) or `context`."""
    if name == "context":
        found = schemas.get("context_schema")
        return found if isinstance(found, dict) else None
    config = schemas.get("config_schema")
    if not isinstance(config, dict):
        return None
    configurable = (config.get("properties") or {}).get("configurable")
    if not isinstance(configurable, dict):
        return None
    return {"type": "object", "properties": {"configurable": configurable}}


def seconds_text(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, rest = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{rest:02d}s"
    return f"{minutes // 60}h{minutes % 60:02d}m"


def rerun_request(run: RunInfo, stream_modes: list[str]) -> RunRequest:
    """The same input and options as `run` (its assistant, context, configurable, strategy),
    streamed in `stream_modes` (what the chat reads). The server copies a run's context into
    its configurable and refuses both at once: a run with a context sends only that."""
    configurable = run.user_configurable
    strategy = (
        run.multitask_strategy if run.multitask_strategy in ("reject", "interrupt", "rollback", "enqueue") else None
    )
    return RunRequest(
        assistant_id=run.assistant_id,
        input=run.input if isinstance(run.input, dict) else None,
        command=run.command if isinstance(run.command, dict) else None,
        context=dict(run.context),
        configurable={} if run.context else configurable,
        stream_modes=stream_modes,
        multitask_strategy=strategy,  # type: ignore[arg-type]
    )


def unmirrored_config(config: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """An assistant's config without the copy of its context the server keeps in
    `configurable` (it refuses an edit that sends both)."""
    configurable = config.get("configurable")
    if not isinstance(configurable, dict) or not context:
        return dict(config)
    rest = {key: value for key, value in configurable.items() if key not in context or context[key] != value}
    found = {key: value for key, value in config.items() if key != "configurable"}
    if rest:
        found["configurable"] = rest
    return found
