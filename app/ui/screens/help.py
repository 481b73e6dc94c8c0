"""HelpScreen (f1, ?): every key of the app, generated from the BINDINGS so it cannot drift.

One group per place a key works (everywhere, the main screen, each focusable widget, each
modal), each row showing the keys in force (after the config file's [keymap]), what they
do and the binding id to rebind them with. `help_groups()` is the same list for tests and
the command palette.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from ..text import clean

INHERITED_NOTE = {
    "Composer": "plus the usual text editing keys (arrows, home/end, ctrl+z undo, ctrl+a select all…)",
    "State filter": "plus the usual text editing keys",
}


@dataclass
class HelpRow:
    group: str
    keys: list[str]
    """Key names as Textual spells them (after the keymap), e.g. ["r", "f2"]."""
    description: str
    binding_id: str = ""
    action: str = ""


@dataclass
class HelpGroup:
    title: str
    owner: type[DOMNode]
    rows: list[HelpRow] = field(default_factory=list)
    note: str = ""


def binding_classes(app_class: type[App]) -> list[tuple[str, type[DOMNode], bool]]:
    """(group title, class, include the keys it inherits from Textual's widget).

    The main screen and the region widgets sit above the screens (they push them), so this
    module does not import them: the app names them (`help_owners()`: group title -> class)."""
    from ..widgets.answer_box import AnswerBox
    from ..widgets.chat_find import ChatFind
    from ..widgets.chat_log import ChatLog
    from ..widgets.composer import Composer
    from ..widgets.decision_picker import DecisionPicker
    from ..widgets.paged_table import PagedTable
    from ..widgets.state_tree import StateTree, TextViewScreen
    from ..widgets.thread_list import ThreadList
    from ..widgets.timeline import Timeline
    from .artifacts import ArtifactsScreen
    from .assistants import AssistantsScreen
    from .attach import AttachScreen, PathInput
    from .cancel_run import CancelRunScreen
    from .choose import ChooseScreen
    from .compare import CompareScreen
    from .confirm import ConfirmScreen
    from .connection import ConnectionScreen
    from .crons import CronsScreen
    from .edit_state import EditStateScreen
    from .export import ExportScreen
    from .fanout import FanOutScreen
    from .human_input import HumanInputScreen
    from .inbox import InboxScreen
    from .message_log import MessageLogScreen
    from .new_thread import NewThreadScreen
    from .object_form import ObjectFormScreen
    from .pick_graph import PickGraphScreen
    from .prompt import PromptScreen
    from .run_options import RunOptionsScreen
    from .runs import RunsScreen
    from .store import StoreScreen
    from .uploads import UploadsScreen

    help_owners = getattr(app_class, "help_owners", None)
    owners: dict[str, type[DOMNode]] = help_owners() if help_owners is not None else {}
    listed: list[tuple[str, type[DOMNode] | None, bool]] = [
        ("Everywhere", app_class, False),
        ("Main screen", owners.get("Main screen"), False),
        ("Thread list pane", owners.get("Thread list pane"), False),
        ("Inspector, over the chat", owners.get("Inspector, over the chat"), False),
        ("Thread list", ThreadList, True),
        ("Chat", ChatLog, False),
        ("Find in the chat", ChatFind, False),
        ("Composer", Composer, False),
        ("State tree", StateTree, True),
        ("State filter", owners.get("State filter"), False),
        ("Timeline", Timeline, False),
        ("Value view", TextViewScreen, False),
        ("Answer the agent", HumanInputScreen, False),
        ("Answer: tool decision", DecisionPicker, False),
        ("Answer: your own words", AnswerBox, False),
        ("Inbox", InboxScreen, False),
        ("Which graph", PickGraphScreen, False),
        ("Send to a server", ChooseScreen, False),
        ("New thread", NewThreadScreen, False),
        ("Run options", RunOptionsScreen, False),
        ("Edit state", EditStateScreen, False),
        ("Message log (10xGraph)", MessageLogScreen, False),
        ("Artifacts", ArtifactsScreen, False),
        ("Attach a file", AttachScreen, False),
        ("Attach: the path", PathInput, False),
        ("Uploads", UploadsScreen, False),
        ("Compare side by side", CompareScreen, False),
        ("Fan out", FanOutScreen, False),
        ("Runs", RunsScreen, False),
        ("Assistants", AssistantsScreen, False),
        ("Store", StoreScreen, False),
        ("Crons", CronsScreen, False),
        ("Tables of runs, assistants, store, crons", PagedTable, False),
        ("Assistant, item or cron form", ObjectFormScreen, False),
        ("Rename", PromptScreen, False),
        ("Confirm", ConfirmScreen, False),
        ("Cancel the run", CancelRunScreen, False),
        ("Export", ExportScreen, False),
        ("Connection", ConnectionScreen, False),
        ("Help", HelpScreen, False),
    ]
    return [(title, owner, inherit) for title, owner, inherit in listed if owner is not None]


def _bindings(items: list[BindingType]) -> list[Binding]:
    found = []
    for item in items:
        if isinstance(item, Binding):
            found.append(item)
        else:
            found.append(Binding(*item))
    return found


def merged_bindings(owner: type[DOMNode]) -> dict[str, list[Binding]]:
    """Each key's bindings for `owner`, as Textual merges its classes' BINDINGS: a class's own
    take the place of its bases' for the same key."""
    merged: dict[str, list[Binding]] = {}
    for base in reversed(owner.__mro__):
        if "BINDINGS" in base.__dict__:
            merged.update(BindingsMap(base.__dict__["BINDINGS"]).key_to_bindings)
    return merged


def _action_name(action: str) -> str:
    return action.split("(", 1)[0]


def group_rows(title: str, owner: type[DOMNode], inherit: bool, keymap: dict[str, str]) -> list[HelpRow]:
    """The rows of one group: the class's own BINDINGS, then (inherit) the keys it gets from
    Textual's widget that still work (not rebound), one row per action."""
    bindings = _bindings(list(owner.__dict__.get("BINDINGS", [])))
    if inherit:
        own_keys = {k.strip() for b in bindings for k in b.key.split(",")}
        bindings += [
            b for key, found in merged_bindings(owner).items() if key not in own_keys for b in found if b.description
        ]
    rows: list[HelpRow] = []
    by_action: dict[str, HelpRow] = {}
    for binding in bindings:
        keys = [k.strip() for k in binding.key.split(",") if k.strip()]
        if binding.id and binding.id in keymap:
            keys = [k.strip() for k in keymap[binding.id].split(",") if k.strip()]
        merge_key = binding.id or binding.action
        if (held := by_action.get(merge_key)) is not None:  # j and down: one row
            held.keys += [k for k in keys if k not in held.keys]
            continue
        previous = rows[-1] if rows else None
        name = _action_name(binding.action)
        if (
            previous is not None
            and not binding.id
            and not previous.binding_id
            and "(" in binding.action
            and _action_name(previous.action) == name
            and re.search(r"(\d|\(by number\))$", previous.description)
        ):  # pick(1) … pick(9), "Pick 1" … "Pick 9": one row (not tab and shift+tab's move(1), move(-1))
            previous.keys += keys
            previous.description = re.sub(r"\s*(\d+|\(by number\))$", "", previous.description) + " (by number)"
            continue
        text = binding.tooltip or binding.description or name.replace("_", " ")
        row = HelpRow(title, keys, text, binding.id or "", binding.action)
        rows.append(row)
        by_action[merge_key] = row
    return rows


def help_groups(app: App) -> list[HelpGroup]:
    keymap = dict(getattr(app, "keymap", {}) or {})
    groups = []
    for title, owner, inherit in binding_classes(type(app)):
        rows = group_rows(title, owner, inherit, keymap)
        if rows:
            groups.append(HelpGroup(title, owner, rows, INHERITED_NOTE.get(title, "")))
    return groups


def all_binding_ids(app_class: type[App]) -> set[str]:
    ids = set()
    for _, owner, _ in binding_classes(app_class):
        for binding in _bindings(list(owner.__dict__.get("BINDINGS", []))):
            if binding.id:
                ids.add(binding.id)
    return ids


class HelpScreen(ModalScreen[None]):
    """Every key, grouped by where it works; what is typed filters at once (the filter has the
    focus; the arrows and page keys move in the table from there)."""

    BINDINGS = [
        Binding("escape,f1", "close", "Close", id="help.close"),
        Binding("slash", "focus_filter", "Filter", id="help.filter"),
        Binding("up", "move(-1)", "Up", show=False, id="help.up"),
        Binding("down", "move(1)", "Down", show=False, id="help.down"),
        Binding("pageup", "move(-10)", "Page up", show=False, id="help.page_up"),
        Binding("pagedown", "move(10)", "Page down", show=False, id="help.page_down"),
    ]

    CSS = """
    HelpScreen #help-dialog { width: 110; height: 90%; max-height: 90%; padding: 0 1 0 2; }
    HelpScreen #help-title { margin: 1 0 0 0; }
    HelpScreen #help-filter { margin-bottom: 1; }
    HelpScreen #help-run-status { height: auto; margin-bottom: 1; }
    HelpScreen #help-table { height: 1fr; scrollbar-size-vertical: 1; background: $surface; }
    HelpScreen #help-hint { height: 1; margin: 1 0; }
    """

    def __init__(self, run_status: str = "") -> None:
        """`run_status`: the whole of the main screen's run status (cut there on a narrow screen)."""
        super().__init__(classes="modal")
        self.groups: list[HelpGroup] = []
        self.run_status = run_status

    @property
    def rows(self) -> list[HelpRow]:
        return [row for group in self.groups for row in group.rows]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help-dialog"):
            yield Static(
                Content.assemble(("Keys", "bold"), ("  ·  ctrl+p: every action and thread by name", "dim")),
                classes="dialog-title",
                id="help-title",
            )
            if self.run_status:
                yield Static(Content.assemble(("Run status  ", "dim"), clean(self.run_status)), id="help-run-status")
            yield Input(placeholder="filter: a key, an action or an id", id="help-filter")
            yield DataTable(id="help-table", cursor_type="row", zebra_stripes=False, show_cursor=True)
            yield Static(
                Content.styled(
                    'type to filter · ↑↓ move · esc close · rebind a key in the config file: [keymap] "id" = "keys"',
                    "dim",
                ),
                id="help-hint",
            )

    def on_mount(self) -> None:
        self.groups = help_groups(self.app)
        table = self.query_one("#help-table", DataTable)
        table.add_column("key", width=16, key="key")
        table.add_column("action", width=52, key="action")
        table.add_column("id (to rebind)", width=28, key="id")
        self.show_rows("")
        self.query_one("#help-filter", Input).focus()

    def key_text(self, keys: list[str]) -> str:
        return "  ".join(self.app.get_key_display(Binding(key, "")) for key in keys)

    def show_rows(self, text: str) -> None:
        table = self.query_one("#help-table", DataTable)
        table.clear()
        needle = text.strip().casefold()
        if len(needle) > 1 and needle.startswith("/"):
            needle = needle[1:]  # (the filter's old key, typed by habit: "/copy" is "copy")
        for group in self.groups:
            rows = [
                row
                for row in group.rows
                if not needle
                or needle
                in f"{' '.join(row.keys)} {self.key_text(row.keys)} {row.description} {row.binding_id}".casefold()
            ]
            if not rows:
                continue
            table.add_row(Content.styled(group.title, "bold $text-accent"), "", "", key=f"group:{group.title}")
            for row in rows:
                table.add_row(
                    Content.styled(self.key_text(row.keys), "bold"),
                    Content(row.description),
                    Content.styled(row.binding_id, "dim"),
                )
            if group.note and not needle:
                table.add_row("", Content.styled(group.note, "dim italic"), "")
        if table.row_count > 1:
            table.move_cursor(row=1)  # the first key, not the first group's title

    @on(Input.Changed, "#help-filter")
    def filter_changed(self, event: Input.Changed) -> None:
        self.show_rows(event.value)

    @on(Input.Submitted, "#help-filter")
    def filter_done(self) -> None:
        self.query_one("#help-table", DataTable).focus()

    def action_focus_filter(self) -> None:
        self.query_one("#help-filter", Input).focus()

    def action_move(self, rows: int) -> None:
        """The arrows and page keys in the filter move the table's cursor (the table takes
        its own when it has the focus)."""
        table = self.query_one("#help-table", DataTable)
        table.move_cursor(row=min(max(table.cursor_row + rows, 0), max(table.row_count - 1, 0)))

    def action_close(self) -> None:
        self.dismiss(None)
