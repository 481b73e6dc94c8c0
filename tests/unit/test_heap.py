"""heap.give_back: the allocator's free pages go back to the system (glibc's malloc_trim)."""

from __future__ import annotations

import os
import sys

import pytest
from threadbench.ui import heap


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(heap._TRIM is None, reason="no glibc here: give_back does nothing")
def test_freed_memory_goes_back_to_the_system():
    # 40 MB in pieces of 8 kB: glibc serves them from its heap, not from their own mappings
    pieces = [bytearray(8192) for _ in range(5_000)]
    pinned = pieces[-1]  # the heap's top stays in use, so free() alone cannot shrink it
    del pieces
    before = rss_bytes()
    assert heap.give_back()
    assert before - rss_bytes() > 20 * 2**20
    assert pinned


@pytest.mark.skipif(sys.platform.startswith("linux"), reason="elsewhere only")
def test_without_glibc_it_says_it_did_nothing():
    assert heap._TRIM is None and not heap.give_back()
