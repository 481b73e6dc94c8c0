"""The conversation's runs: streaming a run into the chat, run status and event log, joining
a run in progress, rejoining one whose stream was cut, replaying and resending from a
checkpoint, cancelling a run, and putting the thread's row, header and inspector right when a
run ends.

`ConversationRuns` is the base of Conversation (conversation.py), which provides the widgets
and the open thread; every run worker is in the exclusive group "run".
"""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING, ClassVar, Protocol

from textual.binding import Binding
from textual.content import Content

from ...backends.base import BackendError, ServerError, Unreachable
from ...human_input import detect_pending
from ...messages_key import DEFAULT, messages_key, messages_key_of_schemas
from ...models import ChatMessage, RunEvent, RunRequest, ThreadState, ThreadSummary
from ...run_target import refused_assistant
from ...streaming import pump
from ...thread_ops import final_state, state_detail
from ..report import gone, report
from ..screens.cancel_run import CancelRunScreen
from ..text import clean, one_line, plain
from ..workers import work
from .composer_extras import ComposerExtras

STREAM_GAP = Content.styled(
    "The server dropped part of this run's stream (it fell behind): the reply shows whole when the run ends.",
    "dim italic",
)

if TYPE_CHECKING:
    from ...human_input import PendingInput
    from ..app import ThreadbenchApp
    from ..widgets.chat_log import ChatLog
    from ..widgets.composer import Composer
    from ..widgets.run_status import RunStatus


class Rows(Protocol):
    """The thread browser's rows, as the conversation uses them."""

    def thread(self, thread_id: str) -> ThreadSummary | None: ...
    def update_thread(self, thread: ThreadSummary) -> None: ...
    def mark_waiting(self, thread_id: str, waiting: bool) -> None: ...
    def insert_thread(self, summary: ThreadSummary, *, open_it: bool = True) -> None: ...


class StateView(Protocol):
    """The inspector, as the conversation uses it."""

    def show_state(self, state: ThreadState) -> None: ...
    def stream_modes(self) -> list[str]: ...
    def run_began(self) -> None: ...
    def add_events(self, events: list[RunEvent], count: int) -> None: ...
    def load_history(self, thread_id: str) -> object: ...
    def load_graph(self, state: ThreadState, assistant: str) -> object: ...


