"""Track, gate and report Lean 4 formalization missions.

The package is usable without Lean: statuses come from a source scan of the workspace
(evidence ``source``). Everything a command does lives in the library modules so it can be
tested and reused; :mod:`missions.cli` only parses arguments and prints.
"""

import os as _os
import sys as _sys

__version__ = "0.1.0"


def _on_interrupt(signum: int, frame: object) -> None:
    """Ctrl-C: one line and exit 130, whatever was running (an import, a worker pool, a
    traceback being printed). Writes are never cut in half: :func:`missions.yamlio.
    atomic_write_text` holds signals back until its rename is done."""
    _os.write(2, b"missions: interrupted\n")
    _os._exit(130)


def _is_the_command() -> bool:
    """This process is the ``missions`` command (the console script or ``python -m``), not a
    program that imports the library: only then does the package own Ctrl-C."""
    first = _sys.argv[0] if _sys.argv else ""
    return first == "-m" or _os.path.basename(first) in ("missions", "missions.exe")


def own_interrupts() -> None:
    """Answer Ctrl-C with :func:`_on_interrupt`, unless whoever started us ignores it (a
    background job, ``nohup``): then it stays ignored."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_interrupt)


def ignore_interrupts() -> None:
    """For worker processes: the terminal sends Ctrl-C to them too; the parent answers it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Whether this process is the ``missions`` command; decided on import, while ``python -m``
#: still shows in ``sys.argv``. Only the command owns Ctrl-C and the way the process exits.
IS_THE_COMMAND = _is_the_command()

if IS_THE_COMMAND:  # as early as the package can: imports are most of a short run
    own_interrupts()

#: The project's settings at the workspace root (:mod:`missions.settings`); every cached answer
#: depends on it, since a full run refuses a bad one.
SETTINGS_FILE = "missions.yaml"

#: Bump whenever scan results change shape or meaning; it keys every cache.
SCANNER_VERSION = "10"


def code_fingerprint() -> str:
    """The package's own files by name, size and modification time: a stored answer is only
    reused by the code that wrote it (an edited checkout, a patched install, a new field in
    the JSON), not only by the same version number. Stat-based, so it costs no reading."""
    import hashlib
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    parts: list[str] = []
    for folder, dirs, files in os.walk(here):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".json")):
                stat = os.stat(os.path.join(folder, name))
                parts.append(f"{folder}/{name}\0{stat.st_size}\0{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
