"""The workspace's Lean modules: discovery, cached scanning, imports and name resolution.

Scans are kept by content hash in :mod:`missions.lean.store`, whose stat index (size and
modification time) lets a warm run skip reading unchanged files entirely (see
:mod:`missions.cache` for where the cache lives and why).
"""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from missions.cache import default_cache_dir
from missions.heap import release_free_memory
from missions.lean.native import compiled_scanner, prefer_compiled
from missions.lean.scan import Decl, FileScan, scan_source
from missions.lean.store import ScanStore
from missions.roots import (
    MAX_LEAN_BYTES,
    index_stamp,
    lean_file_stats,
    library_names,
    library_roots,
    module_namer,
    read_regular,
)

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
        "Cli",
    }
)


@functools.cache
def _dependency_modules() -> dict[str, tuple[str, str, frozenset[str]]]:
    """Per import root, the package, its pinned revision and every module it has there
    (``modules.json``, generated with the vocabulary from the packages read at their pins)."""
    data = json.loads(Path(__file__).with_name("modules.json").read_text(encoding="utf-8"))
    return {
        root: (entry["package"], entry["revision"], frozenset(entry["modules"]))
        for root, entry in data["roots"].items()
    }


def missing_dependency_module(name: str) -> str | None:
    """Why ``import name`` names no module of its package at the pinned revision, or None
    (also for packages without a module list: those are trusted by their root). ``lake
    build`` stops at such an import, so nothing in the file, or after it, is elaborated."""
    known = _dependency_modules().get(name.split(".", 1)[0])
    if known is None or name in known[2]:
        return None
    package, revision, _ = known
    return (
        f"import {name} is not a module of {package} at the pinned revision "
        f"{revision[:12]}; `lake build` stops at this import"
    )


def module_path(root: Path, module: str) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".lean")


@dataclass(slots=True)
class Module:
    name: str
    path: Path
    scan: FileScan
    #: sha256 of the file's bytes when it was scanned ("" if it could not be read)
    sha: str = ""
    _rel: str | None = field(default=None, repr=False)

    def rel(self, root: Path) -> str:
        if self._rel is None:
            self._rel = str(self.path.relative_to(root))
        return self._rel


@dataclass
class ScannedFile:
    """What one worker learned about one file; plain data so it crosses processes cheaply
    (the scan travels as the JSON text it was stored as, not as objects)."""

    path: str
    size: int
    #: :func:`missions.roots.index_stamp` of the file as it was read ("" if unreadable)
    stamp: str
    sha: str
    text: str


def _fault_json(line: int, message: str) -> str:
    return json.dumps(FileScan(error=(line, message)).to_json())


def scan_file(path: str) -> ScannedFile:
    """Scan one file; a file that cannot be read or decoded becomes a scan with a fault.

    The compiled scanner is used where the install has one (:mod:`missions.lean.native`):
    what leaves here is the scan's JSON, which both scanners write alike."""
    try:
        data, stat = read_regular(path, MAX_LEAN_BYTES)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        return ScannedFile(path, -1, "", "", _fault_json(1, f"cannot read the file: {reason}"))
    sha = hashlib.sha256(data).hexdigest()
    try:
        scan = compiled_scanner() or scan_source
        text = json.dumps(scan(data.decode("utf-8")).to_json(), separators=(",", ":"))
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        text = _fault_json(line, "the file is not valid UTF-8")
    return ScannedFile(path, stat.st_size, index_stamp(stat), sha, text)


def _start_worker() -> None:
    """A scan worker answers no Ctrl-C (the parent does) and runs without the cycle
    collector: scanning makes no garbage cycles, and a worker may be started before the
    command turned the collector off (:func:`prefetch`). Workers exist only for many files:
    each scans with the compiled copy where there is one (a forked worker has it loaded
    already; one started afresh, as Python 3.14's default start method does, loads it)."""
    from missions import ignore_interrupts

    ignore_interrupts()
    gc.disable()
    prefer_compiled()


