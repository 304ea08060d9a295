"""Work in a forked child process, its result handed back through a pipe.

The analysis commands hold the whole workspace in memory; a forked child sees all of it
without copying or pickling anything on the way in, so independent parts of a command (the
lint beside the analysis, dashboard pages side by side) run on every core. Only the result
travels, pickled. A child that fails for any reason hands back nothing: the caller does
that part itself, so a fault, and a bad input in particular, is reported by the process the
user started, exactly as a sequential run reports it.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Most children a command starts: beyond a few, each child's share no longer pays for
#: what every child repeats (reading a cache, parsing shared files).
MOST_CHILDREN = 4


def cores() -> int:
    """How many parts a command splits its work into."""
    return max(1, min(os.cpu_count() or 1, MOST_CHILDREN))


def split(items: list[T], parts: int) -> list[list[T]]:
    """``items`` in at most ``parts`` contiguous runs of nearly equal length."""
    size = -(-len(items) // max(parts, 1)) if items else 1
    return [items[i : i + size] for i in range(0, len(items), size)] or [items]


def start(work: Callable[[], T]) -> Callable[[], T | None]:
    """Run ``work`` in a forked child; the returned function waits for it and gives its
    result, or ``None`` if the child failed (or could not be started: no ``fork``)."""
    fork = getattr(os, "fork", None)
    if fork is None:
        return lambda: None
    read, write = os.pipe()
    try:
        pid = fork()
    except OSError:
        os.close(read)
        os.close(write)
        return lambda: None
    if pid == 0:  # the child: work, send the result, and leave without running any cleanup
        code = 1
        try:
            os.close(read)
            data = pickle.dumps(work())
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write)

    def result() -> T | None:
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        if status != 0 or not data:
            return None
        found: T = pickle.loads(data)
        return found

    return result
