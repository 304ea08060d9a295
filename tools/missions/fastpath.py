"""Start-up fast path: answer ``missions status`` on an unchanged tree without the heavy imports.

Importing typer, pydantic and the rest costs far more than reading a cached answer. The
answer of ``status`` depends only on the files of the workspace (mission YAML, Lean sources,
Lake files) and the tool's version, so a fingerprint of their paths, sizes and modification
times keys a stored result. Any change, or any option the fast path does not understand,
goes to the incremental path (:mod:`missions.incremental`; it compares files whose times
moved by content, so a fresh clone with the cache restored costs one read and hash of the
files) or the full command, which store a fresh result.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import os
import sys

from missions import SCANNER_VERSION, SETTINGS_FILE, __version__, code_fingerprint
from missions.cache import cache_dir_for
from missions.roots import (
    file_stamp,
    lean_file_stats,
    library_roots,
    locate_root,
    root_problem,
)

#: The stored answer: its fingerprint on the first line, then the exact ``--json`` output.
RESULT_FILE = "status-result.txt"


def fingerprint(
    root: str | os.PathLike[str],
    ids: list[str],
    stats: list[tuple[str, os.stat_result]] | None = None,
) -> str:
    """A key that changes whenever anything ``status`` reads changes (``stats``: the Lean
    files with their stat results, when the caller already has them)."""
    top = os.fspath(root)
    lake_files = (
        "lakefile.lean",
        "lakefile.toml",
        "lean-toolchain",
        "lake-manifest.json",
        SETTINGS_FILE,
    )
    paths = [os.path.join(top, name) for name in lake_files]
    paths.append(os.path.join(cache_dir_for(top), "witness-results.json"))  # witness column
    with os.scandir(os.path.join(top, "missions")) as entries:
        paths += sorted(e.path for e in entries if e.name.endswith((".yaml", ".yml")))
    parts = [f"{__version__}\0{SCANNER_VERSION}\0{code_fingerprint()}\0{top}\0{ids}"]
    for path in paths:
        try:
            stat = os.stat(path)
            # ctime too: `chmod` changes only it, and an unreadable YAML must not be answered
            parts.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}")
        except OSError:
            parts.append(f"{path}\0-")
    if stats is None:
        stats = lean_file_stats(top, library_roots(top))
    for path, stat in stats:
        parts.append(f"{path}\0{file_stamp(stat)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def store(root: str | os.PathLike[str], key: str, text: str) -> None:
    directory = cache_dir_for(os.fspath(root))
    try:
        os.makedirs(directory, exist_ok=True)
        tmp = os.path.join(directory, f"{RESULT_FILE}.{os.getpid()}.tmp")
        with open(tmp, "wb") as handle:
            handle.write(f"{key}\n{text}".encode())
        os.replace(tmp, os.path.join(directory, RESULT_FILE))  # key and answer never mix
    except OSError:
        pass


def lookup(root: str | os.PathLike[str], key: str) -> bytes | None:
    """The stored ``--json`` output (UTF-8) if it was made for exactly this fingerprint."""
    try:
        with open(os.path.join(cache_dir_for(os.fspath(root)), RESULT_FILE), "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    stored, _, text = data.partition(b"\n")
    return text if stored == key.encode() else None


def one_mission(whole: bytes, mission_id: str) -> bytes | None:
    """``status ID --json`` from the whole workspace's answer, or None for an unknown id.

    A mission's entry does not depend on which others are analysed with it, and with one
    mission chosen, the lint total is that mission's own count.
    """
    import json

    from missions.incremental import assemble, mission_text
    from missions.status import summary_of

    data = json.loads(whole.decode())
    entry = next((m for m in data["missions"] if m["id"] == mission_id), None)
    if entry is None:
        return None  # the full command says so, with a suggestion
    fields = {"root": data["root"], "evidence": data["evidence"], "summary": summary_of([entry])}
    if "lint" in data:
        fields["lint"] = entry["lint"]
    return assemble(fields, [mission_text(entry)]).encode()


def _parse(argv: list[str]) -> tuple[str | None, list[str], bool, bool] | None:
    """(root, ids, json, why) for a plain ``status`` invocation, else None."""
    if not argv or argv[0] != "status":
        return None
    root: str | None = None
    ids: list[str] = []
    as_json = why = False
    args = iter(argv[1:])
    for arg in args:
        if arg == "--json":
            as_json = True
        elif arg == "--why":
            why = True
        elif arg == "--root":
            value = next(args, None)
            if value is None:
                return None
            root = value
        elif arg.startswith("--root="):
            root = arg.removeprefix("--root=")
        elif arg.startswith("-"):
            return None
        else:
            ids.append(arg)
    return root, ids, as_json, why


def try_status(argv: list[str]) -> bool:
    """Answer ``status`` without the full command if it can; say whether it did.

    An unchanged tree is answered from the stored answer; a tree changed only in ways the
    incremental path can bound (:mod:`missions.incremental`) is answered by recomputing just
    the missions the change touches.
    """
    parsed = _parse(argv)
    if parsed is None:
        return False
    root_arg, ids, as_json, why = parsed
    root = locate_root(os.getcwd()) if root_arg is None else os.path.realpath(root_arg)
    if root is None or root_problem(root) is not None:
        return False
    try:
        libraries = library_roots(root)
        stats = lean_file_stats(root, libraries)
        key = fingerprint(root, ids, stats)
    except OSError:
        return False
    data = lookup(root, key)
    if data is None and len(ids) <= 1:
        whole = data if not ids else lookup(root, fingerprint(root, [], stats))
        if whole is None:
            from missions.incremental import status_text

            try:
                fresh = status_text(root, libraries, stats)
            except Exception:  # an optimization must never fail the command: take the full path
                if os.environ.get("MISSIONS_DEBUG"):
                    raise
                return False
            if fresh is None:
                return False
            store(root, key if not ids else fingerprint(root, [], stats), fresh)
            whole = fresh.encode()
        data = whole if not ids else one_mission(whole, ids[0])
    if data is None:
        return False
    if as_json:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return True
    import json

    from rich.console import Console

    from missions.render import print_status

    print_status(Console(highlight=False), json.loads(data.decode()), why=why)
    return True


def utf8_output() -> None:
    """Write UTF-8 whatever the locale says, as git and cargo do.

    JSON is UTF-8 by definition (RFC 8259), the stored fast-path output is UTF-8 bytes, and
    the messages hold dashes and mathematical names: in a C-locale container an ASCII stdout
    would turn the first of them into a crash.
    """
    for stream in (sys.stdout, sys.stderr):
        # a text wrapper's encoding is one its codec lookup already found
        if isinstance(stream, io.TextIOWrapper) and codecs.lookup(stream.encoding).name != "utf-8":
            stream.reconfigure(encoding="utf-8")


def ignore_interrupts() -> None:
    """For worker processes: the terminal sends Ctrl-C to them too; the parent answers it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main() -> None:
    """Console entry point: the fast path when it applies, else the full CLI."""
    from missions import own_interrupts

    own_interrupts()  # also when entered some other way than the command
    utf8_output()
    if try_status(sys.argv[1:]):
        return
    from missions.cli import main as cli_main

    cli_main()
