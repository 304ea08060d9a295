"""Incremental ``check``: after an edit, run the gate only where the edit can change it.

A plain ``check`` stores its answer under a key that stamps every file the gate may read
(:mod:`missions.inputs`); any edit moves the key and the whole gate runs again, which at
thousands of missions is mostly reading what did not change. So each stored answer leaves
a *state* beside it: the stamps its key was the digest of, and the gate's findings in the
order it found them (:class:`missions.gate.GateParts`), per mission with the modules and
the YAML its findings depend on, with their content hashes.

The next ``check`` compares the stamps it took with the state's. The rule that keeps this
sound is the key's own: anything the gate reads is stamped. Only two kinds of moved stamp
are answered here: a scanned Lean file and an existing mission YAML. Any other (the README,
a Lake file, git, a review, the tool, the environment, a file added or removed) runs the
whole gate. Of the files that moved, content hashes say which changed. Then:

* an edit that adds or removes a ``#exit`` or changes a module's imports runs the whole
  gate (what closures hold, and what ``lake build`` elaborates, move), as does a YAML edit
  that moves a mission's modules or what the lint reads of it (its statements);
* an edit inside statement closures must leave every lint finding as it was, by the
  argument of the incremental ``status`` (:func:`missions.incremental.lint_stands`), or the
  whole gate runs;
* a mission is analysed and gated again when its YAML changed, when one of its modules
  changed (the import closures of its root, statements and proofs: pins, closure rules and
  placeholders included), when a changed file declares or declared one of its statements'
  or proofs' names, or when one of its targets reaches everything; like the incremental
  ``status``, over a workspace holding the modules those missions reach, and only while
  every name they look up is declared inside their root's imports;
* the constructs forbidden anywhere are found again in the changed files, the policies of
  the missions gated again are applied again;
* everything else (toolchain pins, the lint, other missions) is as stored.

When more than a quarter of the catalogue is to be gated again (a shared definitions file),
the whole gate runs: it reads every YAML from its cache, which this path does not.

``tests/test_recheck.py`` checks, edit by edit, that this path answers exactly what the
whole gate answers.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from missions import SCANNER_VERSION, __version__, code_fingerprint, inputs
from missions.cache import CHECK_STATE_FILE, cache_dir_for, write_state
from missions.gate import (
    GateParts,
    GateResult,
    MissionFindings,
    gate_headline,
    mission_findings,
    module_violations,
)
from missions.incremental import lint_stands, record_reach
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

if TYPE_CHECKING:
    from missions.catalog import Mission
    from missions.lint import LintResult

#: What the state holds changes with this: a state of another format is never read.
STATE_FORMAT = 2

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
    if recording.kept is None or gate.parts is None or gate.lint is None:
        return
    parts, extra = recording.kept
    state = state_of(analysis, gate.parts, gate.lint, parts, extra)
    if state is not None:
        write_state(_state_path(str(analysis.root)), state)


def state_of(
    analysis: Analysis, gate: GateParts, lint: LintResult, parts: list[str], extra: list[str]
) -> dict[str, Any] | None:
    """The state :func:`regate` starts from after a whole plain gate over every mission of
    ``analysis``, stored under the stamps ``parts`` with the inputs ``extra``; None when
    its modules' paths are not the stamps' (outside the workspace)."""
    workspace = analysis.workspace
    top = os.path.realpath(analysis.root) + os.sep
    if any(not str(m.path).startswith(top) for m in workspace.modules.values()):
        return None  # paths the stamps name otherwise: nothing to compare them with
    stamped = set(parts)
    missions = []
    for mission, found in zip(analysis.missions, gate.missions, strict=True):
        info = mission.file.mission
        path = str(mission.file.path)
        sha = _content_sha(path, stamped)
        if sha is None:
            return None
        record: dict[str, Any] = {
            "id": info.id,
            "yaml": path,
            "yaml_sha": sha,
            "module": info.lean.module,
            "root": sorted(workspace.closure(info.lean.module)),
            "statement_closure": sorted(mission.pin.modules),
        }
        _reach(record, workspace, mission)
        _findings(record, mission, found)
        missions.append(record)
    lines: dict[str, list[int]] = {}
    for finding in lint.findings:
        lines.setdefault(finding.path, []).append(finding.line)
    return {
        "version": state_version(),
        "parts": parts,
        "extra": extra,
        "files": {str(m.path): [name, m.sha] for name, m in workspace.modules.items()},
        "built": sorted(analysis.memo.built()),
        "exits": sorted(n for n, m in workspace.modules.items() if m.scan.exit_line is not None),
        "head": _encode(gate.head),
        "modules": {name: _encode(found) for name, found in gate.modules.items() if found},
        "missions": missions,
        "lint": _encode(gate.lint),
        "policy": _encode(gate.policy),
        # what the lint argument for an edit inside statement closures reads
        "lint_lines": lines,
        "allow_files": list(lint.allow_files),
    }


def _reach(record: dict[str, Any], workspace: Workspace, mission: MissionStatus) -> None:
    """:func:`missions.incremental.record_reach`, less the modules' content hashes: the
    state's ``files`` holds each module's hash once (a tenth of a large state)."""
    record_reach(record, workspace, mission.targets)
    del record["shas"]


def _content_sha(path: str, stamped: set[str]) -> str | None:
    """The content hash of the file at ``path`` if its stamp is among ``stamped`` (then it
    holds what the stamped run read: a stamped file is never racy), else None."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    stamp = inputs.path_stamp(path)
    if f"{path}\0{stamp}" not in stamped:
        return None
    return hashlib.sha256(data).hexdigest()


