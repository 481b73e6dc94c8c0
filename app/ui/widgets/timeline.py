"""The checkpoint timeline (#timeline): one row per checkpoint, newest first, paged.

    ★● 12 loop   title       10 01:03:29
     ◆  2 loop   agent        3 01:03:27      ◆ a branch point (more than one child)
     │● 3 fork   ─            3 01:03:28      fork: a later child of a branch point

The widget never calls the network. It posts:
- Timeline.Selected(checkpoint, parent, is_head) when the cursor moves to another
  checkpoint (keys, mouse, select_older/select_newer); is_head means "back to live";
  `moot` once the cursor has moved on again (handlers skip it: a held key stays responsive).
  A caller that moves the cursor can take the selection at once instead (take_selection)
  and show it in the same frame; then no message is posted.
- Timeline.NeedMore(before_checkpoint_id) when the cursor nears the end of what is loaded
  and the server has more: answer with append_checkpoints(page, exhausted).
- Timeline.Marked(checkpoint | None) when m marks (or unmarks) a checkpoint for a two-way diff.
- Timeline.NoTurn(older) when select_turn finds no human turn that way.

select_turn(older) jumps to the previous or next checkpoint where a human turn starts; when
the previous one lies beyond the loaded rows it asks for older pages (NeedMore) and jumps
once they arrive.

Rows come from app.timeline.TimelineModel (branch counts, fork detection, writers, lanes).
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...models import ThreadState
from ...timeline import NEED_OLDER, TimelineModel, TimelineRow
from ..text import clean

NEED_MORE_MARGIN = 5
"""Ask for the next page when the cursor is this close to the last loaded row."""
DISPLAY_TZ: tzinfo | None = None
"""Time zone of the time column (None: local). Tests set UTC."""
WRITER_WIDTH = 10
SOURCE_STYLES = {
    "input": "$text-accent",
    "loop": "$text-muted",
    "update": "$text-warning",
    "fork": "bold $text-success",
}
MORE_ID = "timeline-more"


def clock_time(moment: datetime | None) -> str:
    if moment is None:
        return "--:--:--"
    return moment.astimezone(DISPLAY_TZ).strftime("%H:%M:%S")


def row_content(row: TimelineRow, lane_width: int, marked: bool, head: bool) -> Content:
    lanes = row.lanes.ljust(lane_width)
    lane_styles = []
    for char in lanes:
        if char == "◆":
            lane_styles.append((char, "bold $text-warning"))
        elif char == "●":
            lane_styles.append((char, "bold $text-accent" if head else "$text-accent"))
        else:
            lane_styles.append((char, "$text-muted"))
    step = "" if row.step is None else str(row.step)
    writers = ",".join(row.writers) or "─"
    if len(writers) > WRITER_WIDTH:
        writers = writers[: WRITER_WIDTH - 1] + "…"
    source = row.source or "?"
    return Content.assemble(
        ("★" if marked else " ", "bold $text-warning"),
        *lane_styles,
        (f" {step:>3} ", "bold" if head else ""),
        (f"{clean(source)[:6]:<6} ", SOURCE_STYLES.get(source, "")),
        (f"{clean(writers):<{WRITER_WIDTH}} ", ""),
        (f"{row.message_count:>4} ", "$text-muted"),
        (clock_time(row.created_at), "$text-muted"),
    )


def columns_content(lane_width: int) -> Content:
    return Content.styled(
        " " + " " * lane_width + f" {'stp':>3} {'source':<6} {'node':<{WRITER_WIDTH}} {'msgs':>4} {'time':<8}",
        "$text-muted",
    )


class Timeline(Vertical, can_focus=False):
    BINDINGS = [
        Binding("m", "mark", "Mark (diff)", id="timeline.mark"),
    ]

    class Selected(Message):
        """The cursor moved to `checkpoint`; `parent` is its parent if loaded."""

        def __init__(
            self, timeline: Timeline, checkpoint: ThreadState, parent: ThreadState | None, is_head: bool
        ) -> None:
            super().__init__()
            self.timeline = timeline
            self.checkpoint = checkpoint
            self.parent = parent
            self.is_head = is_head

        @property
        def control(self) -> Timeline:
            return self.timeline

        @property
        def moot(self) -> bool:
            """The cursor has moved on since (a held key): the next Selected says where to;
            showing this one would only delay it."""
            return self.checkpoint is not self.timeline.selected

    class NeedMore(Message):
        """Load the page of checkpoints older than `before_checkpoint_id`."""

        def __init__(self, timeline: Timeline, before_checkpoint_id: str) -> None:
            super().__init__()
            self.timeline = timeline
            self.before_checkpoint_id = before_checkpoint_id

        @property
        def control(self) -> Timeline:
            return self.timeline

    class Marked(Message):
        """`checkpoint` was marked for a two-way diff (None: the mark was removed)."""

        def __init__(self, timeline: Timeline, checkpoint: ThreadState | None) -> None:
            super().__init__()
            self.timeline = timeline
            self.checkpoint = checkpoint

        @property
        def control(self) -> Timeline:
            return self.timeline

    class NoTurn(Message):
        """select_turn found no human turn older (or newer) than the cursor."""

        def __init__(self, timeline: Timeline, older: bool) -> None:
            super().__init__()
            self.timeline = timeline
            self.older = older

        @property
        def control(self) -> Timeline:
            return self.timeline

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.model = TimelineModel()
        self._turn_pending = False
        """An older human turn was asked for and lies beyond the loaded rows."""
        self.marked_id: str = ""
        self.reason = ""
        self._announced = ""
        self._waiting = False
        self._lane_width = 1

    def compose(self) -> ComposeResult:
        yield Static(id="timeline-header")
        yield Static(columns_content(1), id="timeline-columns")
        yield OptionList(id="timeline-list")
        yield Static(id="timeline-reason")

    def on_mount(self) -> None:
        self._update_header()
        self.query_one("#timeline-reason").display = False

    @property
    def option_list(self) -> OptionList:
        return self.query_one("#timeline-list", OptionList)

    def focus(self, scroll_visible: bool = True) -> Timeline:
        self.option_list.focus(scroll_visible)
        return self

    # -- data --------------------------------------------------------------------------------

    @property
    def checkpoints(self) -> list[ThreadState]:
        return self.model.checkpoints

    @property
    def exhausted(self) -> bool:
        return self.model.exhausted

    @property
    def selected(self) -> ThreadState | None:
        index = self.option_list.highlighted
        if index is None or index >= len(self.model):
            return None
        return self.model.rows[index].checkpoint

    @property
    def marked(self) -> ThreadState | None:
        row = self.model.get(self.marked_id) if self.marked_id else None
        return row.checkpoint if row is not None else None

    def set_checkpoints(self, checkpoints: list[ThreadState], exhausted: bool) -> None:
        """Show a first page (newest first); the cursor goes to the head (live)."""
        self.enable()
        self.model = TimelineModel()
        self.model.append(checkpoints)
        self.model.exhausted = exhausted
        self._waiting = False
        self._turn_pending = False
        if self.marked_id and self.model.get(self.marked_id) is None:
            self.marked_id = ""
        self._lane_width = max([1, *(len(row.lanes) for row in self.model.rows)])
        self._announced = self.model.rows[0].checkpoint_id if self.model.rows else ""
        options = self.option_list
        options.set_options(self._options(0))
        self._add_tail()
        if self.model.rows:
            options.highlighted = 0
        self._update_header()

    def append_checkpoints(self, checkpoints: list[ThreadState], exhausted: bool) -> None:
        """Add an older page (the answer to NeedMore)."""
        start = len(self.model)
        updated = self.model.append(checkpoints)
        self.model.exhausted = exhausted
        self._waiting = False
        width = max([self._lane_width, *(len(row.lanes) for row in self.model.rows[start:])])
        options = self.option_list
        highlighted = options.highlighted
        if width != self._lane_width:
            self._lane_width = width
            options.set_options(self._options(0))
        else:
            self._remove_tail()
            for index in updated:
                options.replace_option_prompt_at_index(index, self._prompt(self.model.rows[index]))
            options.add_options(self._options(start))
        self._add_tail()
        if highlighted is not None:
            options.highlighted = highlighted
        self._update_header()
        if self._turn_pending:
            self._turn_pending = False
            self.select_turn(older=True)

    def clear(self) -> None:
        self.model = TimelineModel()
        self.marked_id = ""
        self._announced = ""
        self._waiting = False
        self._turn_pending = False
        self.option_list.clear_options()
        self._update_header()

    def disable(self, reason: str) -> None:
        """This server keeps no history: say why instead of showing rows."""
        self.reason = reason
        self.clear()
        self.option_list.display = False
        self.query_one("#timeline-columns").display = False
        note = self.query_one("#timeline-reason", Static)
        note.update(Content.assemble(("Timeline unavailable", "bold"), "\n", clean(reason)))
        note.display = True
        self._update_header()

    def enable(self) -> None:
        if not self.reason:
            return
        self.reason = ""
        self.option_list.display = True
        self.query_one("#timeline-columns").display = True
        self.query_one("#timeline-reason").display = False

    # -- rows --------------------------------------------------------------------------------

    def _prompt(self, row: TimelineRow) -> Content:
        return row_content(row, self._lane_width, row.checkpoint_id == self.marked_id, row.index == 0)

    def _options(self, start: int) -> list[Option]:
        return [Option(self._prompt(row), id=f"cp-{row.index}") for row in self.model.rows[start:]]

    def _add_tail(self) -> None:
        if not self.model.rows:
            return
        text = "start of the thread" if self.model.exhausted else "↓ older checkpoints load as you scroll"
        self.option_list.add_option(Option(Content.styled(text, "$text-muted italic"), id=MORE_ID, disabled=True))

    def _remove_tail(self) -> None:
        options = self.option_list
        if options.option_count and options.get_option_at_index(options.option_count - 1).id == MORE_ID:
            options.remove_option_at_index(options.option_count - 1)

    def _update_header(self) -> None:
        header = self.query_one("#timeline-header", Static)
        columns = self.query_one("#timeline-columns", Static)
        columns.update(columns_content(self._lane_width))
        if self.reason:
            header.update(Content.styled("no history on this server", "$text-muted"))
            return
        rows = self.model.rows
        if not rows:
            header.update(Content.styled("no checkpoints", "$text-muted"))
            return
        branches = sum(1 for row in rows if row.branch_point)
        forks = sum(1 for row in rows if row.fork)
        parts: list[Content | str] = [
            Content.styled(f"{len(rows)}{'' if self.model.exhausted else '+'} checkpoints", "bold")
        ]
        if branches:
            parts += [" · ", Content.styled(f"◆ {branches} branch{'es' * (branches != 1)}", "$text-warning")]
        if forks:
            parts += [" · ", Content.styled(f"{forks} fork{'s' * (forks != 1)}", "$text-success")]
        marked = self.marked
        if marked is not None:
            parts += ["\n", Content.styled(f"★ marked step {marked.step}: diffs compare with it", "$text-warning")]
        header.update(Content.assemble(*parts))

    def _refresh_row(self, checkpoint_id: str) -> None:
        row = self.model.get(checkpoint_id)
        if row is not None:
            self.option_list.replace_option_prompt_at_index(row.index, self._prompt(row))

    # -- moving ------------------------------------------------------------------------------

    def select_older(self) -> None:
        """Move the cursor one checkpoint back in time."""
        self._move(+1)

    def select_newer(self) -> None:
        """Move the cursor one checkpoint forward in time (towards the live head)."""
        self._move(-1)

    def select_head(self) -> None:
        """Back to the live head (posts Selected with is_head=True if the cursor moves)."""
        self._turn_pending = False
        if self.model.rows:
            self.option_list.highlighted = 0

    def select_turn(self, older: bool) -> None:
        """Move the cursor to the nearest checkpoint, older or newer, where a human turn
        starts (past the steps between turns, whatever their nodes are called). Newer than
        the last turn is the live head."""
        if not self.model.rows:
            return
        current = self.option_list.highlighted or 0
        target = self.model.turn_index(current, older)
        if target == NEED_OLDER:
            self._turn_pending = True
            if not self._waiting:
                self._waiting = True
                self.post_message(self.NeedMore(self, self.model.oldest_id))
            return
        if target is None and not older and current > 0:
            target = 0
        if target is None:
            self.post_message(self.NoTurn(self, older))
            return
        self.option_list.highlighted = target
        self._maybe_need_more(target)

    def select_checkpoint(self, checkpoint_id: str) -> bool:
        row = self.model.get(checkpoint_id)
        if row is None:
            return False
        self.option_list.highlighted = row.index
        return True

    def _move(self, delta: int) -> None:
        self._turn_pending = False
        count = len(self.model)
        if not count:
            return
        current = self.option_list.highlighted
        target = 0 if current is None else min(max(current + delta, 0), count - 1)
        self.option_list.highlighted = target
        self._maybe_need_more(target)

    def _maybe_need_more(self, index: int) -> None:
        if self.model.exhausted or self._waiting or not self.model.rows:
            return
        if index >= len(self.model) - NEED_MORE_MARGIN:
            self._waiting = True
            self.post_message(self.NeedMore(self, self.model.oldest_id))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option_index < len(self.model):
            self._maybe_need_more(event.option_index)
        selected = self.take_selection()
        if selected is not None:
            self.post_message(selected)

    def take_selection(self) -> Selected | None:
        """The checkpoint the cursor reached, if not announced yet (then it is): a key's
        handler shows it at once, in the same frame as the cursor, and the OptionHighlighted
        that follows posts nothing."""
        index = self.option_list.highlighted
        if index is None or index >= len(self.model):
            return None
        row = self.model.rows[index]
        if row.checkpoint_id == self._announced:
            return None
        self._announced = row.checkpoint_id
        return self.Selected(self, row.checkpoint, self.model.parent_of(row.checkpoint), index == 0)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()

    def action_mark(self) -> None:
        checkpoint = self.selected
        if checkpoint is not None:
            self._set_mark("" if self.marked_id == checkpoint.checkpoint_id else checkpoint.checkpoint_id)

    def mark(self, checkpoint_id: str) -> None:
        """Mark this checkpoint (if loaded), as m does on the selected one ("": unmark)."""
        if (not checkpoint_id or self.model.get(checkpoint_id) is not None) and checkpoint_id != self.marked_id:
            self._set_mark(checkpoint_id)

    def _set_mark(self, checkpoint_id: str) -> None:
        previous = self.marked_id
        self.marked_id = checkpoint_id
        if previous:
            self._refresh_row(previous)
        if self.marked_id:
            self._refresh_row(self.marked_id)
        self._update_header()
        self.post_message(self.Marked(self, self.marked))
