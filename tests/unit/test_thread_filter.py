import pytest
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


@pytest.mark.parametrize(
    ("text", "words", "metadata", "phrases"),
    [
        ('"unbalanced', [], {}, ["unbalanced"]),
        ("[bold]x[/]", ["[bold]x[/]"], {}, []),
        ("key=", [], {"key": ""}, []),
        ("=value", ["=value"], {}, []),
        ("status:", ["status:"], {}, []),
        ("\x1b[31m", ["\x1b[31m"], {}, []),
        ("\u202e rtl", ["\u202e", "rtl"], {}, []),
    ],
)
def test_odd_characters_are_kept_as_typed(text, words, metadata, phrases):
    """Nothing typed is dropped or reinterpreted: it is a word, a phrase (quoted: searched inside
    conversations) or a metadata value, as typed."""
    flt = parse_filter(text)
    assert (flt.words, flt.metadata, flt.phrases, flt.problems) == (words, metadata, phrases, [])
    assert flt.query("updated_at", "desc", 10, 0).metadata == metadata


def test_an_unquoted_number_may_also_be_text():
    """`ticket=1234567890` asks for the number, and then for the text: a tag of digits is
    as often a string, and the server's metadata filter is exact (a test's random hex tag
    made only of digits went unfound, about one search in a hundred)."""
    flt = parse_filter('ticket=1234567890 n=-0 kept="12" ok=true')
    assert flt.metadata == {"ticket": 1234567890, "n": "-0", "kept": "12", "ok": True}
    as_text = flt.numbers_as_text()
    assert as_text is not None and as_text.as_text
    assert as_text.metadata == {"ticket": "1234567890", "n": "-0", "kept": "12", "ok": True}
    assert as_text.numbers_as_text() is None
    assert parse_filter('ticket="1234567890"').numbers_as_text() is None

    def thread(ticket):
        return ThreadSummary(thread_id="t", metadata={"ticket": ticket, "n": "-0", "kept": "12", "ok": True})

    # a thread made here joins the number's search either way; the text's only as text
    assert flt.admits(thread(1234567890)) and flt.admits(thread("1234567890"))
    assert as_text.admits(thread("1234567890")) and not as_text.admits(thread(1234567890))
    assert not flt.admits(ThreadSummary(thread_id="t", metadata={"ticket": "123456789", "n": "-0"}))
