"""FanOutScreen (#fanout-view): the same input from one checkpoint, as up to four forks, each
under its own run options, streaming side by side.

First a form: the message (empty from a past checkpoint: a replay) and up to four run-option
sets, one per line as `name=value` words (`-`: no options; an empty line is not run; f2 edits
the focused set in the run options dialog). Then one column per set (#fanout-1 …): each fork
is a copy of the thread (a thread runs one run at a time, and the forks run at once) tagged
with the metadata `fanout_of`, run from the checkpoint the way a resend forks (the run's
checkpoint_id); its reply streams as it comes. 1-4 go to a column, enter opens that fork in the
main screen (the screen dismisses with its thread id), c compares it with the next column.

This screen runs the forks in its workers; the columns only draw.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, Label, Static, TextArea

from ...backends.base import BackendError
from ...compare import OptionSetError, Side, option_set_problem, option_set_text, parse_option_set
from ...models import RunEvent, RunRequest
from ...run_options import OptionField, RunOptions, fields_from_schema
from ...streaming import pump
from ...styles import STYLES
from ..text import clean, one_line
from ..typed_keys import after_typed_keys, dialog_worker
from ..widgets.fanout_column import FanOutColumn
from ..widgets.key_footer import KeyFooter
from ..workers import work
from .compare import CompareScreen
from .run_options import RunOptionsScreen

if TYPE_CHECKING:
    from ...backends.base import Backend

SETS = 4
NONE = "-"
"""A set of no options (the graph's defaults)."""
ASSISTANT = "assistant_id"
"""In a set, not a run option: the assistant or graph that set runs on (else the thread's)."""


def set_label(values: dict[str, Any]) -> str:
    return option_set_text(values) or "no options (defaults)"


class FanOutScreen(Screen[str | None]):
    CSS_PATH = [STYLES / "compare.tcss"]
    BINDINGS = [
        Binding("escape", "close", "Close", id="fanout.close"),
        Binding("ctrl+s", "run", "Run the forks", priority=True, id="fanout.run"),
        Binding(
            "f2", "edit_set", "Edit set", id="fanout.edit", tooltip="Edit the focused set in the run options dialog"
        ),
        *[Binding(str(n), f"column({n})", f"Column {n}", show=False) for n in range(1, SETS + 1)],
        Binding(
            "enter", "open_fork", "Open fork", id="fanout.open", tooltip="Open the focused fork in the main screen"
        ),
        Binding("c", "compare", "Compare", id="fanout.compare", tooltip="Compare the focused fork with the next one"),
    ]

    def __init__(
        self, backend: Backend, base: Side, target: str, options: RunOptions, *, text: str = "", head: bool = True
    ) -> None:
        """`base`: the checkpoint the forks start from (`head`: the thread's head); `target`: the
        graph or assistant they run on; `options`: the run options in use (the first set)."""
        super().__init__()
        self.backend = backend
        self.base = base
        self.target = target
        self.options = options
        self.text = text
        self.head = head
        self.fields: list[OptionField] = fields_from_schema(None)
        self.columns: list[FanOutColumn] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="fanout-view"):
            yield Static(id="fanout-title")
            with VerticalScroll(id="fanout-setup"):
                yield Label("Message: the same for every fork" + ("" if self.head else " (empty: replay from there)"))
                yield TextArea(self.text, id="fanout-input", soft_wrap=True, show_line_numbers=False)
                yield Label("Run options, one set a line: name=value …  (- no options; an empty line is not run)")
                for number in range(1, SETS + 1):
                    with Horizontal(classes="fanout-set"):
                        yield Static(f"{number}", classes="fanout-set-number")
                        yield Input(
                            option_set_text(self.options.values) or NONE if number == 1 else "",
                            placeholder="e.g. model_name=fast reasoning_effort=high",
                            id=f"fanout-set-{number}",
                        )
                yield Static(id="fanout-known")
                yield Static(id="fanout-error", classes="dialog-error")
            yield Horizontal(id="fanout-columns")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#fanout-columns").display = False
        where = "its head" if self.head else f"step {self.base.state.step}"
        self.query_one("#fanout-title", Static).update(
            Content.assemble(
                ("Fan out", "bold"),
                ("  ·  from ", "$text-muted"),
                (clean(self.base.label), "bold"),
                (f"  ·  each set runs as a fork of the thread at {where}, on {clean(self.target)}", "$text-muted"),
                ("\nctrl+s run · f2 edit a set in the run options dialog · esc close", "$text-muted italic"),
            )
        )
        self._show_known()
        self.query_one("#fanout-input").focus()
        self.load_fields()

    @work(group="fanout-schema", exit_on_error=False)
    async def load_fields(self) -> None:
        try:
            schemas = await self.backend.get_schemas(self.target)
        except BackendError:
            return  # the names DeerFlow reads are shown still
        schema = schemas.get("context_schema") or (
            (schemas.get("config_schema") or {}).get("properties", {}).get("configurable") or {}
        )
        self.fields = fields_from_schema(schema)
        if self.is_attached:
            self._show_known()

    def _show_known(self) -> None:
        names = [
            f"{field.name} ({'|'.join(field.choices)})" if field.choices else f"{field.name} ({field.kind})"
            for field in self.fields
        ]
        self.query_one("#fanout-known", Static).update(
            Content.styled(
                "options known here (the graph's schema, then DeerFlow's): "
                + clean(", ".join(names))
                + f"\n{ASSISTANT}=… runs that set on another assistant or graph (else {clean(self.target)})",
                "$text-muted",
            )
        )

    def _error(self, text: str) -> None:
        self.query_one("#fanout-error", Static).update(Content.styled(clean(text), "$text-error"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The form's keys before the run, the columns' keys after."""
        if action in ("run", "edit_set"):
            return not self.columns
        if action in ("column", "open_fork", "compare"):
            return bool(self.columns)
        return True

    # -- the form ------------------------------------------------------------------------------

    def _sets(self) -> list[dict[str, Any]] | None:
        """The sets typed (None, with the mistake said and the cursor on it, if one is wrong)."""
        sets: list[dict[str, Any]] = []
        for number in range(1, SETS + 1):
            box = self.query_one(f"#fanout-set-{number}", Input)
            text = box.value.strip()
            if not text:
                continue
            try:
                values = {} if text == NONE else parse_option_set(text)
            except OptionSetError as error:
                values, problem = {}, str(error)
            else:
                problem = option_set_problem(values, self.fields)
            if problem:
                self._error(f"Set {number}: {problem}")
                box.focus()
                return None
            sets.append(values)
        if not sets:
            self._error("Type at least one set of run options (- for none): an empty line is not run.")
            self.query_one("#fanout-set-1", Input).focus()
            return None
        return sets

    @after_typed_keys
    def action_run(self) -> None:
        if self.columns:
            return
        text = self.query_one("#fanout-input", TextArea).text.strip()
        if not text and self.head:
            self._error("Type the message to send: from the head there is nothing to replay.")
            self.query_one("#fanout-input").focus()
            return
        sets = self._sets()
        if sets is None:
            return
        self.text = text
        self.query_one("#fanout-setup").display = False
        self.query_one("#fanout-columns").display = True
        self.start(sets)

    @work(group="fanout-start")
    async def start(self, sets: list[dict[str, Any]]) -> None:
        self.columns = [
            FanOutColumn(number, set_label(values), id=f"fanout-{number}") for number, values in enumerate(sets, 1)
        ]
        await self.query_one("#fanout-columns").mount_all(self.columns)
        what = f'"{one_line(self.text, 60)}"' if self.text else "a replay"
        self.query_one("#fanout-title", Static).update(
            Content.assemble(
                ("Fan out", "bold"),
                ("  ·  ", "$text-muted"),
                (clean(what), "bold"),
                ("  from ", "$text-muted"),
                (clean(self.base.label), "bold"),
                (f"  ·  {len(sets)} forks", "$text-muted"),
                ("\n1-4 go to a fork · enter open it · c compare it with the next · esc close", "$text-muted italic"),
            )
        )
        self.columns[0].focus()
        for column, values in zip(self.columns, sets, strict=True):
            self.run_fork(column, values)

    async def action_edit_set(self) -> None:
        box = self.focused
        if not isinstance(box, Input) or not (box.id or "").startswith("fanout-set-"):
            self.notify("Go to a set of run options first (tab).", timeout=3)
            return
        self.edit_set(box)

    @dialog_worker
    async def edit_set(self, box: Input) -> None:
        try:
            values = {} if box.value.strip() in ("", NONE) else parse_option_set(box.value)
        except OptionSetError as error:
            self._error(str(error))
            return
        assistant = values.pop(ASSISTANT, "")
        options = RunOptions(assistant_id=str(assistant), values=values, send_as=self.options.send_as)
        session = getattr(self.app, "session", None)  # (none in a test's bare app)
        graphs = list(session.graphs if session is not None else []) or [self.target]
        edited = await self.app.push_screen_wait(RunOptionsScreen(options, self.fields, [], graphs))
        if edited is not None:
            picked = {ASSISTANT: edited.assistant_id} if edited.assistant_id else {}
            box.value = option_set_text({**picked, **edited.values}) or NONE

    # -- the forks -----------------------------------------------------------------------------

    def _request(self, values: dict[str, Any]) -> RunRequest:
        send_as = self.options.send_as
        values = dict(values)
        assistant = values.pop(ASSISTANT, None)
        return RunRequest(
            assistant_id=str(assistant) if assistant not in (None, True, "") else self.target,
            input={self.base.state.messages_key: [{"type": "human", "content": self.text, "id": str(uuid.uuid4())}]}
            if self.text
            else None,
            context=values if send_as == "context" else {},
            configurable=values if send_as == "configurable" else {},
            checkpoint_id=None if self.head else self.base.checkpoint_id,
            stream_modes=["messages-tuple", "updates", "values"],
            multitask_strategy="reject",
        )

    @work(group="fanout", exit_on_error=False)
    async def run_fork(self, column: FanOutColumn, values: dict[str, Any]) -> None:
        backend = self.backend
        clock = self.app.monotonic  # type: ignore[attr-defined]
        column.set_status("copying", "the thread, for this fork")
        try:
            copy = await backend.copy_thread(self.base.thread_id)
            column.thread_id = copy.thread_id
            await backend.update_metadata(
                copy.thread_id, {"fanout_of": self.base.thread_id, "fanout_options": set_label(values)}
            )
        except BackendError as error:
            column.set_status("failed", f"copying the thread: {error.with_hint()}")
            return
        column.set_status("running", "")
        began = clock()
        shown: set[str] = set()
        streamed: set[str] = set()
        failure = ""
        asked = False
        last_message = ""

        async def apply(batch: list[RunEvent], count: int) -> None:
            nonlocal failure, last_message, asked
            for event in batch:
                if event.kind == "token" and event.message_type in ("ai", "AIMessageChunk", ""):
                    streamed.add(event.message_id)
                    new = event.message_id != last_message
                    last_message = event.message_id
                    await column.append(event.text, paragraph=new)
                    for chunk in event.tool_call_chunks:
                        if chunk.name and (key := f"{event.message_id}:{chunk.index}") not in shown:
                            shown.add(key)
                            await column.append(f"`→ {chunk.name}`", paragraph=True)
                elif event.kind == "message" and event.message is not None and event.message.type == "tool":
                    message = event.message
                    await column.append(f"> {message.name or 'tool'}: {one_line(message.text, 160)}", paragraph=True)
                    last_message = ""
                elif event.kind == "message" and event.message is not None and event.message.type == "ai":
                    message = event.message  # a node that returns its reply whole, without tokens
                    if message.id not in streamed and not message.hidden:
                        streamed.add(message.id)
                        await column.append(message.text, paragraph=True)
                        last_message = ""
                elif event.kind == "interrupt":
                    asked = True
                elif event.kind == "error":
                    failure = event.text or "the run failed"

        try:
            await pump(backend.stream_run(copy.thread_id, self._request(values)), apply)
        except BackendError as error:
            failure = error.with_hint()
        seconds = clock() - began
        try:
            column.final = await backend.get_state(copy.thread_id)
        except BackendError:
            column.final = None
        if column.final is not None:  # what the stream did not carry (a server that sends no messages mode)
            known = {m.id for m in self.base.state.messages}
            for message in column.final.messages:
                if (
                    message.type == "ai"
                    and message.id not in known
                    and message.id not in streamed
                    and not message.hidden
                ):
                    await column.append(message.text, paragraph=True)
        await column.finish()
        if failure:
            column.set_status("failed", failure)
            return
        if asked:
            column.set_status("asking", "the agent asks a question: enter opens the fork to answer it")
            return
        count = len(column.final.messages) if column.final is not None else 0
        column.set_status("done", f"{seconds:.1f} s · {count} messages · enter opens it")

    # -- after -------------------------------------------------------------------------------

    def _focused_column(self) -> FanOutColumn | None:
        node = self.focused
        while node is not None and not isinstance(node, FanOutColumn):
            node = node.parent  # type: ignore[assignment]
        return node

    def action_column(self, number: int) -> None:
        index = number - 1
        if 0 <= index < len(self.columns):
            self.columns[index].focus()

    def action_open_fork(self) -> None:
        column = self._focused_column()
        if column is None:
            return
        if column.thread_id is None:
            self.notify("This fork was not made.", severity="warning", timeout=3)
            return
        self.dismiss(column.thread_id)

    def action_compare(self) -> None:
        column = self._focused_column()
        if column is None or len(self.columns) < 2:
            self.notify("Compare needs two forks.", timeout=3)
            return
        other = self.columns[(self.columns.index(column) + 1) % len(self.columns)]
        sides = []
        for each in (column, other):
            if each.final is None or each.thread_id is None:
                self.notify(f"Fork {each.number} has not finished.", severity="warning", timeout=3)
                return
            label = f"fork {each.number}: {each.options_text}"
            sides.append(Side(each.thread_id, each.final.checkpoint_id, label, each.final))
        self.app.push_screen(CompareScreen(sides[0], sides[1]), callback=self._compared)

    def _compared(self, thread_id: str | None) -> None:
        if thread_id:
            self.dismiss(thread_id)

    def action_close(self) -> None:
        if any(column.status in ("queued", "copying", "running") for column in self.columns):
            self.notify(
                "The forks go on running on the server; they are tagged fanout_of in their metadata.", timeout=5
            )
        self.dismiss(None)
