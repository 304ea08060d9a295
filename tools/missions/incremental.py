"""Incremental ``status``: after an edit, recompute only the missions the edit can touch.

A full ``status`` reads every mission YAML, loads every file's scan and analyses every
target; most of that is the same after a person edits one proof. Each full run therefore
leaves a *state* beside the scan store (:mod:`missions.lean.store`): the JSON it printed, and
per mission the modules its answer depends on (the import closures of its root, statements
and proof modules) and the names of its statements and proofs.

The next ``status`` on a changed tree first tries this path, which imports neither the CLI
nor the YAML and schema libraries. It rescans only the files whose size or modification time
moved, finds the missions whose modules include one of them (or whose statement or proof
names a changed file declares, or used to), analyses just those targets with the same
:func:`missions.status.target_status` as the full run, and patches their entries. Anything
it cannot bound falls back to the full command:

* any change to a mission YAML, the Lake files, the toolchain or the witness results;
* a change inside any mission's statement closure (pins, lint and placeholders depend on
  it), a change to a module with ``#exit`` (its reasons name every such module);
* a mission whose root module does not exist (its names are looked up workspace-wide).

``tests/test_incremental.py`` checks, edit by edit, that this path prints exactly what the
full command prints.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from missions import SCANNER_VERSION, __version__
from missions.cache import cache_dir_for
from missions.lean.scan import FileScan
from missions.lean.store import ScanStore
from missions.lean.workspace import Module, Workspace, scan_file
from missions.pins import PinState
from missions.roots import SourceRoot, library_names, module_namer
from missions.status import AnalysisMemo, TargetStatus, mission_state, summary_of, target_status

if TYPE_CHECKING:
    from missions.catalog import MissionFile, Target
    from missions.status import Analysis

STATE_FILE = "status-state.json"
#: Files outside the Lean sources that a status answer depends on.
GLOBAL_FILES = ("lakefile.lean", "lakefile.toml", "lean-toolchain", "lake-manifest.json")


# ----------------------------------------------------------------------- remembering
def global_inputs(root: str) -> dict[str, list[int] | None]:
    """Size, modification and change time of every non-Lean input, by path."""
    paths = [os.path.join(root, name) for name in GLOBAL_FILES]
    paths.append(os.path.join(cache_dir_for(root), "witness-results.json"))
    try:
        with os.scandir(os.path.join(root, "missions")) as entries:
            paths += sorted(e.path for e in entries if e.name.endswith((".yaml", ".yml")))
    except OSError:
        pass
    found: dict[str, list[int] | None] = {}
    for path in paths:
        try:
            stat = os.stat(path)
            found[path] = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]
        except OSError:
            found[path] = None
    return found


def remember(
    analysis: Analysis, data: dict[str, Any], inputs: dict[str, Any], texts: list[str]
) -> None:
    """Keep what the next incremental ``status`` needs from a full run over the catalog.

    ``inputs`` are the :func:`global_inputs` read *before* the run (a file changed during
    the run then counts as changed next time); ``texts`` are the missions' encoded entries
    (:func:`mission_text`).
    """
    workspace = analysis.workspace
    missions: list[dict[str, Any]] = []
    for mission, entry, text in zip(analysis.missions, data["missions"], texts, strict=True):
        info = mission.file.mission
        record = {
            "id": info.id,
            "yaml": str(mission.file.path),
            "module": info.lean.module,
            "statements": info.lean.statements_module,
            "pin": info.lean.statement_pin,
            "statement_closure": sorted(mission.pin.modules),
        }
        _reaches(record, workspace, mission.targets)
        _answer(record, entry, text)
        missions.append(record)
    state = {
        "version": [__version__, SCANNER_VERSION],
        "inputs": inputs,
        "evidence": data["evidence"],
        "lint": data.get("lint"),
        "missions": missions,
    }
    _write(
        os.path.join(cache_dir_for(str(analysis.root)), STATE_FILE),
        json.dumps(state, ensure_ascii=False),
    )


def _reaches(
    record: dict[str, Any], workspace: Workspace, statuses: Sequence[TargetStatus]
) -> None:
    """The modules a mission's answer depends on, and where its names were found."""
    modules = set(workspace.closure(record["module"])) | set(record["statement_closure"])
    targets = []
    for status in statuses:
        target = status.target
        found = [
            d[0].name if d is not None else None for d in (status.statement_decl, status.proof_decl)
        ]
        if status.proof_decl is not None:
            modules |= set(workspace.closure(status.proof_decl[0].name))
        targets.append([target.id, target.kind, target.statement, target.proof, *found])
    record["modules"] = sorted(modules)
    # what each module held when the answer was computed: the next run trusts the answer
    # only while the index agrees (another run may have rewritten the index in between)
    record["shas"] = {
        name: workspace.modules[name].sha for name in record["modules"] if name in workspace.modules
    }
    record["targets"] = targets


