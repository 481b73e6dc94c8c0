"""The main screen: the thread browser, the conversation and the inspector.

Each region is a widget that owns its state, its workers and its keys (regions/:
thread_sidebar.py with thread_actions.py, conversation.py with runs.py, composer_extras.py and
objects.py, inspector.py with history.py; widgets/connection.py); they post Messages and this
screen routes them to the region that acts (a chosen row opens in the conversation, a fork
opens the new head). It lays the regions out and routes their keys: each region declares the
keys whose action it owns (`SCREEN_KEYS`) and implements them; the screen binds them all
(main_keys.py), so they act wherever the focus is, and runs each on its region through one
action, `region(id, action)`. Its own keys are those that span the regions: refresh (the list
and the open thread), compare side by side and fan out, and those that lay them out at the
screen's width (pane_layout.py: the thread list and the inspector shown, hidden or over the
chat; the focused pane zoomed). It forwards nothing: what reads or
drives a region's state (the app, tests, the bench) goes to the region (`screen.sidebar`,
`screen.conversation`, `screen.connection`, `screen.inspector`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.actions import SkipAction
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from ..backends.base import BackendError
from ..compare import Side, side_label
from ..models import ThreadState
from .main_keys import screen_bindings
from .pane_layout import SidePanes
from .regions.conversation import Conversation
from .regions.inspector import Inspector
from .regions.thread_sidebar import ThreadSidebar
from .report import report
from .screens.compare import CompareScreen
from .screens.fanout import FanOutScreen
from .text import clean
from .widgets.composer import Composer
from .widgets.connection import ConnectionIndicator
from .widgets.key_footer import KeyFooter
from .widgets.thread_list import ThreadList
from .widgets.timeline import Timeline
from .workers import work

if TYPE_CHECKING:
    from .app import ThreadbenchApp

OWN_KEYS: list[Binding] = [  # the screen's own: what spans the regions
    Binding(
        "ctrl+b",
        "toggle_pane('sidebar')",
        "Threads",
        id="main.toggle_threads",
        tooltip="Show or hide the thread list (kept across starts)",
    ),
    Binding(
        "ctrl+backslash",
        "toggle_pane('inspector')",
        "Inspector",
        id="main.toggle_inspector",
        tooltip="Show or hide the inspector (kept across starts)",
    ),
    Binding("f5", "zoom", "Zoom", id="main.zoom", tooltip="Zoom the focused pane to the whole screen, or back"),
    Binding(
        "ctrl+r",
        "refresh",
        "Refresh",
        priority=True,
        show=False,
        id="main.refresh",
        tooltip="Refresh the list and the open thread",
    ),
    Binding(
        "equals_sign",
        "compare",
        "Compare",
        show=False,
        id="main.compare",
        tooltip="Compare side by side: pick this thread or checkpoint, then the other side",
    ),
    Binding(
        "O",
        "fan_out",
        "Fan out",
        show=False,
        id="main.fan_out",
        tooltip="Fan out: the same message from this checkpoint under up to four run-option sets, side by side",
    ),
]


class MainScreen(Screen):
    app: ThreadbenchApp

    AUTO_FOCUS = "#composer"
    """What is typed before the threads are listed is a message, never one-letter commands
    or a search; the list takes the focus once it has rows (unless typing has begun)."""

    BINDINGS = screen_bindings(OWN_KEYS, {"sidebar": ThreadSidebar, "chat-pane": Conversation, "inspector": Inspector})
    """The screen's own keys and its regions' (main_keys.py), each region's routed to it by
    `region(id, action)`."""

    def compose(self) -> ComposeResult:
        self.connection = ConnectionIndicator(id="connection")
        self.sidebar = ThreadSidebar(clock=self.app.clock, id="sidebar")
        self.conversation = Conversation(status_extra=self.connection, id="chat-pane")
        self.inspector = Inspector(id="inspector")
        self.sidebar.follow(self.conversation)
        self.inspector.follow(self.conversation)
        self.conversation.attach(rows=self.sidebar, inspector=self.inspector)
        self.regions = {"sidebar": self.sidebar, "chat-pane": self.conversation, "inspector": self.inspector}
        with Horizontal(id="panes"):
            yield self.sidebar
            yield self.conversation
            yield self.inspector
        yield Static(id="compare-pick")
        yield KeyFooter()

    regions: dict[str, Widget] = {}
    """The regions by id (from compose): where `region(id, action)` runs a key's action."""
    compare_left: Side | None = None
    """The side picked with = (the left of the next comparison)."""
    _compare_marked = ""
    """The checkpoint = marked in the timeline (unmarked when the comparison is made)."""

    def on_mount(self) -> None:
        self.panes = SidePanes(self, self.app.session.settings.data_dir)
        self.panes.arrange()
        self.query_one("#compare-pick").display = False
        self.conversation.show_run_options()
        if self.app.session.backend is None:
            self.sidebar.show_note(self.app.embedded.starting_text)
            self.conversation.run_status.show("starting", self.app.embedded.starting_text)
        else:
            self.backend_ready()

    def backend_ready(self) -> None:
        self.conversation.run_status.show("idle", "")
        self.inspector.offer_stream_modes(self.app.session.live_backend.capabilities.stream_modes)
        self.conversation.learn_graphs()
        self.connection.start()
        self.sidebar.start()

    async def _forget_thread(self, thread_id: str) -> None:
        """Drop a thread the server no longer has: its row, and the chat if it is open.
        The composer keeps its text."""
        self.sidebar.remove_thread(thread_id)
        if await self.conversation.forget(thread_id):
            self.inspector.forget()

    # -- the panes at the screen's width -----------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self.panes.arrange()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The pane with the focus is drawn so (its edge and title row in the accent colour: a
        class, as Textual's :focus-within does not restyle a pane's children when the focus
        leaves it); a hidden pane comes up, a pane over the chat goes (pane_layout.py)."""
        focused = event.widget
        for region in self.regions.values():
            region.set_class(region in focused.ancestors_with_self, "-focused")
        self.panes.focus_moved(focused)

    def action_toggle_pane(self, pane: str) -> None:
        """ctrl+b, ctrl+backslash: the thread list or the inspector shown or hidden; shown
        over the chat, it takes the focus, and hidden, it gives the focus to the composer."""
        region = self.regions[pane]
        if self.panes.toggle(pane):
            if self.panes.over == pane:
                if pane == "sidebar":
                    self.sidebar.thread_list.focus()
                else:
                    self.inspector.focus_content()
        elif self.focused is not None and region in self.focused.ancestors_with_self:
            self.conversation.composer.focus()

    def action_close_over(self) -> None:
        """escape in a pane over the chat: it closes, and the composer has the focus."""
        if not self.panes.close_over():
            raise SkipAction()
        self.conversation.composer.focus()

    def action_zoom(self) -> None:
        """f5: the pane with the focus fills the screen (Textual's maximize), or back."""
        if self.maximized is not None:
            self.minimize()
            return
        focused = self.focused
        pane = self.panes.pane_of(focused) if focused is not None else None
        self.maximized = self.regions[pane or "chat-pane"]

    # -- routing between the regions -------------------------------------------------------------

    @on(ThreadList.Chosen)
    def thread_chosen(self, event: ThreadList.Chosen) -> None:
        """A highlighted thread opens; only enter (a deliberate choice) also asks its question."""
        conversation = self.conversation
        if event.thread_id != conversation.thread_id:
            conversation.open_thread(event.thread_id, event.opened)
        elif event.opened and not conversation.run_in_progress:
            conversation.open_thread(event.thread_id, ask=True)  # enter on the open thread: its question or run, now
        if event.opened:
            conversation.composer.focus()

    @on(ThreadSidebar.FirstListed)
    def first_listed(self) -> None:
        if self.conversation.composer_idle and self.panes.mode("sidebar") == "beside":  # (a hidden list stays so)
            self.sidebar.thread_list.focus()

    @on(ThreadSidebar.SearchChosen)
    def search_chosen(self, event: ThreadSidebar.SearchChosen) -> None:
        """Enter in the search box: its first match is highlighted and opens, and the composer
        takes the keys typed behind enter (held until now)."""
        threads, conversation = self.sidebar.thread_list, self.conversation
        with threads.prevent(ThreadList.Chosen):  # (opened here, once)
            threads.highlight_thread(event.thread_id)
        if conversation.thread_id != event.thread_id:
            conversation.open_thread(event.thread_id)
        conversation.composer.focus()
        self.app.typed_keys.release()

    @on(ThreadSidebar.Made)
    def thread_made(self) -> None:
        self.conversation.composer.focus()

    @on(ThreadSidebar.NothingListed)
    async def nothing_listed(self) -> None:
        self.conversation.composer.focus()
        await self.conversation.welcome()

    @on(ThreadSidebar.Busy)
    def open_thread_busy(self, event: ThreadSidebar.Busy) -> None:
        if event.thread_id == self.conversation.thread_id:
            self.conversation.open_thread(event.thread_id)

    @on(ThreadSidebar.Renamed)
    def renamed(self, event: ThreadSidebar.Renamed) -> None:
        if event.thread_id == self.conversation.thread_id:
            self.conversation.open_thread(event.thread_id)

    @on(ThreadSidebar.Deleted)
    async def deleted(self, event: ThreadSidebar.Deleted) -> None:
        self.conversation.drafts.pop(event.thread_id, None)
        await self._forget_thread(event.thread_id)

    @on(Conversation.Gone)
    async def gone(self, event: Conversation.Gone) -> None:
        await self._forget_thread(event.thread_id)

    @on(Composer.Submitted)
    def composer_submitted(self, event: Composer.Submitted) -> None:
        self.conversation.submit(event.text)

    @on(Composer.AttachRequested)
    def composer_attach(self) -> None:
        self.conversation.action_attach_file()

    @on(Timeline.Selected)
    async def checkpoint_selected(self, event: Timeline.Selected) -> None:
        if not event.moot:
            await self.conversation.show_checkpoint(event.checkpoint, event.is_head)

    @on(Inspector.Forked)
    def forked(self, event: Inspector.Forked) -> None:
        self.conversation.open_thread(event.thread_id)

    @on(Inspector.ReplayRequested)
    def replay_requested(self, event: Inspector.ReplayRequested) -> None:
        self.conversation.replay_from(event.thread_id, event.checkpoint)

    @on(Inspector.ResendRequested)
    def resend_requested(self, event: Inspector.ResendRequested) -> None:
        self.conversation.resend(event.thread_id, event.fork_point, event.text)

    @on(ConnectionIndicator.Restored)
    def server_back(self) -> None:
        self.sidebar.load_threads()
        if self.conversation.rejoin_cut_run():
            return
        if self.conversation.thread_id is not None and not self.conversation.run_in_progress:
            self.conversation.open_thread(self.conversation.thread_id)

    # -- the regions' keys -------------------------------------------------------------------------

    async def action_region(self, region: str, action: str) -> None:
        """A region's key (main_keys.py): its action, run on the region whatever has the focus."""
        if not await self.app.run_action(action, self.regions[region]):
            raise SkipAction()  # (the region's check_action said no, or the action skipped: the key goes on)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A region's key is enabled, shown or hidden as the region's check_action says."""
        if action != "region":
            return super().check_action(action, parameters)
        region_id, region_action = parameters
        region = self.regions.get(str(region_id))
        if region is None:
            return False  # (not composed yet)
        _, name, region_parameters = parse_action(str(region_action))
        return region.check_action(name, region_parameters)

    # -- its own keys: what spans the regions ----------------------------------------------------

    def action_refresh(self) -> None:
        self.sidebar.load_threads()
        if self.conversation.thread_id is not None:  # (its question stays for enter or a: a refresh asks nothing)
            self.conversation.open_thread(self.conversation.thread_id)

    # -- compare side by side, fan out ---------------------------------------------------------------

    def _side(self, state: ThreadState, head: bool) -> Side:
        thread_id = state.thread_id or self.conversation.thread_id or ""
        row = self.sidebar.thread(thread_id)
        title = row.title if row is not None else state.title
        return Side(thread_id, state.checkpoint_id, side_label(title, thread_id, state, head), state, head)

    def _current_side(self) -> Side | None:
        """The open thread at the checkpoint shown (the past view's, else the head)."""
        past = self.inspector.viewing
        thread_id = self.conversation.thread_id
        state = past or self.conversation.thread_state
        if thread_id is None or state is None or (state.thread_id or thread_id) != thread_id:
            return None  # (no thread, or it is still opening: the state shown is the last one's)
        return self._side(state.model_copy(update={"thread_id": thread_id}), head=past is None)

    def _show_pick(self) -> None:
        pick = self.query_one("#compare-pick", Static)
        left = self.compare_left
        pick.display = left is not None
        if left is not None:
            pick.update(
                Content.assemble(
                    ("★ compare: ", "bold $text-warning"),
                    (clean(left.label), "bold"),
                    " is the left side · open the other (a thread or a checkpoint) and press = · = here drops it",
                )
            )

    def action_compare(self) -> None:
        """=: the first press picks the left side; the second (elsewhere) compares. A checkpoint
        marked in the timeline (m) is the left side when none is picked."""
        current = self._current_side()
        if current is None:
            self.notify("Open a thread (and let it load): = picks it, or the checkpoint shown, to compare.", timeout=3)
            return
        left = self.compare_left
        marked = self.inspector.timeline.marked
        if left is None and marked is not None and marked.checkpoint_id != current.checkpoint_id:
            left = self._side(marked.model_copy(update={"thread_id": current.thread_id}), head=False)
        timeline = self.inspector.timeline
        if left is None:
            self.compare_left = current
            if timeline.marked is None:  # the ★ shows the left side; a mark made with m stays the user's
                self._compare_marked = current.checkpoint_id
                timeline.mark(current.checkpoint_id)
            self._show_pick()
            return
        self.compare_left = None
        self._show_pick()
        if self._compare_marked and timeline.marked_id == self._compare_marked:
            timeline.mark("")
        self._compare_marked = ""
        if (left.thread_id, left.checkpoint_id) == (current.thread_id, current.checkpoint_id):
            self.notify("Compare: the left side is dropped.", timeout=2)
            return
        capabilities = self.app.session.live_backend.capabilities
        note = ""
        if not capabilities.past_messages and not (left.head and current.head):
            note = f"{capabilities.name} keeps the messages of the newest checkpoint only: a past side shows none."
        self.app.push_screen(CompareScreen(left, current, note), callback=self._open_side)

    def action_fan_out(self) -> None:
        backend = self.app.session.backend
        current = self._current_side()
        if backend is None or current is None:
            self.notify("Open a thread (and let it load): O fans out from its head or the checkpoint shown.", timeout=3)
            return
        capabilities = backend.capabilities
        lacking = [
            what for can, what in ((capabilities.copy_thread, "copy a thread"), (capabilities.fork, "fork")) if not can
        ]
        if lacking:
            self.notify(
                f"{capabilities.name} cannot fan out: it cannot {' or '.join(lacking)} "
                "(each fork is a copy of the thread, run from the checkpoint).",
                severity="warning",
                timeout=6,
                markup=False,
            )
            return
        target = self.conversation.assistant
        if not target:
            self.notify(
                "Nothing says which graph this thread runs on yet: send it a first message, or pick one with o.",
                severity="warning",
                timeout=5,
            )
            return
        head = self.inspector.viewing is None
        screen = FanOutScreen(
            backend, current, target, self.app.session.run_options, text=self.conversation.composer.text, head=head
        )
        self.app.push_screen(screen, callback=self._open_side)

    def _open_side(self, thread_id: str | None) -> None:
        """A thread chosen in the compare or fan-out screen: highlighted in the list (which opens
        it), or, a fork the list has not loaded, put at its top."""
        if not thread_id:
            return
        threads = self.sidebar.thread_list
        threads.focus()
        if not threads.highlight_thread(thread_id):
            self._open_new_thread(thread_id)

    @work(group="open-side", exit_on_error=False)
    async def _open_new_thread(self, thread_id: str) -> None:
        try:
            summary = await self.app.session.live_backend.get_thread(thread_id)
        except BackendError as error:
            report(self, error, "Opening the fork")
            return
        self.sidebar.insert_thread(summary, open_it=True)


def find_main_screen(app: Any) -> MainScreen | None:
    """The main screen in `app`'s screen stack (under any modals), None before it is pushed."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, MainScreen):
            return screen
    return None
