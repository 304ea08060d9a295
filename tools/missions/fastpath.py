"""Start-up fast path: answer ``missions status`` on an unchanged tree without the heavy imports.

Importing typer, pydantic and the rest costs far more than reading a cached answer. The
answer of ``status`` depends only on the files of the workspace (mission YAML, Lean sources,
Lake files) and the tool's version, so a fingerprint of their paths, sizes and modification
times keys a stored result. Any change to any input, or any option the fast path does not
understand, falls through to the full command, which stores a fresh result.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from missions import SCANNER_VERSION, __version__
from missions.cache import default_cache_dir
from missions.errors import InputError
from missions.roots import check_root, find_root, iter_lean_files, library_roots

#: The stored answer: its fingerprint on the first line, then the exact ``--json`` output.
RESULT_FILE = "status-result.txt"


def fingerprint(root: Path, ids: list[str]) -> str:
    """A key that changes whenever anything ``status`` reads changes."""
    top = str(root)
    paths = [
        os.path.join(top, n) for n in ("lakefile.lean", "lean-toolchain", "lake-manifest.json")
    ]
    with os.scandir(os.path.join(top, "missions")) as entries:
        paths += sorted(e.path for e in entries if e.name.endswith((".yaml", ".yml")))
    paths += iter_lean_files(top, library_roots(root))
    parts = [f"{__version__}\0{SCANNER_VERSION}\0{root}\0{ids}"]
    for path in paths:
        try:
            stat = os.stat(path)
            parts.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
        except OSError:
            parts.append(f"{path}\0-")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def store(root: Path, key: str, text: str) -> None:
    directory = default_cache_dir(root)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp = directory / f"{RESULT_FILE}.{os.getpid()}.tmp"
        tmp.write_bytes(f"{key}\n{text}".encode())
        os.replace(tmp, directory / RESULT_FILE)  # one file, so key and answer never mix
    except OSError:
        pass


def lookup(root: Path, key: str) -> bytes | None:
    """The stored ``--json`` output (UTF-8) if it was made for exactly this fingerprint."""
    try:
        data = (default_cache_dir(root) / RESULT_FILE).read_bytes()
    except OSError:
        return None
    stored, _, text = data.partition(b"\n")
    return text if stored == key.encode() else None


def _parse(argv: list[str]) -> tuple[Path | None, list[str], bool, bool] | None:
    """(root, ids, json, why) for a plain ``status`` invocation, else None."""
    if not argv or argv[0] != "status":
        return None
    root: Path | None = None
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
            root = Path(value)
        elif arg.startswith("--root="):
            root = Path(arg.removeprefix("--root="))
        elif arg.startswith("-"):
            return None
        else:
            ids.append(arg)
    return root, ids, as_json, why


def try_status(argv: list[str]) -> bool:
    """Print a cached ``status`` answer if the tree is unchanged; say whether it did."""
    parsed = _parse(argv)
    if parsed is None:
        return False
    root_arg, ids, as_json, why = parsed
    try:
        root = check_root(root_arg) if root_arg is not None else find_root(Path.cwd())
        text = lookup(root, fingerprint(root, ids))
    except (InputError, OSError):
        return False
    if text is None:
        return False
    if as_json:
        sys.stdout.flush()
        sys.stdout.buffer.write(text)
        sys.stdout.buffer.flush()
        return True
    import json

    from rich.console import Console

    from missions.render import status_table, summary_line

    data = json.loads(text.decode())
    console = Console(highlight=False)
    console.print(status_table(data, why=why))
    console.print(summary_line(data))
    return True


def main() -> None:
    """Console entry point: the fast path when it applies, else the full CLI."""
    if try_status(sys.argv[1:]):
        return
    from missions.cli import main as cli_main

    cli_main()
