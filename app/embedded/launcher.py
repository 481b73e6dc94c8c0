"""Start, watch and stop the embedded LangGraph Agent Server as a subprocess.

The server runs in its own process (run in-process it writes to the terminal and loses
data on exit). It gets a port picked here (the server silently swaps a busy port for a
random one), quiet env vars (no analytics, no version check), a working directory of its
own (its data lives there) and a log file. A watchdog in the child stops it if this
process dies, so no server is left behind even after a crash.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

DEMO_GRAPH = Path(__file__).parent / "demo" / "agent.py"
QUIET_ENV = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "PYTHONUNBUFFERED": "1",
}
IMPORT_PATHS = (
    ("http", "app"),
    ("auth", "path"),
    ("store", "path"),
    ("store", "index", "embed"),
    ("checkpointer", "path"),
    ("encryption", "path"),
)
"""Where a langgraph.json names a Python object by "path/to/file.py:name"."""


class LaunchError(Exception):
    """The embedded server did not come up; the message quotes its log."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def graph_config(graph: str | None = None, config: Path | None = None) -> dict:
    """The langgraph.json the server runs: the demo agent, FILE.py:ATTR, or the user's config.

    Every key of the user's config is kept; its relative paths are made absolute because
    the server resolves them against its working directory, not the json's folder.
    """
    if config is not None:
        return user_config(config.resolve())
    if graph is not None:
        path, sep, attr = graph.rpartition(":")
        if not sep or not path or not attr:
            raise LaunchError(
                f"--graph wants FILE.py:ATTR (the file, a colon, the name of its compiled graph), got {graph!r}: "
                "for example --graph my_agent.py:graph."
            )
        file = Path(path).expanduser().resolve()
        if not file.is_file():
            raise LaunchError(f"--graph names {file}, {not_a_file(file)}: check the path.")
        return {"graphs": {"agent": f"{file}:{attr}"}, "dependencies": [str(file.parent)]}
    return {"graphs": {"agent": f"{DEMO_GRAPH}:graph"}, "dependencies": [str(DEMO_GRAPH.parent)]}


def user_config(config: Path) -> dict:
    """The user's langgraph.json, its paths made absolute; LaunchError says what is wrong with it."""
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except OSError as error:
        raise LaunchError(f"Cannot read --config {config}: {error.strerror or error}.") from None
    except UnicodeDecodeError:
        raise LaunchError(f"--config {config} is not a langgraph.json (not UTF-8 text).") from None
    except json.JSONDecodeError as error:
        raise LaunchError(
            f"--config {config} is not valid JSON: line {error.lineno}, column {error.colno}: {error.msg}. "
            "Fix that line (it is the langgraph.json `langgraph dev` reads)."
        ) from None
    graphs = data.get("graphs") if isinstance(data, dict) else None
    if not isinstance(graphs, dict) or not graphs:
        raise LaunchError(
            f'--config {config} names no graph: it needs a "graphs" section, such as '
            '"graphs": {"agent": "./my_agent.py:graph"}.'
        )
    data = absolute_paths(data, config.parent)
    for name, spec in data["graphs"].items():
        path = (spec.get("path") if isinstance(spec, dict) else spec) or ""
        file = path.rpartition(":")[0] if isinstance(path, str) else ""
        if file.endswith(".py") and not Path(file).is_file():
            raise LaunchError(
                f"--config {config}: the graph {name!r} is in {file}, {not_a_file(Path(file))}. "
                "Fix its path (a relative path is taken from the json's folder)."
            )
    return data


def not_a_file(path: Path) -> str:
    return "which is a folder, not a file" if path.is_dir() else "which does not exist"


def absolute_paths(data: dict, base: Path) -> dict:
    """A copy of a langgraph.json's `data` with its relative paths made absolute against
    `base`: graphs, the import paths of http.app, auth, store, checkpointer and
    encryption, the env file, ui files and local dependencies."""
    data = copy.deepcopy(data)
    data["graphs"] = {name: _absolute_spec(spec, base) for name, spec in data["graphs"].items()}
    for *parents, key in IMPORT_PATHS:
        holder = data
        for parent in parents:
            holder = holder.get(parent) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and isinstance(holder.get(key), str):
            holder[key] = _absolute_spec(holder[key], base)
    if isinstance(data.get("env"), str):
        data["env"] = _absolute_file(data["env"], base)
    if isinstance(data.get("ui"), dict):
        data["ui"] = {name: _absolute_file(path, base) for name, path in data["ui"].items()}
    data["dependencies"] = [_absolute_file(dep, base) for dep in data.get("dependencies", ["."])]
    return data


