"""Every printable key Textual names has its character, so a focused Input or TextArea
hides the bindings of the keys it would type (key_characters)."""

from __future__ import annotations

import string

from textual.keys import _character_to_key, key_to_character
from threadbench.ui import key_characters


def test_every_printable_key_types_its_character():
    assert key_characters.MISSING  # (imported: the names are in Textual's table)
    for character in string.printable.strip():
        assert key_to_character(_character_to_key(character)) == character, character
