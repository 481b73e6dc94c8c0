"""The embedded server launcher against the real server: ports, persistence, config paths,
and a langgraph.json served as `langgraph dev` serves it (every key)."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
from pathlib import Path

import httpx
from langgraph_sdk import get_client
from threadbench.embedded.launcher import DEMO_GRAPH, EmbeddedServer, graph_config


def test_relative_graph_paths_in_a_config_are_made_absolute(tmp_path: Path):
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "agent.py").touch()  # (a graph file that does not exist is refused)
    config = tmp_path / "proj" / "langgraph.json"
    config.write_text(json.dumps({"graphs": {"a": "./agent.py:graph", "b": "pkg.mod:graph"}, "env": ".env"}))
    data = graph_config(config=config)
    assert data["graphs"]["a"] == f"{tmp_path / 'proj' / 'agent.py'}:graph"
    assert data["graphs"]["b"] == "pkg.mod:graph"
    assert data["env"] == str(tmp_path / "proj" / ".env")


def test_every_key_of_a_config_is_kept_with_its_relative_paths_made_absolute(tmp_path: Path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "agent.py").touch()
    config = project / "langgraph.json"
    config.write_text(
        json.dumps(
            {
                "graphs": {"a": "./agent.py:graph"},
                "http": {"app": "./routes.py:app", "cors": {"allow_origins": ["*"]}, "mount_prefix": "/p"},
                "auth": {"path": "./auth.py:auth", "disable_studio_auth": True},
                "store": {"index": {"embed": "./embed.py:embed", "dims": 3}, "ttl": {"default_ttl": 5}},
                "checkpointer": {"backend": "custom", "path": "./saver.py:saver"},
                "ui": {"chat": "./ui.tsx"},
                "env": {"KEY": "value"},
                "dependencies": [".", "some-package"],
                "webhooks": {"env_prefix": "LG_"},
            }
        )
    )
    data = graph_config(config=config)
    assert data["http"] == {
        "app": f"{project / 'routes.py'}:app",
        "cors": {"allow_origins": ["*"]},
        "mount_prefix": "/p",
    }
    assert data["auth"] == {"path": f"{project / 'auth.py'}:auth", "disable_studio_auth": True}
    assert data["store"] == {"index": {"embed": f"{project / 'embed.py'}:embed", "dims": 3}, "ttl": {"default_ttl": 5}}
    assert data["checkpointer"]["path"] == f"{project / 'saver.py'}:saver"
    assert data["ui"] == {"chat": str(project / "ui.tsx")}
    assert data["env"] == {"KEY": "value"} and data["webhooks"] == {"env_prefix": "LG_"}
    assert data["dependencies"] == [str(project), "some-package"]


def test_persistence_off_writes_no_checkpoints(tmp_path: Path):
    # `langgraph dev` always set $LANGGRAPH_DISABLE_FILE_PERSISTENCE to "false", over ours.
    server = EmbeddedServer(tmp_path, persist=False)
    try:
        server.start()
        server.wait_ready(90)

        async def write_a_checkpoint() -> None:
            client = get_client(url=server.url)
            thread = await client.threads.create(graph_id="agent")
            await client.threads.update_state(thread["thread_id"], {"messages": []}, as_node="agent")

        asyncio.run(write_a_checkpoint())
    finally:
        server.stop()  # SIGTERM: a persisting server writes its checkpoints now
    assert not list((server.server_dir / ".langgraph_api").glob("*checkpoint*"))


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
        result = asyncio.run(
            client.runs.wait(None, "agent", input={"messages": [{"type": "human", "content": "hello"}]})
        )
        assert result["messages"][-1]["type"] == "ai"
    finally:
        server.stop()


def test_a_config_with_custom_routes_is_served_as_langgraph_dev_serves_it(tmp_path: Path):
    # `python -m langgraph_api.cli` dropped the `http` key: /threadbench/hello was a 404.
    project = tmp_path / "my.project"  # relative paths, and a dot in the folder's name
    project.mkdir()
    shutil.copy(DEMO_GRAPH, project / "agent.py")
    shutil.copy(Path(__file__).resolve().parents[1] / "graphs" / "custom_routes.py", project / "routes.py")
    (project / "langgraph.json").write_text(
        json.dumps(
            {
                "graphs": {"agent": "./agent.py:graph"},
                "http": {"app": "./routes.py:app"},
                "env": {"TB_GREETING": "from the project's env"},
            }
        )
    )
    server = EmbeddedServer(tmp_path / "data", config=project / "langgraph.json", persist=False)
    try:
        server.start()
        server.wait_ready(90)
        answer = httpx.get(f"{server.url}/threadbench/hello", timeout=10)
        assert answer.status_code == 200 and answer.json() == {"hello": "from the project's env"}
        assert httpx.get(f"{server.url}/info", timeout=10).status_code == 200
    finally:
        server.stop()
