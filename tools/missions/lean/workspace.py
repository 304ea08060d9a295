"""The workspace's Lean modules: discovery, cached scanning, imports and name resolution.

Scans are cached by content hash (sha256 of the file bytes plus the scanner version), and a
stat index (size and modification time) lets a warm run skip reading unchanged files
entirely (see :mod:`missions.cache` for where the cache lives and why).
"""

from __future__ import annotations

import gc
import hashlib
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from missions import SCANNER_VERSION
from missions.cache import default_cache_dir, read_store, write_store
from missions.errors import InputError, Problem
from missions.lean.scan import Decl, FileScan, scan_source
from missions.roots import iter_lean_files, library_roots

#: Import roots that come from Mathlib and its dependencies (trusted, pinned).
EXTERNAL_ROOTS = frozenset(
    {
        "Mathlib",
        "Init",
        "Lean",
        "Std",
        "Lake",
        "Batteries",
        "Aesop",
        "Qq",
        "ProofWidgets",
        "Plausible",
        "LeanSearchClient",
        "ImportGraph",
    }
)


def module_path(root: Path, module: str) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".lean")


def module_name(root: Path, path: Path) -> str:
    relative = path.relative_to(root).with_suffix("")
    return ".".join(relative.parts)


@dataclass
class Module:
    name: str
    path: Path
    scan: FileScan
    _rel: str | None = field(default=None, repr=False)

    def rel(self, root: Path) -> str:
        if self._rel is None:
            self._rel = str(self.path.relative_to(root))
        return self._rel


@dataclass
class ScannedFile:
    """What one worker learned about one file; plain data so it crosses processes cheaply."""

    path: str
    size: int
    mtime: int
    sha: str
    scan: dict[str, Any] | None = None
    bad_utf8_line: int | None = None


def scan_file(path: str) -> ScannedFile:
    with open(path, "rb") as handle:
        stat = os.fstat(handle.fileno())
        data = handle.read()
    sha = hashlib.sha256(data).hexdigest()
    result = ScannedFile(path, stat.st_size, stat.st_mtime_ns, sha)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        result.bad_utf8_line = data.count(b"\n", 0, exc.start) + 1
        return result
    result.scan = scan_source(text).to_json()
    return result


#: Below this many files to scan, worker processes cost more than they save.
PARALLEL_THRESHOLD = 64


def scan_files(paths: list[str]) -> list[ScannedFile]:
    """Scan files, in worker processes when there are many and more than one core."""
    workers = min(os.cpu_count() or 1, 8)
    if len(paths) < PARALLEL_THRESHOLD or workers < 2:
        return [scan_file(p) for p in paths]
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(scan_file, paths, chunksize=16))
    except (OSError, BrokenProcessPool):
        return [scan_file(p) for p in paths]


@dataclass
class ScanCache:
    """Content-hash cache of file scans with a stat index for unchanged files."""

    directory: Path | None
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    dirty: bool = False

    @classmethod
    def open(cls, directory: Path | None) -> ScanCache:
        cache = cls(directory)
        if directory is not None:
            cache.entries = read_store(directory / "scan.json", SCANNER_VERSION)
        return cache

    def lookup(self, path: Path) -> FileScan | None:
        """The cached scan if the file's size and modification time are unchanged."""
        entry = self.entries.get(str(path))
        if entry is None:
            return None
        stat = path.stat()
        if entry["size"] == stat.st_size and entry["mtime"] == stat.st_mtime_ns:
            return FileScan.from_json(entry["scan"])
        return None

    def record(self, scanned: ScannedFile) -> FileScan:
        """Store a fresh scan (or reuse the cached one when only the timestamp moved)."""
        entry = self.entries.get(scanned.path)
        self.dirty = True
        if entry is not None and entry["sha"] == scanned.sha:
            entry["mtime"] = scanned.mtime
            entry["size"] = scanned.size
            return FileScan.from_json(entry["scan"])
        assert scanned.scan is not None
        self.entries[scanned.path] = {
            "size": scanned.size,
            "mtime": scanned.mtime,
            "sha": scanned.sha,
            "scan": scanned.scan,
        }
        return FileScan.from_json(scanned.scan)

    def save(self, live: Iterable[str]) -> None:
        if self.directory is None or not self.dirty:
            return
        keep = set(live)
        files = {k: v for k, v in self.entries.items() if k in keep}
        write_store(self.directory / "scan.json", SCANNER_VERSION, files)