def _absolute_spec(spec: object, base: Path) -> object:
    if isinstance(spec, dict):  # {"path": "...", "description": ...}
        return {**spec, "path": _absolute_spec(spec.get("path", ""), base)}
    if not isinstance(spec, str):
        return spec
    path, sep, attr = spec.rpartition(":")
    if sep and (path.endswith(".py") or "/" in path):
        return f"{(base / path).resolve()}:{attr}"
    return spec  # a module path like "pkg.module:graph", or a model name like "openai:text-embedding-3-small"


def _absolute_file(path: object, base: Path) -> object:
    if isinstance(path, str) and path.startswith("."):
        return str((base / path).resolve())
    return path  # a package name, or an absolute path


def link_graph_files(config: dict, links: Path) -> dict:
    """`config` with each graph file reached through a link in `links` with a plain name.

    The server names a graph's module after its file path, dots and all, and a dot in a
    folder's name (a clone in /tmp/tmp.XyZ, a venv under ~/.local) then breaks the import.
    Links are relative to the server's working folder (the parent of `links`).
    """
    links.mkdir(parents=True, exist_ok=True)

    def linked(spec: object) -> object:
        if isinstance(spec, dict):
            return {**spec, "path": linked(spec.get("path", ""))}
        path, sep, attr = spec.rpartition(":") if isinstance(spec, str) else ("", "", "")
        if not (sep and path.endswith(".py") and Path(path).is_absolute()):
            return spec  # a module path like "pkg.module:graph" is imported by name
        target = Path(path)
        digest = hashlib.sha1(str(target).encode()).hexdigest()[:8]
        link = links / f"{re.sub(r'[^A-Za-z0-9_]', '_', target.stem)}_{digest}.py"
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)
        return f"{links.name}/{link.name}:{attr}"

    return {**config, "graphs": {name: linked(spec) for name, spec in config["graphs"].items()}}


@dataclass
class EmbeddedServer:
    data_dir: Path
    graph: str | None = None
    config: Path | None = None
    persist: bool = True
    port: int = 0
    process: subprocess.Popen | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def server_dir(self) -> Path:
        """One folder (and so one set of threads) per served graph configuration."""
        spec = json.dumps(graph_config(self.graph, self.config)["graphs"], sort_keys=True)
        name = "demo" if self.graph is None and self.config is None else hashlib.sha1(spec.encode()).hexdigest()[:12]
        return self.data_dir / "servers" / name

    @property
    def log_path(self) -> Path:
        return self.server_dir / "server.log"

    def start(self) -> None:
        """Spawn the server; returns at once (see wait_ready)."""
        server_dir = self.server_dir
        server_dir.mkdir(parents=True, exist_ok=True)
        config_path = server_dir / "langgraph.json"
        config = link_graph_files(graph_config(self.graph, self.config), server_dir / "graphs")
        config_path.write_text(json.dumps(config, indent=2))
        self.port = self.port or free_port()
        env = {**os.environ, **QUIET_ENV}
        if not self.persist:
            env["LANGGRAPH_DISABLE_FILE_PERSISTENCE"] = "true"
        log = open(self.log_path, "ab")
        log.write(f"\n--- threadbench starting server on port {self.port} ---\n".encode())
        log.flush()
        self._log_start = self.log_path.stat().st_size
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "threadbench.embedded.serve",
                "--parent-pid",
                str(os.getpid()),
                "--config",
                str(config_path),
                "--port",
                str(self.port),
            ],
            cwd=server_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()

    def poll_ready(self) -> bool:
        """True once the server answers on our port; raises LaunchError if it died."""
        if self.process is None:
            raise LaunchError("The embedded server was not started.")
        if self.process.poll() is not None:
            raise LaunchError(self._failure_text())
        # http.client, not httpx: httpx.get builds an SSL context (reads every CA
        # certificate) per call, and that held the GIL away from the UI while it booted.
        import http.client  # (here: not needed before the app's first frame)

        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=0.5)
        try:
            connection.request("GET", "/ok")
            return connection.getresponse().status == 200
        except (OSError, http.client.HTTPException):
            return False
        finally:
            connection.close()

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.poll_ready():
                return
            time.sleep(0.1)
        self.stop()
        raise LaunchError(
            f"The embedded server did not answer on port {self.port} within {timeout:.0f} s. Its log: {self.log_path}"
        )

    def stop(self, timeout: float = 8.0) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(2)

    def _failure_text(self) -> str:
        from .failure import failure_paragraph

        code = self.process.returncode if self.process else None
        try:
            with open(self.log_path, "rb") as log:
                log.seek(getattr(self, "_log_start", 0))
                text = log.read().decode(errors="replace")
        except OSError:
            text = ""
        return failure_paragraph(text, self.server_dir / "graphs", code, self.log_path)
