"""Pilot: files sent with a message on DeerFlow's Gateway (the stand-in keeps them as the real
one does): ctrl+u in the composer opens #attach-dialog (the server's limits shown, the path
completed with tab), the file shows on the line above the composer (ctrl+l removes it), and
the message goes out after its files, as DeerFlow's UI sends it; a file over the limits is
refused and nothing typed is lost; U lists the thread's uploads and removes one; the follow-up
questions after a reply (f3 puts one in the composer); the tokens in the run status; on a
server that takes no files, ctrl+u says so."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_client
from support.driving import TERMINAL, make_app, settle, wait_for, wait_ready
from test_ui_gateway import opened_on_gateway
from threadbench.ui.screens.attach import AttachScreen
from threadbench.ui.screens.confirm import ConfirmScreen
from threadbench.ui.screens.uploads import UploadsScreen
from threadbench.ui.widgets.chat_log import ChatLog
from threadbench.ui.widgets.composer import Composer

pytestmark = pytest.mark.server

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "gateway" / "recorded.json").read_text())
QUESTIONS = next(e["answer"] for e in RECORDED if e["name"] == "suggestions")["suggestions"]


@contextlib.asynccontextmanager
async def on_gateway(origin: str, *texts: str) -> AsyncIterator[tuple[Any, Any, list]]:
    """A thread of be_chat (its replies: "You said ...") seeded with `texts`, open; runs go to be_chat."""
    async with opened_on_gateway(origin, "be_chat", *texts) as (app, pilot, notes):
        app.session.run_options.assistant_id = "be_chat"
        yield app, pilot, notes


def line(app, selector: str) -> str:
    widget = app.screen.query_one(selector)
    return str(widget.visual) if widget.display else ""


async def attach(pilot, path: str) -> AttachScreen:
    app = pilot.app
    app.screen.query_one(Composer).focus()
    await pilot.press("ctrl+u")
    await wait_for(pilot, lambda: isinstance(app.screen, AttachScreen), what="the attach dialog")
    await settle(pilot)
    dialog = app.screen
    await pilot.press(*path)
    return dialog


async def test_a_file_goes_with_the_message_as_deerflows_ui_sends_it(gateway_stand_in, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("The answer is 42.\n")
    async with on_gateway(gateway_stand_in.url, "hello") as (app, pilot, notes_said):
        thread_id = app.screen.conversation.thread_id
        composer = app.screen.query_one(Composer)
        composer.focus()
        await pilot.press(*"read the file")
        dialog = await attach(pilot, str(notes))
        limits = str(dialog.query_one("#attach-limits").visual)
        assert "Up to 10 files a message, 52.4 MB each, 104.9 MB in all; any type." in limits
        await pilot.press("enter")
        await wait_for(pilot, lambda: "notes.txt" in line(app, "#attachments"), what="the attachment line")
        assert "18 bytes" in line(app, "#attachments") and composer.text == "read the file"
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: not app.screen.conversation.run_in_progress and not line(app, "#attachments"), what="sent"
        )
        assert (
            gateway_stand_in.files / thread_id / "mnt/user-data/uploads/notes.txt"
        ).read_text() == "The answer is 42.\n"
        state = await get_client(url=gateway_stand_in.url + "/api").threads.get_state(thread_id)
        sent = [m for m in state["values"]["messages"] if m["type"] == "human"][-1]
        assert sent["additional_kwargs"]["files"] == [
            {"filename": "notes.txt", "size": 18, "path": "/mnt/user-data/uploads/notes.txt", "status": "uploaded"}
        ]
        assert sent["content"][-1] == {"type": "text", "text": "read the file"}
        # the chat shows what was typed, not the uploads block the middleware put before it
        humans = [m.text for m in app.screen.query_one(ChatLog).messages if m.type == "human"]
        assert humans[-1] == "read the file" and not any("current_uploads" in text for text in humans)
    assert not [text for text, severity in notes_said if severity == "error"], notes_said


async def test_a_file_over_the_limits_is_refused_and_nothing_typed_is_lost(gateway_stand_in, tmp_path):
    big = tmp_path / "big.csv"
    big.write_text("x" * 64)
    gateway_stand_in.limits["max_file_size"] = 32
    try:
        async with on_gateway(gateway_stand_in.url, "hello") as (app, pilot, _):
            composer = app.screen.query_one(Composer)
            composer.focus()
            await pilot.press(*"keep me")
            dialog = await attach(pilot, str(big))
            await pilot.press("enter")
            error = dialog.query_one("#attach-error")
            await wait_for(pilot, lambda: error.display, what="the refusal")
            assert str(error.visual) == "big.csv is 64 bytes: the server takes files of at most 32 bytes."
            assert app.screen is dialog and dialog.query_one("#attach-path").value == str(big)
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, AttachScreen), what="the dialog closed")
            assert composer.text == "keep me" and not line(app, "#attachments")
    finally:
        gateway_stand_in.limits["max_file_size"] = 52428800


async def test_a_refused_upload_keeps_the_message_and_the_file(gateway_stand_in, tmp_path):
    """The server refuses at send time (its limits changed after the file was attached): its
    words are said, nothing is sent, the text and the attachment stay for another try."""
    data = tmp_path / "data.txt"
    data.write_text("y" * 40)
    try:
        async with on_gateway(gateway_stand_in.url, "hello") as (app, pilot, notes_said):
            composer = app.screen.query_one(Composer)
            composer.focus()
            await pilot.press(*"send this")
            await attach(pilot, str(data))
            await pilot.press("enter")
            await wait_for(pilot, lambda: "data.txt" in line(app, "#attachments"), what="attached")
            gateway_stand_in.limits["max_file_size"] = 10
            await pilot.press("enter")
            await wait_for(pilot, lambda: any("File too large: data.txt" in t for t, _ in notes_said), what="refusal")
            await wait_for(pilot, lambda: not app.screen.conversation.run_in_progress, what="the send given up")
            assert composer.text == "send this" and "data.txt" in line(app, "#attachments")
            gateway_stand_in.limits["max_file_size"] = 52428800
            await pilot.press("ctrl+l")
            await wait_for(pilot, lambda: not line(app, "#attachments"), what="the attachment removed")
            assert composer.text == "send this"
    finally:
        gateway_stand_in.limits["max_file_size"] = 52428800


async def test_tab_completes_the_path(gateway_stand_in, tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "q3-summary.md").write_text("# Q3\n")
    async with on_gateway(gateway_stand_in.url, "hello") as (app, pilot, _):
        dialog = await attach(pilot, str(tmp_path / "rep"))
        path = dialog.query_one("#attach-path")
        await wait_for(pilot, lambda: path._suggestion == str(tmp_path / "reports") + "/", what="the suggestion")
        await pilot.press("tab")
        assert path.value == str(tmp_path / "reports") + "/"
        await pilot.press("q")
        await wait_for(pilot, lambda: path._suggestion.endswith("q3-summary.md"), what="the file suggested")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: "q3-summary.md" in line(app, "#attachments"), what="attached")


async def test_the_uploads_screen_lists_and_removes_a_file(gateway_stand_in, tmp_path):
    async with on_gateway(gateway_stand_in.url, "hello") as (app, pilot, notes_said):
        thread_id = app.screen.conversation.thread_id
        with httpx.Client(base_url=gateway_stand_in.url + "/api") as client:
            for name, content in (("a.txt", b"aaa"), ("b.pdf", b"%PDF-1.4 " + b"b" * 2000)):
                client.post(f"/threads/{thread_id}/uploads", files=[("files", (name, content))]).raise_for_status()
        app.screen.sidebar.thread_list.focus()
        await pilot.press("U")
        await wait_for(pilot, lambda: isinstance(app.screen, UploadsScreen), what="the uploads screen")
        uploads = app.screen
        await wait_for(pilot, lambda: len(uploads.files) == 2, what="the list")
        await settle(pilot)
        listing = uploads.query_one("#upload-list")
        rows = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert rows == ["a.txt  3 bytes", "b.pdf  2.0 kB"]
        await pilot.press("down", "x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked first")
        await pilot.press("y")
        await wait_for(pilot, lambda: [f.filename for f in uploads.files] == ["a.txt"], what="b.pdf removed")
        assert not (gateway_stand_in.files / thread_id / "mnt/user-data/uploads/b.pdf").exists()
        await pilot.press("escape")
    assert not [text for text, severity in notes_said if severity == "error"], notes_said


async def test_follow_ups_after_a_reply_and_f3_puts_one_in_the_composer(gateway_stand_in):
    async with on_gateway(gateway_stand_in.url, "hello") as (app, pilot, _):
        composer = app.screen.query_one(Composer)
        composer.focus()
        await pilot.press(*"hello again", "enter")
        await wait_for(pilot, lambda: QUESTIONS[0] in line(app, "#follow-ups"), what="the follow-ups")
        assert all(question in line(app, "#follow-ups") for question in QUESTIONS)
        assert composer.text == ""
        await pilot.press("f3")
        assert composer.text == QUESTIONS[0]
        await pilot.press("f3")
        assert composer.text == QUESTIONS[1]
        await pilot.press("end", *" please")
        await pilot.press("f3")  # typed text is never replaced
        assert composer.text == QUESTIONS[1] + " please"
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: app.screen.conversation.run_in_progress or not line(app, "#follow-ups"), what="sent"
        )
        assert not line(app, "#follow-ups") or app.screen.conversation.run_in_progress


async def test_the_threads_tokens_show_in_the_run_status(gateway_stand_in):
    async with on_gateway(gateway_stand_in.url) as (app, pilot, _):
        thread_id = app.screen.conversation.thread_id
        usage = {"input_tokens": 6270, "output_tokens": 12, "total_tokens": 6282}
        messages = [
            {"type": "human", "id": "u1", "content": "hello"},
            {"type": "ai", "id": "a1", "content": "hi", "usage_metadata": usage},
            {"type": "ai", "id": "a2", "content": "more", "additional_kwargs": {"usage_metadata": usage}},
        ]
        await get_client(url=gateway_stand_in.url + "/api").threads.update_state(
            thread_id, {"messages": messages}, as_node="model"
        )
        app.screen.conversation.open_thread(thread_id)
        status = app.screen.query_one("#run-status")
        await wait_for(pilot, lambda: "tokens 12.6K (12.5K in · 24 out)" in status.full_text, what="the tokens")


async def test_a_server_that_takes_no_files_says_so(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        composer = app.screen.query_one(Composer)
        composer.focus()
        await pilot.press(*"abc", "ctrl+u")
        await wait_for(pilot, lambda: any("cannot take files" in n.message for n in app._notifications), what="said")
        assert [n.message for n in app._notifications] == ["LangGraph cannot take files (it has no uploads)."]
        assert composer.text == "abc" and not isinstance(app.screen, AttachScreen)
        await pilot.press("U")  # (typed in the composer: a letter)
        assert composer.text == "abcU"
