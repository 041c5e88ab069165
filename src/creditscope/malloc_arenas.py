"""One C heap (malloc arena) for the explorer's threads, where the C library is glibc.

glibc gives a thread that allocates while another holds the heap an arena of its own
(up to eight per core), and memory freed there stays with that arena. The explorer
runs all day with several threads (the terminal's input and output, the store, the
sandbox, the client's builder), and each kept a few MB that the others could not
reuse: the process tree after the journey measured 134 MB with glibc's default and
127 MB with one arena (``benchmarks/memory_tree.py``). Python's small objects come
from its own allocator and are not affected; the threads that allocate at the same
time (SQLite and zlib on the store's thread) wait for one lock, briefly.
"""

from __future__ import annotations

import sys

M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)


def use_one_malloc_arena() -> bool:
    """Ask glibc for one arena; True when it agreed. Call before starting threads."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # a C library without mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_ARENA_MAX, 1))
