"""Incremental ``status``: after an edit, recompute only the missions the edit can touch.

A full ``status`` reads every mission YAML, loads every file's scan and analyses every
target; most of that is the same after a person edits one proof. Each full run therefore
leaves a *state* beside the scan store (:mod:`missions.lean.store`): the JSON it printed, and
per mission the modules its answer depends on (the import closures of its root, statements
and proof modules) and the names of its statements and proofs.

The next ``status`` on a changed tree first tries this path, which imports neither the CLI
nor (unless a mission YAML changed) the YAML and schema libraries. A mission whose YAML
changed is loaded by itself and its entry computed again over the modules it can reach (its
lint counts kept: the lint read nothing that changed). For the Lean files, the path
rescans only the files whose content changed (a file whose times moved is hashed first: in
a fresh clone every file's did), finds the missions
whose modules include one of them (or whose statement or proof names a changed file
declares, or used to), analyses just those targets with the same
:func:`missions.status.target_status` as the full run, and patches their entries. Anything
it cannot bound falls back to the full command:

* any change to the content of the Lake files, the toolchain, the settings or the witness
  results; a mission YAML changed together with a statement closure, or in a way that moves
  what the state recorded of the mission (its id, modules, statement closure) or what the
  lint read of it (its statements), or that links a witness module the keys do not stamp;
* a change to a module with ``#exit`` (its reasons name every such module), a module added
  or removed together with a statement-closure edit;
* a mission whose root module does not exist (its names are looked up workspace-wide).

An edit inside statement closures (a shared definitions file) changes the pins of every
mission above it, and may change lint findings anywhere below: it is answered at the level
of declarations. The edited file must scan the same apart from its declarations (imports,
opens, extensions, findings, unknown commands, placeholders, sorries outside declarations),
and the declarations it added, removed or changed (moved ones included: reasons name lines)
must be ordinary ones, not instances, attributes or other commands automation uses
unnamed. Name resolution finds a declaration only through one of the components of an
identifier (:class:`missions.status.References`), and every lint rule through an
identifier's last component, so a changed declaration whose name (last component, or a name
it generates) appears nowhere else in a module's text cannot change what that module's
declarations reach. Then:

* every mission whose statement closure holds the file gets its new pin digest, and each of
  its targets gets the pin's reason patched in or out at the place the full analysis puts
  it (``TargetStatus.pin_at``);
* a mission is analysed again when one of its modules' texts names a changed declaration,
  when one of its targets reaches everything (an unbounded reach sees every declaration),
  or when a changed declaration has the name of one of its statements or proofs (looked up
  by full name);
* lint counts stay as they were only when no text of the statement closures holding the
  file names a changed declaration, no finding stood in a removed one, the added ones hold
  nothing any rule starts from (:func:`missions.lint.lint_inert`) and the file has no allow
  comment; otherwise the full command runs.

``tests/test_incremental.py`` and ``tests/test_incremental_closure.py`` (random edit
sequences among them) check, edit by edit, that this path prints exactly what the full
command prints.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from missions import SCANNER_VERSION, SETTINGS_FILE, __version__, code_fingerprint, indented
from missions.cache import (
    STATUS_STATE_FILE,
    WITNESS_RESULTS_FILE,
    cache_dir_for,
    witness_inputs,
)
from missions.lean.scan import Decl, FileScan, decl_row, record_fields
from missions.lean.store import ScanStore
from missions.lean.workspace import Module, Workspace, restamp, scan_file
from missions.pins import PinState, digest_of, pin_state
from missions.roots import (
    MAX_LEAN_BYTES,
    SourceRoot,
    content_hash,
    default_builds,
    file_stamp,
    is_racy,
    library_names,
    module_namer,
    read_regular,
)
from missions.status import (
    PIN_REASONS,
    AnalysisMemo,
    TargetStatus,
    mission_state,
    names_inside_root,
    pin_reason,
    summary_of,
    target_status,
)
from missions.verdicts import source_verdict, target_checks

if TYPE_CHECKING:
    from missions.catalog import MissionFile, Target
    from missions.lint import LintResult
    from missions.status import Analysis

#: What the state holds changes with this: a state of another format is never read.
STATE_FORMAT = 6
#: Separates the state's JSON from each mission's answer text, and those texts from each
#: other: JSON never holds a raw NUL (it escapes every control character), so the texts
#: are stored as they are, not encoded again as JSON strings.
_TEXTS = "\x00"
#: Files outside the Lean sources that a status answer depends on.
GLOBAL_FILES = (
    "lakefile.lean",
    "lakefile.toml",
    "lean-toolchain",
    "lake-manifest.json",
    SETTINGS_FILE,
)


# ----------------------------------------------------------------------- remembering
def _input_paths(root: str) -> list[str]:
    paths = [os.path.join(root, name) for name in GLOBAL_FILES]
    paths.append(os.path.join(cache_dir_for(root), WITNESS_RESULTS_FILE))
    try:
        with os.scandir(os.path.join(root, "missions")) as entries:
            paths += sorted(e.path for e in entries if e.name.endswith((".yaml", ".yml")))
    except OSError:
        pass
    return paths + witness_inputs(root)


def _stamp(stat: os.stat_result) -> list[Any]:
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]


def _recorded_stamp(stat: os.stat_result) -> list[Any]:
    """:func:`_stamp` as remembered: a racy file's (:func:`missions.roots.is_racy`) matches
    no later stat, so its content decides."""
    return [-1, -1, -1] if is_racy(stat) else _stamp(stat)


def global_inputs(root: str, paths: list[str] | None = None) -> dict[str, list[Any] | None]:
    """Size, modification and change time, and content hash of every non-Lean input (or of
    ``paths``)."""
    found: dict[str, list[Any] | None] = {}
    for path in _input_paths(root) if paths is None else paths:
        try:
            found[path] = [*_recorded_stamp(os.stat(path)), content_hash(path)]
        except OSError:
            found[path] = None
    return found


def same_inputs(root: str, recorded: dict[str, Any]) -> bool:
    """Whether every non-Lean input holds what it held when ``recorded`` was taken: by its
    times, or, where they moved (a fresh clone), by its content."""
    return changed_inputs(root, recorded) == set()


def changed_inputs(root: str, recorded: dict[str, Any]) -> set[str] | None:
    """The non-Lean inputs that no longer hold what they held when ``recorded`` was taken
    (judged as :func:`same_inputs` judges them); None when an input appeared or went."""
    paths = _input_paths(root)
    if sorted(paths) != sorted(recorded):
        return None
    changed: set[str] = set()
    for path in paths:
        then = recorded[path]
        try:
            stat = os.stat(path)
        except OSError:
            if then is not None:
                changed.add(path)
            continue
        if then is None or (
            _stamp(stat) != then[:3] and (len(then) < 4 or content_hash(path) != then[3])
        ):
            changed.add(path)
    return changed


def remember(
    analysis: Analysis,
    data: dict[str, Any],
    inputs: dict[str, Any],
    texts: list[str],
    lint: LintResult | None = None,
) -> None:
    """Keep what the next incremental ``status`` needs from a full run over the catalog.

    ``inputs`` are the :func:`global_inputs` read *before* the run (a file changed during
    the run then counts as changed next time); ``texts`` are the missions' encoded entries
    (:func:`mission_text`); ``lint`` is the lint the answer counts, if any.
    """
    workspace = analysis.workspace
    missions: list[dict[str, Any]] = []
    digests: dict[str, str] = {}
    for mission, entry, text in zip(analysis.missions, data["missions"], texts, strict=True):
        info = mission.file.mission
        record: dict[str, Any] = {
            "id": info.id,
            "yaml": str(mission.file.path),
            "module": info.lean.module,
            "statements": info.lean.statements_module,
            "pin": info.lean.statement_pin,
            "statement_closure": sorted(mission.pin.modules),
        }
        record_reach(record, workspace, mission.targets)
        record["built"] = info.lean.module in analysis.memo.built()
        _answer(record, entry, text)
        missions.append(record)
        for name in mission.pin.modules:
            digests[name] = workspace.modules[name].scan.digest
    lines: dict[str, list[int]] = {}
    if lint is not None:
        for finding in lint.findings:
            lines.setdefault(finding.path, []).append(finding.line)
    state = {
        "version": [__version__, SCANNER_VERSION, STATE_FORMAT, code_fingerprint()],
        "inputs": inputs,
        "evidence": data["evidence"],
        "lint": data.get("lint"),
        "missions": missions,
        # what a statement-closure edit is answered from (see the module docstring)
        "digests": digests,
        # every `#exit` (an edit that adds or removes one is never answered here)
        "exits": sorted(n for n, m in workspace.modules.items() if m.scan.exit_line is not None),
        "lint_lines": lines if lint is not None else None,
        "allow_files": list(lint.allow_files) if lint is not None else [],
    }
    _write(os.path.join(cache_dir_for(str(analysis.root)), STATUS_STATE_FILE), _state_pieces(state))


def record_reach(
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
    record["pin_at"] = [status.pin_at for status in statuses]
    record["unbounded"] = any(status.unbounded for status in statuses)


def _answer(record: dict[str, Any], entry: dict[str, Any], text: str | None = None) -> None:
    record["statuses"] = [entry["status"], [t["status"] for t in entry["targets"]]]
    record["text"] = mission_text(entry) if text is None else text


def statuses_of(entry: dict[str, Any]) -> dict[str, Any]:
    """What :func:`remember` reads of a mission's entry once its text is made: a large
    catalogue's entries as objects are several times their text, at the run's peak."""
    return {
        "status": entry["status"],
        "targets": [{"status": t["status"]} for t in entry["targets"]],
    }


def _write(path: str, pieces: Iterable[str]) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.writelines(pieces)
        os.replace(tmp, path)
    except OSError:
        pass


def _state_pieces(state: dict[str, Any]) -> Iterator[str]:
    """The state as :func:`_read_state` reads it, a mission at a time: ``json.dumps`` of the
    state without the missions' answer texts, then each text after a NUL, as it is (the
    texts are most of the state; as JSON strings every one was escaped on each write and
    unescaped on each read, and encoding the state whole kept two more copies of the answer
    at the run's peak)."""
    yield "{"
    for number, (key, value) in enumerate(state.items()):
        yield f"{', ' if number else ''}{json.dumps(key)}: "
        if key != "missions":
            yield json.dumps(value, ensure_ascii=False)
            continue
        yield "["
        for index, mission in enumerate(value):
            rest = {k: v for k, v in mission.items() if k != "text"}
            yield (", " if index else "") + json.dumps(rest, ensure_ascii=False)
        yield "]"
    yield "}"
    for mission in state["missions"]:
        yield _TEXTS + mission["text"]


