"""The house's static checks, run with the suite (pyproject: [tool.ruff], [tool.mypy],
[tool.importlinter]): lint and format on all the code, mypy (strict on the data layer), and the import contracts
(nothing below the UI imports Textual; the UI's layers; no cycles)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CODE = ["app", "styles", "tests", "bench", "scripts", "setup.py"]


def run(*command: str) -> None:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"


@pytest.mark.parametrize(
    "command",
    [
        pytest.param([str(BIN / "ruff"), "check", *CODE], id="ruff"),
        pytest.param([str(BIN / "ruff"), "format", "--check", *CODE], id="ruff-format"),
        pytest.param([str(BIN / "mypy")], id="mypy"),
        pytest.param([str(BIN / "lint-imports"), "--no-cache"], id="import-contracts"),
    ],
)
def test_the_code_passes(command: list[str]) -> None:
    run(*command)
