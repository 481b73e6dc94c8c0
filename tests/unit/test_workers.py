"""The app's `@work` (threadbench.ui.workers): a worker that fails while its widget is being
taken down is no crash; any other failure still is (Textual's default: the app exits with the
crash report). Public API only, so the same with THREADBENCH_TEXTUAL_COMPAT=off."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import WorkerFailed
from threadbench.ui.workers import work


class Owner(Widget):
    """A region whose worker, once let go, reads its child (which may be gone by then)."""

    def __init__(self) -> None:
        super().__init__()
        self.let_go = asyncio.Event()
        self.reached: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("child", id="child")

    @work(group="answer")
    async def answer(self) -> None:
        await self.let_go.wait()
        self.reached.append("answered")
        self.query_one("#child", Static).update("the answer")  # NoMatches once the child is gone

    @work(group="answer", thread=True)
    def answer_in_a_thread(self) -> None:
        raise RuntimeError("a real bug")

    @work(group="answer", exit_on_error=False, description="Listing the rows")
    async def listed(self) -> None:
        raise ValueError("The row key 'r1' already exists.")

    @work(group="answer", exit_on_error=False, thread=True)
    def read_the_file(self) -> None:
        raise OSError("[bold]disk[/] gone")


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Owner()


async def test_a_worker_failing_on_a_live_widget_still_crashes_the_app() -> None:
    app = Host()
    with pytest.raises(WorkerFailed) as failed:
        async with app.run_test() as pilot:
            owner = app.query_one(Owner)
            await owner.query_one("#child").remove()  # (a bug: the widget lives, its child is gone)
            owner.answer()
            owner.let_go.set()
            await pilot.pause()
    assert isinstance(failed.value.error, NoMatches)
    assert app.return_code == 1 and owner.reached == ["answered"]


async def test_a_thread_worker_failing_still_crashes_the_app() -> None:
    app = Host()
    with pytest.raises(WorkerFailed, match="a real bug"):
        async with app.run_test() as pilot:
            await app.query_one(Owner).answer_in_a_thread().wait()
            await pilot.pause()
    assert app.return_code == 1


async def test_an_answer_that_comes_while_the_app_quits_is_dropped() -> None:
    """Textual takes the child down before the owner's worker is cancelled: the answer lands
    in between (as tests/ui/test_ui_concurrency.py's late history page does)."""
    app = Host()
    async with app.run_test():
        owner = app.query_one(Owner)
        child = owner.query_one("#child")
        owner.answer()

        def let_go_once_the_child_is_gone() -> None:
            if child.is_running:
                asyncio.get_running_loop().call_soon(let_go_once_the_child_is_gone)
            else:
                owner.let_go.set()

        let_go_once_the_child_is_gone()
    assert owner.reached == ["answered"], "the answer came after the child was gone"
    assert app.return_code in (None, 0), "no crash"


async def test_a_worker_that_must_not_quit_the_app_says_its_failure() -> None:
    """exit_on_error=False: Textual would keep the failure to the worker, unseen; it is
    logged and told (as plain text: a failure's words are no markup), and the app lives."""
    app = Host()
    async with app.run_test() as pilot:
        owner = app.query_one(Owner)
        await owner.listed().wait()
        await owner.read_the_file().wait()
        await pilot.pause()
        told = [(note.message, note.severity) for note in app._notifications]
        assert told == [
            ("Listing the rows failed: ValueError: The row key 'r1' already exists.", "error"),
            ("Read the file failed: OSError: [bold]disk[/] gone", "error"),
        ]
    assert app.return_code in (None, 0)
