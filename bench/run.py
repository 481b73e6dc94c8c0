"""Run every benchmark and print one line per target.

    python -m bench.run            (or: python bench/run.py)
    python -m bench.run --quick    fewer repetitions
    python -m bench.run --smoke    each step once on the smallest seeds: does every benchmark still run?
    python -m bench.run --only streaming,threads
    python -m bench.run --timeout 2400   each benchmark's limit (seeding 100,000 threads is slow)

Starts one embedded LangGraph server (the demo agent, persistence off) for the whole run,
then runs each benchmark as its own process (fresh interpreter: memory figures are its
own) against that server, and stops the server at the end, whatever happens. The
startup benchmark launches the app itself, which starts and stops its own server.

It exits 0 when every target passes; with --smoke (the suite's guard against bench/ rotting:
tests/bench/), when every benchmark ran to its end and printed its results, passed or not.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python bench/run.py`
    sys.path.insert(0, str(ROOT))

from bench.common import SMOKE_HELP, Result, from_json  # noqa: E402

SERVER_CONFIG = ROOT / "bench" / "server.json"
"""The demo agent, and a route that creates threads in bulk (bench/bulk_seed.py)."""
BENCHMARKS = ["streaming", "soak", "threads", "long_thread", "timeline", "objects", "keys", "search_index", "startup"]


def run_one(name: str, url: str, mode: list[str], timeout: float) -> tuple[list[Result], str]:
    """`mode`: [], ["--quick"] or ["--smoke"]."""
    command = [sys.executable, "-m", f"bench.{name}", "--url", url, "--json", *mode]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], f"{name}: did not finish within {timeout:.0f} s"
    results = []
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            results.append(from_json(line))
    problem = ""
    if done.returncode != 0 or not results:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        ended = f"exited with status {done.returncode}" if done.returncode else "printed no result"
        problem = f"{name}: {ended}\n{tail}"
    return results, problem


def main() -> int:
    parser = argparse.ArgumentParser(description="Threadbench benchmarks: one line per target.")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true", help="fewer repetitions")
    modes.add_argument("--smoke", action="store_true", help=SMOKE_HELP + "; exits 0 if every benchmark ran")
    parser.add_argument("--only", help="comma-separated: " + ",".join(BENCHMARKS))
    parser.add_argument("--url", help="use this server instead of starting one (it must run the demo agent)")
    parser.add_argument("--json", metavar="FILE", help="also write every result (with details) to FILE")
    parser.add_argument("--timeout", type=float, default=900, help="seconds each benchmark may take (default 900)")
    args = parser.parse_args()
    names = [n.strip() for n in args.only.split(",")] if args.only else BENCHMARKS
    unknown = set(names) - set(BENCHMARKS)
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")

    from threadbench.embedded.launcher import EmbeddedServer

    server = None
    url = args.url
    started = time.perf_counter()
    results: list[Result] = []
    problems: list[str] = []
    try:
        if url is None and any(n != "startup" for n in names):
            folder = Path(tempfile.mkdtemp(prefix="tb-bench-server-"))
            server = EmbeddedServer(folder, config=SERVER_CONFIG, persist=False)
            server.start()
            server.wait_ready(timeout=120)
            url = server.url
            print(f"server: {url} (embedded, demo agent, bulk seeding)", flush=True)
        mode = ["--smoke"] if args.smoke else ["--quick"] if args.quick else []
        for name in names:
            print(f"-- {name}", flush=True)
            found, problem = run_one(name, url or "", mode, timeout=args.timeout)
            for result in found:
                print(result.line(), flush=True)
            if problem:
                problems.append(problem)
                print(problem, flush=True)
            results.extend(found)
    finally:
        if server is not None:
            server.stop()
    passed = sum(r.passed for r in results)
    print(f"\n{passed}/{len(results)} targets pass ({time.perf_counter() - started:.0f} s)")
    print("\n".join(r.line() for r in results))
    if args.json:
        Path(args.json).write_text(json.dumps([r.__dict__ for r in results], indent=2))
    if args.smoke:
        ran = "not every benchmark ran:" if problems else "every benchmark ran (its figures mean nothing)"
        print("\n  ".join([f"smoke: {ran}", *(problem.splitlines()[0] for problem in problems)]))
        return 0 if not problems else 1
    return 0 if passed == len(results) and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
