from threadbench.models import ThreadSummary
from threadbench.thread_filter import parse_filter


def test_structured_parts_go_to_the_query():
    flt = parse_filter('status:interrupted user=alice n=3 graph:agent "two words"')
    query = flt.query("updated_at", "desc", 50, 0)
    assert query.status == "interrupted"
    assert query.metadata == {"user": "alice", "n": 3}
    assert query.graph_id == "agent"
    assert flt.phrases == ["two words"] and flt.words == []  # quoted: searched inside conversations
    assert not flt.is_local  # the index names the threads; the server is asked for them by id


def test_only_plain_integers_and_literals_are_not_strings():
    flt = parse_filter("a=12 b=56215e2024 c=true d=007 e=null f=1.5")
    assert flt.metadata == {"a": 12, "b": "56215e2024", "c": True, "d": "007", "e": None, "f": "1.5"}


def test_unknown_status_is_reported_not_sent():
    flt = parse_filter("status:sleeping")
    assert flt.status is None
    assert "unknown status" in flt.problems[0]


def test_free_text_and_id_prefix_match_locally():
    thread = ThreadSummary(thread_id="3f2a0000-aaaa", title="Research on Penguins")
    assert parse_filter("penguins").matches(thread)
    assert parse_filter("id:3F2A").matches(thread)
    assert not parse_filter("id:ffff").matches(thread)
    assert not parse_filter("penguins whales").matches(thread)


def test_odd_characters_do_not_break_parsing():
    for text in ['"unbalanced', "[bold]x[/]", "key=", "=value", "status:", "\x1b[31m", "\u202e rtl"]:
        flt = parse_filter(text)
        flt.query("updated_at", "desc", 10, 0)
