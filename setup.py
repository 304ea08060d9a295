"""Build the compiled copy (mypyc) of the scanner and the lint, or nothing: the project is
pure Python.

A cold ``missions status`` spends most of its CPU in the lexer and scanner
(``missions.lean.lexer``, ``missions.lean.scan``) and in the lint's rules (``missions.lint``).
Compiled with mypyc they give exactly the same scans and findings in about a third less CPU.
The compiled copy is a separate package, ``missions.lean._native``, built from copies of the
three modules: the pure modules stay what every import reads, so an edited checkout never
runs stale compiled code (``missions.lean.native`` uses the copy only if it was built from
the sources on disk).

Compiling is an optimization: with no C compiler, no mypyc, or ``MISSIONS_NO_COMPILE=1``,
the install goes on without it and the scanner runs as Python.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "tools" / "missions"
#: The modules compiled, relative to the ``missions`` package, in the order their digest is
#: taken (``missions.lean.native``).
COMPILED = ("lean/lexer.py", "lean/scan.py", "lint.py")
PACKAGE = "missions.lean._native"


def _note(message: str) -> None:
    print(f"missions: {message}", file=sys.stderr)


def _sources_digest() -> str:
    """What ``missions.lean.native.sources_digest`` computes at run time."""
    digest = hashlib.sha256()
    for name in COMPILED:
        digest.update((SOURCES / name).read_bytes())
    return digest.hexdigest()


#: mypy's settings for the build, instead of the project's (``pyproject.toml``: strict, and
#: reading the whole package). Imports are not followed: what the copies import from the rest
#: of the package is untyped for mypyc, which costs the compiled code nothing measurable and
#: keeps tuples from other modules boxed; the vocabulary's tables are typed for the scanner.
MYPY_CONFIG = """\
[mypy]
ignore_missing_imports = True
follow_imports = skip

[mypy-missions.lean.vocabulary]
follow_imports = normal
"""


def _copies(tree: Path) -> list[str]:
    """The modules to compile, as ``missions.lean._native`` modules in ``tree``, and mypy's
    settings for them (``tree/mypy.ini``). The scanner imports the compiled lexer and records
    which sources it was built from; the lint's copy is the module as it is. The vocabulary
    is copied for its types only; the compiled code imports the installed one."""
    shutil.rmtree(tree, ignore_errors=True)
    native = tree / "missions" / "lean" / "_native"
    native.mkdir(parents=True)
    for package in (tree / "missions", tree / "missions" / "lean", native):
        (package / "__init__.py").write_text("")
    (tree / "mypy.ini").write_text(MYPY_CONFIG)
    shutil.copyfile(
        SOURCES / "lean" / "vocabulary.py", tree / "missions" / "lean" / "vocabulary.py"
    )
    scan = (SOURCES / "lean" / "scan.py").read_text(encoding="utf-8")
    rewritten = scan.replace("from missions.lean.lexer import", f"from {PACKAGE}.lexer import")
    if rewritten.count(f"{PACKAGE}.lexer") != 1:
        raise RuntimeError("scan.py no longer imports the lexer in one statement")
    rewritten += "\n#: sha256 of the sources this copy was built from\n"
    rewritten += f'BUILT_FROM = "{_sources_digest()}"\n'
    shutil.copyfile(SOURCES / "lean" / "lexer.py", native / "lexer.py")
    (native / "scan.py").write_text(rewritten, encoding="utf-8")
    shutil.copyfile(SOURCES / "lint.py", native / "lint.py")
    return [str(native / name) for name in ("lexer.py", "scan.py", "lint.py")]


def _extensions() -> list[Any]:
    if os.environ.get("MISSIONS_NO_COMPILE") or sys.implementation.name != "cpython":
        return []
    try:
        from mypyc.build import mypycify

        tree = Path("build") / "native-src"
        lexer, scan, lint = _copies(tree)
        return list(
            mypycify(
                ["--config-file", str(tree / "mypy.ini"), lexer, scan, lint],
                # two shared libraries, compiled side by side (OptionalBuildExt): one C file
                # of the three took the C compiler 30 s; the lint calls nothing in the other
                separate=[([lexer, scan], f"{PACKAGE}.scanner"), ([lint], f"{PACKAGE}.rules")],
                target_dir=str(Path("build") / "native-c"),
            )
        )
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error: never fail the install
        _note(f"the scanner and the lint stay pure Python (mypyc could not compile them: {exc!r})")
        return []


class OptionalBuildExt(build_ext):
    """Build the compiled copy if the machine can, on every core; an install without it is
    complete."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no Python headers, ...
            _note(f"the scanner and the lint stay pure Python (compiling failed: {exc})")

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            _note(f"the scanner and the lint stay pure Python ({ext.name} did not compile: {exc})")


if __name__ == "__main__":  # setuptools runs this file as a script; tests import it
    setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
