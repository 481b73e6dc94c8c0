"""The inspector's history and time travel: it loads the checkpoint history (a first page,
then older pages as the timeline scrolls) and the graph, and decides what the time-travel keys
do. Work that touches the server without running the graph (fork, edit the state) happens
here; a replay or a resend is a run, so it is asked of the conversation with a Message.

`InspectorHistory` is Inspector's base class; the screen calls `follow(conversation)` so the
inspector can read which thread is open and whether a run streams, and show the chat as it was
at the checkpoint a time-travel key reaches (in the same frame as the timeline's cursor).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from textual import on
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import TabbedContent

from ...backends.base import BackendError
from ...models import ChatMessage, GraphInfo, ThreadState
from ...thread_ops import sentence
from ...timeline import fork_point_for_message
from ..report import report
from ..screens.confirm import ConfirmScreen
from ..screens.edit_state import EditStateScreen
from ..screens.prompt import PromptScreen
from ..typed_keys import dialog_worker
from ..widgets.state_tree import StateTree
from ..widgets.timeline import Timeline
from ..workers import work
from .open_thread import OpenThread

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..app import ThreadbenchApp
    from ..widgets.graph_view import GraphView

HISTORY_PAGE = 30
"""Checkpoints per get_history call: the timeline pages further back as the user scrolls."""
FIRST_HISTORY_PAGE = 5
"""The first page is small: a checkpoint holds the whole state (a DeerFlow thread of 250 turns:
1,000 messages each, 20 ms of the server's time per checkpoint), and it is fetched as a thread
opens; the timeline asks for the next page as soon as these rows are shown."""
KEPT_AFTER_A_RUN = 2 * HISTORY_PAGE
"""Checkpoints the timeline keeps when a run's new ones come (the cursor goes to the head):
the older ones load again as it scrolls. Each holds a whole state: a long session of runs
kept them all (100 runs of a soak, 400 states)."""


class FollowedThread(OpenThread, Protocol):
    """The conversation, as the inspector uses it: the open thread, and its chat shown as it
    was at a checkpoint."""

    async def show_checkpoint(self, checkpoint: ThreadState, is_head: bool) -> None: ...


class InspectorHistory(TabbedContent):
    app: ThreadbenchApp
    """History, graph and time travel: the base of Inspector, which provides the widgets."""

    SCREEN_KEYS: ClassVar[list[Binding]] = [
        Binding(
            "left_square_bracket",
            "older_checkpoint",
            "Back in time",
            id="main.older",
            tooltip="Back in time: the previous checkpoint",
        ),
        Binding(
            "right_square_bracket",
            "newer_checkpoint",
            "Forward",
            id="main.newer",
            tooltip="Forward in time: the next checkpoint",
        ),
        Binding(
            "left_curly_bracket",
            "older_turn",
            "Previous turn",
            show=False,
            id="main.older_turn",
            tooltip="Back in time: the previous checkpoint where a human turn starts",
        ),
        Binding(
            "right_curly_bracket",
            "newer_turn",
            "Next turn",
            show=False,
            id="main.newer_turn",
            tooltip="Forward in time: the next checkpoint where a human turn starts",
        ),
        Binding("g", "live_head", "Live head", show=False, id="main.live", tooltip="Back to the live head"),
        Binding("e", "edit_state", "Edit state", show=False, id="main.edit", tooltip="Edit the state (JSON)"),
        Binding("F", "fork", "Fork", show=False, id="main.fork", tooltip="Fork the thread from this checkpoint"),
        Binding("p", "replay", "Replay", show=False, id="main.replay", tooltip="Replay from this checkpoint"),
        Binding(
            "E",
            "edit_resend",
            "Edit & resend",
            show=False,
            id="main.resend",
            tooltip="Edit your last message and resend it",
        ),
    ]
    """The keys of the main screen this region acts on (main_keys.py binds them on the screen)."""

    @dataclass
    class Forked(Message):
        """The thread has a new head (a fork or an edit): open it again."""

        thread_id: str

    @dataclass
    class ReplayRequested(Message):
        """Run again from this checkpoint."""

        thread_id: str
        checkpoint: ThreadState

    @dataclass
    class ResendRequested(Message):
        """Fork at `fork_point` and run the edited message `text`."""

        thread_id: str
        fork_point: ThreadState
        text: str

    _open: FollowedThread | None = None
    _graphs: dict[str, GraphInfo]

    if TYPE_CHECKING:  # what Inspector provides

        @property
        def timeline(self) -> Timeline: ...
        @property
        def graph_view(self) -> GraphView: ...
        @property
        def is_past_view(self) -> bool: ...

        def show_checkpoints(self, checkpoints: list[ThreadState], exhausted: bool) -> None: ...
        def append_checkpoints(self, checkpoints: list[ThreadState], exhausted: bool) -> None: ...
        def disable_timeline(self, reason: str) -> None: ...
        def show_graph(self, graph: GraphInfo | None, next_nodes: list[str] | None = None) -> None: ...
        def show_live(self) -> None: ...
        def show_selected(self, event: Timeline.Selected) -> None: ...

    def follow(self, conversation: FollowedThread) -> None:
        self._open = conversation

    @property
    def _open_thread_id(self) -> str | None:
        return self._open.thread_id if self._open is not None else None

    # -- loading -------------------------------------------------------------------------------

    @work(exclusive=True, group="history", exit_on_error=False)
    async def load_history(self, thread_id: str) -> None:
        backend = self.app.session.backend
        if backend is None:
            return
        if not backend.capabilities.history:
            self.disable_timeline(
                backend.capabilities.reason or f"{backend.capabilities.name} keeps no checkpoint history."
            )
            return
        known = self._shown_checkpoints(thread_id)
        try:
            fresh = await backend.get_history(thread_id, limit=FIRST_HISTORY_PAGE)
            exhausted = len(fresh) < FIRST_HISTORY_PAGE
            if known and not exhausted and _position(fresh, known[0]) is None:
                page = await backend.get_history(thread_id, limit=HISTORY_PAGE, before=fresh[-1].checkpoint_id)
                fresh, exhausted = fresh + page, len(page) < HISTORY_PAGE
        except BackendError as error:
            report(self, error, "Loading the checkpoint history")
            return
        if thread_id != self._open_thread_id:
            return
        known = self._shown_checkpoints(thread_id)  # (an older page may have come meanwhile)
        newer = _position(fresh, known[0]) if known else None
        if newer is not None:
            kept = fresh[:newer] + known
            exhausted = self.timeline.exhausted and len(kept) <= KEPT_AFTER_A_RUN
            self.show_checkpoints(kept[:KEPT_AFTER_A_RUN], exhausted=exhausted)
        else:
            self.show_checkpoints(fresh, exhausted=exhausted)

    def _shown_checkpoints(self, thread_id: str) -> list[ThreadState]:
        """The timeline's checkpoints if they are `thread_id`'s: after a run, an edit or a
        fork, only the checkpoints newer than these are read (they never change)."""
        shown = self.timeline.checkpoints
        return list(shown) if shown and shown[0].thread_id == thread_id else []

    @on(Timeline.NeedMore)
    def _history_need_more(self, event: Timeline.NeedMore) -> None:
        if self._open_thread_id is not None:
            self.load_more_history(self._open_thread_id, event.before_checkpoint_id)

    @work(exclusive=True, group="more-history")
    async def load_more_history(self, thread_id: str, before: str) -> None:
        backend = self.app.session.live_backend
        try:
            page = await backend.get_history(thread_id, limit=HISTORY_PAGE, before=before)
        except BackendError as error:
            report(self, error, "Loading older checkpoints")
            return
        if thread_id == self._open_thread_id:
            self.append_checkpoints(page, exhausted=len(page) < HISTORY_PAGE)

    @work(exclusive=True, group="graph", exit_on_error=False, description="load the graph")
    async def load_graph(self, state: ThreadState, assistant: str) -> None:
        """The graph of `assistant` (the graph the open thread runs on), xray, cached."""
        backend = self.app.session.backend
        if backend is None:
            return
        if not backend.capabilities.graph:
            self.graph_view.show_note(f"{backend.capabilities.name} does not describe its graph.")
            return
        if not assistant:
            self.graph_view.show_note(
                "No graph: nothing says which graph this thread runs on yet (its first run will, or pick one with o)."
            )
            return
        graph = self._graphs.get(assistant)
        if graph is None:
            try:
                graph = self._graphs[assistant] = await backend.get_graph(assistant, xray=True)
            except BackendError as error:
                self.graph_view.show_note(f"No graph: the server did not show graph {assistant}. {error}")
                return
        if not graph.nodes:
            self.graph_view.show_note(f"No graph: the server describes no nodes for {assistant}.")
            return
        self.show_graph(graph, state.next)

    # -- time travel -----------------------------------------------------------------------------

    async def action_older_checkpoint(self) -> None:
        await self._travel(self.older_checkpoint)

    async def action_newer_checkpoint(self) -> None:
        await self._travel(self.newer_checkpoint)

    async def action_older_turn(self) -> None:
        await self._travel(self.older_turn)

    async def action_newer_turn(self) -> None:
        await self._travel(self.newer_turn)

    async def action_live_head(self) -> None:
        await self._travel(self.live_head)

    async def _travel(self, move: Callable[[], None]) -> None:
        """Move the timeline's cursor and show where it went (the state, the diff and the chat
        of that checkpoint) in the same frame as the cursor: left to Timeline.Selected, the
        cursor was painted alone first, and Textual's next frame came 17-33 ms later."""
        with self.app.batch_update():
            move()
            selected = self.timeline.take_selection()
            if selected is not None:
                self.show_selected(selected)
                if self._open is not None:
                    await self._open.show_checkpoint(selected.checkpoint, selected.is_head)

    def _timeline_ready(self) -> bool:
        backend = self.app.session.backend
        if backend is None or self._open_thread_id is None:
            return False
        if not backend.capabilities.history:
            self.notify(backend.capabilities.reason or "This server keeps no checkpoint history.", severity="warning")
            return False
        return True

    def older_checkpoint(self) -> None:
        if self._timeline_ready():
            self.active = "tab-timeline"
            self.timeline.select_older()

    def newer_checkpoint(self) -> None:
        if self._timeline_ready():
            self.active = "tab-timeline"
            self.timeline.select_newer()

    def older_turn(self) -> None:
        if self._timeline_ready():
            self.active = "tab-timeline"
            self.timeline.select_turn(older=True)

    def newer_turn(self) -> None:
        if self._timeline_ready():
            self.active = "tab-timeline"
            self.timeline.select_turn(older=False)

    @on(Timeline.NoTurn)
    def _no_turn(self, event: Timeline.NoTurn) -> None:
        self.notify(
            "No earlier human turn in this thread." if event.older else "No later human turn: this is the live head.",
            timeout=2,
        )

    def live_head(self) -> None:
        if self._timeline_ready():
            self.timeline.select_head()
            self.show_live()

    def _past_checkpoint(self) -> ThreadState | None:
        """The checkpoint the user is looking at in the past view (None at the head)."""
        return self.timeline.selected if self.is_past_view else None

    def _forks(self) -> bool:
        """True if the server can fork; else says so."""
        capabilities = self.app.session.live_backend.capabilities
        if not capabilities.fork:
            self.notify(
                f"{capabilities.name} cannot fork, replay or resend from a past checkpoint.",
                severity="warning",
                timeout=4,
            )
        return capabilities.fork

    @property
    def _run_streams(self) -> bool:
        return self._open is not None and self._open.run_in_progress

    @on(StateTree.EditRequested)
    def _edit_requested(self, event: StateTree.EditRequested) -> None:
        if self._open is not None:  # (an inspector on its own, with no thread, only shows)
            self.edit_state(event.key)

    def action_edit_state(self) -> None:
        """e: edit the values as JSON."""
        if self.app.session.backend is not None and self._open is not None and self._open.thread_state is not None:
            self.edit_state(None)

    @dialog_worker
    async def edit_state(self, key: str | None) -> None:
        """Edit the values (or one key) as JSON; in a past view, the edit forks from there."""
        backend = self.app.session.live_backend
        assert self._open is not None
        thread_id, base = self._open.thread_id, self._past_checkpoint() or self._open.thread_state
        if thread_id is None or base is None:
            return
        fork_from = self._past_checkpoint()
        if fork_from is not None and not backend.capabilities.fork:
            self.notify(f"{backend.capabilities.name} cannot fork.", severity="warning")
            return
        graph = self._graphs.get(self._open.assistant)
        nodes = [node.id for node in graph.nodes if not node.id.startswith("__")] if graph else []
        values = {k: v for k, v in base.values.items() if k != "__interrupt__"}

        async def submit(new_values: dict, as_node: str | None) -> str | None:
            try:
                await backend.update_state(
                    thread_id, new_values, as_node=as_node, checkpoint_id=fork_from.checkpoint_id if fork_from else None
                )
            except BackendError as error:
                return sentence(error, error.hint)
            return None

        result = await self.app.push_screen_wait(
            EditStateScreen(values, submit, key=key, nodes=nodes, fork_from=fork_from)
        )
        if result is not None:
            self.notify("Forked: the new head is the edited checkpoint." if fork_from else "State updated.", timeout=3)
            self.show_live()
            self.post_message(self.Forked(thread_id))

    def action_fork(self) -> None:
        if not self._timeline_ready() or not self._forks():
            return
        checkpoint = self._past_checkpoint()
        if checkpoint is None:
            self.notify("Select an older checkpoint first ([ and ]).", severity="warning", timeout=3)
            return
        self.ask_fork(checkpoint)

    @dialog_worker
    async def ask_fork(self, checkpoint: ThreadState) -> None:
        """F writes a new head: asked first, so a stray F changes nothing."""
        question = Content.assemble(
            "Fork the thread at ",
            (f"step {checkpoint.step}", "bold"),
            "?\nThat checkpoint becomes the thread's new head (the later ones stay in its history).",
        )
        if await self.app.push_screen_wait(ConfirmScreen(question, "Fork")):
            self.fork_at(checkpoint)

    @work(group="fork", description="fork")
    async def fork_at(self, checkpoint: ThreadState) -> None:
        backend = self.app.session.live_backend
        thread_id = self._open_thread_id
        assert thread_id is not None
        try:
            await backend.update_state(thread_id, None, checkpoint_id=checkpoint.checkpoint_id)
        except BackendError as error:
            report(self, error, "Forking")
            return
        self.notify(f"Forked at step {checkpoint.step}: that checkpoint is the new head.", timeout=3)
        self.show_live()
        self.post_message(self.Forked(thread_id))

    def action_replay(self) -> None:
        if not self._timeline_ready() or self._run_streams or not self._forks():
            return
        checkpoint = self._past_checkpoint()
        if checkpoint is None:
            self.notify("Select an older checkpoint first ([ and ]).", severity="warning", timeout=3)
            return
        self.ask_replay(checkpoint)

    @dialog_worker
    async def ask_replay(self, checkpoint: ThreadState) -> None:
        """p runs the graph: asked first, so a stray p changes nothing."""
        thread_id = self._open_thread_id
        question = Content.assemble(
            "Replay from ",
            (f"step {checkpoint.step}", "bold"),
            "?\nThe graph runs again from that checkpoint: its new checkpoints become the thread's head.",
        )
        if not await self.app.push_screen_wait(ConfirmScreen(question, "Replay")):
            return
        if thread_id is None or thread_id != self._open_thread_id or self._run_streams:
            return  # (another thread opened, or a run began, while the question was up)
        self.show_live()
        self.post_message(self.ReplayRequested(thread_id, checkpoint))

    def action_edit_resend(self) -> None:
        state = self._open.thread_state if self._open is not None else None
        if not self._timeline_ready() or self._run_streams or state is None or not self._forks():
            return
        human = next((m for m in reversed(state.messages) if m.type == "human" and not m.hidden), None)
        if human is None:
            self.notify("This thread has no message of yours to edit.", severity="warning")
            return
        self.edit_and_resend(human)

    @dialog_worker
    async def edit_and_resend(self, human: ChatMessage) -> None:
        """Fork at the checkpoint before the last human message and run the edited one."""
        assert self._open is not None
        thread_id, state = self._open.thread_id, self._open.thread_state
        assert thread_id is not None and state is not None
        fork_point = fork_point_for_message(self.timeline.checkpoints, human.id, state.checkpoint_id or None)
        if fork_point is None:
            self.notify(
                "The checkpoint before that message is not loaded: scroll the timeline further back.",
                severity="warning",
            )
            return
        text = await self.app.push_screen_wait(PromptScreen("Edit and resend your message", human.text))
        if text is None:
            return
        self.post_message(self.ResendRequested(thread_id, fork_point, text))


def _position(checkpoints: list[ThreadState], checkpoint: ThreadState) -> int | None:
    """Where `checkpoint` is in `checkpoints` (None if it is not, or has no id to tell)."""
    wanted = checkpoint.checkpoint_id
    return next((index for index, c in enumerate(checkpoints) if wanted and c.checkpoint_id == wanted), None)