#: Below this many files to scan, worker processes (and loading the compiled scanner) cost
#: more than they save.
PARALLEL_THRESHOLD = 64
#: Files a worker takes at a time.
CHUNK = 16


class _Scanning:
    """Files being scanned: worker processes start on construction, results are read by
    iterating, so the caller can do other work (parse the catalog) in between."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        self._pool: Any = None
        self._results: Iterator[ScannedFile] | None = None
        workers = min(os.cpu_count() or 1, 8)
        if len(paths) >= PARALLEL_THRESHOLD:
            prefer_compiled()  # before the workers start: they inherit it
        if len(paths) >= PARALLEL_THRESHOLD and workers >= 2:
            from concurrent.futures import ProcessPoolExecutor  # costs imports: only when used

            try:
                self._pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)
                self._results = self._pool.map(scan_file, paths, chunksize=CHUNK)
            except OSError:
                self._pool = None

    def __iter__(self) -> Iterator[ScannedFile]:
        """Results in the order of ``paths``, each as soon as its worker has it (the caller
        decodes one while the workers scan the next); if the workers fail, the files not
        yet delivered are scanned here."""
        done = 0
        if self._results is not None:
            from concurrent.futures.process import BrokenProcessPool

            try:
                for scanned in self._results:
                    done += 1
                    yield scanned
            except (OSError, BrokenProcessPool):
                pass  # the workers failed: scan the rest here
        for path in self.paths[done:]:
            yield scan_file(path)

    @property
    def parallel(self) -> bool:
        """Whether worker processes are scanning."""
        return self._pool is not None

    def __enter__(self) -> _Scanning:
        return self

    def __exit__(self, *_: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


@dataclass
class Workspace:
    """Every workspace Lean module, scanned, with the indexes name resolution needs.

    ``by_name`` maps full names to declarations (a name declared once to its one entry: a
    large workspace has a hundred thousand names, and a list each took a tenth of its
    memory); :attr:`by_last` maps a last name component to the full names of every
    declaration that ends with it *or generates a name that does* (structure fields and
    constructors, ``toX`` parents), so that field notation on a term of unknown type
    (``h.foo``) can be answered without knowing the type.
    """

    root: Path
    libraries: list[str]
    modules: dict[str, Module]
    by_name: dict[str, tuple[Module, Decl] | list[tuple[Module, Decl]]] = field(
        default_factory=dict
    )
    _by_last: dict[str, list[str]] | None = field(default=None, repr=False)
    _closures: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _scopes: dict[str, tuple[tuple[str, ...], dict[str, list[str]]]] = field(
        default_factory=dict, repr=False
    )
    _mentions: dict[int, list[str]] = field(default_factory=dict, repr=False)
    _resolved: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _decl_scope_cache: dict[tuple[str, ...], tuple[str, ...]] = field(
        default_factory=dict, repr=False
    )
    _cyclic: dict[str, str] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        # the lexer stops at `#exit`, so declarations after it are never indexed; modules in
        # name order, so that a name declared twice is found in the same order (and reasons
        # listed in the same order) whatever order the modules were loaded in
        by_name = self.by_name
        for name in sorted(self.modules):
            module = self.modules[name]
            for decl in module.scan.decls:
                known = by_name.get(decl.name)
                if known is None:
                    by_name[decl.name] = (module, decl)
                elif isinstance(known, tuple):
                    by_name[decl.name] = [known, (module, decl)]
                else:
                    known.append((module, decl))

    @property
    def by_last(self) -> dict[str, list[str]]:
        """Built on first use: the analysis resolves names through its own index
        (:class:`missions.status.References`), so most runs never need this one."""
        if self._by_last is None:
            by_last: dict[str, list[str]] = {}
            for name in sorted(self.modules):
                for decl in self.modules[name].scan.decls:
                    by_last.setdefault(decl.name.rsplit(".", 1)[-1], []).append(decl.name)
                    for generated in decl.generated:
                        by_last.setdefault(generated, []).append(decl.name)
            self._by_last = {key: list(dict.fromkeys(names)) for key, names in by_last.items()}
        return self._by_last

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
                elif module.scan.module and not self.modules[name].scan.module:
                    reasons.append(
                        f"{module.rel(self.root)}:{line}: a `module` file cannot import {name}, "
                        "which is not one; Lean rejects the file"
                    )
            elif name.split(".", 1)[0] not in EXTERNAL_ROOTS:
                reasons.append(
                    f"{module.rel(self.root)}:{line}: import {name} is neither a workspace "
                    "module nor part of Mathlib and its dependencies"
                )
            elif (missing := missing_dependency_module(name)) is not None:
                reasons.append(f"{module.rel(self.root)}:{line}: {missing}")
        return reasons

    def fault(self, module: Module) -> str | None:
        """Why ``module`` cannot be trusted as scanned (unreadable, undecodable, unlexable)."""
        if module.scan.error is None:
            return None
        line, message = module.scan.error
        return f"{module.rel(self.root)}:{line}: {message}"

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
        """Unresolvable imports and faulty files in the import closure of ``start``."""
        reasons: list[str] = []
        if start not in self.modules:
            return [f"module {start} not found"]
        cyclic = self.cyclic()
        for name in self.closure(start):
            module = self.modules[name]
            reasons.extend(self.import_problems(module))
            fault = self.fault(module)
            if fault is not None:
                reasons.append(fault)
            if name in cyclic:
                reasons.append(
                    f"{module.rel(self.root)}:1: {name} imports itself through {cyclic[name]}; "
                    "Lake builds no module of an import cycle"
                )
        return reasons

    def cyclic(self) -> dict[str, str]:
        """Every module on an import cycle, with the next module of its cycle (Tarjan's
        strongly connected components, iteratively)."""
        if self._cyclic is not None:
            return self._cyclic
        graph = {
            name: [i for i, _ in module.scan.imports if i in self.modules]
            for name, module in self.modules.items()
        }
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        found: dict[str, str] = {}
        for root in sorted(graph):
            if root in index:
                continue
            work = [(root, 0)]
            while work:
                node, child = work.pop()
                if child == 0:
                    index[node] = low[node] = len(index)
                    stack.append(node)
                    on_stack.add(node)
                successors = graph[node]
                if child < len(successors):
                    work.append((node, child + 1))
                    nxt = successors[child]
                    if nxt not in index:
                        work.append((nxt, 0))
                    elif nxt in on_stack:
                        low[node] = min(low[node], index[nxt])
                    continue
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph[node]:
                        ring = sorted(component)
                        for k, member in enumerate(ring):
                            found[member] = ring[(k + 1) % len(ring)]
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
        self._cyclic = found
        return found

    # -------------------------------------------------------------- resolution
    def lookup(self, name: str) -> list[tuple[Module, Decl]]:
        found = self.by_name.get(name)
        if found is None:
            return []
        return [found] if isinstance(found, tuple) else found

    def scope_of(self, module: Module) -> tuple[tuple[str, ...], dict[str, list[str]]]:
        """Namespaces a name in ``module`` may be read in, besides its own namespace.

        Every namespace the file opens anywhere (over-approximating each ``open``'s scope to
        the whole file), every namespace any module of its import closure exports, and the
        file's ``open … renaming`` aliases.
        """
        cached = self._scopes.get(module.name)
        if cached is None:
            opens = list(module.scan.opens)
            for name in self.closure(module.name):
                opens.extend(self.modules[name].scan.exports)
            cached = (tuple(dict.fromkeys(opens)), module.scan.renames)
            self._scopes[module.name] = cached
        return cached

    def _decl_scopes(self, module: Module, decl: Decl) -> tuple[str, ...]:
        """The namespaces a name in ``decl`` may be read in (memoized: the declarations of a
        file share a handful of namespaces and opens)."""
        key = (module.name, decl.namespace, *decl.opens)
        found = self._decl_scope_cache.get(key)
        if found is None:
            file_opens, _ = self.scope_of(module)
            found = tuple(dict.fromkeys((*_prefixes(decl.namespace), *decl.opens, *file_opens)))
            self._decl_scope_cache[key] = found
        return found

    def _resolve_in(self, ident: str) -> list[str]:
        """Every workspace declaration ``ident`` may denote (an over-approximation, memoized).

        Whatever the scopes around it, each component of an identifier may denote every
        declaration whose last component it is: the first is read relative to namespaces the
        scanner may track wrongly (a command it does not model can move them), and every
        later one may be field notation on a term of unknown type (``h.foo``, ``x.le.trans``).
        Generated names (``Foo.mk``, ``foo.eq_1``, ``foo_def``) lead to the declaration that
        made them through the same index.
        """
        cached = self._resolved.get(ident)
        if cached is None:
            by_last = self.by_last
            found: list[str] = []
            for part in ident.split("."):
                found.extend(by_last.get(part, ()))
            cached = self._resolved[ident] = found
        return cached

    def mention_targets(self, module: Module, decl: Decl) -> list[str]:
        """Every workspace name ``decl`` may refer to (memoized per declaration)."""
        cached = self._mentions.get(id(decl))
        if cached is None:
            cached = self._mentions[id(decl)] = self._targets(
                module, decl, decl.mentions, decl.dot_mentions
            )
        return cached

    def _targets(
        self, module: Module, decl: Decl, mentions: Iterable[str], dots: Iterable[str]
    ) -> list[str]:
        renames = module.scan.renames
        names: list[str] = []
        for mention in mentions:
            names.extend(self._resolve_in(mention))
            head, _, rest = mention.partition(".")
            for old in renames.get(head, ()):
                names.extend(self._resolve_in(f"{old}.{rest}" if rest else old))
        for suffix in dots:  # `(t).a.b`, `t |>.a.b`, `(.a.b)`: every component is a field
            names.extend(self._resolve_in(suffix))
        return list(dict.fromkeys(names))

    def type_candidates(self, module: Module, decl: Decl, name: str) -> list[str]:
        """Declarations a name in ``decl``'s type may denote (no field notation: a type
        written as a single name has no term before it to project from)."""
        scopes = self._decl_scopes(module, decl)
        renames = module.scan.renames
        head_only = name.split(".")
        found: list[str] = []
        prefixes = ("",) if head_only[0] == "_root_" else (*scopes, "")
        bare = ".".join(head_only[1:]) if head_only[0] == "_root_" else name
        for prefix in prefixes:
            candidate = f"{prefix}.{bare}" if prefix else bare
            if candidate in self.by_name:
                found.append(candidate)
        for old in renames.get(head_only[0], ()):
            rest = ".".join(head_only[1:])
            renamed = f"{old}.{rest}" if rest else old
            found.extend(
                c
                for p in prefixes
                for c in [f"{p}.{renamed}" if p else renamed]
                if c in self.by_name
            )
        return list(dict.fromkeys(found))

    def modules_in(self, names: Iterable[str]) -> Iterator[Module]:
        for name in names:
            if name in self.modules:
                yield self.modules[name]


def restamp(store: ScanStore, path: str) -> str | None:
    """If ``path`` still holds the bytes its index row was written from, note its new stamp
    and return the content hash; else None. A fresh clone or checkout gives every file new
    times, and with the cache restored (CI), reading and hashing a file is a small part of
    scanning it."""
    row = store.index.get(path)
    if row is None:
        return None
    try:
        data, stat = read_regular(path, MAX_LEAN_BYTES)
    except OSError:
        return None  # scanned, so the fault is reported as it is now
    if hashlib.sha256(data).hexdigest() != row[2]:
        return None
    store.touch(path, stat.st_size, index_stamp(stat))
    return str(row[2])


def _as_module(root: Path, name: str, files: list[tuple[str, FileScan, str]]) -> Module:
    """Module ``name`` from the files that provide it (path, scan, sha), in discovery order."""
    module: Module | None = None
    for path, scan, sha in files:
        if any(not part or part.startswith(".") for part in name.split(".")):
            # a folder or file name with a dot (`Case./Helpers.lean`): its module name
            # reads like another one, so the file cannot be trusted to be that module
            rel = os.path.relpath(path, root)
            scan = FileScan(error=(1, f"{rel}: a dot in a folder or file name"))
        if module is not None:
            # two libraries provide the module: which file Lake reads is not the
            # scanner's to guess, so the module is a fault whichever it would be
            other = os.path.relpath(path, root)
            message = f"module {name} is also provided by {other}; Lake reads one of them"
            module = Module(name=name, path=module.path, scan=FileScan(error=(1, message)))
            continue
        module = Module(name=name, path=Path(path), scan=scan, sha=sha)
    assert module is not None, "a module comes from at least one file"
    return module


def load_import_closure(root: Path, starts: Iterable[str], *, use_cache: bool = True) -> Workspace:
    """The workspace restricted to the modules ``starts`` import transitively, themselves
    included, scanning (or reading from the store) only those files.

    Everything about a module that a pin reads (its import closure, the faults, unresolved
    imports and import cycles in it, the token digests) depends only on the modules in that
    closure, and the closure is closed under imports: so a command about a few missions
    answers exactly what a whole load would, without decoding thousands of other scans.
    """
    sources = library_roots(root)
    libraries = library_names(sources)
    store = ScanStore.open(default_cache_dir(root) if use_cache else None)
    stats = lean_file_stats(str(root), sources)
    name_of = module_namer(str(root), sources)
    files: dict[str, list[tuple[str, os.stat_result]]] = {}
    for path, stat in stats:
        files.setdefault(name_of(path), []).append((path, stat))
    modules: dict[str, Module] = {}
    pending = list(starts)
    while pending:
        name = pending.pop()
        if name in modules or name not in files:
            continue
        found: list[tuple[str, FileScan, str]] = []
        for path, stat in files[name]:
            hit = store.cached(path, stat)
            if hit is None:
                scanned = scan_file(path)
                scan = FileScan.from_json(json.loads(scanned.text), store.shared)
                store.record(path, scanned.size, scanned.stamp, scanned.sha, scan, scanned.text)
                hit = (scan, scanned.sha)
            found.append((path, *hit))
        module = modules[name] = _as_module(root, name, found)
        pending.extend(i for i, _ in module.scan.imports if i.split(".", 1)[0] in libraries)
    store.save({path for path, _ in stats})
    return Workspace(root=root, libraries=libraries, modules=modules)


def _prefixes(namespace: str) -> list[str]:
    """``A.B.C`` → ``A.B.C``, ``A.B``, ``A``: where Lean looks up a name inside it."""
    if not namespace:
        return []
    parts = namespace.split(".")
    return [".".join(parts[:k]) for k in range(len(parts), 0, -1)]


def load_workspace(root: Path, *, use_cache: bool = True) -> Workspace:
    """Scan every module of the workspace's libraries (cached).

    A file that cannot be read, decoded or lexed is still a module: its scan carries the
    fault, and only targets whose closure contains it are affected (see ``Workspace.fault``).
    """
    with start_loading(root, use_cache=use_cache) as loading:
        return loading.result()


def start_loading(root: Path, *, use_cache: bool) -> WorkspaceLoading:
    """Start scanning the workspace in worker processes and return at once; the caller may
    do other work (parse the mission YAML) before asking for :meth:`WorkspaceLoading.result`.
    Use it as a context manager, so the workers stop even if that other work fails.

    A loading :func:`prefetch` started for the same root is taken over (its stats were
    taken before it read anything, as a loading's are)."""
    global _prefetched
    early, _prefetched = _prefetched, None
    if early is not None:
        if use_cache and os.path.realpath(early.root) == os.path.realpath(root):
            return early
        early.discard()
    return WorkspaceLoading(root, use_cache)


#: The loading :func:`prefetch` started, until :func:`start_loading` takes it.
_prefetched: WorkspaceLoading | None = None


def prefetch(root: str) -> None:
    """Start loading ``root``'s workspace before a command that loads it has even been
    parsed: a cold run's workers scan while the command line interface is imported (a third
    of a second with one core idle); a warm run's stat walk is done by then.

    :func:`start_loading` takes the loading over; one nobody takes (the command failed
    first, or was not the one expected) is stopped at exit. Every Lean file's stat is fixed
    here, before any read: a command that keys what it stores by the workspace's stats must
    take them from the loading (:attr:`WorkspaceLoading.stats`, judged racy as of
    :attr:`WorkspaceLoading.taken_ns`), never stat again after reads began."""
    global _prefetched
    _prefetched = WorkspaceLoading(Path(root), use_cache=True)
    import atexit

    atexit.register(_stop_prefetched)


def _stop_prefetched() -> None:
    global _prefetched
    early, _prefetched = _prefetched, None
    if early is not None:
        early.discard()


class WorkspaceLoading:
    """A workspace whose changed files are being scanned (see :func:`start_loading`)."""

    def __init__(self, root: Path, use_cache: bool) -> None:
        self.root = root
        self.sources = library_roots(root)
        self.store = ScanStore.open(default_cache_dir(root) if use_cache else None)
        #: when the stats were taken (before any file was read)
        self.taken_ns = time.time_ns()
        self.stats = lean_file_stats(str(root), self.sources)
        self.scans: dict[str, tuple[FileScan, str]] = {}
        self._digests: list[tuple[str, str]] = []
        stale: list[str] = []
        for path, stat in self.stats:
            hit = self.store.cached(path, stat) or self._unchanged(path)
            if hit is None:
                stale.append(path)
            else:
                self.scans[path] = hit
        self.scanning = _Scanning(stale)

    def digests(self) -> list[tuple[str, str]]:
        """Every Lean file with the sha256 of the bytes its scan was made from (as scanned
        now, or as indexed for a file whose stamp held), in :attr:`stats` order; "" for a
        file that could not be read. Only after :meth:`result`."""
        return self._digests

    def _unchanged(self, path: str) -> tuple[FileScan, str] | None:
        """The stored scan of a file whose stamp moved but whose bytes are as indexed (see
        :func:`restamp`)."""
        row = self.store.index.get(path)
        if row is None or restamp(self.store, path) is None:
            return None
        scan = self.store.known(row[2])
        return None if scan is None else (scan, row[2])

    def result(self) -> Workspace:
        # scanning allocates millions of short-lived objects and no cycles: the cyclic
        # collector only costs time here
        collecting = gc.isenabled()
        gc.disable()
        try:
            modules = self._modules()
        finally:
            if collecting:
                gc.enable()
        self.store.save({str(m.path) for m in modules.values()})
        self._digests = [(path, self.scans[path][1]) for path, _ in self.stats]
        # a caller may keep the loading (for its digests), not what the modules now hold or
        # nothing needs again: the scans, every stat, the store's index (7 MB at the peak
        # of a 2,000-mission run)
        self.scans.clear()
        self.stats = []
        self.store.close()
        self.store = ScanStore(None)
        release_free_memory()  # the decoding's garbage: the peak of every later phase
        return Workspace(root=self.root, libraries=library_names(self.sources), modules=modules)

    def _modules(self) -> dict[str, Module]:
        store = self.store
        for scanned in self.scanning:
            scan = FileScan.from_json(json.loads(scanned.text), store.shared)
            store.record(scanned.path, scanned.size, scanned.stamp, scanned.sha, scan, scanned.text)
            self.scans[scanned.path] = (scan, scanned.sha)
        files: dict[str, list[tuple[str, FileScan, str]]] = {}
        name_of = module_namer(str(self.root), self.sources)
        for path, _ in self.stats:  # every file is in `scans`: from the cache or scanned now
            files.setdefault(name_of(path), []).append((path, *self.scans[path]))
        return {name: _as_module(self.root, name, found) for name, found in files.items()}

    def __enter__(self) -> WorkspaceLoading:
        return self

    def __exit__(self, *_: object) -> None:
        self.scanning.__exit__()

    def discard(self) -> None:
        """Stop a loading no one will take: the workers, and the store without writing."""
        self.scanning.__exit__()
        self.store.close()
