"""Two conversations aligned turn by turn; the words that differ; fan-out option sets."""

from __future__ import annotations

import pytest
from threadbench.compare import (
    OptionSetError,
    align,
    option_set_problem,
    option_set_text,
    parse_option_set,
    split_turns,
    word_marks,
)
from threadbench.models import ChatMessage, ToolCall
from threadbench.run_options import DEERFLOW_FIELDS, OptionField


def human(text: str, id: str = "") -> ChatMessage:
    return ChatMessage(id=id or f"h-{text}", type="human", text=text)


def ai(text: str, id: str = "", calls: list[ToolCall] | None = None) -> ChatMessage:
    return ChatMessage(id=id or f"a-{text}", type="ai", text=text, tool_calls=calls or [])


def kinds(alignment) -> list[list[str]]:
    return [[row.kind for row in turn.rows] for turn in alignment.turns]


def test_turns_start_at_each_human_message_and_hidden_ones_are_left_out():
    messages = [
        ChatMessage(id="s", type="system", text="be brief"),
        human("one"),
        ai("1"),
        ChatMessage(id="x", type="human", text="reminder", hidden=True),
        human("two"),
        ai("2"),
    ]
    assert [[m.id for m in turn] for turn in split_turns(messages)] == [["s"], ["h-one", "a-1"], ["h-two", "a-2"]]


def test_the_same_conversation_is_equal_everywhere():
    messages = [human("hello"), ai("hi"), human("more"), ai("sure")]
    alignment = align(messages, list(messages))
    assert kinds(alignment) == [["equal", "equal"], ["equal", "equal"]]
    assert alignment.same
    assert alignment.summary() == "2 turns · 4 equal"


def test_two_forks_share_a_prefix_then_differ():
    shared = [human("hello", "h1"), ai("hi", "a1")]
    left = [*shared, human("plan it", "h2"), ai("a plan", "a2")]
    right = [*shared, human("plan it", "h9"), ai("another plan", "a9"), human("thanks", "h10"), ai("ok", "a10")]
    alignment = align(left, right)
    assert kinds(alignment) == [["equal", "equal"], ["equal", "changed"], ["right", "right"]]
    turn = alignment.turns[1]
    assert (turn.rows[1].left.text, turn.rows[1].right.text) == ("a plan", "another plan")
    assert [t.kind for t in alignment.turns] == ["equal", "changed", "right"]
    assert [t.number for t in alignment.turns] == [1, 2, 3]


def test_same_id_other_content_is_changed_and_an_edited_question_stays_in_place():
    left = [human("what is 2+2", "h1"), ai("4", "a1")]
    right = [human("what is 3+3", "h2"), ai("6", "a2")]
    assert kinds(align(left, right)) == [["changed", "changed"]]
    edited = [human("what is 2+2", "h1"), ai("four", "a1")]
    assert kinds(align(left, edited)) == [["equal", "changed"]]


def test_a_turn_only_one_side_has():
    left = [human("a"), ai("1"), human("b"), ai("2"), human("c"), ai("3")]
    right = [human("a"), ai("1"), human("c"), ai("3")]
    alignment = align(left, right)
    assert kinds(alignment) == [["equal", "equal"], ["left", "left"], ["equal", "equal"]]
    assert alignment.turns[1].kind == "left"
    assert "2 only left" in alignment.summary()


def test_extra_tool_messages_inside_a_turn_are_only_on_their_side():
    call = ToolCall(id="c1", name="search", args={"q": "x"})
    left = [
        human("go"),
        ai("", "l1", [call]),
        ChatMessage(id="t1", type="tool", name="search", text="found"),
        ai("done"),
    ]
    right = [human("go"), ai("done")]
    assert kinds(align(left, right)) == [["equal", "left", "left", "equal"]]


def test_tool_call_arguments_make_a_message_differ():
    left = [human("go"), ai("", "x1", [ToolCall(name="search", args={"q": "a"})])]
    right = [human("go"), ai("", "x2", [ToolCall(name="search", args={"q": "b"})])]
    assert kinds(align(left, right)) == [["equal", "changed"]]


def test_empty_sides():
    assert align([], []).turns == []
    assert kinds(align([], [human("x")])) == [["right"]]


def test_word_marks_mark_only_the_words_that_differ():
    left, right = word_marks("the cat sat on the mat", "the dog sat on the mat")
    assert left == [("the ", False), ("cat", True), (" sat on the mat", False)]
    assert right == [("the ", False), ("dog", True), (" sat on the mat", False)]
    assert word_marks("same", "same") == ([("same", False)], [("same", False)])


def test_word_marks_of_very_long_or_unrelated_texts_mark_nothing():
    long = "word " * 5000
    assert word_marks(long, long + "more") == ([(long, False)], [(long + "more", False)])
    assert word_marks("a completely different answer", "nothing alike here at all") == (
        [("a completely different answer", False)],
        [("nothing alike here at all", False)],
    )


def test_the_replies_that_end_a_turn_face_each_other():
    call = ToolCall(id="c1", name="write_todos", args={})
    left = [human("go", "h1"), ai("a short reply", "l1")]
    right = [
        human("go", "h2"),
        ai("", "r1", [call]),
        ChatMessage(id="t1", type="tool", name="write_todos", text="ok"),
        ai("a longer reply", "r3"),
    ]
    rows = align(left, right).turns[0].rows
    assert [row.kind for row in rows] == ["equal", "right", "right", "changed"]
    assert (rows[3].left.text, rows[3].right.text) == ("a short reply", "a longer reply")


def test_option_sets_read_and_written():
    assert parse_option_set("model_name=demo-fast reasoning_effort=high thinking_enabled n=3 t=0.5") == {
        "model_name": "demo-fast",
        "reasoning_effort": "high",
        "thinking_enabled": True,
        "n": 3,
        "t": 0.5,
    }
    assert parse_option_set("") == {}
    assert parse_option_set("flag=false name='two words'") == {"flag": False, "name": "two words"}
    values = {"model_name": "two words", "thinking_enabled": True, "plan": False, "n": 3}
    assert parse_option_set(option_set_text(values)) == values


@pytest.mark.parametrize("text", ["=x", "a=1 =2", "[bold]=1", "a='unclosed"])
def test_option_sets_that_cannot_be_read_say_why(text):
    with pytest.raises(OptionSetError):
        parse_option_set(text)


def test_option_sets_are_checked_against_the_fields_the_graph_declares():
    fields = [*DEERFLOW_FIELDS, OptionField("temperature", "number")]
    assert option_set_problem({"thinking_enabled": True, "reasoning_effort": "high", "temperature": 0.2}, fields) == ""
    assert option_set_problem({"unknown_key": "anything"}, fields) == ""
    assert "true or false" in option_set_problem({"thinking_enabled": "maybe"}, fields)
    assert "one of minimal, low, medium, high" in option_set_problem({"reasoning_effort": "extreme"}, fields)
    assert "a number" in option_set_problem({"temperature": "hot"}, fields)
