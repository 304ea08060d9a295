"""Start-up fast path: answer ``missions status`` and ``missions check`` on an unchanged tree
without the heavy imports.

Importing typer, pydantic and the rest costs far more than reading a cached answer
(:mod:`missions.answers`, :mod:`missions.stored`). Any change the stored answer does not
cover, or any option the fast path does not understand, goes to the incremental path or the
full command, which store a fresh result. This module is the console entry point; nothing in
the package imports it.
"""

from __future__ import annotations

import codecs
import gc
import io
import os
import sys

from missions import IS_THE_COMMAND
from missions.answers import (
    RESULT_FILE,
    content_fingerprint,
    fingerprint,
    inputs_moved,
    lookup,
    lookup_content,
    one_mission,
    store,
)
from missions.cache import STATUS_STATE_FILE, cache_dir_for
from missions.roots import lean_file_stats, library_roots, locate_root, root_problem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from typing import NoReturn


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
    the missions the change touches. It runs without the cycle collector, as the commands
    do: the incremental state is many objects and makes no cycles, and each collection
    walked all of them (a twentieth of an edit's answer at 2,000 missions).
    """
    collecting = gc.isenabled()
    gc.disable()
    answered = False
    try:
        answered = _try_status(argv)
        return answered
    finally:
        if collecting and not (answered and IS_THE_COMMAND):  # the command leaves at once
            gc.enable()


def _try_status(argv: list[str]) -> bool:
    parsed = _parse(argv)
    if parsed is None:
        return False
    root_arg, ids, as_json, why = parsed
    root = locate_root(os.getcwd()) if root_arg is None else os.path.realpath(root_arg)
    if root is None or root_problem(root) is not None:
        return False
    stored = cache_dir_for(root)
    if not any(os.path.exists(os.path.join(stored, f)) for f in (RESULT_FILE, STATUS_STATE_FILE)):
        return False  # a cold cache answers nothing: the command's own scan starts sooner
    try:
        libraries = library_roots(root)
        stats = lean_file_stats(root, libraries)
        key = fingerprint(root, ids, stats)
    except OSError:
        return False
    data = lookup(root, key)
    if data is None and len(ids) <= 1:
        whole_key = key if not ids else fingerprint(root, [], stats)
        whole = data if not ids else lookup(root, whole_key)
        if whole is None:
            try:
                content_key = content_fingerprint(root, stats) if inputs_moved(root) else None
                whole = lookup_content(root, content_key) if content_key else None
                if whole is not None:  # the same bytes with new times: a fresh clone
                    store(root, whole_key, whole.decode(), content_key)
                elif not os.path.exists(os.path.join(cache_dir_for(root), STATUS_STATE_FILE)):
                    return False  # nothing to patch: a cold run (its imports cost 0.1 s)
                else:
                    from missions.incremental import status_text

                    fresh = status_text(root, libraries, stats)
                    if fresh is None:
                        return False
                    store(root, whole_key, fresh, content_key)
                    whole = fresh.encode()
            except Exception:  # an optimization must never fail the command: take the full path
                if os.environ.get("MISSIONS_DEBUG"):
                    raise
                return False
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


def _parse_check(argv: list[str]) -> tuple[str | None, bool] | None:
    """(root, json) for a ``check`` that only a stored answer needs, else None: ids, kernel
    evidence, a JUnit file, the GitHub format and ``--no-cache`` take the full command."""
    if not argv or argv[0] != "check":
        return None
    root: str | None = None
    fmt = "text"
    as_json = False
    args = iter(argv[1:])
    for arg in args:
        value: str | None = None
        if arg in ("--root", "--format"):
            value = next(args, None)
            if value is None:
                return None
        elif arg.startswith(("--root=", "--format=")):
            arg, value = arg.split("=", 1)
        elif arg == "--json":
            as_json = True
            continue
        else:
            return None
        if arg == "--root":
            root = value
        elif value in ("text", "json"):
            fmt = value
        else:
            return None
    return root, as_json or fmt == "json"


def try_check(argv: list[str]) -> int | None:
    """Print the stored answer of a plain ``check`` if nothing changed since it was stored;
    its exit code, or None where the full command must run."""
    parsed = _parse_check(argv)
    if parsed is None:
        return None
    root_arg, as_json = parsed
    root = locate_root(os.getcwd()) if root_arg is None else os.path.realpath(root_arg)
    if root is None or root_problem(root) is not None:
        return None
    from missions.stored import check_json, check_lines, consult_check, hand_over

    answer, recording = consult_check(root)
    if answer is None:
        hand_over(recording)  # the full command stores its answer under these stamps
        return None
    if as_json:
        import json

        text = json.dumps(check_json(answer), indent=2, ensure_ascii=False, default=str) + "\n"
    else:
        from missions.plain import plain_text

        text = plain_text(check_lines(answer)) + answer["headline"] + "\n"
    sys.stdout.write(text)
    sys.stdout.flush()
    return 1 if answer["violations"] else 0


def _parse_report(argv: list[str]) -> tuple[str | None, str, str] | None:
    """(root, format, output) of a plain ``report --format html|badges -o DIR``: ids, kernel
    evidence and every other option take the full command."""
    if not argv or argv[0] != "report":
        return None
    found: dict[str, str] = {}
    args = iter(argv[1:])
    for arg in args:
        name, equals, value = arg.partition("=")
        if name not in ("--root", "--format", "--output", "-o") or (equals and name == "-o"):
            return None
        if not equals:
            following = next(args, None)
            if following is None:
                return None
            value = following
        found["--output" if name == "-o" else name] = value
    fmt, output = found.get("--format"), found.get("--output")
    if fmt not in ("html", "badges") or not output:
        return None
    return found.get("--root"), fmt, output


def try_report(argv: list[str]) -> int | None:
    """Say that a site is up to date if nothing it was written from changed since and every
    file is as written; its exit code, or None where the full command must run."""
    parsed = _parse_report(argv)
    if parsed is None:
        return None
    root_arg, fmt, output = parsed
    root = locate_root(os.getcwd()) if root_arg is None else os.path.realpath(root_arg)
    if root is None or root_problem(root) is not None:
        return None
    from pathlib import Path

    from missions.stored import consult_site, hand_over, site_up_to_date

    count, recording = consult_site(Path(root), fmt, Path(output))
    if count is None:
        hand_over(recording)
        return None
    sys.stderr.write(site_up_to_date(str(Path(output)), fmt, count) + "\n")
    sys.stderr.flush()
    return 0


def prefetch(argv: list[str]) -> None:
    """Start scanning the workspace of a command that will load it, while the full command
    line interface is imported (:func:`missions.lean.workspace.prefetch`).

    Only where the full command is sure to load the whole workspace by the cache and keys
    what it stores by stamps taken before the scan reads: ``status`` (it keys its answer by
    the loading's own stats), and a plain ``check`` or ``report`` this module already
    stamped the tree for (:func:`missions.stored.hand_over`), unless ``check`` has a state
    the incremental gate may answer from (:mod:`missions.recheck`), nor a dashboard with a
    state the incremental dashboard may answer from (:mod:`missions.redraw`). Never with
    ``--no-cache``. A root read wrongly from an unusual command line only costs the scan:
    the command takes over a loading of its own root alone."""
    if not argv or {"--no-cache", "--help", "-h"} & set(argv):
        return
    if argv[0] in ("check", "report"):
        from missions.stored import handed_over

        if not handed_over():
            return
    elif argv[0] != "status":
        return
    root: str | None = None
    for index, arg in enumerate(argv):
        if arg == "--root" and index + 1 < len(argv):
            root = argv[index + 1]
        elif arg.startswith("--root="):
            root = arg.removeprefix("--root=")
    root = locate_root(os.getcwd()) if root is None else os.path.realpath(root)
    if root is None or root_problem(root) is not None:
        return
    from missions.cache import CHECK_STATE_FILE, dashboard_state_path

    if argv[0] == "check" and os.path.exists(os.path.join(cache_dir_for(root), CHECK_STATE_FILE)):
        return
    report = _parse_report(argv) if argv[0] == "report" else None
    if report is not None and os.path.exists(dashboard_state_path(root, report[2])):
        return  # the incremental dashboard may answer without a load
    try:
        from missions.lean.workspace import prefetch as start

        start(root)
    except Exception:  # an optimization must never fail the command: it scans for itself
        if os.environ.get("MISSIONS_DEBUG"):
            raise


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


def main() -> None:
    """Console entry point: the fast path when it applies, else the full CLI."""
    from missions import IS_THE_COMMAND, own_interrupts

    own_interrupts()  # also when entered some other way than the command
    utf8_output()
    if try_status(sys.argv[1:]):
        if IS_THE_COMMAND:
            leave(0)
        return
    code = try_check(sys.argv[1:])
    if code is None:
        code = try_report(sys.argv[1:])
    if code is not None:
        if IS_THE_COMMAND:
            leave(code)
        raise SystemExit(code)
    prefetch(sys.argv[1:])
    from missions.cli import main as cli_main

    if not IS_THE_COMMAND:  # a program that imports the library keeps its own exit
        cli_main()
        return
    try:
        cli_main()
    except SystemExit as done:
        leave(done.code)
    leave(0)


def leave(code: object) -> NoReturn:
    """End the command without tearing the interpreter down.

    A large run holds millions of objects; freeing them one by one at exit, after the
    collection interpreter shutdown always makes, took 2 of the 7 seconds of a ``check`` at
    2,000 missions. By the time a command returns everything it wrote is closed or committed
    (files by ``with``, the scan store by its transaction, worker pools shut down); only the
    standard streams are still buffered, and exit handlers still run (whatever registered
    one). ``code`` is read as :class:`SystemExit` reads it. Start-up answers leave this way
    too: shutting down even a small process took a tenth of the time of such an answer.
    """
    import atexit

    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()  # what registered a clean-up (user code in a witness) still runs
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: as Python's own exit reports it
            status = status or 120
    os._exit(status)
