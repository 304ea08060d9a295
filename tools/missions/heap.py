"""Memory a large run has freed, handed back to the system between its phases.

Decoding every scan of a workspace, or walking every proof, allocates and frees far more
than the run keeps: glibc's allocator holds the freed pages inside its heap, where they
count towards the peak of every later phase and of each forked child, which shares the
parent's pages as they were. Measured at 2,000 missions (1.3 million lines), trimming after
the workspace is loaded and after the walks are let go lowered the peak resident size by 14
to 27 MB (from 342 MB) and each forked lint part's by 10 to 22 MB (from 270 MB), at a
millisecond a call.
Elsewhere (another C library, another system) nothing is done.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable


@functools.cache
def _trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # a hundredth of a second: only where memory is given back

    try:
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim  # glibc's soname
    except (OSError, AttributeError):  # musl and other C libraries have no malloc_trim
        return None
    return trim


def release_free_memory() -> None:
    """Return the heap's free pages to the system (glibc's ``malloc_trim``)."""
    trim = _trim()
    if trim is not None:
        trim(0)


#: What the command leaves without freeing (:func:`outlive`).
_outliving: list[object] = []


def outlive(value: object) -> None:
    """Keep ``value`` to the end of the process when the process is the ``missions``
    command. The command leaves without tearing the interpreter down
    (:func:`missions.fastpath.leave`); freeing an analysis of 2,000 missions one object at a
    time when the command returned took 0.2 s, and nothing reads its memory after. A program
    that imports the library frees it as usual."""
    from missions import IS_THE_COMMAND

    if IS_THE_COMMAND:
        _outliving.append(value)