def _read_state(path: str) -> dict[str, Any] | None:
    """The state :func:`_state_pieces` wrote, each mission with its ``text`` again; None if
    it is missing or damaged (the full command runs)."""
    try:
        with open(path, encoding="utf-8") as handle:
            head, *texts = handle.read().split(_TEXTS)
        state: Any = json.loads(head)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(state, dict):
        return None
    missions = state.get("missions")
    if not isinstance(missions, list) or len(missions) != len(texts):
        return None
    for mission, text in zip(missions, texts, strict=True):
        if not isinstance(mission, dict):
            return None
        mission["text"] = text
    return cast(dict[str, Any], state)


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
    return indented.dumps(entry)


def assemble(fields: dict[str, Any], missions: list[str]) -> str:
    """:func:`assembled` as one text."""
    return "".join(assembled(fields, missions))


def assembled(fields: dict[str, Any], missions: list[str]) -> Iterator[str]:
    """The top-level object with ``missions`` (already encoded texts) in second-to-last
    place after ``root`` and ``evidence``, laid out as ``json.dumps(indent=2)`` lays it out,
    piece by piece: the answer of a large catalogue is tens of megabytes, and a writer that
    takes the pieces holds no copy of it (each mission is indented as it is written)."""
    yield "{\n"
    for key in ("root", "evidence"):
        yield f"  {_key(key)}: {_value(fields[key])},\n"
    if missions:
        yield '  "missions": [\n'
        for number, text in enumerate(missions):
            yield _indent(text, "    ")
            yield ",\n" if number + 1 < len(missions) else "\n  ]"
    else:
        yield '  "missions": []'
    for key, value in fields.items():
        if key not in ("root", "evidence"):
            yield f",\n  {_key(key)}: {_value(value)}"
    yield "\n}\n"


