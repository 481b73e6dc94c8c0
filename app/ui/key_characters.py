"""The characters of six keys Textual 8.2.8 cannot name.

Textual hides a screen's binding from the footer while a focused Input or TextArea would
take its key as typed text, asking `key_to_character` which character a key types. It looks
the key's name up in Unicode, and six names are not Unicode's: "slash" is SOLIDUS, "minus"
HYPHEN-MINUS, and so on. So "/ Search" showed in the footer while the composer had focus,
where / types a slash. Naming them in Textual's table fixes every such check at once.
"""

from __future__ import annotations

from textual import keys

MISSING = {
    "plus": "PLUS SIGN",
    "minus": "HYPHEN-MINUS",
    "slash": "SOLIDUS",
    "at": "COMMERCIAL AT",
    "backslash": "REVERSE SOLIDUS",
    "underscore": "LOW LINE",
}

for _key, _name in MISSING.items():
    keys.KEY_TO_UNICODE_NAME.setdefault(_key, _name)
