"""A real 10xGraph server for tests: its venv, a small deterministic graph, start and stop.

`pip install 10xgraph-api` needs Python >= 3.12 while Threadbench runs on 3.11, so the server
lives in its own venv under .cache/tenxgraph-venv (built once, reused while its marker matches
the pinned versions below). Nothing here imports pytest: support/tenxgraph.py wraps it.

The graph (GRAPH_SOURCE) answers the last user message with no model and no network:
- anything else: "Echo: <text>. That is all.", streamed one word per delta message;
- a message containing "clarify": interrupt({"question", "options"}); the resume value flows
  into the reply "You chose <value>.";
- a message starting with "tool": an assistant tool call to `lookup`, the tool's result, then
  "The tool said: result for <text>";
- a message containing "fail": the node raises RuntimeError("boom: ...");
- "words N": a reply of N words (for benchmarks);
- a message containing "slow": 40 words, 50 ms apart (for stop / cancel).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from .waiting import eventually_blocking

REPO_ROOT = Path(__file__).resolve().parents[2]
VENV_DIR = REPO_ROOT / ".cache" / "tenxgraph-venv"
# 10xgraph itself is pinned too: the test graph uses its node / converter API.
REQUIREMENTS = ["10xgraph-api[jwt]==0.9.0", "10xgraph==0.10.3"]
MARKER = ".threadbench-ready"

JWT_SECRET = "threadbench-test-secret-0123456789-abcdefghijklmnop"
JWT_ALGORITHM = "HS256"


class NoPython312(RuntimeError):
    """No Python >= 3.12 interpreter to build the 10xGraph venv with."""


def _python_version(exe: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run(
            [exe, "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    try:
        major, minor = out.stdout.split()
        return int(major), int(minor)
    except ValueError:
        return None


def _candidates() -> list[str]:
    found: list[str] = []
    env = os.environ.get("THREADBENCH_PY312")
    if env:
        found.append(env)
    pyenv_root = os.environ.get("PYENV_ROOT")
    if not pyenv_root and shutil.which("pyenv"):
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            pyenv_root = subprocess.run(["pyenv", "root"], capture_output=True, text=True, timeout=30).stdout.strip()
    if not pyenv_root and (Path.home() / ".pyenv").is_dir():
        pyenv_root = str(Path.home() / ".pyenv")
    for minor in ("3.12", "3.13"):
        if pyenv_root:
            versions = sorted(
                Path(pyenv_root, "versions").glob(f"{minor}*/bin/python"),
                key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parent.parent.name.split(".")],
                reverse=True,
            )
            found.extend(str(p) for p in versions)
        exe = shutil.which(f"python{minor}")
        if exe:
            found.append(exe)
    return found


def find_python312() -> str:
    """An interpreter for the server's venv: $THREADBENCH_PY312, pyenv's 3.12, python3.12."""
    for exe in _candidates():
        version = _python_version(exe)
        if version and version >= (3, 12):
            return exe
    raise NoPython312(
        "10xGraph needs Python >= 3.12: set THREADBENCH_PY312 to such an interpreter, "
        "install one with pyenv, or put python3.12 on PATH"
    )


def venv_bin(name: str) -> Path:
    return VENV_DIR / "bin" / name


def ensure_venv(log=print) -> Path:
    """Build .cache/tenxgraph-venv once (locked against parallel builders); return its dir."""
    VENV_DIR.parent.mkdir(parents=True, exist_ok=True)
    wanted = "\n".join(REQUIREMENTS)
    marker = VENV_DIR / MARKER
    lock_path = VENV_DIR.parent / "tenxgraph-venv.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.is_file() and marker.read_text() == wanted and venv_bin("10xgraph").exists():
            return VENV_DIR
        python = find_python312()
        log(f"building the 10xGraph server venv with {python} (once; about 20 s)")
        if VENV_DIR.exists():
            shutil.rmtree(VENV_DIR)
        subprocess.run([python, "-m", "venv", str(VENV_DIR)], check=True)
        proc = subprocess.run(
            [str(venv_bin("python")), "-m", "pip", "install", "-q", *REQUIREMENTS],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"pip install {' '.join(REQUIREMENTS)} failed:\n{proc.stderr[-4000:]}")
        marker.write_text(wanted)
        return VENV_DIR


GRAPH_SOURCE = r'''
"""Threadbench's deterministic 10xGraph test graph (written by tests/tenxgraph_server.py)."""

import asyncio
import json

from tenxgraph.core.graph import StateGraph, ToolNode
from tenxgraph.core.state import AgentState, Message
from tenxgraph.core.state.message_block import TextBlock, ToolCallBlock
from tenxgraph.runtime.adapters.llm.base_converter import BaseConverter
from tenxgraph.runtime.adapters.llm.model_response_converter import ModelResponseConverter
from tenxgraph.utils.constants import END
from tenxgraph.utils.interrupt import interrupt


class WordsConverter(BaseConverter):
    """Streams a list of text pieces as delta messages, then the whole reply."""

    def __init__(self, delay: float = 0.0):
        super().__init__()
        self.delay = delay

    async def convert_response(self, response):
        return Message.text_message("".join(response), role="assistant")

    async def convert_streaming_response(self, config, node_name, response, meta=None):
        for piece in response:
            if self.delay:
                await asyncio.sleep(self.delay)
            yield Message(role="assistant", content=[TextBlock(text=piece)], delta=True)
        yield Message(
            role="assistant",
            content=[TextBlock(text="".join(response))],
            metadata={"node_name": node_name},
        )