@dataclass
class Workspace:
    """Every workspace Lean module, scanned, with a declaration index."""

    root: Path
    libraries: list[str]
    modules: dict[str, Module]
    by_name: dict[str, list[tuple[Module, Decl]]] = field(default_factory=dict)
    by_last: dict[str, list[str]] = field(default_factory=dict)
    _closures: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _mentions: dict[int, list[str]] = field(default_factory=dict, repr=False)
    _scope_hits: dict[tuple[str, tuple[str, ...]], bool] = field(default_factory=dict, repr=False)
    _resolved: dict[tuple[str, str, tuple[str, ...]], list[str]] = field(
        default_factory=dict, repr=False
    )

    def __post_init__(self) -> None:
        # the lexer stops at `#exit`, so declarations after it are never indexed
        for module in self.modules.values():
            for decl in module.scan.decls:
                self.by_name.setdefault(decl.name, []).append((module, decl))
                last = decl.name.rsplit(".", 1)[-1]
                self.by_last.setdefault(last, []).append(decl.name)

    # ----------------------------------------------------------------- imports
    def is_workspace_module(self, module: str) -> bool:
        return module.split(".", 1)[0] in self.libraries

    def import_problems(self, module: Module) -> list[str]:
        """Imports of ``module`` that cannot be resolved, as reasons."""
        reasons: list[str] = []
        for name, line in module.scan.imports:
            if self.is_workspace_module(name):
                if name not in self.modules:
                    reasons.append(f"{module.rel(self.root)}:{line}: import {name} not found")
            elif name.split(".", 1)[0] not in EXTERNAL_ROOTS:
                reasons.append(
                    f"{module.rel(self.root)}:{line}: import {name} is neither a workspace "
                    "module nor part of Mathlib and its dependencies"
                )
        return reasons

    def closure(self, start: str) -> list[str]:
        """Workspace modules ``start`` imports transitively, ``start`` included (sorted)."""
        cached = self._closures.get(start)
        if cached is None:
            cached = self._closures[start] = self._compute_closure(start)
        return cached

    def _compute_closure(self, start: str) -> list[str]:
        seen: set[str] = set()
        stack = [start]
        while stack:
            name = stack.pop()
            if name in seen or name not in self.modules:
                continue
            seen.add(name)
            for imported, _ in self.modules[name].scan.imports:
                if self.is_workspace_module(imported):
                    stack.append(imported)
        return sorted(seen)

    def unresolved_in_closure(self, start: str) -> list[str]:
        reasons: list[str] = []
        if start not in self.modules:
            return [f"module {start} not found"]
        for name in self.closure(start):
            reasons.extend(self.import_problems(self.modules[name]))
        return reasons

    # -------------------------------------------------------------- resolution
    def lookup(self, name: str) -> list[tuple[Module, Decl]]:
        return self.by_name.get(name, [])

    def resolve(self, ident: str, namespace: str, opens: list[str]) -> list[str]:
        """Workspace declarations ``ident`` may denote at a place (an over-approximation).

        Follows Lean's rules (enclosing namespaces innermost first, then opened namespaces,
        then the root) but keeps every candidate rather than Lean's first choice, and maps
        generated names (``Foo.mk``, ``foo.eq_1``) to the declaration that made them.
        """
        key = (ident, namespace, tuple(opens))
        cached = self._resolved.get(key)
        if cached is None:
            cached = self._resolved[key] = self._resolve(ident, namespace, opens)
        return cached

    def _could_match(self, ident: str, namespace: str, opens: list[str]) -> bool:
        """Cheap necessary condition: every candidate ends in a component of these names."""
        by_last = self.by_last
        if any(part in by_last for part in ident.split(".")):
            return True
        scope_key = (namespace, tuple(opens))
        hit = self._scope_hits.get(scope_key)
        if hit is None:
            parts = namespace.split(".") + [p for o in opens for p in o.split(".")]
            hit = self._scope_hits[scope_key] = any(part in by_last for part in parts)
        return hit

    def _resolve(self, ident: str, namespace: str, opens: list[str]) -> list[str]:
        if not self._could_match(ident, namespace, opens):
            return []
        if ident.startswith("_root_."):
            candidates = [ident[len("_root_.") :]]
        else:
            parts = namespace.split(".") if namespace else []
            candidates = [".".join([*parts[:k], ident]) for k in range(len(parts), -1, -1)]
            candidates += [f"{o}.{ident}" for o in opens]
        found: list[str] = []
        for candidate in candidates:
            if candidate in self.by_name:
                found.append(candidate)
                continue
            # generated names: strip trailing components until a declaration matches
            head = candidate
            while "." in head:
                head = head.rsplit(".", 1)[0]
                if head in self.by_name:
                    found.append(head)
                    break
        if not found and "." in ident:
            # `h.lemma` with a local `h`: generalized field notation
            found.extend(self.by_last.get(ident.rsplit(".", 1)[-1], []))
        return found

    def mention_targets(self, decl: Decl) -> list[str]:
        """Every workspace name ``decl`` may refer to (memoized per declaration)."""
        cached = self._mentions.get(id(decl))
        if cached is None:
            names: list[str] = []
            for mention in decl.mentions:
                names.extend(self.resolve(mention, decl.namespace, decl.opens))
            for suffix in decl.dot_mentions:
                names.extend(self.resolve_dot(suffix))
            cached = self._mentions[id(decl)] = list(dict.fromkeys(names))
        return cached

    def resolve_dot(self, suffix: str) -> list[str]:
        """Candidates for ``.suffix`` (field notation on an expression of unknown type)."""
        return list(self.by_last.get(suffix.rsplit(".", 1)[-1], []))

    def modules_in(self, names: Iterable[str]) -> Iterator[Module]:
        for name in names:
            if name in self.modules:
                yield self.modules[name]


