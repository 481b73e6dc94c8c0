"""Every bad start-up input found so far, run as a person runs it: the real `threadbench`
command in a subprocess, with a fresh data dir and config file under tmp_path and no server
but local ones. Each prints one paragraph (which file, which line where it
applies, what is wrong, what to do; whole sentences) and exits with status 2, never a
traceback.

What is checked before the first frame is read on stderr; what only the running app can
check (a theme it has not, keymap ids, a graph the embedded server cannot load) is printed
once the app has left the terminal's alternate screen, read in a pseudo-terminal.
"""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support.terminal import Terminal
from threadbench.embedded.launcher import free_port

RECORDING = Path(__file__).parents[1] / "data" / "recordings" / "demo_plan_report.jsonl"
RECORDING_HEAD = '{"format": "threadbench-recording", "version": 1}\n'
PROFILE_KEY = '[profiles.prod]\nurl = "http://127.0.0.1:9"\napi_key_env = "TB_TEST_UNSET_KEY"\n'
PROFILE_LOGIN = (
    '[profiles.df]\nurl = "http://127.0.0.1:9"\nemail = "me@example.com"\npassword_env = "TB_TEST_UNSET_PW"\n'
)


SETTINGS_ENV = {
    *("THREADBENCH_PROFILE", "THREADBENCH_THEME", "THREADBENCH_DATA_DIR"),
    *("LANGGRAPH_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"),
}
"""What would choose a server, a theme or a data dir other than the case's."""


@dataclass
class Case:
    """`args` and the `files` they name (under tmp_path; "{tmp}", "{reset_port}" and
    "{free_port}" are filled in), and what the paragraph must say."""

    args: list[str]
    says: list[str]
    files: dict[str, str | bytes | None] = field(default_factory=dict)
    """Each file's text or bytes (None: a folder)."""
    in_app: bool = False
    """Said by the running app (read in a pseudo-terminal), not before it starts."""


