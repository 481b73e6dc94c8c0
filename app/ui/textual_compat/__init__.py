"""Every reach into Textual's private parts, in one place: nothing else in the app names one
(tests/unit/test_textual_private.py and the import contracts keep it so).

Each reach was written for Textual WRITTEN_FOR and says why it is here. On another version of
Textual, or with THREADBENCH_TEXTUAL_COMPAT=off in the environment, none of them is used: the
app runs on Textual's public behaviour alone (a little slower, and a crash report with its local
variables), and the test suite is run once that way (README, "Run the tests").
"""

from __future__ import annotations

import os
from functools import cache
from importlib.metadata import version

WRITTEN_FOR = "8.2.8"
SWITCH = "THREADBENCH_TEXTUAL_COMPAT"


@cache
def active() -> bool:
    """The reaches are used: the Textual they were written for, and not switched off."""
    return os.environ.get(SWITCH, "on") != "off" and version("textual") == WRITTEN_FOR


def install() -> None:
    """The process-wide changes to Textual's classes (once; none when not active)."""
    if not active():
        return
    from .frame_timer import steady_frames
    from .lean_strips import lazy_strip_caches
    from .pastes import guard_pastes

    steady_frames()
    lazy_strip_caches()
    guard_pastes()