def _findings(record: dict[str, Any], mission: MissionStatus, found: MissionFindings) -> None:
    info = mission.file.mission
    record["lint_key"] = _lint_key(info)
    record["counts"] = _counts(mission)
    record["violations"] = _encode(found.violations)
    record["warnings"] = _encode(found.warnings)


def _lint_key(mission: Mission) -> list[Any]:
    """What the lint reads of a mission (:meth:`missions.lint._Run.mission`)."""
    return [
        mission.lean.statements_module,
        sorted({t.statement for t in mission.targets if t.statement}),
    ]


def state_version() -> list[Any]:
    """What a state is read under: the tool, the scanner and the state's format."""
    return [__version__, SCANNER_VERSION, STATE_FORMAT, code_fingerprint()]


def _state_path(root: str) -> str:
    return os.path.join(cache_dir_for(root), CHECK_STATE_FILE)


def _read(path: str) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            state = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(state, dict) or state.get("version") != state_version():
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
    regated = regate(root, recording, state)
    if regated is None:
        return None
    missions = state["missions"]
    summary = {
        "missions": len(missions),
        "targets": sum(m["counts"][0] for m in missions),
        "proved": sum(m["counts"][1] for m in missions),
    }
    answer = check_answer(regated.gate, gate_headline(summary, regated.gate, lean=False))
    if keep_state(recording, answer, state):
        write_state(_state_path(top), state)
    return answer


def keep_state(recording: Recording, answer: Any, state: dict[str, Any]) -> bool:
    """Store ``answer`` under ``recording`` with the inputs ``state`` found, and move the
    state's stamps to the stored answer's; False (the state then must not be written: its
    findings are not those of the stamps it holds) when nothing was stored."""
    extra = cast(list[str], state["extra"])
    if not recording.store(answer, extra[len(recording.extra) :]) or recording.kept is None:
        return False
    state["parts"], state["extra"] = recording.kept
    return True


@dataclass
class Regated:
    """What :func:`regate` found: the whole gate's result, and the missions it analysed
    again (their indexes in the state, and their analysis over the modules they reach)."""

    gate: GateResult
    affected: list[int]
    analysis: Analysis | None


def regate(root: Path, recording: Recording, state: dict[str, Any]) -> Regated | None:
    """The gate for the tree ``recording`` stamped, from ``state`` (a state
    :func:`remember_gate` kept, or :func:`state_of` made; brought up to date in place);
    None when the whole gate must run. Whoever stores an answer from it stores the state
    with it (:func:`keep_state`)."""
    try:
        return _recheck(root, recording, state)
    except Exception:  # a damaged state, a file gone meanwhile: an optimization never fails
        if os.environ.get("MISSIONS_DEBUG"):
            raise
        return None


