"""Fixtures for UI tests: no cursor blink, so snapshots are the same every run."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea


@pytest.fixture(autouse=True)
def no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in (Input, TextArea):
        original = cls.__init__

        def init(self, *args, __original=original, __cls=cls, **kwargs):
            __original(self, *args, **kwargs)
            self.set_reactive(__cls.cursor_blink, False)

        monkeypatch.setattr(cls, "__init__", init)
