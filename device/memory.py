"""The daemon's native memory, kept small and flat from start-up.

Two settings, measured under a full table (bench/load.py; figures in
docs/experiments/2026-12-daemon-memory.md):

- OpenBLAS starts a thread pool as it loads, one thread per core beyond the first, and
  numpy's and OpenCV's wheels each bring their own copy; the box never uses them: the
  dice reader's nets run on OpenCV's own threads (its speed is the same with one BLAS
  thread) and the cards reader already pins BLAS to one thread (``vision.cards.read``).
  ``OPENBLAS_NUM_THREADS`` is read only as the library loads, so it is set when this
  module is imported, which ``device.cli`` does before anything imports numpy; a value
  set by the caller is kept.
- glibc gives threads that allocate at the same moment arenas of their own (up to eight
  per core), each keeping what was freed into it.  The daemon runs some 40 threads (32
  waitress workers), which took 15 arenas between them under load; Python threads take
  turns under the GIL, so they seldom wait for a shared one (``ARENAS``).  Set with
  ``mallopt`` rather than ``MALLOC_ARENA_MAX`` in the environment, so that it holds
  however the box is started; it must run before the daemon starts its threads, since a
  thread keeps the arena it first took.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os

log = logging.getLogger("familiar")

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

M_ARENA_MAX = -8
"""glibc's malloc.h."""
ARENAS = 2
"""The main arena and one more, shared by all other threads (as ``MALLOC_ARENA_MAX=2``)."""


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Cap glibc's malloc arenas; False (and a debug line) where the C library is not
    glibc or refuses, and the box runs on with glibc's default."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        done = bool(libc.mallopt(M_ARENA_MAX, arenas))
    except (OSError, AttributeError):
        done = False
    if not done:
        log.debug("malloc arenas not capped: the C library is not glibc")
    return done
