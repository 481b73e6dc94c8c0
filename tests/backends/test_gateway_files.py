"""GatewayBackend's DeerFlow routes through the stand-in (tests/support/deerflow_gateway_proxy.py):
a thread's artifact as bytes and content type, a missing one, and the server's models."""

from __future__ import annotations

import uuid

import pytest
from threadbench.backends.base import ListsModels, NotFound, ServesArtifacts
from threadbench.backends.detect import make_backend
from threadbench.backends.langgraph import LangGraphBackend

pytestmark = pytest.mark.server


async def test_an_artifact_comes_as_its_bytes_and_type(gateway_stand_in) -> None:
    backend = make_backend("deerflow-gateway", gateway_stand_in.url + "/api")
    thread_id = str(uuid.uuid4())
    gateway_stand_in.write_artifact(thread_id, "/mnt/user-data/outputs/report.md", b"# Report\n")
    gateway_stand_in.write_artifact(thread_id, "/mnt/user-data/outputs/blob.bin", b"\x00\x01")
    try:
        assert isinstance(backend, ServesArtifacts)
        report = await backend.get_artifact(thread_id, "/mnt/user-data/outputs/report.md")
        assert (report.content, report.content_type) == (b"# Report\n", "text/markdown")
        blob = await backend.get_artifact(thread_id, "/mnt/user-data/outputs/blob.bin")
        assert (blob.content, blob.content_type) == (b"\x00\x01", "application/octet-stream")
        with pytest.raises(NotFound, match="Artifact not found: mnt/user-data/outputs/gone.md"):
            await backend.get_artifact(thread_id, "/mnt/user-data/outputs/gone.md")
    finally:
        await backend.close()


async def test_the_models_are_the_gateways(gateway_stand_in) -> None:
    backend = make_backend("deerflow-gateway", gateway_stand_in.url + "/api")
    try:
        assert isinstance(backend, ListsModels)
        models = await backend.list_models()
        assert [(m.name, m.label, m.description, m.supports_thinking) for m in models] == [
            ("fake-model", "Fake Model (loopback)", "", False)
        ]
    finally:
        await backend.close()


def test_a_langgraph_server_serves_no_files_and_names_no_models() -> None:
    backend = LangGraphBackend("http://127.0.0.1:1")
    assert not isinstance(backend, ServesArtifacts) and not isinstance(backend, ListsModels)
