"""The compiled scanner and lint, when the install built them from exactly the sources on
disk.

``setup.py`` compiles copies of :mod:`missions.lean.lexer`, :mod:`missions.lean.scan` and
:mod:`missions.lint` with mypyc into :mod:`missions.lean._native` (a cold scan and a cold
lint take about a third less CPU). The pure modules stay what the rest of the tool imports;
only :func:`missions.lean.workspace.scan_file`, the lint's lexing and the lint's rules
(:func:`missions.lint.runner`) use the copy, and what crosses from it is plain data, the
scan's JSON, the tokens and the lint's cache entries, which both must give identically
(``tests/test_native.py`` compares them on every corpus the tests have). The copy records
the digest of the sources it was built from: in an edited checkout (an editable install) it
no longer matches and the edits are what runs, never stale compiled code.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, Protocol, cast

from missions.lean.lexer import lex

#: The modules the copy is compiled from, relative to the ``missions`` package, in the order
#: :func:`sources_digest` reads them (``setup.py`` computes the same digest).
COMPILED = ("lean/lexer.py", "lean/scan.py", "lint.py")
#: Set (to anything but "") to scan with the pure modules even where a compiled copy exists.
PURE_PYTHON_ENV = "MISSIONS_PURE_PYTHON"


class Scan(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class Lexed(Protocol):
    tokens: list[tuple[int, str, int]]


class Compiled(NamedTuple):
    """The compiled copies of the three modules."""

    lexer: Any
    scan: Any
    lint: Any


def sources_digest() -> str:
    """sha256 of the compiled modules' sources as they are on disk now."""
    package = Path(__file__).parent.parent
    digest = hashlib.sha256()
    for name in COMPILED:
        digest.update((package / name).read_bytes())
    return digest.hexdigest()


@functools.cache
def _compiled() -> Compiled | None:
    """The compiled modules, or None: not built, built from other sources, or switched off
    (``MISSIONS_PURE_PYTHON``)."""
    if os.environ.get(PURE_PYTHON_ENV):
        return None
    try:
        scan = importlib.import_module("missions.lean._native.scan")
        current = sources_digest()
        if getattr(scan, "BUILT_FROM", None) != current:
            return None
        lexer = importlib.import_module("missions.lean._native.lexer")
        lint = importlib.import_module("missions.lean._native.lint")
    except Exception:  # not built, or built for another Python: run the pure modules
        return None
    return Compiled(lexer, scan, lint)


#: Whether this process scans enough to load the copy: see :func:`prefer_compiled`.
_preferred = False


def prefer_compiled() -> None:
    """Scan and lex with the compiled copy from now on, where there is one (forked workers
    inherit the choice). Loading it costs about what scanning one file does: a command about
    to scan many files calls this, one that scans a file or two after an edit does not."""
    global _preferred
    _preferred = True
    _compiled()


def compiled_scanner() -> Callable[[str], Scan] | None:
    """The compiled ``scan_source`` (:func:`missions.lean.scan.scan_source`), or None."""
    modules = _compiled() if _preferred else None
    return None if modules is None else cast("Callable[[str], Scan]", modules.scan.scan_source)


def compiled_lexer() -> Callable[[str], Lexed] | None:
    """The compiled ``lex`` (:func:`missions.lean.lexer.lex`), or None: its tokens are the
    same plain tuples."""
    modules = _compiled() if _preferred else None
    return None if modules is None else cast("Callable[[str], Lexed]", modules.lexer.lex)


def compiled_lint() -> Any | None:
    """The compiled copy of :mod:`missions.lint`, or None. Only what returns plain data may
    be taken from it (its classes are not the pure module's)."""
    modules = _compiled() if _preferred else None
    return None if modules is None else modules.lint


#: Files a process lexes with the pure lexer before it loads the copy for the rest (loading
#: costs about what the copy saves on a dozen files).
PURE_LEXES = 16
_lexes = 0


def lexer() -> Callable[[str], Lexed]:
    """The lexer for one more file: the compiled copy where this process uses it (see
    :func:`prefer_compiled`) or has lexed :data:`PURE_LEXES` files already, else the pure
    one. Both give the same tokens."""
    global _lexes
    _lexes += 1
    if _lexes > PURE_LEXES and not _preferred:
        prefer_compiled()
    return compiled_lexer() or lex


def scanner_kind() -> str:
    """How Lean files are scanned in this install, for ``missions --version``."""
    return "compiled with mypyc" if _compiled() is not None else "pure Python"
