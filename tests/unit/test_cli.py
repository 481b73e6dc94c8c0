"""The `threadbench` command as a person runs it: in a real terminal (a pty), with the
embedded server started and stopped for real."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support.terminal import Terminal
from support.waiting import eventually_blocking
from threadbench.embedded.launcher import free_port

GOOD_GRAPH = """
from typing_extensions import TypedDict
from langgraph.graph import StateGraph

class State(TypedDict):
    count: int

def step(state: State) -> dict:
    return {"count": state.get("count", 0) + 1}

builder = StateGraph(State)
builder.add_node("step", step)
builder.set_entry_point("step")
builder.set_finish_point("step")
graph = builder.compile()
"""


def run_cli(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "threadbench", *args], capture_output=True, text=True, timeout=timeout)


def server_pids(marker: str) -> list[int]:
    found = subprocess.run(["pgrep", "-f", f"threadbench.embedded.serve.*{marker}"], capture_output=True, text=True)
    return [int(pid) for pid in found.stdout.split()]


def test_version_and_help():
    result = run_cli("--version")
    assert result.returncode == 0 and result.stdout.startswith("threadbench ")
    result = run_cli("--help")
    assert result.returncode == 0
    for flag in ("--url", "--api-key", "--graph", "--config", "--data-dir", "--backend"):
        assert flag in result.stdout
    for command in ("threadbench replay FILE", "threadbench serve", "threadbench config"):
        assert command in " ".join(result.stdout.split()), command  # (argparse wraps the epilog)


def test_serve_takes_the_flags_every_command_takes_and_hands_them_to_each_tab():
    result = run_cli("serve", "--help")
    assert result.returncode == 0
    for flag in ("--data-dir", "--theme", "--debug", "--port"):
        assert flag in result.stdout
    from threadbench.serve import build_parser, common_args

    options, rest = build_parser().parse_known_args(["--theme", "nord", "--url", "http://h:1", "--data-dir", "/d"])
    assert [*common_args(options), *rest] == ["--theme", "nord", "--data-dir", "/d", "--url", "http://h:1"]


@pytest.mark.parametrize("url", ["localhost:2024", "ftp://example.com", "http://"])
def test_a_bad_url_is_one_clear_paragraph_and_status_2(url):
    result = run_cli("--url", url)
    assert result.returncode == 2
    assert "is not a server address" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unreachable_server_is_one_clear_paragraph_and_status_2():
    result = run_cli("--url", f"http://127.0.0.1:{free_port()}")
    assert result.returncode == 2
    assert "Cannot reach an agent server" in result.stderr
    assert "Traceback" not in result.stderr


def test_ctrl_c_at_the_password_prompt_is_no_traceback(tmp_path: Path):
    env = {key: value for key, value in os.environ.items() if key != "THREADBENCH_PASSWORD"}
    term = Terminal("--url", "http://127.0.0.1:9", "--email", "me@example.com", "--data-dir", str(tmp_path), env=env)
    term.read_until(lambda: b"Password for me@example.com" in term.output, 20, "the password prompt")
    term.send(b"\x03")
    assert term.wait(timeout=20) == 130
    assert b"Traceback" not in term.output


def test_url_and_graph_together_are_refused():
    result = run_cli("--url", "http://127.0.0.1:1", "--graph", "x.py:graph")
    assert result.returncode == 2 and "one or the other" in result.stderr


def test_quitting_stops_the_embedded_server(tmp_path: Path):
    graph = tmp_path / "counter.py"
    graph.write_text(GOOD_GRAPH)
    data = tmp_path / "data"
    args = ("--graph", f"{graph}:graph", "--data-dir", str(data))

    term = Terminal(*args)
    eventually_blocking(lambda: server_pids(str(tmp_path)), 30, "the embedded server")
    log = next(data.glob("servers/*/server.log"))
    config = next(data.glob("servers/*/langgraph.json"))
    assert config.is_file()
    eventually_blocking(lambda: "Application started up" in log.read_text(errors="replace"), 60, "the server up")
    term.read_until(lambda: b"idle" in term.output, 30, "the app connected to it (idle)")
    term.send(b"\x11")  # ctrl+q
    assert term.wait(timeout=30) == 0
    eventually_blocking(lambda: not server_pids(str(tmp_path)), 10, "the server stopped")


def test_quitting_while_the_embedded_server_boots_is_a_clean_exit(tmp_path: Path):
    """ctrl+q at the first frame: the app stops the server it is waiting for, and says
    nothing about it. It once reported "The embedded server was not started" with status 2:
    the waiting thread saw the server gone and failed the app while it closed (a race: the
    test without the fix failed one run in three)."""
    term = Terminal("--data-dir", str(tmp_path / "data"))
    term.read_until(lambda: b"starting embedded server" in term.output, 20, "the first frame")
    term.read_until(lambda: server_pids(str(tmp_path)), 20, "the server the app waits for")
    assert b"idle" not in term.output  # (the server still boots: it answers after 2 s or more)
    term.send(b"\x11")  # ctrl+q
    assert term.wait(timeout=30) == 0
    assert b"not started" not in term.output
    eventually_blocking(lambda: not server_pids(str(tmp_path)), 10, "the server stopped")


def test_a_crashed_app_leaves_no_server_behind(tmp_path: Path):
    graph = tmp_path / "counter.py"
    graph.write_text(GOOD_GRAPH)
    term = Terminal("--graph", f"{graph}:graph", "--data-dir", str(tmp_path / "data"))
    eventually_blocking(lambda: server_pids(str(tmp_path)), 30, "the embedded server")
    os.kill(term.pid, signal.SIGKILL)
    term.wait(timeout=10)
    eventually_blocking(lambda: not server_pids(str(tmp_path)), 15, "the server stopped")


def test_debug_turns_on_textual_devtools_even_without_textual_dev(tmp_path: Path, monkeypatch):
    """--debug sets TEXTUAL (read when an App is made) to include devtools and debug, as
    `textual run --dev` does. Without textual-dev the app is still made, and its log says
    once how to get the console."""
    from threadbench.__main__ import main
    from threadbench.ui.app import ThreadbenchApp

    made: list[ThreadbenchApp] = []
    monkeypatch.setattr(ThreadbenchApp, "run", lambda self, *a, **k: made.append(self))
    monkeypatch.setitem(sys.modules, "textual_dev", None)  # as if textual-dev were not installed
    monkeypatch.delenv("TEXTUAL", raising=False)
    assert main(["--data-dir", str(tmp_path / "plain")]) == 0
    assert "TEXTUAL" not in os.environ and not made[0].features

    monkeypatch.setenv("TEXTUAL", "debug")
    assert main(["--debug", "--data-dir", str(tmp_path)]) == 0
    app = made[1]
    assert os.environ["TEXTUAL"] == "debug,devtools"
    assert {"devtools", "debug"} <= app.features and app.debug
    assert app.devtools is None  # no client without textual-dev, and no crash
    log = (tmp_path / "threadbench.log").read_text()
    assert log.count("pip install textual-dev") == 1 and "textual console" in log


def test_every_command_takes_the_common_flags(tmp_path: Path, monkeypatch, capsys):
    """--theme, --data-dir and --debug are the app's own, whatever it shows: a replay keeps
    its data and log where it is told, and `config` says where that is."""
    from threadbench.__main__ import main
    from threadbench.ui.app import ThreadbenchApp

    made: list[ThreadbenchApp] = []
    monkeypatch.setattr(ThreadbenchApp, "run", lambda self, *a, **k: made.append(self))
    monkeypatch.setenv("THREADBENCH_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.delenv("TEXTUAL", raising=False)
    recording = Path(__file__).parents[1] / "data" / "recordings" / "demo_plan_report.jsonl"
    data = tmp_path / "replay-data"
    assert main(["replay", str(recording), "--data-dir", str(data), "--theme", "nord", "--debug"]) == 0
    settings = made[0].settings
    assert (settings.data_dir, settings.theme, settings.debug) == (data, "nord", True)
    assert "devtools" in os.environ["TEXTUAL"]

    assert main(["config", "--data-dir", str(tmp_path / "elsewhere")]) == 0
    assert f"data dir: {tmp_path / 'elsewhere'}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["config", "--url", "http://h:1"])  # (a server is not the config command's)
    assert "unrecognized arguments: --url" in capsys.readouterr().err
