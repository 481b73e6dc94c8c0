"""The house's static checks, run with the suite (pyproject: [tool.ruff], [tool.mypy],
[tool.importlinter]): lint on the data layer, mypy (strict there), and the import contracts
(nothing below the UI imports Textual; the UI's layers; no cycles)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DATA_LAYER = [
    "app/backends", "app/human_input", "app/models.py", "app/run_target.py", "app/run_options.py",
    "app/thread_filter.py", "app/thread_window.py", "app/timeline.py", "app/diff.py", "app/normalize.py",
]


def run(*command: str) -> None:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"


@pytest.mark.parametrize("command", [
    pytest.param([str(BIN / "ruff"), "check", *DATA_LAYER], id="ruff"),
    pytest.param([str(BIN / "mypy")], id="mypy"),
    pytest.param([str(BIN / "lint-imports"), "--no-cache"], id="import-contracts"),
])
def test_the_code_passes(command: list[str]) -> None:
    run(*command)