def _key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    return _indent(indented.dumps(value), "  ")[2:]


def _indent(text: str, prefix: str) -> str:
    # one replace, not a list of lines: the whole answer is indented this way
    return prefix + text.replace("\n", "\n" + prefix)


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
    state = _read_state(os.path.join(cache, STATUS_STATE_FILE))
    if state is None:
        return None
    if state.get("version") != [__version__, SCANNER_VERSION, STATE_FORMAT, code_fingerprint()]:
        return None
    changed = changed_inputs(root, state["inputs"])
    if changed is None:
        return None
    missions = state["missions"]
    yamls = {mission["yaml"]: index for index, mission in enumerate(missions)}
    if any(path not in yamls for path in changed):
        return None  # the Lake files, the toolchain, the settings or the witness results
    rewritten = {yamls[path] for path in changed}
    # taken before any YAML is read: a file changed meanwhile counts as changed next time
    inputs = global_inputs(root) if rewritten else None
    store = ScanStore.open(Path(cache))
    if not store.index:
        return None
    name_of = functools.cache(module_namer(root, libraries))  # each path is named 3-4 times
    plan = _changes(name_of, store, stats)
    if plan is None:
        return None
    graph = _import_graph(name_of, store, stats)
    if len(graph) < len(stats) or _moves_imports(root, plan, graph):
        return None  # two files of one module (a fault), or what `lake build` reaches moved
    shas = {name_of(path): row[2] for path, row in store.index.items()}
    touched = _touched(missions, plan, shas)
    if touched and any(mission["module"] not in graph for mission in missions):
        return None  # its names are looked up workspace-wide
    memo: dict[str, set[str]] = {}
    reaching = _importers(graph, touched)
    patched = _in_statement_closures(missions, reaching, touched)
    if rewritten and patched:
        return None  # a YAML and a statement closure edited at once: the full command
    if patched:
        paths = {name_of(p): p for p in store.index}
        affected = _statement_edit(root, store, paths, plan, state, touched, shas)
    else:
        affected = _affected(missions, plan, reaching, touched)
    if affected is not None:
        affected = _bounded(missions, graph, affected, memo)
    if affected is None:
        return None
    if affected - rewritten:
        recomputed = _recompute(
            root, libraries, name_of, store, plan, graph, state, affected - rewritten
        )
        if recomputed is None:
            return None
        for index, entry in recomputed.items():
            _answer(missions[index], entry)
    if rewritten:
        entries = _rewrite(root, libraries, name_of, store, plan, graph, state, rewritten)
        if entries is None:
            return None
        for index, entry in entries.items():
            _answer(missions[index], entry)
        state["inputs"] = inputs
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
    if affected or patched or rewritten:
        _write(os.path.join(cache, STATUS_STATE_FILE), _state_pieces(state))
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
        if row is not None and (row[1] == file_stamp(stat) or restamp(store, path)):
            continue  # unchanged, or touched (a fresh clone, a checkout) but not changed
        scanned = scan_file(path)
        if not scanned.sha:
            return None  # an unreadable file: the full command reports it
        name = name_of(path)
        if row is not None and row[2] == scanned.sha:  # changed back while we read it
            store.touch(path, scanned.size, scanned.stamp)
            continue
        scan = FileScan.from_json(json.loads(scanned.text), store.shared)
        store.record(path, scanned.size, scanned.stamp, scanned.sha, scan, scanned.text)
        plan.changed[name] = scan
        if row is not None:
            old = store.known(row[2])
            if old is None:
                return None
            plan.old[name] = old
    return plan


