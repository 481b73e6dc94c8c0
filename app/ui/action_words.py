"""The words people use for the app's actions, beyond each binding's own description and
tooltip: what the command palette (commands.py) also matches, by binding id. "settings" finds
the run options and the connection, "timeline" the Timeline tab and time travel, "find" the
chat's find bar."""

from __future__ import annotations

WORDS: dict[str, tuple[str, ...]] = {
    "app.connect": ("settings", "server", "url", "api key", "login", "connection"),
    "app.export": ("save", "markdown", "json", "download"),
    "app.help": ("keys", "shortcuts", "bindings", "keyboard"),
    "app.quit": ("exit", "close"),
    "app.theme": ("colours", "colors", "appearance", "dark", "light", "settings"),
    "app.record": ("recording",),
    "main.search": ("filter", "threads", "look for a thread"),
    "main.find": ("find", "search the chat", "words", "in this thread"),
    "main.new": ("create", "start"),
    "main.copy": ("duplicate", "clone"),
    "main.undo": ("undo", "revert"),
    "main.rename": ("title",),
    "main.delete": ("remove", "trash"),
    "main.cancel": ("stop", "abort", "interrupt"),
    "main.options": ("settings", "model", "assistant", "configuration", "preferences", "thinking"),
    "main.answer": ("reply", "question", "interrupt", "approve"),
    "main.older": ("history", "time travel", "previous checkpoint"),
    "main.newer": ("history", "time travel", "next checkpoint"),
    "main.live": ("head", "latest"),
    "main.edit": ("state", "json", "values"),
    "main.inbox": ("waiting", "questions", "interrupts"),
    "main.tab_state": ("state", "values", "inspector"),
    "main.tab_timeline": ("timeline", "checkpoints", "history", "time travel"),
    "main.tab_graph": ("graph", "nodes", "diagram", "drawing"),
    "main.tab_events": ("events", "stream", "event log"),
}