def _answer(record: dict[str, Any], entry: dict[str, Any], text: str | None = None) -> None:
    record["statuses"] = [entry["status"], [t["status"] for t in entry["targets"]]]
    record["text"] = mission_text(entry) if text is None else text


def _write(path: str, text: str) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        pass


# ---------------------------------------------------------------------- the output
def render(data: dict[str, Any]) -> str:
    """``status --json`` text: exactly ``json.dumps(data, indent=2)`` plus a newline, built from
    each mission's own text (see :func:`mission_text`) so that unchanged missions are never
    encoded again."""
    return assemble(
        {k: v for k, v in data.items() if k != "missions"},
        [mission_text(m) for m in data["missions"]],
    )


def mission_text(entry: dict[str, Any]) -> str:
    return json.dumps(entry, indent=2, ensure_ascii=False, default=str)


def assemble(fields: dict[str, Any], missions: list[str]) -> str:
    """The top-level object with ``missions`` (already encoded texts) in second-to-last
    place after ``root`` and ``evidence``, laid out as ``json.dumps(indent=2)`` lays it out."""
    items: list[str] = []
    for key in ("root", "evidence"):
        items.append(f"  {_key(key)}: {_value(fields[key])}")
    if missions:
        body = ",\n".join(_indent(text, "    ") for text in missions)
        items.append(f'  "missions": [\n{body}\n  ]')
    else:
        items.append('  "missions": []')
    for key, value in fields.items():
        if key not in ("root", "evidence"):
            items.append(f"  {_key(key)}: {_value(value)}")
    return "{\n" + ",\n".join(items) + "\n}\n"


def _key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    return _indent(json.dumps(value, indent=2, ensure_ascii=False, default=str), "  ")[2:]


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.split("\n"))


# ------------------------------------------------------------------- the stand-ins
@dataclass
class _Lean:
    module: str
    statements_module: str
    statement_pin: str | None


@dataclass
class _Mission:
    id: str
    lean: _Lean


@dataclass
class _MissionFile:
    """What :func:`target_status` reads of a mission file (violations are not needed here)."""

    path: Path
    mission: _Mission

    def target_line(self, target_id: str, key: str | None = None) -> int:
        return 1


@dataclass
class _Target:
    id: str
    kind: str
    statement: str | None
    proof: str | None


# -------------------------------------------------------------------------- the path
@dataclass
class _Plan:
    """Which files changed and how, found from the stat index alone."""

    changed: dict[str, FileScan] = field(default_factory=dict)  # module -> new scan
    old: dict[str, FileScan] = field(default_factory=dict)  # module -> scan it replaced
    removed: set[str] = field(default_factory=set)