def _moves_imports(root: str, plan: _Plan, graph: dict[str, list[str]]) -> bool:
    """Whether the edit may change which modules ``lake build`` elaborates (its default
    targets import every mission root): a module removed, a module's imports changed, or a
    new module that something already imports or a default glob takes in. Only the full
    command can answer those."""
    if plan.removed:
        return True
    new = {name for name in plan.changed if name not in plan.old}
    if any(plan.old[n].imports != plan.changed[n].imports for n in plan.changed if n not in new):
        return True
    if not new:
        return False
    imported = {name for imports in graph.values() for name in imports}
    globs, _ = default_builds(root)
    below = [name for kind, name in globs if kind != "one"]
    return any(n in imported or any(n.startswith(b + ".") for b in below) for n in new)


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


def _importers(graph: dict[str, list[str]], touched: set[str]) -> set[str]:
    """The modules whose import closure (:func:`_closure`) holds a touched module: found
    once, backwards from the touched ones, rather than by each mission's closure in turn."""
    importers: dict[str, list[str]] = {}
    for name, imports in graph.items():
        for imported in imports:
            if imported in graph:
                importers.setdefault(imported, []).append(name)
    found: set[str] = set()
    stack = [name for name in touched if name in graph]
    while stack:
        name = stack.pop()
        if name not in found:
            found.add(name)
            stack.extend(importers.get(name, ()))
    return found


def _touched(missions: list[dict[str, Any]], plan: _Plan, shas: dict[str, str]) -> set[str]:
    """The modules that changed since the answers were computed.

    ``shas`` are the content hashes the index holds now, by module: a module a mission's
    answer saw with other contents (another run rewrote the index in between) counts too.
    """
    touched = set(plan.changed) | plan.removed
    for mission in missions:
        for name, sha in mission["shas"].items():
            if shas.get(name) != sha:
                touched.add(name)
    return touched


def _in_statement_closures(
    missions: list[dict[str, Any]], reaching: set[str], touched: set[str]
) -> bool:
    """Whether a touched module is in a mission's statement closure, as it is now or as it
    was recorded (``reaching``: :func:`_importers` of ``touched``)."""
    return any(
        m["statements"] in reaching or not touched.isdisjoint(m["statement_closure"])
        for m in missions
    )


