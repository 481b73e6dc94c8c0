"""The conversation (#chat-pane): the header (#chat-header), the chat (#chat-log), the run
status (#run-status, beside the connection indicator), the run options (#run-options), the
follow-ups the server suggested (#follow-ups), the files attached to the next message
(#attachments) and the composer (#composer).

It owns the open thread: opening it (and the drafts of the others), sending a message to the
right graph (asking which when nothing says), answering the agent, cancelling a run, the run
options and the servers' extras (10xGraph). Runs, streaming and cancelling are in runs.py (its
base), what is around the composer in composer_extras.py (the base of that), the screens of
the server's objects and the servers' extras in objects.py (its other base).
The screen gives it the thread browser's rows and the inspector with `attach()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass
from typing import ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ...backends.base import (
    BackendError,
    NotFound,
    ServesUploads,
    graphs_in_refusal,
    lacks,
)
from ...human_input import HumanResponse, PendingInput, answer_submitter, build_answer, detect_pending
from ...models import ChatMessage, ThreadState, ThreadSummary
from ...run_target import server_graphs, thread_graph
from ...thread_ops import GONE, is_gone, state_detail
from ...uploads import Attachment
from ..report import gone, report
from ..screens.human_input import HumanInputScreen
from ..screens.inbox import InboxScreen
from ..screens.pick_graph import PickGraphScreen
from ..text import clean, one_line
from ..typed_keys import dialog_worker
from ..widgets.chat_find import ChatFind
from ..widgets.chat_log import ChatLog
from ..widgets.composer import Composer
from ..widgets.run_status import RunStatus
from ..workers import work
from .composer_extras import TAKES_NO_FILES
from .objects import ObjectScreens
from .runs import ConversationRuns, Rows, StateView

NO_THREAD = "no thread open"
PAINT_WAIT = 0.5
"""Seconds an opened thread waits for its first paint at most (a full collection waits with it)."""


class Conversation(ConversationRuns, ObjectScreens):
    @dataclass
    class Gone(Message):
        """The server no longer has this thread: the screen drops it everywhere."""

        thread_id: str

    SCREEN_KEYS: ClassVar[list[Binding]] = [
        Binding("i", "focus_composer", "Compose", show=False, id="main.compose", tooltip="Go to the composer"),
        Binding("a", "answer", "Answer", show=False, id="main.answer", tooltip="Answer the agent's question"),
        Binding("w", "inbox", "Inbox", id="main.inbox", tooltip="Inbox: threads waiting for you"),
        Binding(
            "ctrl+f",
            "find",
            "Find",
            priority=True,  # (the composer's and the search box's own ctrl+f deletes a word)
            id="main.find",
            tooltip="Find words in the open thread (the chat's find bar), from anywhere",
        ),
    ]
    """The keys of the main screen this region acts on (main_keys.py binds them on the screen)."""

    def __init__(self, status_extra: Widget | None = None, **kwargs) -> None:
        """`status_extra` sits at the end of the status row (the connection indicator)."""
        super().__init__(**kwargs)
        self._status_extra = status_extra
        self.thread_id: str | None = None
        self.thread_state: ThreadState | None = None
        self.drafts: dict[str, str] = {}
        self.answer_drafts: dict[str, dict] = {}
        """What was typed in answers left for later (escape), by question (PendingInput.key)."""
        self.opens = 0
        """Counts thread opens, so a status poll that began before an open drops its stale row."""
        self.attachments: dict[str | None, list[Attachment]] = {}
        """The files attached to the next message, by thread (None: no thread open yet)."""
        self.follow_ups: list[str] = []
        """The questions the server suggested after the last reply (f3 puts one in the composer)."""
        self._follow_up = -1
        """The one f3 put in the composer last."""
        self._follow_ups_for = ""
        """The id of the reply they were asked for (asked once a reply)."""

    def compose(self) -> ComposeResult:
        yield Static(id="chat-header")
        yield ChatLog(id="chat-log", inset=1)  # (its left padding: a drag from it selects from its line)
        yield ChatFind(id="chat-find")
        with Horizontal(id="status-row"):
            yield RunStatus(id="run-status")
            if self._status_extra is not None:
                yield self._status_extra
        yield Static(id="run-options")
        yield Static(id="follow-ups")
        yield Static(id="attachments")
        yield Composer(id="composer")

    def attach(self, rows: Rows, inspector: StateView) -> None:
        self._rows = rows
        self._inspector = inspector

    def on_mount(self) -> None:
        self.query_one("#chat-header", Static).update(Content.styled(NO_THREAD, "dim"))
        self.query_one("#follow-ups").display = False
        self.query_one("#attachments").display = False

    # -- finding in the thread ---------------------------------------------------------------------

    _before_find: Widget | None = None
    """What had the focus when ctrl+f opened the find bar: escape goes back to it."""

    def on_finds_in_thread_find_requested(self, event: ChatLog.FindRequested) -> None:
        self.action_find()

    def action_find(self) -> None:
        """ctrl+f, wherever the focus is on the screen: the find bar, in the chat."""
        finder = self.query_one(ChatFind)
        focused = self.screen.focused
        if focused is not None and finder not in focused.ancestors_with_self:
            self._before_find = focused
        finder.open()

    def on_chat_find_changed(self, event: ChatFind.Changed) -> None:
        count = self.chat.find(event.query)
        self.query_one(ChatFind).show_count(0, count)

    def on_chat_find_step(self, event: ChatFind.Step) -> None:
        self.chat.action_find_next(event.step)

    def on_finds_in_thread_find_moved(self, event: ChatLog.FindMoved) -> None:
        self.query_one(ChatFind).show_count(event.current, event.count)

    def on_chat_find_closed(self, event: ChatFind.Closed) -> None:
        """Escape: the marks go, and the focus goes back to where ctrl+f was pressed."""
        self.chat.find("")
        back, self._before_find = self._before_find, None
        if back is not None and back.is_attached and back.focusable:
            back.focus()
        else:
            self.chat.focus()

    @property
    def chat(self) -> ChatLog:
        return self.query_one("#chat-log", ChatLog)

    @property
    def composer(self) -> Composer:
        return self.query_one("#composer", Composer)

    @property
    def run_status(self) -> RunStatus:
        return self.query_one("#run-status", RunStatus)

    def action_focus_composer(self) -> None:
        self.composer.focus()

    @property
    def composer_idle(self) -> bool:
        """The composer has the focus and nothing typed."""
        return self.composer.has_focus and not self.composer.text

    # -- opening a thread ------------------------------------------------------------------------

    def _save_draft(self) -> None:
        if self.thread_id is not None:
            text = self.composer.text
            if text.strip():
                self.drafts[self.thread_id] = text
            else:
                self.drafts.pop(self.thread_id, None)

    @work(exclusive=True, group="open")
    async def open_thread(self, thread_id: str, ask: bool = False) -> None:
        """Show the thread; `ask`: the person pressed enter on it, so its question opens too
        (a refresh, a reconnect or any other reopening only says that it waits)."""
        backend = self.app.session.backend
        if backend is None:
            return
        self.workers.cancel_group(self, "run")
        self.opens += 1
        if thread_id != self.thread_id:  # (the same thread again: what is being typed stays as it is)
            self.clear_follow_ups()
            self.run_status.reset()
            if self.thread_id is None and None in self.attachments and thread_id not in self.attachments:
                self.attachments[thread_id] = self.attachments.pop(None)  # (attached with no thread open: kept)
            self._save_draft()
            if self.thread_id is not None or thread_id in self.drafts:
                self.composer.show_draft(self.drafts.get(thread_id, ""))
            # (else: text typed with no thread open, e.g. after its thread was deleted, stays)
        self.thread_id = thread_id
        self.show_attachments()
        try:  # the row's status may be stale: a run may have started since the list loaded
            summary, state = await asyncio.gather(backend.get_thread(thread_id), backend.get_state(thread_id))
        except NotFound as error:
            report(self, error, "Opening the thread", GONE)
            self.post_message(self.Gone(thread_id))
            return
        except BackendError as error:
            report(self, error, "Opening the thread")
            return
        if self.thread_id != thread_id:
            return
        # a fresh copy has no values on its row yet, but its state does (and else the row
        # keeps the title it has: update_thread); a graph that keeps its messages under a key
        # of its own has no first words on its row (the list asks the server for messages[0])
        summary.title = summary.title or state.title or state.first_words
        self._rows.update_thread(summary)
        # A full collection waits from the server's answer until the thread is painted (one
        # that came between them added 70 ms to a 10,000-message thread's open); not while
        # the server is asked: threads opened one after another would hold it off for good.
        with self.app.collector.busy():
            await self.show_state(state, summary)
            painted = asyncio.Event()
            self.call_after_refresh(painted.set)
            # (bounded: Textual runs the callback on the screen on top as it is handed over,
            # and a dialog closed before its next frame never runs it)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(painted.wait(), PAINT_WAIT)
        self.show_usage(thread_id, state.messages)
        # after the chat is painted: a page of checkpoints can weigh more than the chat
        self._inspector.load_history(thread_id)
        self._inspector.load_graph(state, self.assistant_for(state.thread_id or None))
        if summary is not None and summary.status == "busy" and backend.capabilities.join_stream:
            self.join_run(thread_id)
            return
        pending = detect_pending(state, summary.status if summary else None)
        self.run_status.end("waiting" if pending else "paused" if state.next else "idle", state_detail(state, pending))
        if pending and ask:
            self.ask_human(thread_id, pending)

    async def show_state(self, state: ThreadState, summary: ThreadSummary | None = None) -> None:
        self.thread_state = state
        self.show_header(state, summary)
        await self.chat.show_messages(state.messages)
        self._inspector.show_state(state)

    def show_header(self, state: ThreadState, summary: ThreadSummary | None) -> None:
        title = state.title or (summary.display_title if summary else state.thread_id)
        status = summary.phase if summary else ""  # (as the thread's row says it: waiting, paused)
        graph = (summary.graph_id if summary else "") or self.app.session.assistant_of(summary, state.thread_id)
        header = Content.assemble(
            (one_line(title, 60), "bold"),
            (" · " + status if status else "", "dim"),
            (" · " + clean(graph), "dim"),
            (f" · {len(state.messages)} messages", "dim"),
        )
        self.query_one("#chat-header", Static).update(header)
        self.show_run_options()

    async def show_checkpoint(self, checkpoint: ThreadState, is_head: bool) -> None:
        """Show the conversation as it was at that checkpoint (or the live head again)."""
        if is_head:
            if self.thread_state is not None:
                await self.chat.show_messages(self.thread_state.messages)
            return
        capabilities = self.app.session.live_backend.capabilities
        what = f"{len(checkpoint.messages)} messages"
        keys = "g: back to the live head · F: fork here · p: replay from here · e: edit and fork"
        if not capabilities.past_messages:
            what = f"{capabilities.name} keeps the messages of the newest checkpoint only"
            keys = "g: back to the live head"
        where = [f"step {checkpoint.step}" if checkpoint.step is not None else "", clean(checkpoint.source), what]
        notice = Content.assemble(
            ("◷ past view ", "bold $warning"),
            (" · ".join(part for part in where if part), "dim"),
            (f"   {keys}", "dim italic"),
        )
        await self.chat.show_messages(checkpoint.messages, notice=notice)

    async def forget(self, thread_id: str) -> bool:
        """The server no longer has this thread: if it is open, show none (the composer keeps
        its text). True if it was open."""
        if self.thread_id != thread_id:
            return False
        self.workers.cancel_group(self, "row")  # its answer is about the thread gone
        self.thread_id = None
        self.thread_state = None
        self.attachments.pop(thread_id, None)
        self.show_attachments()
        self.clear_follow_ups()
        self.run_status.show_usage("")
        await self.chat.show_messages([])
        self.query_one("#chat-header", Static).update(Content.styled(NO_THREAD, "dim"))
        self.run_status.end("idle")
        self.show_run_options()
        return True

    async def welcome(self) -> None:
        """No thread on the server yet: say what to type, and where it goes."""
        app = self.app
        target = app.session.assistant_of(None)
        lines: list[Content | str] = [
            Content.styled("Welcome to Threadbench.", "bold"),
            "Type a message below and press enter: it starts a new thread"
            + (f" on {clean(target)}." if target else "."),
        ]
        if app.settings.embedded and not (app.settings.graph or app.settings.config):
            lines.append(
                Content.assemble(
                    "The demo agent answers these words: ",
                    ("hello · clarify · approve · plan · research · long · think · markup", "bold"),
                    " (several combine).",
                )
            )
        lines.append(
            Content.styled("n new thread with options · o run options · f1 every key · ctrl+p commands", "dim")
        )
        await self.chat.show_welcome(Content("\n").join(lines))

    # -- sending -----------------------------------------------------------------------------------

    def submit(self, text: str) -> None:
        """The composer's text: send it, unless the server is not ready or a run streams."""
        if self.app.session.backend is None:
            self.notify("The server is not ready yet; your message is kept.", severity="warning")
            return
        if self.run_in_progress:
            self.notify(
                "A run is in progress: wait for it or cancel it (ctrl+g). Your message is kept.", severity="warning"
            )
            return
        self.send_message(text)

    @work(exclusive=True, group="run")
    async def send_message(self, text: str) -> None:
        backend = self.app.session.live_backend
        thread_id = self.thread_id
        target = await self.run_target(thread_id)
        if target is None:
            return  # the user would not say which graph: the message stays in the composer
        files = list(self.attachments.get(thread_id, []))
        try:
            if thread_id is None:
                thread_id = await self._create_for_message(target)
                if files:
                    self.attachments[thread_id] = self.attachments.pop(None, files)
        except BackendError as error:
            report(self, error, "Creating a thread")
            return
        message_id = str(uuid.uuid4())
        message: dict = {"type": "human", "content": text, "id": message_id}
        if files:
            uploaded = await self._upload(thread_id, files)
            if uploaded is None:
                return  # said; the message and the files stay
            message = cast(ServesUploads, backend).human_message(text, uploaded, message_id)
        request = self._run_request(thread_id, {await self.messages_key_for(thread_id, target): [message]})
        human = ChatMessage(id=message_id, type="human", text=text)
        if await self.stream_into_chat(backend.stream_run(thread_id, request), thread_id, "Sending", echo=human):
            self.drafts.pop(thread_id, None)
            if files:
                self.attachments.pop(thread_id, None)
                self.show_attachments()
        elif (refusal := self._wrong_graph) is not None:
            self._wrong_graph = None
            if await self._repick_graph(thread_id, refusal):
                self.send_message(text)
        elif await is_gone(backend, thread_id):
            self.notify(
                f"The thread is no longer on the server. {GONE} "
                "Your message is kept: press enter to send it in a new thread.",
                severity="warning",
                timeout=10,
                markup=False,
            )
            self.post_message(self.Gone(thread_id))

    async def _upload(self, thread_id: str, files: list[Attachment]) -> list | None:
        """Each attached file sent to the thread, in order (what the server says of each);
        None, and why said, if one could not be: nothing is sent, the message and files stay."""
        backend = self.app.session.live_backend
        if not isinstance(backend, ServesUploads) or lacks(backend, ServesUploads, TAKES_NO_FILES):
            self.notify(lacks(backend, ServesUploads, TAKES_NO_FILES) + " Nothing was sent.", severity="warning")
            return None
        uploaded = []
        for number, item in enumerate(files, 1):
            self.run_status.show("running", f"uploading {item.name} ({number} of {len(files)})")
            try:
                uploaded.append(await backend.upload(thread_id, item.path))
            except BackendError as error:
                report(self, error, f"Uploading {item.name}")
            except OSError as error:
                self.notify(f"Could not read {item.path}: {error.strerror or error}", severity="error", markup=False)
            else:
                continue
            self.run_status.end("error", f"{item.name} was not uploaded; the message and the files are kept")
            return None
        return uploaded

    async def run_target(self, thread_id: str | None) -> str | None:
        """The assistant or graph a new run on this thread (None: a new thread) goes to;
        asks the user when the server runs several graphs and nothing says which."""
        app = self.app
        backend = app.session.live_backend
        target = self.assistant_for(thread_id)
        if target or not backend.capabilities.assistants:
            return target
        if not app.session.graphs:
            await self.learn_graphs().wait()
            if target := self.assistant_for(thread_id):
                return target
        reason = (
            f"The server runs {len(app.session.graphs)} graphs and this thread has not run yet."
            if app.session.graphs_complete
            else "The server hides its assistants; these graphs were seen on its threads."
            if app.session.graphs
            else "The server lists no graphs (its assistants are hidden)."
        )
        picked = await app.push_screen_wait(PickGraphScreen(app.session.graphs, reason))
        if picked and thread_id:
            app.session.thread_targets[thread_id] = picked
        return picked

    async def _repick_graph(self, thread_id: str, refusal: BackendError) -> bool:
        """The server refused the run's graph: ask for another (its refusal lists its
        graphs); True if the user picked one for this thread."""
        app = self.app
        if graphs := graphs_in_refusal(refusal.message):
            app.session.graphs, app.session.graphs_complete = graphs, True
        app.session.thread_targets.pop(thread_id, None)
        target = await app.push_screen_wait(PickGraphScreen(app.session.graphs, refusal.message))
        if not target:
            self.notify("Nothing was sent; your message is kept.", timeout=4)
            return False
        if app.session.run_options.assistant_id:  # the pick that the server refused
            app.session.run_options.assistant_id = ""
            self.show_run_options()
        app.session.thread_targets[thread_id] = target
        return True

    async def _create_for_message(self, target: str) -> str:
        """A new thread for the first message (no thread open); returns its id."""
        app = self.app
        backend = app.session.live_backend
        graph_id = target if target in app.session.graphs else None
        summary = await backend.create_thread(graph_id=graph_id)
        thread_id = summary.thread_id
        if target:
            app.session.thread_targets[thread_id] = target
        self.thread_id = thread_id  # first: the row highlighted next is then already open
        self._rows.insert_thread(summary, open_it=False)
        await self.chat.show_messages([])
        self.show_header(ThreadState(thread_id=thread_id), summary)
        return thread_id

    @work(exclusive=True, group="graphs", exit_on_error=False)
    async def learn_graphs(self) -> None:
        """What graphs the server runs (for new threads, the pickers and the options)."""
        app = self.app
        backend = app.session.backend
        if backend is None or not backend.capabilities.assistants:
            return
        try:
            graphs, complete = await server_graphs(backend)
        except BackendError as error:
            app.log_error(f"Listing the server's graphs failed: {error}")
            return
        if graphs and not gone(self) and not app.session.graphs_complete:
            app.session.graphs, app.session.graphs_complete = graphs, complete
            self.show_run_options()
            if self.thread_id is None and self.chat.shows_welcome:
                await self.welcome()  # it can now say where a first message goes

    # -- answering the agent -----------------------------------------------------------------------

    @work(group="modal", exclusive=True)
    async def ask_human(self, thread_id: str, pending: list[PendingInput]) -> None:
        """Show the agent's question; the answer's run streams into the chat."""
        app = self.app
        backend = app.session.backend
        if backend is None or thread_id != self.thread_id or not pending:
            return
        summary = self._rows.thread(thread_id)
        said = ""
        send = answer_submitter(
            backend,
            thread_id,
            lambda events: self.stream_answer(events, thread_id, said),
            assistant_id=thread_graph(summary) or app.session.assistant_of(summary, thread_id),
            context=app.session.run_options.context(),
        )

        async def submit(asked: PendingInput, response: HumanResponse) -> str | None:
            nonlocal said
            answer = build_answer(asked, response)  # (checked by the dialog already)
            # An answer to an interrupt is kept in no message the chat shows: it is said there.
            said = answer.text if answer.mode == "resume" else ""
            return await send(asked, response)

        title = summary.display_title if summary else thread_id
        position = (1, len(pending)) if len(pending) > 1 else None
        answer = await app.push_screen_wait(
            HumanInputScreen(
                pending[0], submit=submit, thread_title=title, position=position, drafts=self.answer_drafts
            )
        )
        if answer is None:
            self._rows.mark_waiting(thread_id, True)
            self.run_status.end("waiting", "for your answer (a to answer)")

    def action_answer(self) -> None:
        """a: the agent's question again (or why there is none)."""
        if self.thread_id is None:
            self.notify("Open a thread first.", severity="warning", timeout=2)
            return
        summary = self._rows.thread(self.thread_id)
        state = self.thread_state
        pending = detect_pending(state, summary.status if summary else None) if state is not None else []
        if not pending:
            paused = f" It is paused before {', '.join(state.next)}: nothing is asked." if state and state.next else ""
            self.notify(f"The agent is not waiting for an answer on this thread.{paused}", timeout=4, markup=False)
            return
        self.ask_human(self.thread_id, pending)

    def action_inbox(self) -> None:
        if self.app.session.backend is not None:
            self.open_inbox()

    @dialog_worker
    async def open_inbox(self) -> None:
        app = self.app
        backend = app.session.live_backend
        thread_id = await app.push_screen_wait(
            InboxScreen(
                backend,
                assistant_of=lambda thread: thread_graph(thread) or app.session.assistant_of(thread),
                context=app.session.run_options.context(),
                on_answered=self._answered_elsewhere,
                drafts=self.answer_drafts,
            )
        )
        if thread_id:
            self.open_thread(thread_id)  # (o: to look at it; enter or a answers)
