"""Tests of textual_compat's reaches: skipped when they are off (THREADBENCH_TEXTUAL_COMPAT=off,
or another Textual), as the suite's second pass runs them."""

import pytest
from threadbench.ui.textual_compat import SWITCH, WRITTEN_FOR, active

needs_compat = pytest.mark.skipif(
    not active(), reason=f"textual_compat is off ({SWITCH}=off, or a Textual other than {WRITTEN_FOR})"
)