def _affected(
    missions: list[dict[str, Any]],
    plan: _Plan,
    reaching: set[str],
    touched: set[str],
) -> set[int] | None:
    """Indexes of the missions an edit outside every statement closure can change, or None
    when one must run in full: those whose root's import closure holds a touched module
    (``reaching``: :func:`_importers` of ``touched``), whose recorded modules do, or whose
    statement or proof a changed file declares."""
    if not touched:
        return set()
    for scan in [*plan.changed.values(), *plan.old.values()]:
        if scan.exit_line is not None:
            return None
    declared = {
        decl.name for scan in [*plan.changed.values(), *plan.old.values()] for decl in scan.decls
    }
    affected: set[int] = set()
    for index, mission in enumerate(missions):
        if mission["module"] in reaching or not touched.isdisjoint(mission["modules"]):
            affected.add(index)
            continue
        names = {n for _, _, statement, proof, *_ in mission["targets"] for n in (statement, proof)}
        if declared & names:
            affected.add(index)
    return affected


def _bounded(
    missions: list[dict[str, Any]],
    graph: dict[str, list[str]],
    affected: set[int],
    memo: dict[str, set[str]],
) -> set[int] | None:
    """``affected``, or None when one of the missions cannot be analysed on its own."""
    for index in affected:
        mission = missions[index]
        root_closure = _closure(graph, mission["module"], memo)
        declared_in = {m for *_, s, p in mission["targets"] for m in (s, p) if m is not None}
        if not declared_in <= root_closure:
            return None  # names the root does not import are looked up workspace-wide
    return affected


# ------------------------------------------------------- edits in statement closures
def _frame(scan: FileScan) -> dict[str, Any]:
    """Everything a scan says besides its declarations (and its digest, which the pins
    follow): what an edit inside statement closures must leave alone."""
    data = scan.to_json()
    del data["decls"], data["digest"]
    attributed = {line for decl in scan.decls for line in decl.sorries}
    data["sorry_lines"] = sorted(set(scan.sorry_lines) - attributed)
    return data


def _closure_marks(scan: FileScan) -> list[Any]:
    """What a statement closure's reasons name in a file (see
    :func:`missions.status.statement_closure_violations`): its sorries and its opaque and
    partial declarations, with their lines."""
    return [
        scan.sorry_lines,
        [(d.name, d.line) for d in scan.decls if d.kind == "opaque" or "partial" in d.modifiers],
    ]


def _decl_changes(old: FileScan, new: FileScan) -> tuple[list[Decl], list[Decl]]:
    """Declarations only the old scan has, and only the new one has (one moved to another
    line is in both lists: reasons and findings name its lines; character offsets are
    compared through the lines and the content, since no answer prints them)."""

    def row(decl: Decl) -> str:
        values = zip(record_fields(Decl), decl_row(decl), strict=True)
        return json.dumps([v for k, v in values if k not in ("start", "end")])

    remaining: dict[str, int] = {}
    for decl in old.decls:
        remaining[row(decl)] = remaining.get(row(decl), 0) + 1
    added: list[Decl] = []
    for decl in new.decls:
        key = row(decl)
        if remaining.get(key):
            remaining[key] -= 1
        else:
            added.append(decl)
    removed: list[Decl] = []
    for decl in old.decls:
        key = row(decl)
        if remaining.get(key):
            remaining[key] -= 1
            removed.append(decl)
    return removed, added