def lookup(query: str) -> str:
    """Look something up (deterministically)."""
    return f"result for {query}"


def _stream(reply: str, delay: float = 0.0):
    words = reply.split(" ")
    pieces = [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)]
    return ModelResponseConverter(response=pieces, converter=WordsConverter(delay))


def agent(state: AgentState, config: dict):
    last = state.context[-1] if state.context else None
    if last is not None and last.role == "tool":
        return _stream(f"The tool said: {last.text()}")
    text = last.text() if last is not None else ""
    if "fail" in text:
        raise RuntimeError("boom: the node failed on purpose")
    if "clarify" in text:
        answer = interrupt(
            {"question": "Which colour?", "options": ["red", "blue"]},
            message="Which colour?",
        )
        return _stream(f"You chose {answer}.")
    if text.startswith("tool"):
        args = {"query": text}
        return Message(
            role="assistant",
            content=[ToolCallBlock(id="call_1", name="lookup", args=args)],
            tools_calls=[
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": json.dumps(args)},
                }
            ],
        )
    if text.startswith("words "):
        count = int(text.split()[1])
        return _stream(" ".join(f"word{i}" for i in range(count)))
    if "slow" in text:
        return _stream(" ".join(f"slow{i}" for i in range(40)), delay=0.05)
    return _stream(f"Echo: {text}. That is all.")


def route(state: AgentState) -> str:
    last = state.context[-1] if state.context else None
    if last is not None and last.role == "assistant" and last.tools_calls:
        return "tools"
    return END


graph = StateGraph()
graph.add_node("agent", agent)
graph.add_node("tools", ToolNode([lookup]))
graph.add_conditional_edges("agent", route, {"tools": "tools", END: END})
graph.add_edge("tools", "agent")
graph.set_entry_point("agent")
app = graph.compile()
'''


# Runs `10xgraph dev` in this process after starting a thread that stops the server (SIGTERM,
# which uvicorn handles) when the test process that started it dies: it reads a pipe whose
# other end only that process holds, and the read ends when it is closed. No server outlives
# a killed pytest.
WATCHDOG = """
import os, signal, sys, threading

parent_pipe = int(os.environ["THREADBENCH_PARENT_PIPE"])


def watch():
    while os.read(parent_pipe, 1):  # (b"": the other end closed, the test process gone)
        pass
    os.kill(os.getpid(), signal.SIGTERM)


threading.Thread(target=watch, daemon=True).start()
from tenxgraph_api.cli.main import main

sys.argv = ["10xgraph", *sys.argv[1:]]
sys.exit(main())
"""


def write_graph(directory: Path, *, auth: str | None = None) -> Path:
    """Write the graph module and 10xgraph.json into `directory`; return the config path."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "threadbench_echo_graph.py").write_text(GRAPH_SOURCE)
    config = directory / "10xgraph.json"
    config.write_text(json.dumps({"agent": "threadbench_echo_graph:app", "auth": auth}))
    return config


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def make_token(user_id: str, *, secret: str = JWT_SECRET, expires_in: float = 3600, **claims) -> str:
    """An HS256 JWT with the claims 10xGraph's jwt auth wants (exp, user_id)."""
    header = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = {"user_id": user_id, "exp": int(time.time() + expires_in), **claims}
    body = _b64(json.dumps(payload).encode())
    signature = hmac.new(secret.encode(), f"{header}.{body}".encode(), hashlib.sha256).digest()
    return f"{header}.{body}.{_b64(signature)}"


class TenXGraphServer:
    """`10xgraph dev` on a free port, serving the test graph from `workdir`."""

    def __init__(self, workdir: Path, *, jwt: bool = False, port: int | None = None) -> None:
        self.workdir = Path(workdir)
        self.jwt = jwt
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.workdir / "server.log"
        self.process: subprocess.Popen | None = None
        self._parent_end: int | None = None

    def start(self) -> None:
        ensure_venv(log=lambda msg: print(msg, file=sys.stderr))
        config = write_graph(self.workdir, auth="jwt" if self.jwt else None)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME", "PYTHONPATH", "MODE")}
        env["PYTHONPATH"] = str(self.workdir)
        env["MODE"] = "development"
        watched, self._parent_end = os.pipe()  # (not inherited by any other child)
        env["THREADBENCH_PARENT_PIPE"] = str(watched)
        env["PATH"] = f"{VENV_DIR / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        if self.jwt:
            env["JWT_SECRET_KEY"] = JWT_SECRET
            env["JWT_ALGORITHM"] = JWT_ALGORITHM
        log = open(self.log_path, "wb")  # noqa: SIM115 - kept open while the server runs
        try:
            self.process = subprocess.Popen(
                [
                    str(venv_bin("python")),
                    "-c",
                    WATCHDOG,
                    "dev",
                    "--config",
                    str(config),
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--no-reload",
                    "--no-open",
                ],
                cwd=self.workdir,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                pass_fds=(watched,),
            )
        finally:
            log.close()
            os.close(watched)

    def wait_ready(self, timeout: float = 60) -> None:
        def answers() -> bool:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"10xgraph dev exited early:\n{self.log_tail()}")
            try:
                return httpx.get(f"{self.url}/ping", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        try:
            eventually_blocking(answers, timeout, "10xgraph dev to answer /ping")
        except AssertionError as error:
            raise TimeoutError(f"{error}:\n{self.log_tail()}") from None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        proc, self.process = self.process, None
        if self._parent_end is not None:
            os.close(self._parent_end)  # (its watchdog stops it too)
            self._parent_end = None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def __enter__(self) -> TenXGraphServer:
        self.start()
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