CASES = {
    "langgraph.json malformed": Case(
        ["--config", "{tmp}/langgraph.json"],
        ["{tmp}/langgraph.json is not valid JSON", "line 2, column 1", "Fix that line"],
        {"langgraph.json": '{"graphs": {\n,}'},
    ),
    "langgraph.json names no graph": Case(
        ["--config", "{tmp}/langgraph.json"],
        ["{tmp}/langgraph.json names no graph", '"graphs" section'],
        {"langgraph.json": '{"env": ".env"}'},
    ),
    "langgraph.json names a graph file that does not exist": Case(
        ["--config", "{tmp}/langgraph.json"],
        ["the graph 'agent' is in {tmp}/gone.py, which does not exist", "Fix its path"],
        {"langgraph.json": '{"graphs": {"agent": "./gone.py:graph"}}'},
    ),
    "--config names no file": Case(["--config", "{tmp}/nothing.json"], ["{tmp}/nothing.json", "check the path"]),
    "--config names a folder": Case(
        ["--config", "{tmp}/project"], ["{tmp}/project, which is a folder, not a file"], {"project": None}
    ),
    "--data-dir is a file": Case(
        ["--data-dir", "{tmp}/a_file"], ["{tmp}/a_file is a file, not a folder", "--data-dir"], {"a_file": ""}
    ),
    # chmod stops no write as root (the tests may run as root): a path under a regular file,
    # and /proc, where no one can make a folder or write a file.
    "--data-dir under a file": Case(
        ["--data-dir", "{tmp}/a_file/data"], ["{tmp}/a_file is a file, not a folder"], {"a_file": ""}
    ),
    "--data-dir where no folder can be made": Case(
        ["--data-dir", "/proc/threadbench-data"], ["/proc/threadbench-data", "cannot be made", "--data-dir"]
    ),
    "--data-dir where nothing can be written": Case(["--data-dir", "/proc"], ["/proc", "no file can be written"]),
    "--record where nothing can be written": Case(
        ["--record", "{tmp}/a_file/runs"], ["recordings", "{tmp}/a_file is a file", "--record"], {"a_file": ""}
    ),
    "--graph without :ATTR": Case(["--graph", "{tmp}/agent.py"], ["FILE.py:ATTR", "--graph my_agent.py:graph"]),
    "--graph names no file": Case(["--graph", "{tmp}/gone.py:graph"], ["{tmp}/gone.py", "check the path"]),
    "--graph names a folder": Case(
        ["--graph", "{tmp}/project:graph"], ["{tmp}/project, which is a folder, not a file"], {"project": None}
    ),
    "--graph file.py:missing_attr": Case(
        ["--graph", "{tmp}/agent.py:missing_attr"],
        ["could not load your graph", "{tmp}/agent.py", "'missing_attr'", "Please check that: 1.", "exports: x, graph"],
        {"agent.py": "x = 1\ngraph = None\n"},
        in_app=True,
    ),
    "--graph whose file imports what is not installed": Case(
        ["--graph", "{tmp}/agent.py:graph"],
        ["No module named 'not_installed_42'", "at {tmp}/agent.py, line 2", "Install not_installed_42", "pip install"],
        {"agent.py": "x = 1\nimport not_installed_42\n"},
        in_app=True,
    ),
    "--graph whose helper module has a syntax error": Case(
        ["--graph", "{tmp}/agent.py:graph"],
        ["invalid syntax", "at {tmp}/helper.py, line 3", "Fix it"],
        {"agent.py": "import helper\n", "helper.py": "x = 1\n\ndef f(:\n    pass\n"},
        in_app=True,
    ),
    "--url at a port that resets the connection": Case(
        # A fault the real server cannot show: a local server that accepts and resets (`resetting_port`).
        ["--url", "http://127.0.0.1:{reset_port}"],
        ["reset the connection without answering", "Check the URL and its port", "without --url"],
    ),
    "--url at a port that resets the connection, logging in": Case(
        ["--url", "http://127.0.0.1:{reset_port}", "--email", "me@example.com"],
        ["could not log in", "reset the connection without answering"],
    ),
    # (asks the resolver only: a .invalid name never resolves, and needs no network to fail)
    "--url whose host name does not resolve": Case(
        ["--url", "http://example.invalid"], ["the host name example.invalid does not resolve", "Check the host name"]
    ),
    "--url where nothing listens": Case(
        ["--url", "http://127.0.0.1:{free_port}"], ["connection was refused", "langgraph dev"]
    ),
    "--url that is not an address": Case(["--url", "localhost:2024"], ["is not a server address", "http://"]),
    "--backend junk": Case(["--backend", "junk"], ["invalid choice: 'junk'", "langgraph", "threadbench --help"]),
    "--profile that does not exist": Case(
        ["--profile", "nope"], ["no profile 'nope' in {tmp}/config.toml", "[profiles.nope]"]
    ),
    "a profile's key variable is not set": Case(
        ["--profile", "prod"],
        ["'prod' in {tmp}/config.toml (line 1)", "$TB_TEST_UNSET_KEY, which is not set", "--api-key"],
        {"config.toml": PROFILE_KEY},
    ),
    "a profile's password variable is not set": Case(
        ["--profile", "df"], ["$TB_TEST_UNSET_PW, which is not set", "password_env"], {"config.toml": PROFILE_LOGIN}
    ),
    "config.toml malformed": Case(
        [],
        ["{tmp}/config.toml is not valid TOML", "line 2", "Fix that line"],
        {"config.toml": 'theme = "nord"\n[keymap\n'},
    ),
    "config.toml not UTF-8": Case(
        [], ["{tmp}/config.toml is not UTF-8 text", "Save it as UTF-8"], {"config.toml": b'theme = "\xff"\n'}
    ),
    "config.toml is a folder": Case(
        [], ["Cannot read the config file {tmp}/config.toml", "$THREADBENCH_CONFIG"], {"config.toml": None}
    ),
    "config.toml with a value of the wrong type": Case(
        [], ["{tmp}/config.toml", "[profiles.x] url must be a string"], {"config.toml": "[profiles.x]\nurl = 5\n"}
    ),
    "a theme the app has not": Case(
        ["--theme", "nrod"], ["no theme 'nrod', named by --theme, perhaps 'nord'", "textual-dark"], in_app=True
    ),
    "a theme in config.toml the app has not": Case(
        [],
        ["no theme 'nrod', named by the config file {tmp}/config.toml (line 1)"],
        {"config.toml": 'theme = "nrod"\n'},
        in_app=True,
    ),
    "[keymap] names ids no key has": Case(
        ["replay", str(RECORDING)],
        ["{tmp}/config.toml", "'main.nwe' (line 3), perhaps", "'main.new'", "'nope.x' (line 4)", "help screen (f1)"],
        {"config.toml": '[keymap]\n"main.search" = "/"\n"main.nwe" = "ctrl+n"\n"nope.x" = "f10"\n'},
        in_app=True,
    ),
    "replay of a file that does not exist": Case(["replay", "{tmp}/gone.jsonl"], ["Cannot read {tmp}/gone.jsonl"]),
    "replay of a folder": Case(
        ["replay", "{tmp}/runs"], ["Cannot read {tmp}/runs", "one .jsonl file of a --record folder"], {"runs": None}
    ),
    "replay of a file that is not JSON": Case(
        ["replay", "{tmp}/run.jsonl"], ["{tmp}/run.jsonl, line 1, is not JSON"], {"run.jsonl": "garbage\n"}
    ),
    "replay of a damaged recording": Case(
        ["replay", "{tmp}/run.jsonl"], ["damaged recording", "lacks the key 'thread'"], {"run.jsonl": RECORDING_HEAD}
    ),
    "serve at a port in use": Case(
        ["serve", "--port", "{reset_port}", "--url", "http://127.0.0.1:9"],
        ["Cannot serve on localhost port {reset_port}: address already in use", "--port"],
    ),
    "--email with the embedded server": Case(["--email", "me@example.com"], ["the embedded server needs no login"]),
}


