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

M_ARENA_MAX = -8
"""mallopt's parameter for the number of arenas (glibc's malloc.h)."""


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.malloc_trim.restype = ctypes.c_int
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        libc.mallopt.restype = ctypes.c_int
    except (OSError, AttributeError):  # not glibc
        return None
    return libc


_LIBC = _glibc()


def one_arena() -> bool:
    """Have every thread allocate from one arena (call it before threads are started).

    glibc gives each thread that allocates at once with another an arena of its own; the
    threads that parse the server's answers kept the strings of a session's replies in
    theirs, among freed ones, where a trim cannot give whole pages back. With one arena a
    soak of 40 replies grew by 3.7-4.0 MB instead of 4.6-5.1 (bench/soak.py). The app's
    threads allocate holding the GIL, as Python code does, so they take turns anyway."""
    return _LIBC is not None and _LIBC.mallopt(M_ARENA_MAX, 1) == 1


def give_back() -> bool:
    """Return the allocator's free memory to the system; False where that cannot be done."""
    if _LIBC is None:
        return False
    _LIBC.malloc_trim(0)
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