class _Texts:
    """Whether a module's text holds any of a set of words; an edited module is read with its
    changed declarations blanked out (they do not mention themselves for anyone else).

    Only the contents the answers were computed from count: a file whose bytes are not the
    indexed ones (it changed during this run) may name anything.
    """

    def __init__(self, store: ScanStore, paths: dict[str, str], words: set[str]) -> None:
        self.store = store
        self.paths = paths
        self.words = sorted(words)
        self.encoded = [w.encode("utf-8") for w in self.words]
        self._found: dict[str, bool] = {}
        #: the edited modules' texts, as scanned (before blanking)
        self.edited: dict[str, str] = {}

    def _read(self, name: str) -> bytes | None:
        path = self.paths.get(name)
        if path is None:
            return None
        try:
            data, info = read_regular(path, MAX_LEAN_BYTES)
        except OSError:
            return None
        row = self.store.index.get(path)
        # by its stamp, or by its bytes where the stamp was not trusted (a racy file)
        scanned = row is not None and (
            row[1] == file_stamp(info) or hashlib.sha256(data).hexdigest() == row[2]
        )
        return data if scanned else None

    def blank(self, name: str, decls: list[Decl]) -> bool:
        """Read the edited module ``name`` (False when it cannot be read as it was scanned)."""
        data = self._read(name)
        if data is None:
            return False
        try:
            text = self.edited[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        for decl in decls:
            text = text[: decl.start] + " " * (decl.end - decl.start) + text[decl.end :]
        self._found[name] = any(word in text for word in self.words)
        return True

    def mention(self, name: str) -> bool:
        """Whether the module's text may name a changed declaration (an unreadable or
        unknown module may)."""
        if not self.words:  # no declaration changed (a comment or layout edit)
            return False
        found = self._found.get(name)
        if found is None:
            data = self._read(name)
            found = data is None or any(word in data for word in self.encoded)
            self._found[name] = found
        return found


#: Per edited module, the declarations the edit removed and those it added.
Changes = dict[str, tuple[list[Decl], list[Decl]]]


def declaration_changes(old: dict[str, FileScan], new: dict[str, FileScan]) -> Changes | None:
    """What an edit of the modules ``new`` (scans before it: ``old``) did to their
    declarations; None when it changed more than ordinary declarations (see the module
    docstring)."""
    changes: Changes = {}
    for name in sorted(new):
        before, after = old[name], new[name]
        if (
            before.exit_line is not None
            or after.exit_line is not None
            or _frame(before) != _frame(after)
        ):
            return None
        removed, added = _decl_changes(before, after)
        if any(d.implicit or d.name.startswith("<") for d in [*removed, *added]):
            return None
        changes[name] = (removed, added)
    return changes


def changed_texts(store: ScanStore, paths: dict[str, str], changes: Changes) -> _Texts | None:
    """Which module texts name a changed declaration (the edited ones read with their added
    declarations blanked); None when an edited module cannot be read as it was scanned."""
    words = {
        word
        for removed, added in changes.values()
        for decl in [*removed, *added]
        for word in (decl.name.rsplit(".", 1)[-1], *decl.generated)
    }
    texts = _Texts(store, paths, words)
    for name, (_, added) in changes.items():
        if not texts.blank(name, added):
            return None
    return texts


def lint_stands(
    root: str,
    store: ScanStore,
    paths: dict[str, str],
    old: dict[str, FileScan],
    new: dict[str, FileScan],
    state: dict[str, Any],
    holders: list[dict[str, Any]],
) -> bool:
    """Whether an edit of statement-closure modules (``old`` and ``new`` scans, by module)
    leaves every lint finding as it was: :func:`_lint_unchanged` for the incremental
    ``check`` (``state`` holds ``lint_lines`` and ``allow_files``, ``holders`` the records,
    with their ``statement_closure``, of the missions whose closures hold an edited module)."""
    changes = declaration_changes(old, new)
    texts = changed_texts(store, paths, changes) if changes is not None else None
    if changes is None or texts is None:
        return False
    return _lint_unchanged(root, paths, state, changes, texts, holders)


def _statement_edit(
    root: str,
    store: ScanStore,
    paths: dict[str, str],
    plan: _Plan,
    state: dict[str, Any],
    touched: set[str],
    shas: dict[str, str],
) -> set[int] | None:
    """Patch the pins of an edit inside statement closures; the missions to analyse again,
    or None when the edit cannot be bounded (see the module docstring)."""
    missions: list[dict[str, Any]] = state["missions"]
    if touched != set(plan.changed) or touched != set(plan.old) or plan.removed:
        return None
    changes = declaration_changes(plan.old, plan.changed)
    texts = changed_texts(store, paths, changes) if changes is not None else None
    if changes is None or texts is None:
        return None
    pinned = [i for i, m in enumerate(missions) if touched & set(m["statement_closure"])]
    # what a statement closure's reasons name (a sorry, an opaque def) moved: every
    # mission whose closure holds the file is analysed again
    marked = {n for n in touched if _closure_marks(plan.old[n]) != _closure_marks(plan.changed[n])}
    if state.get("lint") is not None and not _lint_unchanged(
        root, paths, state, changes, texts, [missions[i] for i in pinned]
    ):
        return None
    digests: dict[str, str] = state["digests"]
    for name in touched:
        digests[name] = plan.changed[name].digest
    for index in pinned:
        if not _repin(missions[index], digests):
            return None
    declared = {decl.name for removed, added in changes.values() for decl in [*removed, *added]}
    affected = {i for i in pinned if marked & set(missions[i]["statement_closure"])}
    for index, mission in enumerate(missions):
        names = {n for _, _, statement, proof, *_ in mission["targets"] for n in (statement, proof)}
        holds = touched & set(mission["modules"])
        if (
            names & declared
            or (holds and mission["unbounded"])
            or (holds and any(texts.mention(m) for m in mission["modules"]))
        ):
            affected.add(index)
        for name in holds:  # the answer now stands for the module as it is
            mission["shas"][name] = shas[name]
    return affected


def _lint_unchanged(
    root: str,
    paths: dict[str, str],
    state: dict[str, Any],
    changes: Changes,
    texts: _Texts,
    pinned: list[dict[str, Any]],
) -> bool:
    """Whether the lint findings stay as they were (see the module docstring)."""
    from missions.lint import lint_inert  # the rules: only needed for this kind of edit

    lines: dict[str, list[int]] | None = state.get("lint_lines")
    if lines is None:
        return False
    linted = {name for mission in pinned for name in mission["statement_closure"]}
    for name, (removed, added) in changes.items():
        if name not in linted:
            continue
        rel = os.path.relpath(paths[name], root).replace(os.sep, "/")
        if rel in state.get("allow_files", []):
            return False
        here = lines.get(rel, [])
        if any(d.line <= line <= d.end_line for d in removed for line in here):
            return False
        if not lint_inert(rel, texts.edited[name], added):
            return False
    return not any(texts.mention(name) for name in sorted(linted))


def _repin(mission: dict[str, Any], digests: dict[str, str]) -> bool:
    """Give a mission its new pin digest and patch its targets' pin reasons."""
    entry = json.loads(mission["text"])
    pin = entry["pin"]
    if pin["current"] is None:  # unresolved imports: the pin has no digest either way
        return True
    closure = mission["statement_closure"]
    if any(name not in digests for name in closure):
        return False
    binding = [(t[0], t[1], t[2], t[3]) for t in mission["targets"]]
    current = digest_of({name: digests[name] for name in closure}, binding)
    if current == pin["current"]:
        return True
    before = json.loads(mission["text"])
    pin["current"], pin["matches"] = current, current == pin["recorded"]
    reason = pin_reason(PinState(modules=closure, digest=current, recorded=pin["recorded"]))
    for target, at in zip(entry["targets"], mission["pin_at"], strict=True):
        if at is None:
            continue
        reasons: list[str] = target["reasons"]
        if at < len(reasons) and reasons[at] in PIN_REASONS:
            del reasons[at]
        if reason is not None:
            reasons.insert(at, reason)
        target["status"] = "stated" if reasons else "proved"
        if target["kind"] != "external":
            target["checks"]["source"] = source_verdict(target["status"], reasons).json()
    if entry["status"] != "draft":
        entry["status"] = mission_state([t["status"] for t in entry["targets"]])
    _answer(mission, entry, _patched(mission["text"], before, entry))
    return True


def _patched(text: str, before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """``text`` (the encoding of ``before``) with the pin, the statuses and the reasons of
    ``after`` put in place, or None when the text does not have the expected layout.

    Encoding a whole entry again (``json.dumps`` with ``indent`` runs in Python) was most of
    the time of a statement-closure edit, which repins hundreds of missions. The result is
    checked by decoding it (in C): it must be ``after`` exactly.
    """
    patched: str | None = text
    for key, depth in (("pin", 1), ("status", 0)):  # the entry's own, at two spaces
        if patched and before[key] != after[key]:
            patched = _replace_value(patched, 0, key, 2, before[key], after[key], depth)
    for old, new in zip(before["targets"], after["targets"], strict=True):
        anchor = patched.find(f'\n      "id": {_json(old["id"])},\n') if patched else -1
        if anchor < 0:
            return None
        for key in ("status", "reasons"):  # a target's, at six spaces, after its id
            if patched and old[key] != new[key]:
                patched = _replace_value(patched, anchor, key, 6, old[key], new[key], 3)
    if not patched or json.loads(patched) != after:
        return None
    return patched


def _replace_value(
    text: str, start: int, key: str, indent: int, old: Any, new: Any, depth: int
) -> str | None:
    """Replace the value of the first ``key`` indented ``indent`` spaces from ``start`` (a
    value nested ``depth`` levels deep in the entry); None when the text there is not
    ``old``."""
    line = f"\n{' ' * indent}{_json(key)}: "
    at = text.find(line, start)
    if at < 0:
        return None
    at += len(line)
    encoded = _nested(old, depth)
    if not text.startswith(encoded, at):
        return None
    return text[:at] + _nested(new, depth) + text[at + len(encoded) :]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _nested(value: Any, depth: int) -> str:
    """``value`` as :func:`mission_text` lays it out ``depth`` levels deep."""
    if not isinstance(value, dict | list) or not value:
        return _json(value)
    return _indent(indented.dumps(value), "  " * depth)[2 * depth :]


def _recompute(
    root: str,
    libraries: list[SourceRoot],
    name_of: Callable[[str], str],
    store: ScanStore,
    plan: _Plan,
    graph: dict[str, list[str]],
    state: dict[str, Any],
    affected: set[int],
) -> dict[int, dict[str, Any]] | None:
    """The affected missions' entries, analysed over the modules they can reach (and the
    modules with ``#exit``, which a missing proof's reason names wherever they are)."""
    missions: list[dict[str, Any]] = state["missions"]
    memo: dict[str, set[str]] = {}
    needed: set[str] = set(state["exits"])
    for index in affected:
        mission = missions[index]
        needed |= set(mission["modules"]) | _closure(graph, mission["module"], memo)
        for _, _, statement, proof, *_ in mission["targets"]:
            for name in (statement, proof):
                for changed, new in plan.changed.items():
                    if name and any(d.name == name for d in new.decls):
                        needed |= _closure(graph, changed, memo)
    workspace = _part(root, libraries, name_of, store, plan, graph, needed)
    if workspace is None:
        return None
    # no import changed (else no incremental run): the roots `lake build` reaches are as
    # the full run found them
    context = AnalysisMemo(workspace, {m["module"] for m in missions if m["built"]})
    entries: dict[int, dict[str, Any]] = {}
    for index in sorted(affected):
        mission = missions[index]
        targets = [_Target(*row[:4]) for row in mission["targets"]]
        if not names_inside_root(workspace, mission["module"], targets):
            return None  # looked up among every module
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
            target_entry["checks"] = target_checks(status)
            computed.append(status)
        if entry["status"] != "draft":
            entry["status"] = mission_state([t.status for t in computed])
        record_reach(mission, workspace, computed)
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


def _part(
    root: str,
    libraries: list[SourceRoot],
    name_of: Callable[[str], str],
    store: ScanStore,
    plan: _Plan,
    graph: dict[str, list[str]],
    needed: set[str],
) -> Workspace | None:
    """The workspace of the ``needed`` modules (those absent from it left out, as the whole
    workspace leaves them out), scans from the plan or the store."""
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
    return Workspace(root=Path(root), libraries=library_names(libraries), modules=modules)


def _rewrite(
    root: str,
    libraries: list[SourceRoot],
    name_of: Callable[[str], str],
    store: ScanStore,
    plan: _Plan,
    graph: dict[str, list[str]],
    state: dict[str, Any],
    rewritten: set[int],
) -> dict[int, dict[str, Any]] | None:
    """The entries of the missions whose YAML changed, each loaded alone and analysed over
    the modules it can reach (as the Lean files are now: no statement closure changed);
    None when the change moves what the state recorded of the mission (its id, modules or
    statement closure) or what the lint read of it (its statements: the lint counts are
    kept from its entry)."""
    from missions.catalog import load_catalog  # the YAML and schema libraries: only here
    from missions.errors import InputError
    from missions.placeholders import mission_placeholders
    from missions.report import mission_json
    from missions.status import MissionStatus
    from missions.witness import linked_sources, load_results

    missions: list[dict[str, Any]] = state["missions"]
    memo: dict[str, set[str]] = {}
    needed: set[str] = set(state["exits"])
    for index in rewritten:
        needed |= set(missions[index]["modules"]) | _closure(graph, missions[index]["module"], memo)
    workspace = _part(root, libraries, name_of, store, plan, graph, needed)
    if workspace is None:
        return None
    try:
        catalog = load_catalog(Path(root), only=[Path(missions[i]["yaml"]).stem for i in rewritten])
    except InputError:
        return None  # the full command reports it
    files = {str(f.path): f for f in catalog.files}
    context = AnalysisMemo(workspace, {m["module"] for m in missions if m["built"]})
    witnesses = load_results(root)
    entries: dict[int, dict[str, Any]] = {}
    for index in sorted(rewritten):
        record = missions[index]
        mission_file = files.get(record["yaml"])
        if mission_file is None:
            return None
        info = mission_file.mission
        old = {t[2] for t in record["targets"] if t[2]}
        new = {t.statement for t in info.targets if t.statement}
        if (info.id, info.lean.module, info.lean.statements_module, new) != (
            record["id"],
            record["module"],
            record["statements"],
            old,
        ):
            return None
        if not names_inside_root(workspace, info.lean.module, info.targets):
            return None  # looked up among every module
        if not set(linked_sources([info])) <= set(witness_inputs(root)):
            return None  # a witness module the keys do not stamp yet
        pin = pin_state(workspace, info)
        if sorted(pin.modules) != record["statement_closure"]:
            return None
        statuses = [target_status(workspace, mission_file, pin, t, context) for t in info.targets]
        mission = MissionStatus(mission_file, pin, statuses)
        placeholders = mission_placeholders(workspace, mission_file)
        entry = mission_json(mission, witnesses, placeholders, Path(root))
        before = json.loads(record["text"])
        if "lint" in before:  # the lint read nothing that changed: its counts stand
            counts = {t["statement"]: t["lint"] for t in before["targets"]}
            for target in entry["targets"]:
                target["lint"] = counts[target["statement"]]
            entry["lint"] = before["lint"]
        record["pin"] = info.lean.statement_pin
        record_reach(record, workspace, statuses)
        entries[index] = entry
    return entries
