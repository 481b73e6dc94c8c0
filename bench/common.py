"""What every benchmark shares: the app under test, timing, the event-loop stall meter,
memory, and the one-line result.

Times come from time.perf_counter (one monotonic clock for the whole process). "Shown"
means painted: a benchmark waits until a widget holds what it looks for, then for the
screen's next refresh (`painted`), so the time includes layout and rendering. Polling
uses asyncio.sleep, never Pilot.pause (which visits every widget of the screen).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
TERMINAL = (140, 40)
POLL = 0.002
T = TypeVar("T")


@dataclass
class Result:
    """One target: what was measured against what was wanted."""

    name: str
    measured: float
    target: float
    unit: str = "ms"
    baseline: float | None = None
    """The bare SDK doing the same network work in the same run (same unit), if any."""
    ratio: float | None = None
    """For targets stated as a ratio: measured / baseline (the target is then a ratio)."""
    passed: bool = False
    baseline_name: str = "sdk"
    """What the baseline is: the bare SDK, or (typing) a bare Textual app."""
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def line(self) -> str:
        if self.ratio is not None:
            app, base = fmt(self.measured, self.unit), fmt(self.baseline, self.unit)
            figure = f"{self.ratio:.2f}x (app {app}, {self.baseline_name} {base})"
            goal = f"<= {self.target:.2f}x"
        else:
            figure = fmt(self.measured, self.unit)
            if self.baseline is not None:
                figure += f" ({self.baseline_name} {fmt(self.baseline, self.unit)})"
            goal = f"<= {fmt(self.target, self.unit)}"
        verdict = "PASS" if self.passed else "FAIL"
        text = f"{verdict}  {self.name:<44} {figure:<42} target {goal}"
        if not self.passed:
            text += f"  ({self.miss()})"
        if self.note:
            text += f"  -- {self.note}"
        return text

    def miss(self) -> str:
        """By how much the target is missed, in its unit (and as a share of it)."""
        if self.ratio is not None:
            return f"misses by {self.ratio - self.target:.2f}x"
        over = self.measured - self.target
        if over == float("inf"):
            return "not reached"
        share = f", {over / self.target:.0%}" if self.target else ""
        return f"misses by {fmt(over, self.unit)}{share}"


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "ms":
        return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "MB":
        return f"{value:.0f} MB"
    return f"{value:g} {unit}"


def verdict(name: str, measured: float, target: float, **kwargs: Any) -> Result:
    return Result(name=name, measured=measured, target=target, passed=measured <= target, **kwargs)


def ratio_verdict(name: str, app: float, sdk: float, target: float, **kwargs: Any) -> Result:
    ratio = app / sdk if sdk else float("inf")
    return Result(name=name, measured=app, target=target, baseline=sdk, ratio=ratio, passed=ratio <= target, **kwargs)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def now() -> float:
    return time.perf_counter()


def ms(seconds: float) -> float:
    return seconds * 1000.0


# -- the app -----------------------------------------------------------------------------------


def make_app(url: str, probe: bool = False):
    """The real app on `url`, built as the tests build it (tests/support/driving.py) but with
    the real clocks and each run on its thread's graph; with `probe`, its backend is wrapped
    in a Probe (then `app.session.backend` is the probe)."""
    from tests.support.driving import make_app as make_test_app

    return make_test_app(url, assistant="", fixed_time=False, **({"wrap_backend": Probe} if probe else {}))


async def timed_ms(call: Callable[[], Awaitable[object]], times: int = 5) -> list[float]:
    """How long `await call()` takes, `times` times over (the bare SDK's side of a target)."""
    result = []
    for _ in range(times):
        start = now()
        await call()
        result.append(ms(now() - start))
    return result


async def wait_until(predicate: Callable[[], object], timeout: float = 30.0, what: str = "") -> float:
    """Poll `predicate` (cheaply, on the app's loop) until true; the time it became true.
    The tests' wait (tests/support/driving.until), stepping with asyncio.sleep."""
    from tests.support.driving import until

    try:
        await until(predicate, lambda: asyncio.sleep(POLL), timeout, what)
    except AssertionError as error:
        raise TimeoutError(str(error)) from None
    return now()


def press(app, key: str, char: str | None = None) -> None:
    """A key, the way the terminal driver delivers one (Pilot.press also waits for the app
    to go idle before it returns, which would count its own waiting as the app's time)."""
    from textual import events

    event = events.Key(key, char if char is not None else (key if len(key) == 1 else None))
    event.set_sender(app)
    app._driver.send_message(event)


_PAINTS: list[float] = [0.0]


def _note_paints() -> None:
    """Note the time of every screen paint (the compositor's refresh), once per process."""
    from textual.screen import Screen

    if getattr(Screen, "_bench_noted", False):
        return
    refresh = Screen._compositor_refresh

    def compositor_refresh(self) -> None:
        refresh(self)
        _PAINTS[0] = now()

    Screen._compositor_refresh = compositor_refresh
    Screen._bench_noted = True


async def painted(app, timeout: float = 30.0, since: float | None = None) -> float:
    """The time the screen is next painted (what was changed before the call is on screen).

    If nothing is left to paint for a while (the change needed no repaint), the time of the
    call is returned; or, given `since`, the time of the last paint after it if nothing is
    left to paint at the call (it was painted while the caller waited for something else)."""
    _note_paints()
    start = now()
    if since is not None and _PAINTS[0] > since and not _paint_pending(app.screen):
        return _PAINTS[0]
    deadline = start + timeout
    clean_since = None
    while True:
        if _PAINTS[0] > start:
            return _PAINTS[0]
        if _paint_pending(app.screen):
            clean_since = None
        else:
            clean_since = clean_since or now()
            if now() - clean_since > 0.5:
                return start
        if now() > deadline:
            raise TimeoutError("the screen was not painted")
        await asyncio.sleep(POLL / 2)


def _paint_pending(screen) -> bool:
    return bool(screen._layout_required or screen._repaint_required or screen._scroll_required or screen._dirty_widgets)


async def settle(app, seconds: float = 0.3, within=None) -> None:
    """Let the app finish what it is doing (workers, refreshes) before a measurement.

    `within`: wait only for the workers of that widget and those below it (a dialog opened
    with push_screen_wait leaves the worker that opened it waiting until it closes)."""
    from textual.worker import WorkerCancelled

    await asyncio.sleep(seconds)
    while True:  # (a worker cancelled meanwhile, one exclusive worker replacing another, is done too)
        workers = [w for w in app.workers if within is None or w.node is within or within in w.node.ancestors]
        try:
            if workers:
                await app.workers.wait_for_complete(workers)
            break
        except WorkerCancelled:
            await asyncio.sleep(POLL)
    await painted(app)


@contextlib.asynccontextmanager
async def running(app, size: tuple[int, int] = TERMINAL):
    """app.run_test(), and a quiet close: the app finishes what it is doing first, and an
    error it raises while closing, once the measurements are taken, is noted, not fatal."""
    measured = False
    try:
        async with app.run_test(size=size) as pilot:
            yield pilot
            measured = True
            await settle(app, 1.0)
    except BaseException as error:  # noqa: BLE001
        if not measured:
            raise
        print(f"note: the app raised {type(error).__name__} while closing", file=sys.stderr)


class StallMeter:
    """How late the app's event loop runs a 5 ms timer: the longest stall a keypress meets."""

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.lateness: list[float] = []
        self._task: asyncio.Task | None = None

    def start(self) -> StallMeter:
        self.lateness.clear()
        self._task = asyncio.create_task(self._run())
        return self

    async def _run(self) -> None:
        while True:
            before = now()
            await asyncio.sleep(self.interval)
            self.lateness.append(max(0.0, now() - before - self.interval))

    async def stop(self) -> StallMeter:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        return self

    @property
    def max_ms(self) -> float:
        return ms(max(self.lateness, default=0.0))

    @property
    def p99_ms(self) -> float:
        return ms(p99(self.lateness)) if self.lateness else 0.0


@contextlib.contextmanager
def full_collections() -> Iterator[list[float]]:
    """The duration (ms) of each full garbage collection made while this is open."""
    durations: list[float] = []
    started: list[float] = []

    def noted(phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            started.append(now())
        elif started:
            durations.append(ms(now() - started.pop()))

    gc.callbacks.append(noted)
    try:
        yield durations
    finally:
        gc.callbacks.remove(noted)


def rss_mb() -> float:
    """This process's resident memory (VmRSS)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Probe:
    """The app's real backend, with the times its calls return and its stream yields noted.

    Passed as the app's `wrap_backend`: everything is the real LangGraphBackend; only
    timestamps are added (the app's own langgraph-sdk client receiving the data).
    """

    def __init__(self, backend) -> None:
        self._backend = backend
        self.marks: dict[str, list[float]] = {}

    def __getattr__(self, name: str):
        return getattr(self._backend, name)

    def mark(self, name: str) -> None:
        self.marks.setdefault(name, []).append(now())

    def last(self, name: str) -> float | None:
        values = self.marks.get(name)
        return values[-1] if values else None

    def clear(self) -> None:
        self.marks.clear()

    def _timed(self, name: str):
        call = getattr(self._backend, name)

        async def timed(*args, **kwargs):
            self.mark(f"{name}:start")
            try:
                return await call(*args, **kwargs)
            finally:
                self.mark(f"{name}:end")

        return timed

    def __getattribute__(self, name: str):
        if name in ("get_state", "get_history", "search_threads", "count_threads"):
            return object.__getattribute__(self, "_timed")(name)
        return object.__getattribute__(self, name)

    def stream_run(self, thread_id, request):
        events = self._backend.stream_run(thread_id, request)
        probe = self

        async def marked():
            async for event in events:
                if event.kind == "token" and event.text:
                    if "token:first" not in probe.marks:
                        probe.mark("token:first")
                    probe.marks["token:last"] = [now()]
                yield event

        return marked()


# -- running a benchmark as its own process ------------------------------------------------------


SMOKE_HELP = "each step once on the smallest seeds: checks that the benchmark still runs (its figures mean nothing)"


def cli(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--url", required=True, help="the LangGraph server to use")
    parser.add_argument("--json", action="store_true", help="print results as JSON lines")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="fewer repetitions")
    mode.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    from threadbench.ui import heap

    heap.one_arena()  # as the app does when it is made, but before this process's own threads
    return args


def sized(args: argparse.Namespace, *, full: T, quick: T, smoke: T) -> T:
    """A size or count for this run: the full benchmark's, --quick's or --smoke's."""
    return smoke if args.smoke else quick if args.quick else full


def emit(results: list[Result], as_json: bool) -> None:
    for result in results:
        print(json.dumps(asdict(result)) if as_json else result.line(), flush=True)


def from_json(line: str) -> Result:
    return Result(**json.loads(line))
