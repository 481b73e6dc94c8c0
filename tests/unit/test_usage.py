"""Token usage read from AI messages (LangChain's usage_metadata, on the message or in its
additional_kwargs, as the real Gateway's state carries it), summed once per message;
DeerFlow's uploads block kept out of the user's words; a proxy's HTML refusal said by its title."""

from __future__ import annotations

import json
from pathlib import Path

from threadbench.backends.langgraph.mapping import message_from_dict, token_usage
from threadbench.models import ChatMessage, TokenUsage
from threadbench.usage import token_count, total_usage, usage_text

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "gateway" / "recorded.json").read_text())


def recorded_state(name: str) -> dict:
    return next(e["answer"] for e in RECORDED if e["name"] == name)


def test_the_real_gateways_messages_carry_their_usage() -> None:
    messages = [message_from_dict(m) for m in recorded_state("threads: state")["values"]["messages"]]
    ai = [m for m in messages if m.type == "ai"]
    assert ai and all(m.usage is not None and m.usage.total_tokens > 0 for m in ai)
    assert all(m.usage is None for m in messages if m.type != "ai")
    total = total_usage(messages)
    assert total is not None and total.total_tokens == sum(m.usage.total_tokens for m in ai if m.usage)


def test_usage_in_additional_kwargs_counts_and_odd_fields_do_not() -> None:
    message = message_from_dict(
        {"type": "ai", "content": "x", "additional_kwargs": {"usage_metadata": {"input_tokens": 3, "output_tokens": 4}}}
    )
    assert message.usage == TokenUsage(input_tokens=3, output_tokens=4, total_tokens=7)
    assert token_usage({"input_tokens": "many"}) is None
    assert token_usage(None) is None
    assert message_from_dict({"type": "ai", "content": "x", "usage_metadata": {"tokens": 5}}).usage is None


def test_a_message_is_counted_once_and_a_run_apart() -> None:
    one = ChatMessage(id="a", type="ai", usage=TokenUsage(input_tokens=10, output_tokens=2, total_tokens=12))
    two = ChatMessage(id="b", type="ai", usage=TokenUsage(input_tokens=20, output_tokens=5, total_tokens=25))
    assert total_usage([one, one, two]) == TokenUsage(input_tokens=30, output_tokens=7, total_tokens=37)
    run = total_usage([one, two], skip=["a"])
    assert run == two.usage
    assert total_usage([ChatMessage(type="ai")]) is None
    assert usage_text(total_usage([one, two]), run) == "tokens 37 (30 in · 7 out) · last run 25"
    assert usage_text(None) == ""
    assert (token_count(1234), token_count(12345), token_count(12_345_678)) == ("1,234", "12.3K", "12.3M")


def test_deerflows_uploads_block_is_not_the_users_words() -> None:
    state = recorded_state("threads: state after a message with a file")
    human = [message_from_dict(m) for m in state["values"]["messages"] if m["type"] == "human"]
    assert [m.text for m in human] == ["read notes.txt"]
    assert human[0].additional_kwargs["files"][0]["path"] == "/mnt/user-data/uploads/notes.txt"


def test_a_proxys_html_refusal_is_said_by_its_title() -> None:
    """DeerFlow's nginx refused a 51 MB upload under /api/langgraph with an HTML page (measured)."""
    from threadbench.backends.http import refusal_words

    page = "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>…</body></html>"
    assert refusal_words(page) == "413 Request Entity Too Large"
    assert refusal_words("File too large: big.bin") == "File too large: big.bin"
    assert refusal_words({"detail": "Too many files: maximum is 10"}) == "Too many files: maximum is 10"
