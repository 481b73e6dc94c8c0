"""SharedMessages: a message dict read again gives back the message read before."""

from __future__ import annotations

import gc

from threadbench.backends.langgraph.mapping import state_from_dict
from threadbench.backends.langgraph.shared_messages import SharedMessages


def message(id: str, content: str, kind: str = "ai") -> dict:
    return {"id": id, "type": kind, "content": content, "additional_kwargs": {}}


def checkpoint(*messages: dict, title: str = "") -> dict:
    return {"values": {"messages": list(messages), "title": title}, "checkpoint": {"checkpoint_id": title or "x"}}


def test_checkpoints_that_repeat_a_message_share_it_and_its_dict():
    shared = SharedMessages()
    older = state_from_dict(checkpoint(message("a", "hi", "human"), title="1"), "t", shared)
    newer = state_from_dict(checkpoint(message("a", "hi", "human"), message("b", "hello"), title="2"), "t", shared)
    assert newer.messages[0] is older.messages[0]
    assert newer.values["messages"][0] is older.values["messages"][0]
    assert [m.text for m in newer.messages] == ["hi", "hello"] and newer.messages[1].type == "ai"
    assert newer.values["title"] == "2"


def test_a_message_that_changed_is_read_again():
    shared = SharedMessages()
    first = state_from_dict(checkpoint(message("a", "draft")), "t", shared)
    edited = state_from_dict(checkpoint(message("a", "final")), "t", shared)
    again = state_from_dict(checkpoint(message("a", "final")), "t", shared)
    assert first.messages[0].text == "draft" and edited.messages[0].text == "final"
    assert again.messages[0] is edited.messages[0]


def test_messages_without_an_id_are_not_shared():
    shared = SharedMessages()
    one = state_from_dict(checkpoint({"type": "human", "content": "hi"}), "t", shared)
    two = state_from_dict(checkpoint({"type": "human", "content": "hi"}), "t", shared)
    assert one.messages[0] == two.messages[0] and one.messages[0] is not two.messages[0]
    assert len(shared) == 0


def test_a_message_no_state_holds_is_forgotten():
    shared = SharedMessages()
    state = state_from_dict(checkpoint(message("a", "x" * 10_000), message("b", "y")), "t", shared)
    assert len(shared) == 2
    del state
    gc.collect()
    assert len(shared) == 0


def test_a_bare_list_of_messages_and_odd_items():
    shared = SharedMessages()
    items = [message("a", "hi"), ("user", "pair"), 7]
    messages = shared.read_values(items)
    assert [m.text for m in messages] == ["hi", "pair", "7"]
    assert [m.text for m in shared.read_values(tuple(items))] == ["hi", "pair", "7"]
    assert shared.read_values({"messages": None}) == [] and shared.read_values(None) == []