def _recheck(root: Path, recording: Recording, state: dict[str, Any]) -> Regated | None:
    now = recording.parts_with(state["extra"])
    if now is None:
        return None
    files: dict[str, list[str]] = state["files"]
    missions: list[dict[str, Any]] = state["missions"]
    yamls = {record["yaml"]: index for index, record in enumerate(missions)}
    moved: set[str] = set()
    retold: set[int] = set()
    for part in set(state["parts"]).symmetric_difference(now):
        path, _, _ = part.partition("\0")
        if path in files:
            moved.add(path)
        elif path in yamls:
            retold.add(yamls[path])
        else:
            return None  # not a file this path can bound: only the whole gate knows
    store = ScanStore.open(cache_dir_for(str(root)))
    edit = _edit(store, files, moved)
    if edit is None:
        return None
    rewritten = _rewritten(missions, retold)
    touched = set(edit.new)
    holders = [m for m in missions if touched & set(m["statement_closure"])]
    if holders:
        paths = {module: path for path, (module, _) in files.items()}
        if not lint_stands(str(root), store, paths, edit.old, edit.new, state, holders):
            return None
    affected = _affected(missions, edit)
    if affected is None:
        return None
    affected |= set(rewritten)
    if len(affected) > max(len(missions) // 4, 16):
        return None  # the whole gate reads the YAML from its cache: it is the faster here
    parts = GateParts(
        head=_decode(state["head"]),
        modules={name: _decode(rows) for name, rows in state["modules"].items()},
        missions=[
            MissionFindings(_decode(m["violations"]), _decode(m["warnings"])) for m in missions
        ],
        lint=_decode(state["lint"]),
        policy=_decode(state["policy"]),
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
    analysis = None
    if affected:
        analysis = _regate(root, store, state, edit, affected, parts)
        if analysis is None:
            return None
    for index, sha in rewritten.items():
        missions[index]["yaml_sha"] = sha
    state["policy"] = _encode(parts.policy)
    store.save(set(store.index))
    return Regated(parts.result(), sorted(affected), analysis)


def _rewritten(missions: list[dict[str, Any]], retold: set[int]) -> dict[int, str]:
    """Of the missions whose YAML's stamp moved, those whose content changed, with its hash
    now (a file that cannot be read counts as changed: the catalogue reports it)."""
    changed: dict[int, str] = {}
    for index in sorted(retold):
        try:
            sha = hashlib.sha256(Path(missions[index]["yaml"]).read_bytes()).hexdigest()
        except OSError:
            sha = ""
        if sha != missions[index]["yaml_sha"]:
            changed[index] = sha
    return changed


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
) -> Analysis | None:
    """Analyse and gate the affected missions again, over the modules they reach; their
    analysis, or None when the whole gate must run."""
    from missions.catalog import load_catalog
    from missions.errors import InputError
    from missions.policy import policy_violations
    from missions.ratchet import status_timelines
    from missions.settings import load_settings
    from missions.witness import linked_sources

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
        return None
    workspace = Workspace(root=root, libraries=library_names(library_roots(root)), modules=modules)
    ids = [Path(missions[i]["yaml"]).stem for i in sorted(affected)]
    try:
        catalog = load_catalog(root, only=ids)
    except InputError:
        return None  # the whole gate reports bad input as it does
    chosen = {str(m.path): m for m in catalog.files}
    memo = AnalysisMemo(workspace, set(state["built"]))
    analysed: list[MissionStatus] = []
    for index in sorted(affected):
        mission_file = chosen.get(missions[index]["yaml"])
        if mission_file is None:
            return None
        info = mission_file.mission
        record = missions[index]
        if (info.id, info.lean.module) != (record["id"], record["module"]):
            return None  # what the mission's records were found from moved
        if _lint_key(info) != record["lint_key"]:
            return None  # what the lint read of it moved
        if not names_inside_root(workspace, info.lean.module, info.targets):
            return None
        pin = pin_state(workspace, mission_file.mission)
        statuses = [
            target_status(workspace, mission_file, pin, target, memo)
            for target in mission_file.mission.targets
        ]
        analysed.append(MissionStatus(mission_file, pin, statuses))
    analysis = Analysis(
        root=root, workspace=workspace, missions=analysed, memo=memo, catalog=catalog.missions
    )
    # the witness modules a YAML now links are inputs of the answer (see missions.stored)
    linked = linked_sources(mission.file.mission for mission in analysed)
    state["extra"] = [*state["extra"], *sorted(set(linked) - set(state["extra"]))]
    timelines = status_timelines(root, [m.file.path for m in analysed])
    policy = load_settings(root).policy
    regated = {m.id for m in analysed}
    parts.policy = [v for v in parts.policy if v.mission not in regated]
    parts.policy += [v for v in policy_violations(analysis, policy) if v.mission in regated]
    for index, mission in zip(sorted(affected), analysed, strict=True):
        found = mission_findings(analysis, mission, timelines[mission.file.path], policy)
        parts.missions[index] = found
        record = missions[index]
        if sorted(mission.pin.modules) != record["statement_closure"]:
            return None
        _reach(record, workspace, mission)
        _findings(record, mission, found)
    return analysis


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
