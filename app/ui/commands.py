"""The command palette (ctrl+p): jump to a thread by title or id, and run any action.

- "Open thread: <title>" for every thread the list has loaded; typing an id (or the start of
  one) also asks the server for threads the list has not loaded.
- Every action of the app, the main screen and the focused widget, generated from their
  BINDINGS (label: the binding's tooltip, else its description; the key is shown beside it),
  found by its label, its action's name and the words people use for it (action_words.py).
- "Copy message: …" for the messages of the open thread (OSC 52 clipboard).

Registered through ThreadbenchApp.COMMANDS, next to Textual's own (keys, screenshot, …: the
app leaves out those it has itself, theme and quit, so each is listed once).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.dom import DOMNode

from ..backends.base import BackendError
from ..models import ThreadQuery, ThreadSummary
from .action_words import WORDS
from .main_screen import find_main_screen
from .text import one_line
from .widgets.thread_list import ThreadList

if TYPE_CHECKING:
    from .app import ThreadbenchApp
    from .main_screen import MainScreen

ID_LIKE = re.compile(r"[0-9a-f][0-9a-f-]{3,35}")
ID_SCAN_PAGES = 5
ID_SCAN_PAGE = 100
MAX_THREAD_HITS = 200
MAX_MESSAGE_HITS = 100
SKIP_ACTIONS = {"command_palette", "app.command_palette"}
ALIAS_WEIGHT = 0.9
"""An action found by a word people use for it ranks below one whose own label says it."""


def open_thread(main: MainScreen, summary: ThreadSummary) -> None:
    """Show `summary` in the main screen: highlight it (adding it to the list if the list has
    not loaded it), open it and go to the composer."""
    threads = main.query_one("#thread-list", ThreadList)
    if threads.thread(summary.thread_id) is None:
        threads.set_threads([summary, *threads.threads], exhausted=threads.exhausted)
    threads.highlight_thread(summary.thread_id)
    threads.post_message(ThreadList.Chosen(summary.thread_id, opened=True))


def thread_label(thread: ThreadSummary) -> str:
    title = one_line(thread.title, 60) if thread.title else "(untitled)"
    return f"Open thread: {title}  {thread.thread_id}"


@dataclass
class Action:
    """One action of a node, from its bindings (n and ctrl+n: one action, two keys)."""

    binding: Binding
    keys: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    """Every description and tooltip of its bindings (what the palette matches)."""
    aliases: list[str] = field(default_factory=list)
    """The words people use for it and its action's name (matched too, ranked a little lower)."""

    @property
    def label(self) -> str:
        if self.binding.tooltip:
            return self.binding.tooltip
        return max(self.words, key=len) if self.words else self.binding.action.replace("_", " ")


def _actions_of(node: DOMNode, keymap: dict[str, str], shown_only: bool = False) -> list[Action]:
    """The bindings Threadbench's own classes declare (not Textual's editing keys), one per
    action, with every key that runs it (after the keymap)."""
    by_action: dict[str, Action] = {}
    for cls in type(node).__mro__:
        if not cls.__module__.startswith("threadbench."):
            continue
        for item in cls.__dict__.get("BINDINGS", []):
            found = item if isinstance(item, Binding) else Binding(*item)
            if found.action in SKIP_ACTIONS or not found.description or (shown_only and not found.show):
                continue
            keys = [k.strip() for k in (keymap.get(found.id or "") or found.key).split(",") if k.strip()]
            action = by_action.setdefault(found.action, Action(found))
            action.keys.extend(k for k in keys if k not in action.keys)
            action.words.extend(w for w in (found.tooltip, found.description) if w and w not in action.words)
            aliases = (*WORDS.get(found.id or "", ()), _action_name(found))
            action.aliases.extend(w for w in aliases if w and w not in action.aliases)
    return list(by_action.values())


def _action_name(binding: Binding) -> str:
    """The action's own name, as people read it: "show graph tab", "older checkpoint"."""
    action = binding.action
    if action.startswith("region("):  # a region's key on the main screen: the region's action
        action = action.split(",", 1)[1].strip(" )'\"")
    return re.sub(r"[_('\")]+", " ", action).replace("tab-", "").strip()


