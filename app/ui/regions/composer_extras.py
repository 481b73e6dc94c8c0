"""What the conversation shows around the composer (a base of Conversation): the run options
(#run-options: o), the files attached
to the next message (#attachments: ctrl+u, ctrl+l, and U for the files sent), the follow-up
questions the server suggests after a reply (#follow-ups: f3), and the tokens the thread used
(in the run status)."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, ClassVar, cast

from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ...artifacts import size_text
from ...backends.base import BackendError, CountsTokens, ListsModels, NotFound, ServesUploads, SuggestsFollowUps, lacks
from ...models import ChatMessage, ServerModel, ThreadState, ThreadSummary
from ...run_options import fields_from_schema
from ...run_target import thread_graph
from ...uploads import Attachment
from ...usage import total_usage, usage_text
from ..report import report
from ..screens.attach import AttachScreen
from ..screens.run_options import RunOptionsScreen
from ..screens.uploads import UploadsScreen
from ..text import clean, one_line, plain
from ..typed_keys import dialog_worker
from ..workers import work

if TYPE_CHECKING:
    from ..app import ThreadbenchApp
    from ..widgets.composer import Composer
    from ..widgets.run_status import RunStatus
    from .runs import Rows

TAKES_NO_FILES = "take files (it has no uploads)"
ATTACHED_KEYS = "   ctrl+l removes the last · ctrl+u attaches another"
FOLLOW_UP_KEYS = "   f3 puts one in the composer"


class ComposerExtras(Vertical):
    app: ThreadbenchApp
    thread_id: str | None
    thread_state: ThreadState | None
    attachments: dict[str | None, list[Attachment]]
    follow_ups: list[str]
    _follow_up: int
    _follow_ups_for: str
    _rows: Rows

    SCREEN_KEYS: ClassVar[list[Binding]] = [
        Binding(
            "o", "run_options", "Run options", id="main.options", tooltip="Run options (assistant, model, thinking…)"
        ),
        Binding(
            "ctrl+u",
            "attach_file",
            "Attach",
            show=False,
            id="main.attach",
            tooltip="Attach a file to the next message (a server that takes files: DeerFlow's Gateway)",
        ),
        Binding(
            "ctrl+l",
            "detach_file",
            "Remove attachment",
            show=False,
            id="main.detach",
            tooltip="Remove the file attached last, before sending",
        ),
        Binding(
            "U",
            "uploads",
            "Uploads",
            show=False,
            id="main.uploads",
            tooltip="Uploads: the files sent to this thread (remove one)",
        ),
        Binding(
            "f3",
            "follow_up",
            "Follow-up",
            show=False,
            id="main.follow_up",
            tooltip="Put the next suggested follow-up question in the composer",
        ),
    ]
    """The keys of the main screen this region acts on (main_keys.py binds them on the screen)."""

    if TYPE_CHECKING:  # what Conversation provides

        @property
        def composer(self) -> Composer: ...
        @property
        def run_status(self) -> RunStatus: ...
        @property
        def run_in_progress(self) -> bool: ...
        @property
        def assistant(self) -> str: ...

    # -- files attached to the next message ------------------------------------------------------

    @property
    def attached(self) -> list[Attachment]:
        return self.attachments.get(self.thread_id, [])

    def show_attachments(self) -> None:
        line = self.query_one("#attachments", Static)
        attached = self.attached
        line.display = bool(attached)
        if attached:
            names = Content("  ").join(
                Content.assemble((clean(item.name), "bold"), (f" {size_text(item.size)}", "dim")) for item in attached
            )
            line.update(
                Content.assemble(
                    ("attached ", "$accent"),
                    names,
                    (ATTACHED_KEYS, "dim italic"),
                )
            )

    @dialog_worker
    async def action_attach_file(self) -> None:
        """ctrl+u: a file to send with the next message, checked against the server's limits."""
        backend = self.app.session.backend
        if backend is None:
            self.notify("The server is not ready yet.", severity="warning", timeout=3)
            return
        if why := lacks(backend, ServesUploads, TAKES_NO_FILES):
            self.notify(why, severity="warning", timeout=4, markup=False)
            return
        uploads = cast(ServesUploads, backend)
        try:  # (the Gateway answers its limits for any thread id, one not made yet too)
            limits = await uploads.upload_limits(self.thread_id or str(uuid.uuid4()))
        except BackendError as error:
            self.app.log_error(f"Reading the upload limits failed: {error}")
            limits = None
        thread_id = self.thread_id
        found = await self.app.push_screen_wait(AttachScreen(list(self.attached), limits))
        if found is None or thread_id != self.thread_id:
            return
        self.attachments.setdefault(thread_id, []).append(found)
        self.show_attachments()
        self.composer.focus()

    def action_detach_file(self) -> None:
        """ctrl+l: the file attached last is no longer sent."""
        attached = self.attached
        if not attached:
            self.notify("No file is attached (ctrl+u attaches one).", timeout=2)
            return
        gone_file = attached.pop()
        self.show_attachments()
        self.notify(f"{gone_file.name} will not be sent.", timeout=2, markup=False)

    def action_uploads(self) -> None:
        """U: the files sent to the open thread, removable."""
        backend = self.app.session.backend
        if backend is None or self.thread_id is None:
            self.notify("Open a thread first: U lists the files sent to it.", severity="warning", timeout=3)
            return
        if why := lacks(backend, ServesUploads, TAKES_NO_FILES):
            self.notify(why, severity="warning", timeout=4, markup=False)
            return
        summary = self._rows.thread(self.thread_id)
        title = (self.thread_state.title if self.thread_state else "") or (
            summary.display_title if summary else self.thread_id
        )
        self.app.push_screen(UploadsScreen(cast(ServesUploads, backend), self.thread_id, title))

    # -- what the server suggests asking next, and the tokens used ----------------------------------

    def clear_follow_ups(self) -> None:
        self.follow_ups, self._follow_up = [], -1
        self.workers.cancel_group(self, "follow-ups")
        self.query_one("#follow-ups").display = False

    def show_follow_ups(self) -> None:
        line = self.query_one("#follow-ups", Static)
        line.display = bool(self.follow_ups)
        if not self.follow_ups:
            return
        questions = Content(" · ").join(
            plain(one_line(question, 100), "bold $accent" if index == self._follow_up else "")
            for index, question in enumerate(self.follow_ups)
        )
        line.update(Content.assemble(("ask next ", "$accent"), questions, (FOLLOW_UP_KEYS, "dim italic")))

    @work(exclusive=True, group="follow-ups", exit_on_error=False, description="follow-ups")
    async def fetch_follow_ups(self, thread_id: str, messages: list[ChatMessage]) -> None:
        """After a reply: the questions the server suggests (DeerFlow's UI asks once a reply)."""
        backend = self.app.session.backend
        replies = [message for message in messages if message.type == "ai"]
        if not isinstance(backend, SuggestsFollowUps) or not replies or replies[-1].id == self._follow_ups_for:
            return
        self._follow_ups_for = replies[-1].id
        model = self.app.session.run_options.context().get("model_name")
        try:
            found = await backend.suggest_follow_ups(thread_id, messages, model if isinstance(model, str) else None)
        except BackendError as error:
            self.app.log_error(f"Asking for follow-up questions failed: {error}")
            return
        if thread_id == self.thread_id and not self.run_in_progress:
            self.follow_ups, self._follow_up = found, -1
            self.show_follow_ups()

    def action_follow_up(self) -> None:
        """f3: the next suggested question in the composer (never over text typed there)."""
        if not self.follow_ups:
            self.notify("No follow-up is suggested (the server suggests them after a reply).", timeout=3)
            return
        text = self.composer.text.strip()
        shown = self.follow_ups[self._follow_up] if self._follow_up >= 0 else ""
        if text and text != shown:
            self.notify("The composer holds your text: send or clear it first (it is kept).", timeout=3)
            return
        self._follow_up = (self._follow_up + 1) % len(self.follow_ups)
        self.composer.show_draft(self.follow_ups[self._follow_up])
        self.composer.focus()
        self.show_follow_ups()

    @work(exclusive=True, group="usage", exit_on_error=False, description="usage")
    async def show_usage(self, thread_id: str, messages: list[ChatMessage], before: set[str] | None = None) -> None:
        """The tokens the thread's messages say they used (and the last run's share, given the
        ids there `before` it), in the run status; not on a server that says it counts none."""
        backend = self.app.session.backend
        if isinstance(backend, CountsTokens):
            try:
                counts = await backend.counts_tokens()
            except BackendError:
                counts = True  # (it did not say: show what the messages carry)
            if not counts:
                return
        if thread_id == self.thread_id:
            total = total_usage(messages)
            run = total_usage(messages, skip=before) if before is not None else None
            self.run_status.show_usage(usage_text(total, run))

    # -- run options -------------------------------------------------------------------------------

    def show_run_options(self) -> None:
        options = self.app.session.run_options
        summary = self._rows.thread(self.thread_id) if self.thread_id else None
        target = self.app.session.assistant_of(summary, self.thread_id)
        self.query_one("#run-options", Static).update(
            Content.assemble(
                ("assistant ", "dim"),
                (clean(target or "?"), "bold"),
                (self._target_note(summary, target), "dim"),
                ("  options ", "dim"),
                clean(options.summary()),
                (f"  as {options.send_as}" if options.send_as != "context" else "", "dim"),
                ("  (o to change)", "dim italic"),
            )
        )

    def _target_note(self, summary: ThreadSummary | None, target: str) -> str:
        """Why runs go to `target` (nothing to say when the user picked it)."""
        if self.app.session.run_options.assistant_id:
            return ""
        if not target:
            return " (asked at the first send)"
        own = thread_graph(summary) or self.app.session.thread_targets.get(self.thread_id or "")
        return " (the thread's)" if own else " (the server's only graph)"

    def action_run_options(self) -> None:
        if self.app.session.backend is not None:
            self.edit_run_options()

    @dialog_worker
    async def edit_run_options(self) -> None:
        app = self.app
        backend = app.session.live_backend
        assistants: list = []
        schema: dict = {}
        note = ""
        target = self.assistant
        try:
            if backend.capabilities.assistants:
                assistants = await backend.list_assistants()
            schemas = await backend.get_schemas(target) if target else {}
            schema = schemas.get("context_schema") or (
                (schemas.get("config_schema") or {}).get("properties", {}).get("configurable") or {}
            )
        except NotFound as error:
            if target in app.session.graphs:  # a graph the server runs, its assistants hidden (DeerFlow's auth)
                note = f"The server shows no assistant of {target}, so the graph's own options could not be read."
            else:
                report(self, error, "Reading the assistant's options")
        except BackendError as error:
            report(self, error, "Reading the assistant's options")
        models: list[ServerModel] = []
        if isinstance(backend, ListsModels):
            try:
                models = await backend.list_models()
            except BackendError as error:
                report(self, error, "Reading the server's models")
        options = await app.push_screen_wait(
            RunOptionsScreen(
                app.session.run_options, fields_from_schema(schema), assistants, app.session.graphs, note, models
            )
        )
        if options is not None:
            app.session.run_options = options
            self.show_run_options()