def status_text(root: str, libraries: list[SourceRoot], stats: list[tuple[str, Any]]) -> str | None:
    """The ``status --json`` text for the tree as it is now, or None to run the full command.

    ``stats`` are the Lean files with their ``os.stat`` results (from the fast path).
    """
    cache = cache_dir_for(root)
    try:
        with open(os.path.join(cache, STATE_FILE), encoding="utf-8") as handle:
            state = json.load(handle)
    except (OSError, ValueError):
        return None
    if state.get("version") != [__version__, SCANNER_VERSION]:
        return None
    if global_inputs(root) != state["inputs"]:
        return None
    store = ScanStore.open(Path(cache))
    if not store.index:
        return None
    name_of = module_namer(root, libraries)
    plan = _changes(name_of, store, stats)
    if plan is None:
        return None
    missions = state["missions"]
    graph = _import_graph(name_of, store, stats)
    shas = {name_of(path): row[2] for path, row in store.index.items()}
    affected = _affected(missions, plan, graph, shas)
    if affected is None:
        return None
    if affected:
        recomputed = _recompute(root, libraries, name_of, store, plan, graph, missions, affected)
        if recomputed is None:
            return None
        for index, entry in recomputed.items():
            _answer(missions[index], entry)
    shapes = [
        {"status": m["statuses"][0], "targets": [{"status": t} for t in m["statuses"][1]]}
        for m in missions
    ]
    fields: dict[str, Any] = {"root": root, "evidence": state["evidence"]}
    fields["summary"] = summary_of(shapes)
    if state.get("lint") is not None:
        fields["lint"] = state["lint"]
    text = assemble(fields, [m["text"] for m in missions])
    store.save({path for path, _ in stats})
    if affected:
        _write(os.path.join(cache, STATE_FILE), json.dumps(state, ensure_ascii=False))
    return text


def _changes(
    name_of: Callable[[str], str], store: ScanStore, stats: list[tuple[str, Any]]
) -> _Plan | None:
    """Rescan the files whose size or modification time moved; note what each replaced."""
    plan = _Plan()
    on_disk = {path for path, _ in stats}
    for path in set(store.index) - on_disk:
        plan.removed.add(name_of(path))
    for path, stat in stats:
        row = store.index.get(path)
        if row is not None and row[0] == stat.st_size and row[1] == stat.st_mtime_ns:
            continue
        scanned = scan_file(path)
        if not scanned.sha:
            return None  # an unreadable file: the full command reports it
        name = name_of(path)
        if row is not None and row[2] == scanned.sha:  # touched, not changed
            store.touch(path, scanned.size, scanned.mtime)
            continue
        scan = FileScan.from_json(json.loads(scanned.text))
        store.record(path, scanned.size, scanned.mtime, scanned.sha, scan, scanned.text)
        plan.changed[name] = scan
        if row is not None:
            old = store.known(row[2])
            if old is None:
                return None
            plan.old[name] = old
    return plan


def _import_graph(
    name_of: Callable[[str], str], store: ScanStore, stats: list[tuple[str, Any]]
) -> dict[str, list[str]]:
    graph: dict[str, list[str]] = {}
    for path, _ in stats:
        row = store.index.get(path)
        if row is None:
            continue
        graph[name_of(path)] = [name for name, _ in row[3]]
    return graph


def _closure(graph: dict[str, list[str]], start: str, memo: dict[str, set[str]]) -> set[str]:
    if start in memo:
        return memo[start]
    seen: set[str] = set()
    stack = [start]
    while stack:
        name = stack.pop()
        if name in seen or name not in graph:
            continue
        seen.add(name)
        stack.extend(graph[name])
    memo[start] = seen
    return seen


