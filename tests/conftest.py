"""Shared fixtures: the real LangGraph server, started once per test session.

The server runs every graph in tests/graphs/langgraph.json (the demo agent as "agent",
plus small graphs made for particular tests) on a free port with persistence off. A stand-in
for DeerFlow's Gateway is put in front of it when a test asks for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.embedded.launcher import EmbeddedServer
from deerflow_gateway_proxy import GatewayStandIn
from tenxgraph_fixtures import *  # noqa: F403 - the 10xGraph server fixtures
from ui_fixtures import *  # noqa: F403 - deterministic UI (no cursor blink)

GRAPHS_CONFIG = Path(__file__).parent / "graphs" / "langgraph.json"


@pytest.fixture(scope="session", autouse=True)
def isolated_config(tmp_path_factory: pytest.TempPathFactory):
    """Tests never read (or write) the developer's own config file."""
    path = tmp_path_factory.mktemp("config") / "config.toml"
    patch = pytest.MonkeyPatch()
    patch.setenv("THREADBENCH_CONFIG", str(path))
    patch.delenv("THREADBENCH_PROFILE", raising=False)
    patch.delenv("THREADBENCH_THEME", raising=False)
    yield path
    patch.undo()


@pytest.fixture(scope="session")
def langgraph_server(tmp_path_factory: pytest.TempPathFactory):
    server = EmbeddedServer(
        data_dir=tmp_path_factory.mktemp("langgraph-server"),
        config=GRAPHS_CONFIG,
        persist=False,
    )
    server.start()
    try:
        server.wait_ready(timeout=90)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def server_url(langgraph_server: EmbeddedServer) -> str:
    return langgraph_server.url


@pytest.fixture(scope="session")
def gateway_origin(server_url: str):
    """A stand-in for DeerFlow's Gateway in front of the real server (see its module):
    the API is at gateway_origin + "/api" and "/api/langgraph"."""
    gateway = GatewayStandIn(server_url)
    gateway.start()
    try:
        yield gateway.url
    finally:
        gateway.stop()
