"""One writer at a time: the lock every command that rewrites mission files holds.

``pin``, ``sync`` and ``new`` read a mission file, change it and write it back. Two of them
running at once would each write their own version and one change would be lost while
both report success. Each therefore holds an exclusive ``flock`` on the workspace's
``missions/`` directory for its whole read-modify-write cycle and reads the files only after
it has the lock. The operating system drops the lock when its holder exits, however it
exits, so a killed process never leaves the workspace locked, and no lock file is created.
Where ``flock`` is unavailable (Windows) the lock is a no-op.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from missions.errors import InputError
from missions.yamlio import remove_stale_temporaries

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; writes stay atomic, not serialized
    fcntl = None  # type: ignore[assignment]

#: How long a writer waits for another one before giving up.
DEFAULT_TIMEOUT = 120.0
#: How long it waits quietly before saying that it waits.
QUIET_WAIT = 1.0


def _notice(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


@contextmanager
def workspace_lock(
    root: Path,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    notice: Callable[[str], None] = _notice,
) -> Iterator[None]:
    """Hold the exclusive write lock of the workspace at ``root`` for the block.

    Waits up to ``timeout`` seconds for another writer (saying so after a second), then
    raises :class:`InputError`. On entry it also removes temporary files that a writer
    killed mid-write left in ``missions/`` (no writer can be mid-write while we hold it).
    """
    directory = root / "missions"
    if fcntl is None:
        yield
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError as exc:
        raise InputError.single(
            directory, 1, f"cannot open the missions directory: {exc.strerror}"
        ) from None
    try:
        _acquire(fd, directory, timeout, notice)
        remove_stale_temporaries(directory)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _acquire(fd: int, directory: Path, timeout: float, notice: Callable[[str], None]) -> None:
    assert fcntl is not None
    start = time.monotonic()
    said = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        except OSError as exc:  # a file system without flock: writes stay atomic
            notice(f"{directory}: cannot lock ({exc.strerror}); not guarding concurrent writes")
            return
        waited = time.monotonic() - start
        if waited >= timeout:
            raise InputError.single(
                directory,
                1,
                f"another missions command has been writing for {waited:.0f} s; "
                "try again when it is done",
            )
        if waited >= QUIET_WAIT and not said:
            notice(f"waiting for another missions command writing to {directory} ...")
            said = True
        time.sleep(0.05)
