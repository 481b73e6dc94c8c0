"""Sending an answer to the server (the I/O): submit_answer, the modal's submit callback,
and reading a run to its end."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from ..backends.base import Backend, BackendError
from ..models import RunEvent
from .dialects import build_answer
from .models import Answer, AnswerError, HumanResponse, PendingInput


async def submit_answer(
    backend: Backend,
    thread_id: str,
    pending: PendingInput,
    response: HumanResponse | Answer,
    *,
    assistant_id: str = "",
    context: dict[str, Any] | None = None,
) -> AsyncIterator[RunEvent]:
    """Send the answer; returns the run's events once the server has accepted the run.

    Raises AnswerError (nothing sent) or BackendError (the server refused: the update, or
    the run before its first event). The returned iterator yields every event, the first
    included, so it can go straight to MainScreen.stream_into_chat.
    """
    answer = response if isinstance(response, Answer) else build_answer(pending, response)
    if answer.mode == "update_then_run":
        await backend.update_state(thread_id, answer.update_values, as_node=answer.as_node)
    events = backend.stream_run(thread_id, answer.run_request(assistant_id, context)).__aiter__()
    try:
        first = await events.__anext__()
    except StopAsyncIteration:
        return _replay(None, events)
    return _replay(first, events)


async def _replay(first: RunEvent | None, rest: AsyncIterator[RunEvent]) -> AsyncIterator[RunEvent]:
    if first is not None:
        yield first
    async for event in rest:
        yield event


async def drain(events: AsyncIterator[RunEvent]) -> tuple[str, str]:
    """Read a run to its end: ("idle" | "waiting" | "error", detail)."""
    outcome, detail = "idle", ""
    async for event in events:
        if event.kind == "interrupt":
            outcome, detail = "waiting", "the agent is waiting for an answer"
        elif event.kind == "error":
            outcome, detail = "error", event.text or "the run failed"
    return outcome, detail


SubmitCallback = Callable[[PendingInput, HumanResponse], Awaitable["str | None"]]
"""Sends an answer; returns None when the server accepted it, else the reason it refused."""


def refusal_text(error: BaseException) -> str:
    """Why an answer was not sent, for the modal to show (AnswerError or a server refusal)."""
    if isinstance(error, AnswerError):
        return str(error)
    if isinstance(error, BackendError):
        return "The server refused the answer: " + error.with_hint("\n")
    return f"The answer could not be sent: {type(error).__name__}: {error}"


def answer_submitter(
    backend: Backend,
    thread_id: str,
    on_accepted: Callable[[AsyncIterator[RunEvent]], object],
    *,
    assistant_id: str = "",
    context: dict[str, Any] | None = None,
) -> SubmitCallback:
    """The submit callback for HumanInputScreen on one thread.

    It sends the answer (submit_answer); once the server has accepted the run it calls
    `on_accepted(events)` with the run's events (all of them, the first included: stream
    them into the chat) and returns None, so the modal closes. If the server refuses, it
    returns the reason and the modal stays open with the answer as typed.
    """

    async def submit(pending: PendingInput, response: HumanResponse) -> str | None:
        try:
            events = await submit_answer(
                backend, thread_id, pending, response, assistant_id=assistant_id, context=context
            )
        except (AnswerError, BackendError) as error:
            return refusal_text(error)
        on_accepted(events)
        return None

    return submit