def lean_files(root: Path, libraries: list[str]) -> Iterator[Path]:
    for path in iter_lean_files(str(root), libraries):
        yield Path(path)


def load_workspace(root: Path, *, use_cache: bool = True) -> Workspace:
    """Scan every module of the workspace's libraries (cached), or raise on broken files."""
    libraries = library_roots(root)
    cache = ScanCache.open(default_cache_dir(root) if use_cache else None)
    modules: dict[str, Module] = {}
    problems: list[Problem] = []
    # scanning allocates millions of short-lived objects and no cycles: the cyclic
    # collector only costs time here (about a quarter of a cold run)
    collecting = gc.isenabled()
    gc.disable()
    try:
        _scan_all(root, libraries, cache, modules, problems)
    finally:
        if collecting:
            gc.enable()
    cache.save(str(m.path) for m in modules.values())
    if problems:
        raise InputError(problems)
    return Workspace(root=root, libraries=libraries, modules=modules)


def _scan_all(
    root: Path,
    libraries: list[str],
    cache: ScanCache,
    modules: dict[str, Module],
    problems: list[Problem],
) -> None:
    paths = list(lean_files(root, libraries))
    scans: dict[Path, FileScan] = {}
    stale: list[str] = []
    for path in paths:
        hit = cache.lookup(path)
        if hit is None:
            stale.append(str(path))
        else:
            scans[path] = hit
    for scanned in scan_files(stale):
        path = Path(scanned.path)
        if scanned.bad_utf8_line is not None:
            problems.append(
                Problem(str(path), scanned.bad_utf8_line, "Lean file is not valid UTF-8")
            )
            continue
        scans[path] = cache.record(scanned)
    for path in paths:
        scan = scans.get(path)
        if scan is None:
            continue
        name = module_name(root, path)
        if scan.error is not None:
            line, message = scan.error
            problems.append(
                Problem(str(path.relative_to(root)), line, f"Lean syntax: {message}", "lean-syntax")
            )
        modules[name] = Module(name=name, path=path, scan=scan)
