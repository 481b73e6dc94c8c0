"""The main screen's modules made slow to load (shell.py), in a process that imported them
already: one more module for the app's loading thread to import, which waits until the test
lets it go (`held_load.let_go()`): a load exactly as slow as the test needs, not a sleep."""

from __future__ import annotations

import threading
import uuid

import pytest
from threadbench.ui import shell

LIMIT = 120.0
"""Seconds a load waits at most (a test that failed before letting it go: the fixture lets it go
as the test ends; this is the last resort that lets the process exit)."""


class HeldLoad:
    def __init__(self) -> None:
        self._gate = threading.Event()
        self.started = threading.Event()
        """The app's loading thread is importing the held module."""
        self.finished = threading.Event()
        """The held module's import is over (the loading thread goes on with the rest)."""

    def let_go(self) -> None:
        self._gate.set()

    def hold(self) -> None:
        """(Run by the held module, in the app's loading thread.)"""
        self.started.set()
        self._gate.wait(LIMIT)
        self.finished.set()


_held: dict[str, HeldLoad] = {}


def hold(name: str) -> None:
    _held[name].hold()


def hold_main_screen_load(tmp_path, monkeypatch) -> HeldLoad:
    name = f"held_{uuid.uuid4().hex[:8]}"
    held = _held[name] = HeldLoad()
    (tmp_path / f"{name}.py").write_text(f"from support.loading import hold\n\nhold({name!r})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(shell, "MAIN_SCREEN_MODULES", (*shell.MAIN_SCREEN_MODULES, name))
    monkeypatch.setattr(shell, "_loaded", False)
    return held


@pytest.fixture
def held_load(tmp_path, monkeypatch):
    """The main screen's load, held until `let_go()` (and let go as the test ends)."""
    held = hold_main_screen_load(tmp_path, monkeypatch)
    yield held
    held.let_go()
