"""bench/ runs: every benchmark once in `--smoke` mode (each step once, the smallest seeds).

CI never runs the benchmarks otherwise, and they rotted unseen once (five crashed on a widget
attribute the app renamed). This runs `python -m bench.run --smoke` as a person would, from the
repository's root: it starts its own embedded server, runs each benchmark as its own process
and exits 0 when every one ran to its end and printed its results. A target missed is fine
here (smoke figures mean nothing); a crash, a benchmark past its limit or one that printed
nothing fails the test, with the run's output.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EACH = 120
"""Seconds each benchmark may take (the slowest took about 30 s in smoke mode on 2 cores)."""
WHOLE = 600
"""Seconds the whole run may take (it took about 2 minutes on 2 cores)."""

pytestmark = pytest.mark.server


@pytest.mark.timeout(WHOLE + 60)
def test_every_benchmark_runs_in_smoke_mode(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.run", "--smoke", "--timeout", str(EACH)],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp_path)},  # the benchmarks' data dirs, where pytest cleans up
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = process.communicate(timeout=WHOLE)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)  # bench.run stops its server on its way out
        try:
            output, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        pytest.fail(f"bench.run --smoke did not finish within {WHOLE} s:\n{output}")
    assert process.returncode == 0, f"bench.run --smoke exited with status {process.returncode}:\n{output}"
