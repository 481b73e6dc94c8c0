"""Giving freed memory back to the system after a full collection, and how much it holds.

What Python frees goes back to C's allocator, and glibc's keeps most of it: a long session
of streamed replies (each builds and drops thousands of widgets, strips and strings) grew
the process by about 2 MB a reply, of which tracemalloc found a tenth still in use.
`malloc_trim` returns the free pages; after a full collection, when the user is idle, it
takes under a millisecond and halved the growth of a soak (bench/soak.py; README).
On a system without glibc (macOS, musl) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from collections.abc import Callable


def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _malloc_trim()


def give_back() -> bool:
    """Return the allocator's free memory to the system; False where that cannot be done."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


def _statm_reader() -> Callable[[], float | None]:
    page_mb = os.sysconf("SC_PAGE_SIZE") / 2**20

    def read() -> float | None:
        try:
            with open("/proc/self/statm", "rb") as statm:
                return int(statm.read().split()[1]) * page_mb
        except (OSError, ValueError, IndexError):
            return None

    return read


def _peak() -> float | None:
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes there, KB elsewhere


_RESIDENT = _statm_reader() if sys.platform.startswith("linux") else _peak


def resident_mb() -> float | None:
    """The process's resident memory in MB (Linux); elsewhere the most it ever held (which
    grows with it); None where neither can be read."""
    return _RESIDENT()
