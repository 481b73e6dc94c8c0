"""GatewayBackend's DeerFlow routes through the stand-in (tests/support/deerflow_gateway_proxy.py):
a thread's artifact as bytes and content type, a missing one, and the server's models; a file
uploaded, listed, sent with a message as DeerFlow's UI sends it, deleted; the limits and the
refusals in the server's words; the follow-up questions; whether the server counts tokens."""

from __future__ import annotations

import uuid

import pytest
from threadbench.backends.base import (
    BackendError,
    CountsTokens,
    ListsModels,
    NotFound,
    ServesArtifacts,
    ServesUploads,
    SuggestsFollowUps,
)
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
    assert not isinstance(backend, ServesUploads) and not isinstance(backend, SuggestsFollowUps)
    assert not isinstance(backend, CountsTokens)


async def test_a_file_is_uploaded_sent_with_a_message_listed_and_deleted(gateway_stand_in, tmp_path) -> None:
    backend = make_backend("deerflow-gateway", gateway_stand_in.url + "/api")
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"The answer is 42.\n")
    try:
        assert isinstance(backend, ServesUploads)
        thread = await backend.create_thread(graph_id="be_chat")
        tid = thread.thread_id
        limits = await backend.upload_limits(tid)
        assert (limits.max_files, limits.max_file_size, limits.max_total_size) == (10, 52428800, 104857600)
        assert await backend.list_uploads(tid) == []
        sent = await backend.upload(tid, notes)
        assert (sent.filename, sent.size, sent.virtual_path) == ("notes.txt", 18, "/mnt/user-data/uploads/notes.txt")
        # the file, as its artifact too (DeerFlow serves uploads under the artifacts route)
        assert (await backend.get_artifact(tid, sent.virtual_path)).content == b"The answer is 42.\n"
        listed = await backend.list_uploads(tid)
        assert [(f.filename, f.size, f.extension) for f in listed] == [("notes.txt", 18, ".txt")]
        message = backend.human_message("read notes.txt", [sent], "m-1")
        assert message == {
            "type": "human",
            "id": "m-1",
            "content": [{"type": "text", "text": "read notes.txt"}],
            "additional_kwargs": {
                "files": [
                    {
                        "filename": "notes.txt",
                        "size": 18,
                        "path": "/mnt/user-data/uploads/notes.txt",
                        "status": "uploaded",
                    }
                ]
            },
        }
        await backend.delete_upload(tid, "notes.txt")
        assert await backend.list_uploads(tid) == []
        with pytest.raises(NotFound, match="File not found: notes.txt"):
            await backend.delete_upload(tid, "notes.txt")
    finally:
        await backend.close()


async def test_an_upload_over_the_limits_is_refused_in_the_servers_words(gateway_stand_in, tmp_path) -> None:
    backend = make_backend("deerflow-gateway", gateway_stand_in.url + "/api")
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 20)
    saved = dict(gateway_stand_in.limits)
    gateway_stand_in.limits["max_file_size"] = 10
    try:
        assert isinstance(backend, ServesUploads)
        with pytest.raises(BackendError, match="Could not upload big.bin to thread .*: File too large: big.bin"):
            await backend.upload(str(uuid.uuid4()), big)
    finally:
        gateway_stand_in.limits.update(saved)
        await backend.close()


async def test_the_follow_ups_and_the_token_count_are_the_gateways(gateway_stand_in) -> None:
    from threadbench.models import ChatMessage

    backend = make_backend("deerflow-gateway", gateway_stand_in.url + "/api")
    try:
        assert isinstance(backend, SuggestsFollowUps) and isinstance(backend, CountsTokens)
        said = [ChatMessage(type="human", text="hello"), ChatMessage(type="ai", text="You said hello.")]
        questions = await backend.suggest_follow_ups(str(uuid.uuid4()), said)
        assert questions == ["Can you tell me more?", "What should I try next?", "Can you give an example?"]
        assert await backend.suggest_follow_ups(str(uuid.uuid4()), [ChatMessage(type="ai", text=" ")]) == []
        assert await backend.counts_tokens() is True
    finally:
        await backend.close()
