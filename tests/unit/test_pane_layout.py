"""Where the side panes go at a width (pane_layout.py): the chat keeps 40 columns at 80 and 60
at 120 whatever the person chose, a pane that does not fit lies over the chat, and the choice
is kept in the data dir (a file that cannot be read is the default, never a crash)."""

from __future__ import annotations

import pytest
from threadbench.ui.pane_layout import PANES, PaneChoice, load_choice, mode, pane_width, save_choice

CHOICES = [PaneChoice(sidebar, inspector) for sidebar in (True, False) for inspector in (True, False)]


def chat_width(width: int, choice: PaneChoice) -> int:
    return width - sum(pane_width(pane, width, choice, None) for pane in PANES)


@pytest.mark.parametrize("choice", CHOICES, ids=repr)
@pytest.mark.parametrize(
    ("width", "least"), [(80, 40), (100, 60), (120, 60), (139, 60), (140, 60), (150, 68), (200, 110)]
)
def test_the_chat_keeps_its_columns(choice: PaneChoice, width: int, least: int) -> None:
    assert chat_width(width, choice) >= least


@pytest.mark.parametrize("width", [30, 40, 50, 60, 65])
def test_below_66_columns_the_chat_has_the_whole_width(width: int) -> None:
    assert chat_width(width, PaneChoice()) == width


def test_each_pane_beside_where_it_fits_else_hidden_until_opened_over_the_chat() -> None:
    everything = PaneChoice()
    assert [mode(pane, 200, everything, None) for pane in PANES] == ["beside", "beside"]
    assert [mode(pane, 120, everything, None) for pane in PANES] == ["beside", "hidden"]
    assert [mode(pane, 60, everything, None) for pane in PANES] == ["hidden", "hidden"]
    assert mode("inspector", 120, everything, "inspector") == "over"
    assert mode("sidebar", 200, PaneChoice(sidebar=False), None) == "hidden"


def test_a_pane_over_the_chat_leaves_some_of_it_in_view_or_covers_it() -> None:
    everything = PaneChoice()
    assert pane_width("inspector", 120, everything, "inspector") == 52  # 38 columns of the chat still seen
    assert pane_width("inspector", 80, everything, "inspector") == 54  # the chat's 54: all of it
    assert pane_width("sidebar", 60, everything, "sidebar") == 60
    assert pane_width("sidebar", 30, everything, "sidebar") == 30


def test_the_choice_is_kept_and_a_bad_file_is_the_default(tmp_path) -> None:
    assert load_choice(tmp_path) == PaneChoice()
    save_choice(tmp_path, PaneChoice(sidebar=False, inspector=True))
    assert load_choice(tmp_path) == PaneChoice(sidebar=False, inspector=True)
    (tmp_path / "layout.json").write_text("{not json")
    assert load_choice(tmp_path) == PaneChoice()
    (tmp_path / "layout.json").write_text('{"sidebar": "no", "inspector": false}')
    assert load_choice(tmp_path) == PaneChoice(sidebar=True, inspector=False)
    save_choice(tmp_path / "missing" / "dir", PaneChoice())  # (not written: said in the log)
