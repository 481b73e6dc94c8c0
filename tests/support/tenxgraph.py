"""Fixtures for the real 10xGraph server (see tenxgraph_server.py for the graph it serves).

Registered by tests/conftest.py (pytest_plugins), so every test can ask for:
- tenxgraph_url: a server with auth off, started once per session;
- tenxgraph_jwt: (url, make_token) for a server with JWT auth; make_token(user_id) signs a token.
Both skip (with the reason) only when no Python >= 3.12 exists to build the server's venv.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from .tenxgraph_server import NoPython312, TenXGraphServer, ensure_venv, make_token

__all__ = ["tenxgraph_venv", "tenxgraph_server", "tenxgraph_url", "tenxgraph_jwt"]


@pytest.fixture(scope="session")
def tenxgraph_venv():
    try:
        return ensure_venv()
    except NoPython312 as err:
        pytest.skip(str(err))


@pytest.fixture(scope="session")
def tenxgraph_server(tenxgraph_venv, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TenXGraphServer]:
    with TenXGraphServer(tmp_path_factory.mktemp("tenxgraph-server")) as server:
        yield server


@pytest.fixture(scope="session")
def tenxgraph_url(tenxgraph_server: TenXGraphServer) -> str:
    return tenxgraph_server.url


@pytest.fixture(scope="session")
def tenxgraph_jwt(tenxgraph_venv, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Callable[..., str]]]:
    with TenXGraphServer(tmp_path_factory.mktemp("tenxgraph-jwt"), jwt=True) as server:
        yield server.url, make_token