@pytest.fixture(scope="module")
def resetting_port() -> Iterator[int]:
    """A port whose server accepts each connection and resets it at once (SO_LINGER 0)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # closed: the tests are done
                return
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()


@pytest.mark.parametrize("name", CASES)
def test_bad_start_up_input_is_one_paragraph_and_status_2(name: str, tmp_path: Path, resetting_port: int) -> None:
    case = CASES[name]

    def filled(text: str) -> str:
        return text.format(tmp=tmp_path, reset_port=resetting_port, free_port=free_port())

    for file, content in case.files.items():
        if content is None:
            (tmp_path / file).mkdir()
        elif isinstance(content, bytes):
            (tmp_path / file).write_bytes(content)
        else:
            (tmp_path / file).write_text(content)
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_ENV}
    env.update(THREADBENCH_CONFIG=str(tmp_path / "config.toml"), THREADBENCH_PASSWORD="secret")
    args = [filled(arg) for arg in case.args]
    if "--data-dir" not in args:
        args += ["--data-dir", str(tmp_path / "data")]
    if case.in_app:
        terminal = Terminal(*args, env=env)
        status = terminal.wait(timeout=90)
        output = terminal.output.decode(errors="replace")
        printed = terminal.printed().strip()
        assert "\n\n" not in printed, printed
        said = " ".join(printed.split())  # (wrapped at the terminal's width)
    else:
        done = subprocess.run(
            [sys.executable, "-m", "threadbench", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            stdin=subprocess.DEVNULL,
        )
        status, output, said = done.returncode, done.stdout + done.stderr, done.stderr.strip()
        assert not done.stdout
    assert status == 2, output[-2000:]
    assert "Traceback" not in output
    assert said.startswith("threadbench: ") and "\n" not in said.strip(), said  # one paragraph
    assert said.endswith("."), said  # whole sentences
    for words in case.says:
        assert filled(words) in said, said