class ThreadbenchCommands(Provider):
    """Threads and actions for the command palette."""

    @property
    def workbench(self) -> ThreadbenchApp:
        return cast("ThreadbenchApp", self.app)

    def _actions(self) -> list[tuple[DOMNode, Action, str]]:
        """(namespace, action, keys shown) for the focused widgets, the main screen and the app."""
        app = self.workbench
        nodes: list[tuple[DOMNode, bool]] = []
        focused = self.focused
        if focused is not None:
            nodes.extend((n, True) for n in focused.ancestors_with_self if n is not self.screen and n is not app)
        main = find_main_screen(app)
        if self.screen is not main:
            nodes.append((self.screen, False))
        if main is not None:
            nodes.append((main, False))
        nodes.append((app, False))
        found: list[tuple[DOMNode, Action, str]] = []
        labels: set[str] = set()
        keymap = dict(app.keymap)
        for node, shown_only in nodes:
            for action in _actions_of(node, keymap, shown_only):
                if action.label in labels:
                    continue
                labels.add(action.label)
                keys = " ".join(app.get_key_display(Binding(k, "")) for k in action.keys)
                found.append((node, action, keys))
        return found

    def _run(self, node: DOMNode, action: str) -> None:
        self.app.call_later(self.app.run_action, action, node)

    def _threads(self) -> list[ThreadSummary]:
        main = find_main_screen(self.app)
        if main is None:
            return []
        try:
            return list(main.query_one("#thread-list", ThreadList).threads)
        except Exception:
            return []

    def _open(self, summary: ThreadSummary) -> None:
        main = find_main_screen(self.app)
        if main is not None:
            open_thread(main, summary)

    def _copy(self, text: str) -> None:
        self.app.copy_to_clipboard(text)
        self.app.notify(f"Copied {len(text):,} characters.", timeout=2)

    def _messages(self) -> list[tuple[str, str]]:
        main = find_main_screen(self.app)
        state = main.conversation.thread_state if main is not None else None
        if state is None:
            return []
        found = []
        for message in state.messages[-MAX_MESSAGE_HITS:]:
            text = message.text.strip()
            if text:
                found.append((f"Copy message: {message.type}: {one_line(text, 60)}", text))
        return found

    async def discover(self) -> Hits:
        for node, action, keys in self._actions():
            yield DiscoveryHit(
                Content.assemble(action.label, ("  " + keys, "dim")),
                partial(self._run, node, action.binding.action),
                text=action.label,
                help=action.binding.id or None,
            )
        for thread in self._threads()[:20]:
            yield DiscoveryHit(Content(thread_label(thread)), partial(self._open, thread), text=thread_label(thread))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for node, action, keys in self._actions():
            score = max(
                *(matcher.match(word) for word in [action.label, *action.words]),
                *(ALIAS_WEIGHT * matcher.match(word) for word in action.aliases),
            )
            if score > 0:
                yield Hit(
                    score,
                    Content.assemble(matcher.highlight(action.label), ("  " + keys, "dim")),
                    partial(self._run, node, action.binding.action),
                    text=action.label,
                    help=action.binding.id or None,
                )
        loaded = self._threads()
        known = {t.thread_id for t in loaded}
        for thread in loaded[: MAX_THREAD_HITS * 5]:
            label = thread_label(thread)
            score = (
                1.0
                if thread.thread_id.startswith(query.strip().lower()) and len(query.strip()) >= 4
                else matcher.match(label)
            )
            if score > 0:
                yield Hit(score, matcher.highlight(label), partial(self._open, thread), text=label)
        for label, text in self._messages():
            if (score := matcher.match(label)) > 0:
                yield Hit(score * 0.8, matcher.highlight(label), partial(self._copy, text), text=label)
        async for thread in self._server_threads(query.strip().lower(), known):
            label = thread_label(thread)
            yield Hit(
                1.0, matcher.highlight(label), partial(self._open, thread), text=label, help="found on the server"
            )

    async def _server_threads(self, query: str, known: set[str]):
        """Threads whose id is `query` (or starts with it) that the list has not loaded."""
        backend = self.workbench.session.backend
        if backend is None or not ID_LIKE.fullmatch(query):
            return
        try:
            full = str(uuid.UUID(query))
        except ValueError:
            full = None
        try:
            if full is not None:
                if full not in known:
                    yield await backend.get_thread(full)
                return
            for page in range(ID_SCAN_PAGES):
                rows = await backend.search_threads(ThreadQuery(limit=ID_SCAN_PAGE, offset=page * ID_SCAN_PAGE))
                for thread in rows:
                    if thread.thread_id.startswith(query) and thread.thread_id not in known:
                        known.add(thread.thread_id)
                        yield thread
                if len(rows) < ID_SCAN_PAGE:
                    return
        except BackendError:
            return
