"""Payloads of runs, assistants, store items and crons -> threadbench.server_objects models."""

from __future__ import annotations

from typing import Any

from ...server_objects import AssistantInfo, CronJob, RunInfo, StoreItem
from .mapping import parse_time


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _modes(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(mode) for mode in value] if isinstance(value, list) else []


def run_from_dict(row: dict[str, Any]) -> RunInfo:
    kwargs = _dict(row.get("kwargs"))
    metadata = _dict(row.get("metadata"))
    error = row.get("error") or kwargs.get("error") or ""
    return RunInfo(
        run_id=str(row.get("run_id") or ""),
        thread_id=str(row.get("thread_id") or ""),
        assistant_id=str(row.get("assistant_id") or ""),
        graph_id=str(metadata.get("graph_id") or ""),
        status=str(row.get("status") or ""),
        created_at=parse_time(row.get("created_at")),
        updated_at=parse_time(row.get("updated_at")),
        multitask_strategy=str(row.get("multitask_strategy") or ""),
        stream_modes=_modes(kwargs.get("stream_mode")),
        input=kwargs.get("input"),
        command=kwargs.get("command"),
        config=_dict(kwargs.get("config")),
        context=_dict(kwargs.get("context")),
        metadata=metadata,
        error=error if isinstance(error, str) else str(error),
        kwargs=kwargs,
    )


def assistant_from_dict(row: dict[str, Any]) -> AssistantInfo:
    version = row.get("version")
    return AssistantInfo(
        assistant_id=str(row.get("assistant_id") or ""),
        graph_id=str(row.get("graph_id") or ""),
        name=str(row.get("name") or ""),
        description=str(row.get("description") or ""),
        version=version if isinstance(version, int) else 0,
        config=_dict(row.get("config")),
        context=_dict(row.get("context")),
        metadata=_dict(row.get("metadata")),
        created_at=parse_time(row.get("created_at")),
        updated_at=parse_time(row.get("updated_at")),
    )


def item_from_dict(row: dict[str, Any]) -> StoreItem:
    score = row.get("score")
    return StoreItem(
        namespace=[str(part) for part in row.get("namespace") or []],
        key=str(row.get("key") or ""),
        value=row.get("value"),
        created_at=parse_time(row.get("created_at")),
        updated_at=parse_time(row.get("updated_at")),
        score=float(score) if isinstance(score, (int, float)) else None,
    )


def cron_from_dict(row: dict[str, Any]) -> CronJob:
    payload = _dict(row.get("payload"))
    return CronJob(
        cron_id=str(row.get("cron_id") or ""),
        assistant_id=str(row.get("assistant_id") or payload.get("assistant_id") or ""),
        thread_id=str(row["thread_id"]) if row.get("thread_id") else None,
        schedule=str(row.get("schedule") or ""),
        next_run_date=parse_time(row.get("next_run_date")),
        end_time=parse_time(row.get("end_time")),
        enabled=row.get("enabled") is not False,
        input=payload.get("input"),
        metadata=_dict(row.get("metadata")),
        created_at=parse_time(row.get("created_at")),
    )
