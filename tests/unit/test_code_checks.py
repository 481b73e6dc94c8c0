"""The house's static checks, run with the suite (pyproject: [tool.ruff], [tool.mypy],
[tool.importlinter]): lint and format on all the code, mypy (strict on the data layer), and the import contracts
(nothing below the UI imports Textual; the UI's layers; no cycles)."""

from __future__ import annotations

import ast
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


def test_the_no_textual_contract_names_every_module_outside_the_ui() -> None:
    """A new module outside app/ui is kept from importing Textual only if the contract names it."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    named = {m.removeprefix("threadbench.") for c in contracts if c["id"] == "data-layer" for m in c["source_modules"]}
    entry_points = {"__init__", "__main__", "serve"}  # (they start the UI)
    modules = {path.stem for path in (ROOT / "app").glob("*.py")} | {
        path.parent.name for path in (ROOT / "app").glob("*/__init__.py")
    }
    assert modules - entry_points - {"ui"} == named


def test_the_styles_package_imports_no_textual() -> None:
    """The top-level styles/ folder, installed as threadbench.styles, is outside the contract
    above: import-linter cannot follow the build's mapping of it."""
    for path in (ROOT / "styles").glob("*.py"):
        imported = [
            name
            for node in ast.walk(ast.parse(path.read_text()))
            for name in (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
        ]
        assert not [name for name in imported if name.split(".")[0] in ("textual", "threadbench")], path


def test_no_module_is_over_600_lines() -> None:
    """The house's limit: a module past it holds more than one purpose."""
    long = {
        str(path.relative_to(ROOT)): n
        for path in (ROOT / "app").rglob("*.py")
        if (n := len(path.read_text().splitlines())) > 600
    }
    assert long == {}


def test_every_worker_of_the_app_is_declared_with_its_own_work() -> None:
    """Textual's `@work` quits the app when a worker fails, a closing widget's too (an answer
    that comes as the app quits): app/ui/workers.py's `work` drops that failure. A worker
    started with `run_worker` says exit_on_error=False."""
    own = ROOT / "app" / "ui" / "workers.py"
    found = []
    for path in (ROOT / "app").rglob("*.py"):
        if path == own:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.ImportFrom) and node.module == "textual":
                found += [f"{where} imports textual's work" for alias in node.names if alias.name == "work"]
            elif isinstance(node, ast.Attribute) and node.attr == "work" and getattr(node.value, "id", "") == "textual":
                found.append(f"{where} uses textual.work")
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "run_worker":
                quiet = any(
                    k.arg == "exit_on_error" and getattr(k.value, "value", True) is False for k in node.keywords
                )
                if not quiet:
                    found.append(f"{where} run_worker without exit_on_error=False")
    assert found == []


PAUSES_ALLOWED = {
    "tests/support/waiting.py": "the one polling step of the waits on a condition (POLL)",
    "tests/graphs/backend_graphs.py": "be_slow: a slow agent (the server's behaviour, not the test's)",
    "tests/support/tenxgraph_server.py": "its graph's 'slow' reply, 50 ms a word: a slow agent on the 10xGraph server",
}
"""Where tests/ may pause for a fixed time, and why: nowhere else (issue 42)."""


def fixed_pauses(source: str, where: str) -> list[str]:
    """Each fixed pause in `source`: asyncio.sleep(N) but sleep(0), time.sleep, a Pilot's
    pause(N), Playwright's wait_for_timeout; in its code, and in code it holds in a string (a
    graph written to a file)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []  # (a string that is no code)
    found = []
    bare = {  # `from time import sleep`, `from asyncio import sleep as nap`
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in ("time", "asyncio")
        for alias in node.names
        if alias.name == "sleep"
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value:
            found += fixed_pauses(node.value, f"{where}:{node.lineno} (in a string)")
        if not isinstance(node, ast.Call):
            continue
        func, arguments = node.func, [*node.args, *(k.value for k in node.keywords)]
        owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        zero = len(arguments) == 1 and isinstance(arguments[0], ast.Constant) and arguments[0].value == 0
        sleep = (name == "sleep" and owner in ("asyncio", "time")) or (isinstance(func, ast.Name) and name in bare)
        if (sleep and not zero) or (name == "pause" and arguments) or name == "wait_for_timeout":
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_test_pauses_for_a_fixed_time() -> None:
    """A test waits until something holds (tests/support/waiting.py), and a fault that needs a
    slow server gets a slow server, not a sleep: only PAUSES_ALLOWED pause."""
    found = {
        str(path.relative_to(ROOT)): pauses
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if (pauses := fixed_pauses(path.read_text(), str(path.relative_to(ROOT))))
    }
    assert {name: pauses for name, pauses in found.items() if name not in PAUSES_ALLOWED} == {}
    assert set(found) == set(PAUSES_ALLOWED), "a file allowed to pause no longer does: take it off the list"
