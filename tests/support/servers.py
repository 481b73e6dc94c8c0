"""The servers the tests run against: the real LangGraph server, started once per test session.

The server runs every graph in tests/graphs/langgraph.json (the demo agent as "agent",
plus small graphs made for particular tests) on a free port with persistence off. A second
one, with DeerFlow's login (tests/graphs/deerflow_auth), is started when a test asks, and
so is a stand-in for DeerFlow's Gateway in front of the first.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from threadbench.embedded.launcher import EmbeddedServer

from .deerflow_gateway_proxy import GatewayStandIn

GRAPHS = Path(__file__).resolve().parents[1] / "graphs"
GRAPHS_CONFIG = GRAPHS / "langgraph.json"
DEERFLOW_CONFIG = GRAPHS / "deerflow_auth" / "langgraph.json"


@pytest.fixture(scope="session", autouse=True)
def isolated_config(tmp_path_factory: pytest.TempPathFactory):
    """Tests never read (or write) the developer's own config file."""
    path = tmp_path_factory.mktemp("config") / "config.toml"
    patch = pytest.MonkeyPatch()
    patch.setenv("THREADBENCH_CONFIG", str(path))
    patch.delenv("THREADBENCH_PROFILE", raising=False)
    patch.delenv("THREADBENCH_THEME", raising=False)
    patch.delenv("THREADBENCH_PASSWORD", raising=False)
    yield path
    patch.undo()


def served(tmp_path_factory: pytest.TempPathFactory, config: Path, name: str):
    """A real server for `config` on a free port, persistence off, up for the fixture's life."""
    server = EmbeddedServer(data_dir=tmp_path_factory.mktemp(name), config=config, persist=False)
    server.start()
    try:
        server.wait_ready(timeout=90)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def langgraph_server(tmp_path_factory: pytest.TempPathFactory):
    yield from served(tmp_path_factory, GRAPHS_CONFIG, "langgraph-server")


@pytest.fixture(scope="session")
def server_url(langgraph_server: EmbeddedServer) -> str:
    return langgraph_server.url


@pytest.fixture(scope="session")
def any_server_url(tmp_path_factory: pytest.TempPathFactory):
    """Graphs this project did not name `agent`: lead_agent (DeerFlow's behaviour) and
    support_bot; the assistant search answers nothing, as under DeerFlow's auth."""
    for server in served(tmp_path_factory, GRAPHS / "any_server" / "langgraph.json", "any-server"):
        yield server.url


@pytest.fixture
def fresh_one_graph_url(tmp_path_factory: pytest.TempPathFactory):
    """A server of its own (no thread on it yet) running one graph, support_bot."""
    for server in served(tmp_path_factory, GRAPHS / "one_graph" / "langgraph.json", "one-graph"):
        yield server.url


@pytest.fixture(scope="module")
def semantic_store_url(tmp_path_factory: pytest.TempPathFactory):
    """A server whose store has a semantic index (tests/graphs/semantic_store: an offline
    letter-count embedding), the way a langgraph.json's `store.index` configures it."""
    folder = tmp_path_factory.mktemp("semantic-store-config")
    config = {
        "dependencies": ["."],
        "graphs": {"agent": str(GRAPHS.parent.parent / "app" / "embedded" / "demo" / "agent.py") + ":graph"},
        "store": {
            "index": {
                "embed": str(GRAPHS / "semantic_store" / "embed.py") + ":aembed_texts",
                "dims": 16,
                "fields": ["text"],
            }
        },
    }
    (folder / "langgraph.json").write_text(json.dumps(config))
    for server in served(tmp_path_factory, folder / "langgraph.json", "semantic-store"):
        yield server.url


@pytest.fixture(scope="session")
def deerflow_url(tmp_path_factory: pytest.TempPathFactory):
    """A LangGraph server with DeerFlow's auth (tests/graphs/deerflow_auth): its login route
    and cookie + CSRF rules, serving the graph lead_agent."""
    for server in served(tmp_path_factory, DEERFLOW_CONFIG, "deerflow-server"):
        yield server.url


@pytest.fixture(scope="session")
def gateway_stand_in(server_url: str):
    """A stand-in for DeerFlow's Gateway in front of the real server (see its module); a test
    gives a thread its files with `write_artifact`."""
    gateway = GatewayStandIn(server_url)
    gateway.start()
    try:
        yield gateway
    finally:
        gateway.stop()


@pytest.fixture(scope="session")
def gateway_origin(gateway_stand_in: GatewayStandIn) -> str:
    """The stand-in's origin: the API is at gateway_origin + "/api" and "/api/langgraph"."""
    return gateway_stand_in.url
