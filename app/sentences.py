"""Text said to a person as whole sentences: one paragraph, on one line, ending as a sentence
ends (bad start-up input, start_checks.py; the embedded server's words, embedded/failure.py)."""

from __future__ import annotations

import re


def whole_sentences(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip().rstrip(":;,")
    return text if text.endswith((".", "!", "?")) else f"{text}."
