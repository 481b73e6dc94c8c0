"""The main screen's modules made slow to load (shell.py), in a process that imported them
already: one more module for the app's loading thread to import, which sleeps."""

from __future__ import annotations

import uuid

from threadbench.ui import shell


def slow_main_screen_load(tmp_path, monkeypatch, seconds: float) -> None:
    name = f"slow_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(f"import time\ntime.sleep({seconds})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(shell, "MAIN_SCREEN_MODULES", (*shell.MAIN_SCREEN_MODULES, name))
    monkeypatch.setattr(shell, "_loaded", False)
