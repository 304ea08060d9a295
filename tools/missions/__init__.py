"""Track, gate and report Lean 4 formalization missions.

The package is usable without Lean: statuses come from a source scan of the workspace
(evidence ``source``). Everything a command does lives in the library modules so it can be
tested and reused; :mod:`missions.cli` only parses arguments and prints.
"""

__version__ = "0.1.0"

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
