"""The LangGraph Agent Server's other objects through langgraph-sdk: a thread's runs, the
assistants and their versions, the store, the crons (the protocols ListsRuns,
EditsAssistants, HasStore and HasCrons of backends/base.py). Mixed into LangGraphBackend;
payloads become the models of threadbench.server_objects (object_mapping.py).

What it works around (measured on langgraph-api 0.16):
- a run keeps no start or end time: created_at is its start, updated_at its end once over;
- a run keeps no error: joining a failed run answers {"__error__": {error, message}};
- `assistants.get("agent")` wants a UUID: a graph id is resolved to its assistant first;
- the server joins namespace parts with dots: a part with a dot is refused before sending.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...server_objects import AssistantInfo, CronJob, RunInfo, StoreItem
from ..base import Invalid
from .object_mapping import assistant_from_dict, cron_from_dict, item_from_dict, run_from_dict

if TYPE_CHECKING:
    from .connection import Connection

    _Base = Connection
else:
    _Base = object


def _check_namespace(namespace: list[str]) -> None:
    if any(not part or "." in part for part in namespace):
        raise Invalid("A namespace part may be neither empty nor hold a dot.")


class ServerObjects(_Base):
    """Runs, assistants, store and crons, for LangGraphBackend."""

    if TYPE_CHECKING:

        async def _assistant_uuid(self, assistant_id: str) -> str: ...  # LangGraphBackend's

    # --- runs ------------------------------------------------------------------------------------

    async def list_runs(self, thread_id: str, *, limit: int = 50, offset: int = 0) -> list[RunInfo]:
        rows = await self._call(
            f"list the runs of thread {thread_id}",
            lambda c: c.runs.list(thread_id, limit=limit, offset=offset),
            retry=True,
        )
        return [run_from_dict(dict(row)) for row in rows or [] if isinstance(row, dict) and row.get("run_id")]

    async def get_run(self, thread_id: str, run_id: str) -> RunInfo:
        """The run; a failed one with its error (the run keeps none: joining a finished run
        answers its `__error__`)."""
        row = await self._call(f"get run {run_id}", lambda c: c.runs.get(thread_id, run_id), retry=True)
        run = run_from_dict(dict(row))
        if run.status == "error" and not run.error:
            result = await self._call(
                f"read the error of run {run_id}", lambda c: c.runs.join(thread_id, run_id), retry=True
            )
            failure = result.get("__error__") if isinstance(result, dict) else None
            if isinstance(failure, dict):
                run.error = ": ".join(str(part) for part in (failure.get("error"), failure.get("message")) if part)
        return run

    # --- assistants --------------------------------------------------------------------------------

    async def search_assistants(
        self,
        *,
        name: str = "",
        graph_id: str = "",
        metadata: dict[str, Any] | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[AssistantInfo]:
        rows = await self._call(
            "search the assistants",
            lambda c: c.assistants.search(
                name=name or None,
                graph_id=graph_id or None,
                metadata=metadata or None,
                limit=limit,
                offset=offset,
                sort_by="created_at",
                sort_order="asc",
            ),
            retry=True,
        )
        return [assistant_from_dict(dict(row)) for row in rows if isinstance(row, dict) and row.get("assistant_id")]

    async def assistant_versions(self, assistant_id: str, *, limit: int = 50, offset: int = 0) -> list[AssistantInfo]:
        uuid_ = await self._assistant_uuid(assistant_id)
        rows = await self._call(
            f"list the versions of assistant {assistant_id}",
            lambda c: c.assistants.get_versions(uuid_, limit=limit, offset=offset),
            retry=True,
        )
        return [assistant_from_dict(dict(row)) for row in rows]

    async def create_assistant(
        self,
        graph_id: str,
        *,
        name: str = "",
        config: dict[str, Any] | None = None,
        context: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> AssistantInfo:
        row = await self._call(
            f"create an assistant of graph {graph_id}",
            lambda c: c.assistants.create(
                graph_id,
                config=config or {},  # type: ignore[arg-type]
                context=context or {},
                metadata=metadata or {},
                name=name or None,
            ),
        )
        return assistant_from_dict(dict(row))

    async def update_assistant(
        self,
        assistant_id: str,
        *,
        name: str | None = None,
        config: dict[str, Any] | None = None,
        context: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> AssistantInfo:
        uuid_ = await self._assistant_uuid(assistant_id)
        row = await self._call(
            f"edit assistant {assistant_id}",
            lambda c: c.assistants.update(
                uuid_,
                config=config,  # type: ignore[arg-type]
                context=context,
                metadata=metadata,
                name=name,
            ),
        )
        return assistant_from_dict(dict(row))

    async def set_assistant_version(self, assistant_id: str, version: int) -> AssistantInfo:
        uuid_ = await self._assistant_uuid(assistant_id)
        row = await self._call(
            f"use version {version} of assistant {assistant_id}",
            lambda c: c.assistants.set_latest(uuid_, version),
        )
        return assistant_from_dict(dict(row))

    async def delete_assistant(self, assistant_id: str) -> None:
        uuid_ = await self._assistant_uuid(assistant_id)
        await self._call(f"delete assistant {assistant_id}", lambda c: c.assistants.delete(uuid_))

    # --- store -------------------------------------------------------------------------------------

    async def store_namespaces(
        self, prefix: list[str] | None = None, *, limit: int = 100, offset: int = 0
    ) -> list[list[str]]:
        answer = await self._call(
            "list the store's namespaces",
            lambda c: c.store.list_namespaces(prefix=prefix or None, limit=limit, offset=offset),
            retry=True,
        )
        found = answer.get("namespaces") if isinstance(answer, dict) else None
        return [[str(part) for part in ns] for ns in found or [] if isinstance(ns, (list, tuple))]

    async def store_items(
        self,
        namespace: list[str],
        *,
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[StoreItem]:
        answer = await self._call(
            f"list the items of {'/'.join(namespace) or 'the store'}",
            lambda c: c.store.search_items(
                namespace, filter=filter or None, limit=limit, offset=offset, query=query or None
            ),
            retry=True,
        )
        found = answer.get("items") if isinstance(answer, dict) else None
        return [item_from_dict(dict(row)) for row in found or [] if isinstance(row, dict)]

    async def store_put(self, namespace: list[str], key: str, value: dict[str, Any]) -> None:
        _check_namespace(namespace)
        if not key:
            raise Invalid("An item needs a key.")
        await self._call(f"put {key} in {'/'.join(namespace)}", lambda c: c.store.put_item(namespace, key, value))

    async def store_delete(self, namespace: list[str], key: str) -> None:
        await self._call(f"delete {key} from {'/'.join(namespace)}", lambda c: c.store.delete_item(namespace, key))

    # --- crons -------------------------------------------------------------------------------------

    async def list_crons(self, *, limit: int = 50, offset: int = 0) -> list[CronJob]:
        rows = await self._call("list the crons", lambda c: c.crons.search(limit=limit, offset=offset), retry=True)
        return [cron_from_dict(dict(row)) for row in rows if isinstance(row, dict) and row.get("cron_id")]

    async def create_cron(
        self, schedule: str, *, assistant_id: str, thread_id: str | None = None, input: dict[str, Any] | None = None
    ) -> CronJob:
        doing = f"create a cron for {'thread ' + thread_id if thread_id else assistant_id}"
        if thread_id:
            row = await self._call(
                doing,
                lambda c: c.crons.create_for_thread(thread_id, assistant_id, schedule=schedule, input=input),
            )
        else:
            row = await self._call(doing, lambda c: c.crons.create(assistant_id, schedule=schedule, input=input))
        return cron_from_dict(dict(row))

    async def delete_cron(self, cron_id: str) -> None:
        await self._call(f"delete cron {cron_id}", lambda c: c.crons.delete(cron_id))
