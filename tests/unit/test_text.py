from datetime import UTC, datetime, timedelta

from threadbench.artifacts import listed
from threadbench.ui.text import clean, one_line, plain, relative_time
from threadbench.ui.thread_export import path_lines


def test_control_characters_become_visible():
    assert clean("a\x1b[31mb\x07") == "a\u241b[31mb\u2407"
    assert clean("tab\tnew\nline") == "tab\tnew\nline"
    assert "\x9b" not in clean("csi\x9b")


def test_markup_is_never_parsed():
    content = plain("[bold]x[/] [@click=app.quit]q[/]")
    assert content.plain == "[bold]x[/] [@click=app.quit]q[/]"
    assert not content.spans


def test_one_line_and_relative_time():
    assert one_line("a\n  b", 10) == "a b"
    assert one_line("x" * 20, 10) == "x" * 9 + "…"
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert relative_time(now - timedelta(minutes=5), now) == "5m"
    assert relative_time(now - timedelta(days=2), now) == "2d"
    assert relative_time(None, now) == ""


def test_a_path_is_broken_into_lines_after_its_slashes() -> None:
    path = "/tmp/exports/a-rather-long-folder-name/another-level/export-me-please.md"
    assert path_lines(path, 30) == "/tmp/exports/\na-rather-long-folder-name/\nanother-level/\nexport-me-please.md"
    assert path_lines(path, 200) == path and path_lines("thread.md", 5) == "thread.md"


def test_a_listed_path_keeps_its_name_whole_and_shortens_its_folder() -> None:
    assert listed("/mnt/user-data/outputs/report.md", 36) == ("/mnt/user-data/outputs/", "report.md")
    assert listed("/mnt/user-data/outputs/research-notes.md", 36) == ("…user-data/outputs/", "research-notes.md")
    assert listed("/a/" + "x" * 40 + ".md", 36) == ("", "x" * 40 + ".md")
