"""The embedded server launcher against the real server: ports, persistence, config paths."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
from pathlib import Path

from langgraph_sdk import get_client

from app.embedded.launcher import DEMO_GRAPH, EmbeddedServer, graph_config


def test_relative_graph_paths_in_a_config_are_made_absolute(tmp_path: Path):
    (tmp_path / "proj").mkdir()
    config = tmp_path / "proj" / "langgraph.json"
    config.write_text(json.dumps({"graphs": {"a": "./agent.py:graph", "b": "pkg.mod:graph"}, "env": ".env"}))
    data = graph_config(config=config)
    assert data["graphs"]["a"] == f"{tmp_path / 'proj' / 'agent.py'}:graph"
    assert data["graphs"]["b"] == "pkg.mod:graph"
    assert data["env"] == str(tmp_path / "proj" / ".env")


def test_threads_survive_a_restart_and_a_busy_port_is_never_used(tmp_path: Path):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    server = EmbeddedServer(tmp_path, port=0)
    try:
        server.start()
        server.wait_ready(90)
        assert server.port != busy.getsockname()[1]
        client = get_client(url=server.url)
        thread = asyncio.run(client.threads.create(metadata={"keep": "me"}))
    finally:
        server.stop()  # SIGTERM: the server flushes its data
        busy.close()
    again = EmbeddedServer(tmp_path)
    try:
        again.start()
        again.wait_ready(90)
        found = asyncio.run(get_client(url=again.url).threads.get(thread["thread_id"]))
        assert found["metadata"]["keep"] == "me"
    finally:
        again.stop()
    assert (again.server_dir / "server.log").is_file()


def test_the_demo_agent_in_a_folder_with_a_dot_in_its_name_loads(tmp_path: Path):
    # The server names a graph's module after its path: with a dot in a folder's name (a
    # clone in /tmp/tmp.XyZ, a venv under ~/.local) the demo agent failed to import.
    folder = tmp_path / "my.project"
    folder.mkdir()
    shutil.copy(DEMO_GRAPH, folder / "agent.py")
    server = EmbeddedServer(tmp_path / "data", graph=f"{folder / 'agent.py'}:graph", persist=False)
    try:
        server.start()
        server.wait_ready(90)
        client = get_client(url=server.url)
        result = asyncio.run(client.runs.wait(None, "agent", input={"messages": [{"type": "human", "content": "hello"}]}))
        assert result["messages"][-1]["type"] == "ai"
    finally:
        server.stop()
