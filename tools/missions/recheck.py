"""Incremental ``check``: after an edit to Lean proofs, run the gate only where it can change.

A plain ``check`` stores its answer under a key that stamps every file the gate may read
(:mod:`missions.inputs`); any edit moves the key and the whole gate runs again, which at
thousands of missions is mostly reading what did not change. So each stored answer leaves
a *state* beside it: the stamps its key was the digest of, and the gate's findings in the
order it found them (:class:`missions.gate.GateParts`), per mission with the modules its
findings depend on and their content hashes.

The next ``check`` compares the stamps it took with the state's. The rule that keeps this
sound is the key's own: anything the gate reads is stamped. Only a change to the *content
of Lean files that were scanned* is answered here; any other stamp that moved (a mission
YAML, the README, a Lake file, git, the tool, the environment, a file added or removed)
runs the whole gate. For the Lean files that moved, the scan store says which content
changed. Then:

* an edit inside any mission's statement closure runs the whole gate (pins, the lint and
  the placeholders read those files), as does one that adds or removes a ``#exit`` or
  changes a module's imports (what a closure holds, and what ``lake build`` elaborates);
* a mission is analysed and gated again when one of its modules changed (the import
  closures of its root, statements and proofs), when a changed file declares or declared
  one of its statements' or proofs' names, or when one of its targets reaches everything;
  like the incremental ``status`` (:mod:`missions.incremental`), over a workspace holding
  just the modules those missions reach;
* the constructs forbidden anywhere are found again in the changed files;
* everything else (toolchain pins, the lint, the policies, other missions) is as stored.

``tests/test_recheck.py`` checks, edit by edit, that this path answers exactly what the
whole gate answers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from missions import SCANNER_VERSION, __version__, code_fingerprint
from missions.cache import cache_dir_for
from missions.gate import (
    GateParts,
    GateResult,
    MissionFindings,
    gate_headline,
    mission_findings,
    module_violations,
)
from missions.incremental import record_reach
from missions.inputs import Recording
from missions.lean.scan import FileScan
from missions.lean.store import ScanStore
from missions.lean.workspace import Module, Workspace, restamp, scan_file
from missions.pins import pin_state
from missions.roots import library_names, library_roots
from missions.status import (
    Analysis,
    AnalysisMemo,
    MissionStatus,
    Violation,
    names_inside_root,
    target_status,
)

STATE_FILE = "check-state.json"
#: What the state holds changes with this: a state of another format is never read.
STATE_FORMAT = 1

_FIELDS = ("rule", "message", "file", "line", "mission", "target")


def _encode(violations: Iterable[Violation]) -> list[list[Any]]:
    return [[getattr(v, name) for name in _FIELDS] for v in violations]


def _decode(rows: list[list[Any]]) -> list[Violation]:
    return [Violation(*row) for row in rows]


def _counts(mission: MissionStatus) -> list[int]:
    return [len(mission.targets), sum(t.status == "proved" for t in mission.targets)]


# ----------------------------------------------------------------------- remembering
def remember_gate(recording: Recording, analysis: Analysis, gate: GateResult) -> None:
    """Keep the state the next ``check`` starts from, once ``recording`` stored the answer
    of a whole plain gate (``gate``) over every mission of ``analysis``."""
    if recording.kept is None or gate.parts is None:
        return
    parts, extra = recording.kept
    state = _state(analysis, gate.parts, parts, extra)
    if state is not None:
        _write(_state_path(str(analysis.root)), state)


def _state(
    analysis: Analysis, gate: GateParts, parts: list[str], extra: list[str]
) -> dict[str, Any] | None:
    workspace = analysis.workspace
    top = os.path.realpath(analysis.root) + os.sep
    if any(not str(m.path).startswith(top) for m in workspace.modules.values()):
        return None  # paths the stamps name otherwise: nothing to compare them with
    missions = []
    for mission, found in zip(analysis.missions, gate.missions, strict=True):
        info = mission.file.mission
        record: dict[str, Any] = {
            "id": info.id,
            "yaml": str(mission.file.path),
            "module": info.lean.module,
            "root": sorted(workspace.closure(info.lean.module)),
            "statement_closure": sorted(mission.pin.modules),
        }
        record_reach(record, workspace, mission.targets)
        _findings(record, mission, found)
        missions.append(record)
    return {
        "version": _version(),
        "parts": parts,
        "extra": extra,
        "files": {str(m.path): [name, m.sha] for name, m in workspace.modules.items()},
        "built": sorted(analysis.memo.built()),
        "exits": sorted(n for n, m in workspace.modules.items() if m.scan.exit_line is not None),
        "head": _encode(gate.head),
        "modules": {name: _encode(found) for name, found in gate.modules.items() if found},
        "missions": missions,
        "tail": _encode(gate.tail),
    }


def _findings(record: dict[str, Any], mission: MissionStatus, found: MissionFindings) -> None:
    record["counts"] = _counts(mission)
    record["violations"] = _encode(found.violations)
    record["warnings"] = _encode(found.warnings)


def _version() -> list[Any]:
    return [__version__, SCANNER_VERSION, STATE_FORMAT, code_fingerprint()]


def _state_path(root: str) -> str:
    return os.path.join(cache_dir_for(root), STATE_FILE)


def _write(path: str, state: dict[str, Any]) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(state, ensure_ascii=False))
        os.replace(tmp, path)
    except OSError:
        pass  # a lost state only costs the whole gate next time


def _read(path: str) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            state = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(state, dict) or state.get("version") != _version():
        return None
    return cast(dict[str, Any], state)


# -------------------------------------------------------------------------- the path
@dataclass
class _Edit:
    """The Lean files whose content changed, by module."""

    new: dict[str, FileScan] = field(default_factory=dict)
    old: dict[str, FileScan] = field(default_factory=dict)
    shas: dict[str, str] = field(default_factory=dict)  # path -> its content hash now


def recheck(root: Path, recording: Recording) -> dict[str, Any] | None:
    """The gate's answer (as :func:`missions.stored.check_answer` gives it) for the tree
    ``recording`` stamped, stored under it; None when the whole gate must run."""
    from missions.stored import check_answer

    top = str(root)
    state = _read(_state_path(top))
    if state is None:
        return None
    try:
        gate = _recheck(root, recording, state)
    except (KeyError, TypeError, ValueError, IndexError, OSError):
        return None  # a damaged state, or a file gone meanwhile: the whole gate runs
    if gate is None:
        return None
    missions = state["missions"]
    summary = {
        "missions": len(missions),
        "targets": sum(m["counts"][0] for m in missions),
        "proved": sum(m["counts"][1] for m in missions),
    }
    answer = check_answer(gate, gate_headline(summary, gate, lean=False))
    extra = cast(list[str], state["extra"])
    if recording.store(answer, extra[len(recording.extra) :]) and recording.kept is not None:
        state["parts"], state["extra"] = recording.kept
        _write(_state_path(top), state)
    return answer


def _recheck(root: Path, recording: Recording, state: dict[str, Any]) -> GateResult | None:
    now = recording.parts_with(state["extra"])
    if now is None:
        return None
    files: dict[str, list[str]] = state["files"]
    moved: set[str] = set()
    for part in set(state["parts"]).symmetric_difference(now):
        path, _, _ = part.partition("\0")
        if path not in files:
            return None  # not a Lean file the gate scanned: only the whole gate knows
        moved.add(path)
    store = ScanStore.open(cache_dir_for(str(root)))
    edit = _edit(store, files, moved)
    if edit is None:
        return None
    touched = set(edit.new)
    for record in state["missions"]:
        if touched & set(record["statement_closure"]):
            return None
    affected = _affected(state["missions"], edit)
    if affected is None:
        return None
    parts = GateParts(
        head=_decode(state["head"]),
        modules={name: _decode(rows) for name, rows in state["modules"].items()},
        missions=[
            MissionFindings(_decode(m["violations"]), _decode(m["warnings"]))
            for m in state["missions"]
        ],
        tail=_decode(state["tail"]),
    )
    for name, scan in edit.new.items():
        path = next(p for p, (module, _) in files.items() if module == name)
        found = module_violations(root, Module(name=name, path=Path(path), scan=scan))
        if found:
            parts.modules[name] = found
            state["modules"][name] = _encode(found)
        else:
            parts.modules.pop(name, None)
            state["modules"].pop(name, None)
    for path, sha in edit.shas.items():
        files[path][1] = sha
    if affected and not _regate(root, store, state, edit, affected, parts):
        return None
    store.save(set(store.index))
    return parts.result()


def _edit(store: ScanStore, files: dict[str, list[str]], moved: set[str]) -> _Edit | None:
    """Which of the ``moved`` files changed content, with their scans now and before."""
    edit = _Edit()
    for path in sorted(moved):
        name, sha_then = files[path]
        try:
            stat = os.stat(path)
        except OSError:
            return None  # removed: what imports it, and the workspace's order, change
        hit = store.cached(path, stat)
        if hit is None and restamp(store, path) is not None:
            hit = store.cached(path, stat)  # touched, not changed (a checkout)
        if hit is None:
            scanned = scan_file(path)
            if not scanned.sha:
                return None  # unreadable: the whole gate reports it
            scan = FileScan.from_json(json.loads(scanned.text), store.shared)
            store.record(path, scanned.size, scanned.stamp, scanned.sha, scan, scanned.text)
            hit = (scan, scanned.sha)
        scan, sha = hit
        if sha == sha_then:
            continue
        old = store.known(sha_then)
        if old is None:
            return None
        if old.imports != scan.imports or old.exit_line is not None or scan.exit_line is not None:
            return None  # closures, or the modules every missing proof's reason names, move
        edit.new[name], edit.old[name], edit.shas[path] = scan, old, sha
    return edit


def _affected(missions: list[dict[str, Any]], edit: _Edit) -> set[int] | None:
    """Indexes of the missions whose findings the edit can change; None when one of them
    cannot be analysed on its own."""
    touched = set(edit.new)
    if not touched:
        return set()
    declared = {d.name for scan in [*edit.new.values(), *edit.old.values()] for d in scan.decls}
    affected: set[int] = set()
    for index, record in enumerate(missions):
        names = {n for _, _, statement, proof, *_ in record["targets"] for n in (statement, proof)}
        if touched & set(record["modules"]) or declared & names or record["unbounded"]:
            declared_in = {m for *_, s, p in record["targets"] for m in (s, p) if m is not None}
            if not declared_in <= set(record["root"]):
                return None  # names the root does not import are looked up workspace-wide
            affected.add(index)
    return affected


def _regate(
    root: Path,
    store: ScanStore,
    state: dict[str, Any],
    edit: _Edit,
    affected: set[int],
    parts: GateParts,
) -> bool:
    """Analyse and gate the affected missions again, over the modules they reach."""
    from missions.catalog import load_catalog
    from missions.ratchet import status_timelines
    from missions.settings import load_settings

    missions: list[dict[str, Any]] = state["missions"]
    files: dict[str, list[str]] = state["files"]
    paths = {module: path for path, (module, _) in files.items()}
    needed: set[str] = set(state["exits"])
    for index in affected:
        record = missions[index]
        needed |= set(record["modules"]) | set(record["root"])
    declared = {d.name for scan in edit.new.values() for d in scan.decls}
    names = {n for i in affected for _, _, s, p, *_ in missions[i]["targets"] for n in (s, p) if n}
    if declared & names:
        needed |= set(edit.new)  # a namesake elsewhere is named in the reasons
    modules = _modules(store, paths, files, edit, needed)
    if modules is None:
        return False
    workspace = Workspace(root=root, libraries=library_names(library_roots(root)), modules=modules)
    ids = [Path(missions[i]["yaml"]).stem for i in sorted(affected)]
    catalog = load_catalog(root, only=ids)
    chosen = {str(m.path): m for m in catalog.files}
    memo = AnalysisMemo(workspace, set(state["built"]))
    analysed: list[MissionStatus] = []
    for index in sorted(affected):
        mission_file = chosen.get(missions[index]["yaml"])
        if mission_file is None or mission_file.mission.id != missions[index]["id"]:
            return False
        info = mission_file.mission
        if not names_inside_root(workspace, info.lean.module, info.targets):
            return False
        pin = pin_state(workspace, mission_file.mission)
        statuses = [
            target_status(workspace, mission_file, pin, target, memo)
            for target in mission_file.mission.targets
        ]
        analysed.append(MissionStatus(mission_file, pin, statuses))
    analysis = Analysis(
        root=root, workspace=workspace, missions=analysed, memo=memo, catalog=catalog.missions
    )
    timelines = status_timelines(root, [m.file.path for m in analysed])
    policy = load_settings(root).policy
    for index, mission in zip(sorted(affected), analysed, strict=True):
        found = mission_findings(analysis, mission, timelines[mission.file.path], policy)
        parts.missions[index] = found
        record = missions[index]
        if sorted(mission.pin.modules) != record["statement_closure"]:
            return False
        record_reach(record, workspace, mission.targets)
        _findings(record, mission, found)
    return True


def _modules(
    store: ScanStore,
    paths: dict[str, str],
    files: dict[str, list[str]],
    edit: _Edit,
    needed: set[str],
) -> dict[str, Module] | None:
    """The ``needed`` modules and everything they import (the modules absent from the
    workspace left out, as the whole workspace leaves them out), scans from the edit or
    the store."""
    modules: dict[str, Module] = {}
    pending = sorted(needed)
    while pending:
        name = pending.pop()
        path = paths.get(name)
        if name in modules or path is None:
            continue  # imported but absent: the analysis reports the import
        sha = files[path][1]
        scan = edit.new.get(name) or store.known(sha)
        if scan is None:
            return None
        modules[name] = Module(name=name, path=Path(path), scan=scan, sha=sha)
        pending.extend(i for i, _ in scan.imports)
    return dict(sorted(modules.items()))
