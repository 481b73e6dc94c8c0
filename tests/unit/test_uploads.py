"""A path typed to attach: completed from the file system, checked against the server's limits
(each refusal one sentence that says why)."""

from __future__ import annotations

from pathlib import Path

from threadbench.models import UploadLimits
from threadbench.uploads import Attachment, attachment_for, complete_path, limits_text

LIMITS = UploadLimits(max_files=2, max_file_size=100, max_total_size=150)


def test_a_path_completes_to_the_folders_first_name(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    (tmp_path / "readme.md").write_text("x")
    (tmp_path / ".hidden").write_text("x")
    base = str(tmp_path) + "/"
    assert complete_path(base + "rep") == base + "reports/"
    assert complete_path(base + "rea") == base + "readme.md"
    assert complete_path(base + "readme.md") is None  # complete already
    assert complete_path(base + "zz") is None
    assert complete_path(base + ".h") == base + ".hidden"
    assert complete_path(base) in (base + "readme.md", base + "reports/")  # (hidden names only when typed so)
    assert complete_path(str(tmp_path / "nowhere" / "x")) is None
    assert complete_path("") is None


def test_a_file_is_checked_against_the_limits(tmp_path: Path) -> None:
    small, big = tmp_path / "small.txt", tmp_path / "big.txt"
    small.write_bytes(b"x" * 60)
    big.write_bytes(b"x" * 101)
    found = attachment_for(str(small), [], LIMITS)
    assert found == Attachment(small, 60)
    assert attachment_for(str(big), [], LIMITS) == "big.txt is 101 bytes: the server takes files of at most 100 bytes."
    assert attachment_for(str(small), [Attachment(small, 60)], LIMITS) == "small.txt is attached already."
    other = tmp_path / "other.txt"
    other.write_bytes(b"y" * 100)
    assert attachment_for(str(other), [Attachment(small, 60)], LIMITS) == (
        "With other.txt the files come to 160 bytes: the server takes at most 150 bytes a message."
    )
    two = [Attachment(tmp_path / "a", 1), Attachment(tmp_path / "b", 1)]
    assert attachment_for(str(small), two, LIMITS) == (
        "The server takes at most 2 files a message: remove one first (ctrl+l)."
    )
    assert attachment_for(str(big), [], None) == Attachment(big, 101)  # no limits said: the server checks
    assert attachment_for(str(tmp_path), [], LIMITS) == f"{tmp_path} is not a file (tab completes a folder's names)."
    assert attachment_for(str(tmp_path / "gone.txt"), [], LIMITS) == f"There is no file at {tmp_path / 'gone.txt'}."
    assert attachment_for("  ", [], LIMITS) == "Type the path of a file."
    assert limits_text(LIMITS) == "Up to 2 files a message, 100 bytes each, 150 bytes in all; any type."
