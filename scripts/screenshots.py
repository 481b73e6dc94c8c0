"""Regenerate screenshots/ from the real app, driven by Pilot, on the embedded demo agent.

    .venv/bin/python scripts/screenshots.py [--out screenshots] [--png] [--only main,help]

Starts the embedded LangGraph server with the bundled demo agent (persistence off, a
temporary data dir), writes a few conversations through the SDK (a plan with tool calls
and todos, research in a subgraph, a question for the human, an approval), then opens the
app at 140x40 and saves an SVG of each main view. With --png (or by default when cairosvg
is importable: `pip install -e ".[screenshots]"`) a PNG is written beside each SVG; PNGs
need the Fira Code font the SVGs name (Debian: `apt-get install fonts-firacode`), else
cairosvg falls back to another font and box borders come out misaligned. The server is
stopped at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from langgraph_sdk import get_client  # noqa: E402
from textual.widgets import Input, TextArea  # noqa: E402
from threadbench.config import Settings  # noqa: E402
from threadbench.embedded.launcher import EmbeddedServer  # noqa: E402
from threadbench.ui.app import ThreadbenchApp  # noqa: E402

SIZE = (140, 40)
CONVERSATIONS = [
    ("upload", "Please look at the notes I uploaded"),
    ("hello", "hello there"),
    ("research", "Research penguin habitats and write a report"),
    ("approval", "Please delete the old draft"),
    ("clarify", "Can you clarify the scope of the report?"),
    ("plan", "Plan a short report on emperor penguins and write the file"),
]


def log(text: str) -> None:
    print(f"[screenshots] {text}", flush=True)


async def seed(url: str) -> dict[str, str]:
    """One thread per conversation, each run to its end (or to its interrupt)."""
    client = get_client(url=url)
    ids: dict[str, str] = {}
    for name, text in CONVERSATIONS:
        thread = await client.threads.create(graph_id="agent", metadata={"demo": name})
        await client.runs.wait(thread["thread_id"], "agent", input={"messages": [{"type": "human", "content": text}]})
        ids[name] = thread["thread_id"]
        log(f"seeded {name}: {thread['thread_id']}")
    # the server's other objects: a second run on the plan thread, assistants with
    # versions, a store, a cron
    await client.runs.wait(ids["plan"], "agent", input={"messages": [{"type": "human", "content": "hello again"}]})
    made = await client.assistants.create(
        "agent", name="Careful researcher", context={"thinking_enabled": True}, metadata={"team": "docs"}
    )
    await client.assistants.update(made["assistant_id"], name="Careful researcher", metadata={"team": "docs", "v": 2})
    await client.assistants.create("agent", name="Quick answers", metadata={"team": "support"})
    for user, prefs in {"ada": {"theme": "dark", "language": "en"}, "grace": {"theme": "light"}}.items():
        for key, value in prefs.items():
            await client.store.put_item(["users", user, "prefs"], key, {"value": value})
    for n, text in enumerate(["Penguins huddle to keep warm", "Emperor penguins dive to 500 m"]):
        await client.store.put_item(["research", "facts"], f"fact-{n}", {"text": text, "source": "notes"})
    await client.crons.create_for_thread(
        ids["plan"], "agent", schedule="0 9 * * 1-5", input={"messages": [{"type": "human", "content": "status?"}]}
    )
    await client.crons.create("agent", schedule="*/30 * * * *", input={"messages": []})
    return ids


async def wait_for(pilot, predicate: Callable[[], object], timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0.05)


def no_blink(app: ThreadbenchApp) -> None:
    for widget in app.screen.query("Input, TextArea"):
        if isinstance(widget, (Input, TextArea)):
            widget.cursor_blink = False


async def drive(url: str, ids: dict[str, str], out: Path, only: set[str], png: bool) -> list[Path]:
    data_dir = Path(tempfile.mkdtemp(prefix="tb-shots-"))
    app = ThreadbenchApp(Settings(url=url, data_dir=data_dir), backend_kind="langgraph")
    written: list[Path] = []

    async def shot(name: str, prepare: Callable[[], Awaitable[None]] | None = None) -> None:
        if only and name not in only:
            return
        if prepare is not None:
            await prepare()
        no_blink(app)
        await pilot.pause(0.4)
        path = Path(app.save_screenshot(filename=f"{name}.svg", path=str(out)))
        written.append(path)
        log(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        if png:
            written.append(to_png(path))

    async with app.run_test(size=SIZE) as pilot:
        from threadbench.ui.main_screen import MainScreen
        from threadbench.ui.widgets.thread_list import ThreadList

        await wait_for(
            pilot, lambda: app.session.backend is not None and isinstance(app.screen, MainScreen), what="the app"
        )
        main = app.screen
        threads = main.query_one("#thread-list", ThreadList)
        await wait_for(pilot, lambda: len(threads.threads) >= len(CONVERSATIONS), what="the threads")

        async def open_thread(name: str) -> None:
            if not isinstance(app.screen, MainScreen):
                app.pop_screen()
            threads.highlighted = threads.get_option_index(ids[name])
            await wait_for(
                pilot,
                lambda: main.thread_state is not None and main.thread_state.thread_id == ids[name],
                what=f"thread {name}",
            )
            await pilot.pause(0.5)
            while not isinstance(app.screen, MainScreen):  # a question the thread opened with
                app.pop_screen()
                await pilot.pause(0.2)
            threads.focus()

        inspector = main.query_one("#inspector")

        async def tab(name: str) -> None:
            inspector.active = f"tab-{name}"
            await pilot.pause(0.8)

        # the main view: a conversation with tool calls, todos in the state tree
        await open_thread("plan")
        await shot("main")
        await shot("timeline", lambda: tab("timeline"))
        await open_thread("research")
        await shot("graph", lambda: tab("graph"))
        await tab("state")
        await shot("research")

        # a live run: the reasoning, then the events it produced
        async def think() -> None:
            await open_thread("hello")
            main.query_one("#composer").focus()
            await pilot.press(*"think about it and answer briefly", "enter")
            await pilot.pause(0.5)
            await wait_for(pilot, lambda: not main.run_in_progress, timeout=60, what="the run")
            await pilot.pause(0.5)
            await tab("events")

        await shot("events", think)
        await tab("state")

        # the agent asks: a clarification, an approval, the inbox
        async def ask(name: str) -> None:
            from threadbench.ui.screens.human_input import HumanInputScreen

            await open_thread(name)
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), what="the question")

        await shot("clarify", lambda: ask("clarify"))
        await shot("approval", lambda: ask("approval"))

        async def inbox() -> None:
            await open_thread("plan")
            await pilot.press("w")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "InboxScreen", what="the inbox")
            await pilot.pause(1.0)

        await shot("inbox", inbox)

        # help, palette, connection, export
        async def modal(keys: list[str], screen: str, typed: str = "") -> None:
            await open_thread("plan")
            await pilot.press(*keys)
            await wait_for(pilot, lambda: type(app.screen).__name__ == screen, what=screen)
            if typed:
                await pilot.press(*typed)
            await pilot.pause(0.6)

        await shot("help", lambda: modal(["f1"], "HelpScreen"))
        await shot("palette", lambda: modal(["ctrl+p"], "CommandPalette", "penguin"))
        await shot("connection", lambda: modal(["ctrl+o"], "ConnectionScreen"))
        await shot("export", lambda: modal(["ctrl+s"], "ExportScreen"))

        # the server's other objects: runs, assistants, store, crons
        async def objects(key: str, screen: str, table: str, rows: int = 1) -> None:
            await open_thread("plan")
            await pilot.press(key)
            await wait_for(pilot, lambda: type(app.screen).__name__ == screen, what=screen)
            await wait_for(pilot, lambda: app.screen.query_one(table).row_count >= rows, what=f"{table} rows")
            await pilot.pause(0.6)

        async def store() -> None:
            await open_thread("plan")
            await pilot.press("S")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "StoreScreen", what="the store")
            tree = app.screen.query_one("#store-tree")
            await wait_for(pilot, lambda: len(tree.root.children) >= 2, what="the namespaces")
            ada = tree.root.children[1].children[0].children[0]  # users / ada / prefs
            tree.move_cursor(ada)
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen.query_one("#store-items").row_count == 2, what="the items")
            await pilot.pause(0.6)

        # fan out one message under three run-option sets, then compare two of the forks
        async def fan_out() -> None:
            await open_thread("hello")
            await pilot.press("O")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "FanOutScreen", what="the fan-out form")
            screen = app.screen
            await pilot.press(*"What can you do for a weekend in Lisbon?")
            screen.query_one("#fanout-set-2", Input).value = "is_plan_mode model_name=demo-planner"
            screen.query_one("#fanout-set-3", Input).value = "model_name=demo-large reasoning_effort=high"
            await pilot.press("ctrl+s")
            await wait_for(
                pilot,
                lambda: len(screen.columns) == 3 and all(c.status == "done" for c in screen.columns),
                timeout=60,
                what="the forks",
            )
            await pilot.pause(0.8)

        async def compare() -> None:
            if type(app.screen).__name__ != "FanOutScreen":
                await fan_out()
            await pilot.press("1", "c")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "CompareScreen", what="the comparison")
            await pilot.press("n")
            await pilot.pause(0.6)

        await shot("fanout", fan_out)
        await shot("compare", compare)
        while not isinstance(app.screen, MainScreen):
            app.pop_screen()
            await pilot.pause(0.1)

        await shot("runs", lambda: objects("R", "RunsScreen", "#runs-table", 2))
        await shot("assistants", lambda: objects("A", "AssistantsScreen", "#assistants-table", 3))
        await shot("store", store)
        await shot("crons", lambda: objects("C", "CronsScreen", "#crons-table", 2))
        while not isinstance(app.screen, MainScreen):
            app.pop_screen()
            await pilot.pause(0.1)
    return written


def to_png(svg: Path) -> Path:
    import cairosvg

    target = svg.with_suffix(".png")
    cairosvg.svg2png(url=str(svg), write_to=str(target), output_width=1400)
    return target


def fira_code_installed() -> bool:
    import shutil
    import subprocess

    if shutil.which("fc-list") is None:
        return True  # cannot tell: do not warn
    listed = subprocess.run(["fc-list", "Fira Code"], capture_output=True, text=True).stdout
    return bool(listed.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument(
        "--png",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="write PNGs too (default: when cairosvg is importable)",
    )
    parser.add_argument("--only", default="", help="comma-separated names, e.g. main,help")
    args = parser.parse_args(argv)
    png = args.png
    if png is None:
        try:
            import cairosvg  # noqa: F401

            png = True
        except (ImportError, OSError):
            png = False
            log("cairosvg is not installed: SVGs only (pip install -e '.[screenshots]' for PNGs)")
    if png and not fira_code_installed():
        log(
            "warning: the Fira Code font is not installed; PNG borders will be misaligned "
            "(Debian: apt-get install fonts-firacode)"
        )
    args.out.mkdir(parents=True, exist_ok=True)
    server = EmbeddedServer(Path(tempfile.mkdtemp(prefix="tb-shots-server-")), persist=False)
    log("starting the embedded server with the demo agent…")
    server.start()
    try:
        server.wait_ready(timeout=120)
        ids = asyncio.run(seed(server.url))
        written = asyncio.run(drive(server.url, ids, args.out, {n for n in args.only.split(",") if n}, png))
    finally:
        server.stop()
    log(f"{len(written)} files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