def _affected(
    missions: list[dict[str, Any]], plan: _Plan, graph: dict[str, list[str]], shas: dict[str, str]
) -> set[int] | None:
    """Indexes of the missions an edit can change, or None when one must run in full.

    ``shas`` are the content hashes the index holds now, by module: a mission whose recorded
    modules held other contents when its answer was computed is recomputed as well.
    """
    touched = set(plan.changed) | plan.removed
    for mission in missions:
        for name, sha in mission["shas"].items():
            if shas.get(name) != sha:
                touched.add(name)
    if not touched:
        return set()
    for scan in [*plan.changed.values(), *plan.old.values()]:
        if scan.exit_line is not None:
            return None
    declared = {
        decl.name for scan in [*plan.changed.values(), *plan.old.values()] for decl in scan.decls
    }
    memo: dict[str, set[str]] = {}
    affected: set[int] = set()
    for index, mission in enumerate(missions):
        if mission["module"] not in graph:
            return None
        statement_closure = _closure(graph, mission["statements"], memo)
        if touched & (statement_closure | set(mission["statement_closure"])):
            return None
        modules = set(mission["modules"]) | _closure(graph, mission["module"], memo)
        names = {n for _, _, statement, proof, *_ in mission["targets"] for n in (statement, proof)}
        if touched & modules or declared & names:
            root_closure = _closure(graph, mission["module"], memo)
            declared_in = {m for *_, s, p in mission["targets"] for m in (s, p) if m is not None}
            if not declared_in <= root_closure:
                return None  # names the root does not import are looked up workspace-wide
            affected.add(index)
    return affected


def _recompute(
    root: str,
    libraries: list[SourceRoot],
    name_of: Callable[[str], str],
    store: ScanStore,
    plan: _Plan,
    graph: dict[str, list[str]],
    missions: list[dict[str, Any]],
    affected: set[int],
) -> dict[int, dict[str, Any]] | None:
    """The affected missions' entries, analysed over the modules they can reach."""
    memo: dict[str, set[str]] = {}
    needed: set[str] = set()
    for index in affected:
        mission = missions[index]
        needed |= set(mission["modules"]) | _closure(graph, mission["module"], memo)
        for _, _, statement, proof, *_ in mission["targets"]:
            for name in (statement, proof):
                for changed, new in plan.changed.items():
                    if name and any(d.name == name for d in new.decls):
                        needed |= _closure(graph, changed, memo)
    paths = {name_of(p): p for p in store.index}
    modules: dict[str, Module] = {}
    for name in sorted(needed):
        if name not in graph:
            continue  # imported but absent: the analysis reports the import
        scan = plan.changed.get(name)
        if scan is None:
            row = store.index.get(paths[name])
            stored = store.known(row[2]) if row is not None else None
            if stored is None:
                return None
            scan = stored
        row = store.index.get(paths[name])
        sha = row[2] if row is not None else ""
        modules[name] = Module(name=name, path=Path(paths[name]), scan=scan, sha=sha)
    workspace = Workspace(root=Path(root), libraries=library_names(libraries), modules=modules)
    context = AnalysisMemo(workspace)
    entries: dict[int, dict[str, Any]] = {}
    for index in sorted(affected):
        mission = missions[index]
        entry = json.loads(mission["text"])
        file = _MissionFile(
            Path(mission["yaml"]),
            _Mission(
                mission["id"], _Lean(mission["module"], mission["statements"], mission["pin"])
            ),
        )
        pin = _pin(mission, entry)
        computed: list[TargetStatus] = []
        for target_entry, (target_id, kind, statement, proof, *_) in zip(
            entry["targets"], mission["targets"], strict=True
        ):
            target = _Target(target_id, kind, statement, proof)
            status = target_status(
                workspace,
                cast("MissionFile", file),
                pin,
                cast("Target", target),
                context,
            )
            target_entry["status"] = status.status
            target_entry["evidence"] = status.evidence
            target_entry["reasons"] = status.reasons
            computed.append(status)
        if entry["status"] != "draft":
            entry["status"] = mission_state([t.status for t in computed])
        _reaches(mission, workspace, computed)
        entries[index] = entry
    return entries


def _pin(mission: dict[str, Any], entry: dict[str, Any]) -> PinState:
    """The mission's pin state: its statement closure did not change (else no incremental run)."""
    recorded = entry["pin"]
    return PinState(
        modules=list(mission["statement_closure"]),
        digest=recorded["current"],
        recorded=recorded["recorded"],
    )