class ConversationRuns(ComposerExtras):
    app: ThreadbenchApp
    thread_id: str | None
    thread_state: ThreadState | None
    _rows: Rows
    _inspector: StateView

    SCREEN_KEYS: ClassVar[list[Binding]] = [
        Binding("ctrl+g", "cancel_run", "Cancel run", priority=True, id="main.cancel", tooltip="Cancel the run"),
    ]
    """The keys of the main screen this region acts on (main_keys.py binds them on the screen)."""

    if TYPE_CHECKING:  # what Conversation provides

        @property
        def chat(self) -> ChatLog: ...
        @property
        def composer(self) -> Composer: ...
        @property
        def run_status(self) -> RunStatus: ...

        def show_header(self, state: ThreadState, summary: ThreadSummary | None) -> None: ...
        def ask_human(self, thread_id: str, pending: list[PendingInput]) -> object: ...
        def open_thread(self, thread_id: str, ask: bool = False) -> object: ...

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.run_id: str | None = None
        self._wrong_graph: BackendError | None = None
        """The server refused the last run's assistant or graph (set by stream_into_chat)."""
        self._cut_run: tuple[str, str, str] | None = None
        """(thread id, run id, last event id read) of a run whose stream was cut: rejoined
        from there when the server is back."""

    @property
    def run_in_progress(self) -> bool:
        return any(w.group == "run" and w.is_running for w in self.workers)

    @property
    def assistant(self) -> str:
        """The assistant or graph a run on the open thread goes to ("" when nothing says)."""
        return self.assistant_for(self.thread_id)

    def assistant_for(self, thread_id: str | None) -> str:
        summary = self._rows.thread(thread_id) if thread_id else None
        return self.app.session.assistant_of(summary, thread_id)

    async def messages_key_for(self, thread_id: str, target: str) -> str:
        """The key of the run's input that carries a message: where the open thread's state
        keeps its conversation, else where the graph's schemas say (asked once a graph),
        else "messages" (messages_key.py). A server that neither lists assistants nor
        describes its graphs (10xGraph, DeerFlow's Gateway) takes "messages" whatever its
        state holds."""
        session = self.app.session
        backend = session.live_backend
        if not (backend.capabilities.assistants and backend.capabilities.graph):
            return DEFAULT
        state = self.thread_state
        if state is not None and state.thread_id == thread_id and (found := messages_key(state.values)):
            return found
        if target not in session.messages_keys:
            try:
                session.messages_keys[target] = messages_key_of_schemas(await backend.get_schemas(target)) or DEFAULT
            except BackendError:
                return DEFAULT  # (asked again next time)
        return session.messages_keys.get(target, DEFAULT)

    def _run_request(self, thread_id: str, input: dict | None, **kwargs) -> RunRequest:
        options = self.app.session.run_options
        return RunRequest(
            assistant_id=self.assistant_for(thread_id),
            input=input,
            context=options.context(),
            configurable=options.configurable(),
            stream_modes=self._inspector.stream_modes(),
            multitask_strategy="reject",
            **kwargs,
        )

    def rejoin_cut_run(self) -> bool:
        """The server is back: follow the run whose stream was cut, if its thread is open."""
        if self._cut_run is not None:
            thread_id, run_id, last_event_id = self._cut_run
            self._cut_run = None
            if thread_id == self.thread_id:
                self.rejoin_run(thread_id, run_id, last_event_id)
                return True
        return False

    @work(exclusive=True, group="run")
    async def rejoin_run(self, thread_id: str, run_id: str, last_event_id: str) -> None:
        """Follow a run whose stream was cut, from the last event read (the server replays
        what it sent meanwhile); the final state puts the reply right."""
        backend = self.app.session.live_backend
        await self.chat.add_notice(Content.styled("reconnected: following the run again", "dim italic"))
        await self.stream_into_chat(
            backend.join_stream(thread_id, run_id, last_event_id or None), thread_id, "Rejoining the run", asks=False
        )

    @work(exclusive=True, group="run")
    async def join_run(self, thread_id: str) -> None:
        backend = self.app.session.live_backend
        await self.chat.add_notice(Content.styled("joined the run in progress", "dim italic"))
        await self.stream_into_chat(backend.join_stream(thread_id), thread_id, "Joining the run", asks=False)

    @work(exclusive=True, group="run", description="replay")
    async def replay_from(self, thread_id: str, checkpoint: ThreadState) -> None:
        """Run again from a checkpoint (no new input): the graph continues from there."""
        backend = self.app.session.live_backend
        await self.chat.show_messages(
            checkpoint.messages, notice=Content.styled(f"replaying from step {checkpoint.step}", "dim italic")
        )
        await self.stream_into_chat(
            backend.stream_run(thread_id, self._run_request(thread_id, None, checkpoint_id=checkpoint.checkpoint_id)),
            thread_id,
            "Replaying",
        )
        self._inspector.load_history(thread_id)

    @work(exclusive=True, group="run", description="resend")
    async def resend(self, thread_id: str, fork_point: ThreadState, text: str) -> None:
        """Run the edited message from the checkpoint before the one it replaces (a fork)."""
        backend = self.app.session.live_backend
        await self.chat.show_messages(fork_point.messages)
        message = ChatMessage(id=str(uuid.uuid4()), type="human", text=text)
        request = self._run_request(
            thread_id,
            {fork_point.messages_key: [{"type": "human", "content": text, "id": message.id}]},
            checkpoint_id=fork_point.checkpoint_id,
        )
        await self.stream_into_chat(backend.stream_run(thread_id, request), thread_id, "Resending", echo=message)
        self._inspector.load_history(thread_id)

    @work(exclusive=True, group="run")
    async def stream_again(self, thread_id: str, request: RunRequest) -> None:
        """A run again with the input and options of an earlier one (the runs screen)."""
        backend = self.app.session.live_backend
        await self.chat.add_notice(Content.styled("running again with the same input and options", "dim italic"))
        await self.stream_into_chat(backend.stream_run(thread_id, request), thread_id, "Running again")

    @work(exclusive=True, group="run")
    async def stream_answer(self, events, thread_id: str, said: str = "") -> None:
        """The run an answer started; `said`, the answer in words, shows in the chat first
        (under the question), when no message of the thread holds it."""
        self._rows.mark_waiting(thread_id, False)
        if said and thread_id == self.thread_id:
            await self.chat.add_notice(
                Content.assemble(("You answered: ", "bold $accent"), plain(one_line(said, 300))), "chat-notice -answer"
            )
        await self.stream_into_chat(events, thread_id, "Answering")

    async def stream_into_chat(
        self, events, thread_id: str, doing: str, echo: ChatMessage | None = None, *, asks: bool = True
    ) -> bool:
        """Show a run's events in the chat; False if the server refused the run.

        `asks`: the person started this run here, so a question it ends with opens at once
        (only a new one: a run that failed, or left the question that was waiting before it
        as it was, opens nothing). A run joined or rejoined (a reconnect) opens nothing.

        `echo` (the human message being sent) shows at once; if the server refuses the run
        it is taken back out and its text returns to the composer.

        A full collection waits until all of it is done, the run's end too (its final state,
        the finished reply drawn): one that came as the stream ended froze the reply's last
        frames for 70-120 ms once the chat held a long conversation (bench/soak.py).
        """
        with self.app.collector.busy():
            return await self._stream_into_chat(events, thread_id, doing, echo, asks)

    async def _stream_into_chat(self, events, thread_id: str, doing: str, echo: ChatMessage | None, asks: bool) -> bool:
        chat, status, inspector = self.chat, self.run_status, self._inspector
        held = self.thread_state
        waiting_before = {p.key for p in detect_pending(held)} if held and held.thread_id == thread_id else set()
        before = {m.id for m in held.messages if m.id} if held and held.thread_id == thread_id else set()
        self.clear_follow_ups()
        status.begin()
        inspector.run_began()
        accepted = echo is None
        outcome, detail, last_event_id = "idle", "", ""
        if echo is not None:
            await chat.add_echo(echo)
            self.composer.clear()

        async def apply(batch: list[RunEvent], count: int) -> None:
            nonlocal accepted, outcome, detail, last_event_id
            if gone(self):
                return
            accepted = True
            node, gap = "", False
            for event in batch:
                if event.kind == "metadata":
                    self.run_id = event.run_id or self.run_id
                elif event.kind == "interrupt":
                    outcome, detail = "waiting", "for your answer"
                elif event.kind == "error":
                    outcome, detail = "error", event.text or "the run failed"
                elif event.kind == "gap":
                    gap = True
                node = event.node or node
                last_event_id = event.event_id or last_event_id
            status.count(count, node)
            inspector.add_events(batch, count)
            try:
                await chat.apply_events(batch)
                if gap:
                    await chat.add_notice(STREAM_GAP)
            except Exception:
                if gone(self):  # taken down while it drew: the app is closing
                    return
                raise

        try:
            await pump(events, apply)
        except BackendError as error:
            if not accepted and echo is not None and refused_assistant(error.message):
                self._wrong_graph = error  # the sender asks for another graph instead
            else:
                report(self, error, doing)
            if not accepted and echo is not None:
                await chat.remove_message(echo.id)
                if not self.composer.text.strip():
                    self.composer.show_draft(echo.text)
                status.end("error", str(error))
                return False
            outcome, detail = "error", str(error)
            if isinstance(error, (Unreachable, ServerError)) and self.run_id:
                self._cut_run = (thread_id, self.run_id, last_event_id)
                outcome, detail = "offline", "the stream was cut; it is rejoined when the server is back"
        except asyncio.CancelledError:
            status.end("idle")
            raise
        final = None
        if outcome != "offline":  # (else the reply stays open: the rejoined run continues it)
            final = await final_state(self.app.session.live_backend, thread_id)
            await chat.finish_run(final.messages if final is not None else None)
        if final is not None and thread_id == self.thread_id:
            self.show_usage(thread_id, final.messages, before)
            if outcome == "idle" and not detect_pending(final):  # (a question asked: nothing to suggest)
                self.fetch_follow_ups(thread_id, final.messages)
        if outcome == "error":
            await chat.add_notice(
                Content.assemble(("run failed: ", "bold $error"), clean(detail)), "chat-notice -error"
            )
        status.end(outcome, detail)
        self.run_id = None
        asked = None if outcome == "waiting" else frozenset(waiting_before)  # (an interrupt now: new)
        self.refresh_thread_row(thread_id, final, ask=asks and outcome in ("idle", "waiting"), asked_before=asked)
        if thread_id == self.thread_id:
            self._inspector.load_history(thread_id)
        return True

    # -- cancelling --------------------------------------------------------------------------------

    def action_cancel_run(self) -> None:
        row = self._rows.thread(self.thread_id) if self.thread_id else None
        busy = self.run_in_progress or (row is not None and row.status == "busy")
        if not busy or self.thread_id is None:
            self.notify("No run in progress.", timeout=2)
            return
        self.cancel_run(self.thread_id, self.run_id)

    @work(group="cancel")
    async def cancel_run(self, thread_id: str, run_id: str | None) -> None:
        backend = self.app.session.live_backend
        action = await self.app.push_screen_wait(CancelRunScreen())
        if action is None:
            return
        try:
            run_id = run_id or await backend.active_run(thread_id)
            if run_id is None:
                self.notify("The run has already finished.", timeout=3)
                return
            await backend.cancel_run(thread_id, run_id, action)
        except BackendError as error:
            report(self, error, "Cancelling the run")
            return
        self.notify(f"Run cancelled ({action}).", timeout=3)
        if action == "rollback" and thread_id == self.thread_id:
            self.open_thread(thread_id)

    def _answered_elsewhere(self, thread_id: str) -> None:
        """A question answered from the inbox: the row and the open thread catch up, without asking."""
        self.refresh_thread_row(thread_id)

    @work(group="row", exit_on_error=False, description="refresh a thread's row")
    async def refresh_thread_row(
        self,
        thread_id: str,
        state: ThreadState | None = None,
        ask: bool = False,
        asked_before: frozenset[str] | None = None,
    ) -> None:
        """After a run: the row's status and title, the header and the inspector; with
        `ask`, a question the agent now asks opens (unless its key is in `asked_before`:
        it was waiting before the run)."""
        backend = self.app.session.backend
        if backend is None:
            return
        try:
            thread = await backend.get_thread(thread_id)
            state = state or await backend.get_state(thread_id)
        except BackendError:
            return
        self._rows.update_thread(thread)
        pending = detect_pending(state)
        self._rows.mark_waiting(thread_id, bool(pending))  # a question left for later may be gone
        if thread_id == self.thread_id:
            self.thread_state = state
            self.show_header(state, thread)
            self._inspector.show_state(state)
            if ask and pending:  # (after a failed run its error stays in the status)
                self.run_status.end("waiting", state_detail(state, pending))
            if ask and pending and (asked_before is None or any(p.key not in asked_before for p in pending)):
                self.ask_human(thread_id, pending)
