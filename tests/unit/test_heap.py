"""heap.give_back: the allocator's free pages go back to the system (glibc's malloc_trim)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from threadbench.ui import heap


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(heap._LIBC is None, reason="no glibc here: give_back does nothing")
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
    assert heap._LIBC is None and not heap.give_back()


ARENAS_SCRIPT = """
import ctypes, sys, threading
from threadbench.ui import heap
if sys.argv[1] == "one":
    assert heap.one_arena()
kept = []
threads = [threading.Thread(target=lambda: kept.append(bytearray(10_000))) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ctypes.CDLL("libc.so.6").malloc_stats()
"""


@pytest.mark.skipif(heap._LIBC is None, reason="no glibc here: one_arena does nothing")
@pytest.mark.parametrize(("mode", "one"), [("one", True), ("default", False)])
def test_with_one_arena_threads_allocate_from_the_main_one(mode, one):
    # glibc's malloc_stats prints an "Arena N:" block for each arena there is
    done = subprocess.run([sys.executable, "-c", ARENAS_SCRIPT, mode], capture_output=True, text=True, check=True)
    arenas = done.stderr.count("Arena ")
    assert (arenas == 1) if one else (arenas > 1), done.stderr
