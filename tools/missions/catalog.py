"""The mission catalog: YAML files under ``missions/``, validated into pydantic models.

Loading never stops at the first problem. Every file is parsed, every model error is mapped
back to its YAML line, and cross-references (sources, facts, dependencies, cycles, ids) are
checked across the whole catalog, so one ``validate`` run lists everything to fix.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from ruamel.yaml.comments import CommentedMap

from missions.cache import default_cache_dir, read_records, record_entry, record_line, write_records
from missions.errors import InputError, Problem
from missions.roots import is_racy
from missions.yamlio import (
    TOO_DEEP,
    LineIndex,
    check_depth,
    collecting_parser_garbage,
    line_in,
    line_of,
    load_document,
    load_indexed,
    nesting_line,
    read_text,
    structure_problems,
)

Category = Literal["research-paper", "open-problem", "example", "corpus", "puzzle"]
TargetKind = Literal["goal", "milestone", "external", "refutation"]
Status = Literal["missing", "stated", "proved", "external"]
STATUSES: tuple[str, ...] = ("missing", "stated", "proved", "external")
Evidence = Literal["source", "kernel"]
StatementOrigin = Literal["literature-sourced", "ai-adapted", "ai-generated"]
ProofOrigin = Literal["none", "external", "literature-sourced", "ai-adapted", "ai-generated"]

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
LEAN_NAME_PATTERN = re.compile(
    r"^[A-Za-z_\u00C0-\U0010FFFF][\w'!?\u00C0-\U0010FFFF]*(?:\.[\w'!?\u00C0-\U0010FFFF]+)*$"
)
DIGEST_PATTERN = re.compile(r"^sha256:[0-9a-f]{64}$")


#: One set of field names per distinct set (see :meth:`_Model.model_post_init`).
_FIELDS_SET: dict[frozenset[str], set[str]] = {}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)

    def model_post_init(self, context: Any, /) -> None:
        """Models whose files spelled out the same fields share one set of their names.

        Pydantic keeps a set per model of the fields its input gave; nothing here asks which
        (no ``exclude_unset``, no ``model_fields_set``), and those sets were three quarters of
        a large catalogue's memory. Assigning a field adds its name to the shared set, which
        is harmless for the same reason.
        """
        names = self.__pydantic_fields_set__
        shared = _FIELDS_SET.setdefault(frozenset(names), names)
        object.__setattr__(self, "__pydantic_fields_set__", shared)


class Source(_Model):
    """A work the mission cites, with locators a reader can follow."""

    key: str
    citation: str
    arxiv: str | None = None
    doi: str | None = None
    url: str | None = None
    repository: str | None = None
    commit: str | None = None
    locators: list[str] = Field(default_factory=list)


class Revision(_Model):
    """One entry of a mission's statement history, appended by ``missions pin``."""

    revision: int = Field(ge=1)
    date: dt.date
    reason: str
    digest: str
    commit: str | None = None

    @field_validator("digest")
    @classmethod
    def _digest_shape(cls, value: str) -> str:
        if not DIGEST_PATTERN.match(value):
            raise ValueError("digest must look like 'sha256:<64 hex digits>'")
        return value


class Regression(_Model):
    """A target that lost its recorded ``proved`` status on purpose, and why.

    Appended by ``missions sync --allow-regression``; the gate fails (``status-regression``)
    on any loss of ``proved`` that no such record covers.
    """

    target: str
    from_: Status = Field(default="proved", alias="from")
    to: Status | None
    date: dt.date
    reason: str
    commit: str | None = None

    @field_validator("reason")
    @classmethod
    def _reason_given(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a regression needs a reason")
        return value


class ReviewFinding(_Model):
    """A reader's finding: prose, so advisory; a dismissed one keeps why, for later readers."""

    text: str
    status: Literal["open", "dismissed"] = "open"
    why: str | None = None


class Review(_Model):
    """A faithfulness review: an independent reader compared the statement closure (shown
    without the informal text, ``missions review ID``) with the source. It holds for the
    statement pin it read; a moved pin makes it stale."""

    verdict: Literal["pass", "block", "discuss"]
    reviewer: str
    date: dt.date
    pin: str
    notes: str | None = None
    findings: list[ReviewFinding] = Field(default_factory=list)

    @field_validator("reviewer")
    @classmethod
    def _reviewer_named(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a review names its reviewer")
        return value


class LeanInfo(_Model):
    module: str
    statements: str | None = None
    statement_pin: str | None = None
    pinned_at: str | None = None
    #: The statement pin the mission's witnesses were last reviewed against
    #: (``missions witness --stamp ID``); when the pin moves, the witnesses are stale.
    witness_stamp: str | None = None
    #: The digest of the witness modules' sources when they were stamped: an edited witness
    #: is stale until it is reviewed and stamped again.
    witness_source: str | None = None

    @field_validator("module", "statements")
    @classmethod
    def _lean_name(cls, value: str | None) -> str | None:
        if value is not None and not LEAN_NAME_PATTERN.match(value):
            raise ValueError(f"{value!r} is not a Lean module name")
        return value

    @field_validator("statement_pin", "witness_stamp", "witness_source")
    @classmethod
    def _pin_shape(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and not DIGEST_PATTERN.match(value):
            raise ValueError(f"{info.field_name} must look like 'sha256:<64 hex digits>'")
        return value

    @property
    def statements_module(self) -> str:
        return self.statements or f"{self.module}.Statements"


class Fact(_Model):
    """A documented fact or assumption the targets rely on (seed 10's F1, F2, ...)."""

    id: str
    text: str
    source: str | None = None
    locator: str | None = None


class Provenance(_Model):
    """Where a statement and its proof come from (the chips of seed 10)."""

    statement: StatementOrigin
    proof: ProofOrigin = "none"
    where: str | None = None


class ExternalRef(_Model):
    """A target that lives in another repository: shown, never counted as proved here."""

    repository: str
    commit: str | None = None
    path: str | None = None
    name: str | None = None


class CheckedBy(_Model):
    """What established a kernel status: written by ``missions sync --lean``.

    ``closure`` is the digest of the proof's import closure the kernel checked (as
    :func:`missions.pins.closure_digest` computes it); the verdict stands only while the
    closure still has it (see :func:`missions.gate.kernel_record_problem`).
    """

    lean: str
    mathlib: str | None = None
    commit: str | None = None
    date: dt.date | None = None
    closure: str | None = None


class KernelFingerprints(_Model):
    """What a statement meant to the kernel when ``missions sync --lean`` recorded it.

    ``check --lean`` compares these with a fresh audit: a move while the statement pin did
    not move (a Mathlib or toolchain bump, an elaboration change) is a ``kernel-fingerprint``
    violation. Source-only runs show them and never rewrite them.
    """

    statement_pin: str | None = None
    lean: str
    mathlib: str | None = None
    value: str
    closure: str
    definitions: dict[str, str] = Field(default_factory=dict)


class Target(_Model):
    id: str
    kind: TargetKind
    title: str
    informal: str
    source: str | None = None
    locator: str | None = None
    step: str | None = None
    facts: list[str] = Field(default_factory=list)
    method: str | None = None
    statement: str | None = None
    proof: str | None = None
    external: ExternalRef | None = None
    #: a ``refutation``'s printed claim, as printed (its ``source`` and ``locator`` say where)
    printed: str | None = None
    depends_on: list[str] = Field(default_factory=list)
    provenance: Provenance
    status: Status | None = None
    evidence: Evidence | None = None
    checked: CheckedBy | None = None
    fingerprints: KernelFingerprints | None = None
    witness: str | None = None

    @field_validator("statement", "proof")
    @classmethod
    def _lean_name(cls, value: str | None) -> str | None:
        if value is not None and not LEAN_NAME_PATTERN.match(value):
            raise ValueError(f"{value!r} is not a Lean declaration name")
        return value


class Mission(_Model):
    id: str
    title: str
    category: Category
    summary: str
    tags: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(min_length=1)
    lean: LeanInfo
    conventions: list[str] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    statement_history: list[Revision] = Field(default_factory=list)
    regressions: list[Regression] = Field(default_factory=list)
    reviews: list[Review] = Field(default_factory=list)
    targets: list[Target] = Field(min_length=1)

    def target(self, target_id: str) -> Target:
        for target in self.targets:
            if target.id == target_id:
                return target
        raise KeyError(target_id)

    @property
    def goal(self) -> Target | None:
        return next((t for t in self.targets if t.kind == "goal"), None)


@dataclass
class MissionFile:
    """A validated mission; its round-trip document is parsed only when needed.

    Reading a catalog uses the fast safe loader; the slower round-trip parse (for rewrites
    that keep comments) happens on first use of :attr:`doc`. Messages find their lines in
    ``lines``, made by the depth check that reads every file anyway and cached with the
    mission, so a warm run that reports on every mission parses no YAML.
    """

    path: Path
    mission: Mission
    _doc: CommentedMap | None = None
    lines: LineIndex | None = None

    @property
    def doc(self) -> CommentedMap:
        if self._doc is None:
            self._doc = load_document(self.path)
        return self._doc

    def line(self, *loc: int | str) -> int:
        """The line of a location such as ``("targets", 2, "kind")`` (see :func:`line_of`);
        from the line index unless the round-trip document is loaded (it may be edited)."""
        if self._doc is None:
            if self.lines is None:
                self.lines = check_depth(self.path, read_text(self.path)) or {}
            if self.lines:
                return line_in(self.lines, loc)
        return line_of(self.doc, loc)

    def target_line(self, target_id: str, key: str | None = None) -> int:
        for index, target in enumerate(self.mission.targets):
            if target.id == target_id:
                return self.line("targets", index, *((key,) if key else ()))
        return self.line("targets")


@dataclass
class Catalog:
    root: Path
    files: list[MissionFile] = field(default_factory=list)

    @property
    def missions(self) -> list[Mission]:
        return [f.mission for f in self.files]

    def get(self, mission_id: str) -> MissionFile:
        for mission_file in self.files:
            if mission_file.mission.id == mission_id:
                return mission_file
        raise unknown_mission(self.root, mission_id, [f.mission.id for f in self.files])

    def select(self, ids: Iterable[str]) -> list[MissionFile]:
        wanted = list(ids)
        if not wanted:
            return list(self.files)
        problems: list[Problem] = []
        chosen: list[MissionFile] = []
        for mission_id in wanted:
            try:
                chosen.append(self.get(mission_id))
            except InputError as exc:
                problems.extend(exc.problems)
        if problems:
            raise InputError(problems)
        return chosen


def unknown_mission(root: Path, mission_id: str, known: Iterable[str]) -> InputError:
    hint = difflib.get_close_matches(mission_id, list(known), n=1)
    suggestion = f" (did you mean {hint[0]!r}?)" if hint else ""
    return InputError.single(root / "missions", 1, f"unknown mission {mission_id!r}{suggestion}")


def _allowed_fields(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """Field names valid at ``loc``, for 'did you mean' suggestions on unknown keys."""
    current: Any = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        info = current.model_fields.get(part)  # `current` is a model at every step
        if info is None:
            return []
        annotation = info.annotation
        args = getattr(annotation, "__args__", ())
        candidates = [annotation, *args]
        current = next(
            (c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None
        )
        if current is None:
            for c in args:
                inner = getattr(c, "__args__", ())
                current = next(
                    (i for i in inner if isinstance(i, type) and issubclass(i, BaseModel)),
                    None,
                )
                if current is not None:
                    break
        if current is None:
            return []
    return list(current.model_fields)


def _describe(error: Any) -> str:
    loc: tuple[int | str, ...] = tuple(error["loc"])
    where = ".".join(str(p) for p in loc) or "document"
    kind = error["type"]
    if kind == "extra_forbidden":
        field_name = str(loc[-1])
        hints = difflib.get_close_matches(field_name, _allowed_fields(Mission, loc), n=1)
        hint = f" (did you mean {hints[0]!r}?)" if hints else ""
        return f"unknown field {where!r}{hint}"
    if kind == "missing":
        return f"missing required field {where!r}"
    message = str(error["msg"])
    message = message.removeprefix("Value error, ")
    return f"{where}: {message}"


def _dependency_cycles(mission: Mission) -> list[list[str]]:
    """Every cycle a depth-first walk of ``depends_on`` meets, as the path that closes it.

    The walk keeps its own stack: a chain of targets as long as a file can hold recurses
    no deeper, and no nested function refers to itself (a reference cycle per mission,
    which only the cycle collector would free, and the analysis commands run without it)."""
    graph: dict[str, list[str]] = {}
    for target in mission.targets:
        graph.setdefault(target.id, []).extend(target.depends_on)
    color: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []
    cycles: list[list[str]] = []
    for start in graph:
        if start in color:
            continue
        color[start] = 1
        path.append(start)
        pending = [iter(graph[start])]
        while pending:
            nxt = next(pending[-1], None)
            if nxt is None:  # every target it depends on is walked
                color[path.pop()] = 2
                pending.pop()
            elif nxt not in graph:
                continue
            elif color.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in color:
                color[nxt] = 1
                path.append(nxt)
                pending.append(iter(graph[nxt]))
    return cycles


def _rule_of(message: str) -> str:
    """The gate rule id of a cross-reference problem (stable ids for JSON output)."""
    if message.startswith("duplicate"):
        return "duplicate-id"
    if message.startswith("dependency cycle"):
        return "dependency-cycle"
    if "unknown" in message:
        return "dangling-ref"
    return "schema"


def check_references(mission_file: MissionFile) -> list[Problem]:
    """Cross-field rules of one mission: ids, sources, facts, dependencies, cycles, kinds."""
    mission, path = mission_file.mission, str(mission_file.path)
    problems: list[Problem] = []

    def add(line: int, message: str) -> None:
        problems.append(Problem(path, line, message, _rule_of(message)))

    if not ID_PATTERN.match(mission.id):
        add(mission_file.line("id"), f"mission id {mission.id!r} is not kebab-case")
    if mission_file.path.stem != mission.id:
        add(
            mission_file.line("id"),
            f"mission id {mission.id!r} does not match file name {mission_file.path.name!r}",
        )
    source_keys: set[str] = set()
    for index, source in enumerate(mission.sources):
        if source.key in source_keys:
            add(mission_file.line("sources", index, "key"), f"duplicate source key {source.key!r}")
        source_keys.add(source.key)
    fact_ids: set[str] = set()
    for index, fact in enumerate(mission.facts):
        if fact.id in fact_ids:
            add(mission_file.line("facts", index, "id"), f"duplicate fact id {fact.id!r}")
        fact_ids.add(fact.id)
        if fact.source is not None and fact.source not in source_keys:
            add(mission_file.line("facts", index, "source"), f"unknown source {fact.source!r}")
    revisions = [r.revision for r in mission.statement_history]
    if revisions != sorted(revisions) or len(set(revisions)) != len(revisions):
        add(mission_file.line("statement_history"), "statement_history revisions must increase")

    target_ids: set[str] = set()
    goals = 0
    for index, target in enumerate(mission.targets):

        def at(key: str | None = None, index: int = index) -> int:
            return mission_file.line("targets", index, *((key,) if key else ()))

        if target.id in target_ids:
            add(at("id"), f"duplicate target id {target.id!r}")
        target_ids.add(target.id)
        if not ID_PATTERN.match(target.id):
            add(at("id"), f"target id {target.id!r} is not kebab-case")
        goals += target.kind == "goal"
        if target.source is not None and target.source not in source_keys:
            add(at("source"), f"unknown source {target.source!r}")
        for fact_ref in target.facts:
            if fact_ref not in fact_ids:
                add(at("facts"), f"unknown fact {fact_ref!r}")
        if target.kind == "external":
            if target.external is None:
                add(at(), f"external target {target.id!r} needs an 'external' reference")
            if target.statement is not None or target.proof is not None:
                add(at(), f"external target {target.id!r} cannot name workspace declarations")
        else:
            if target.statement is None:
                add(at(), f"target {target.id!r} needs a 'statement' declaration")
            if target.external is not None:
                add(at("external"), "only external targets take an 'external' reference")
        if target.kind == "refutation":
            # an erratum must say what was printed, where, and carry its counterexample
            for key in ("printed", "source", "locator", "witness"):
                if not getattr(target, key):
                    add(at(), f"refutation {target.id!r} needs {key!r} (see README, Refutations)")
            if target.id in {d for t in mission.targets for d in t.depends_on}:
                add(at(), f"refutation {target.id!r} is an erratum: no target depends on it")
        elif target.printed is not None:
            add(at("printed"), "only refutation targets record a 'printed' claim")
    if goals != 1:
        add(mission_file.line("targets"), f"a mission has exactly one goal target, found {goals}")
    for index, regression in enumerate(mission.regressions):
        if regression.target not in target_ids:
            add(
                mission_file.line("regressions", index, "target"),
                f"regression of unknown target {regression.target!r}",
            )
    for index, target in enumerate(mission.targets):
        for dep in target.depends_on:
            if dep not in target_ids:
                hints = difflib.get_close_matches(dep, sorted(target_ids), n=1)
                hint = f" (did you mean {hints[0]!r}?)" if hints else ""
                add(
                    mission_file.line("targets", index, "depends_on"),
                    f"target {target.id!r} depends on unknown target {dep!r}{hint}",
                )
    for cycle in _dependency_cycles(mission):
        first = next(i for i, t in enumerate(mission.targets) if t.id == cycle[0])
        add(
            mission_file.line("targets", first, "depends_on"),
            "dependency cycle: " + " -> ".join(cycle),
        )
    return problems


def load_mission_file(path: Path, text: str | None = None) -> MissionFile:
    """Load and validate one mission file (without catalog-wide checks); ``text``: its
    contents, when the caller has read them.

    The fast path (safe C loader when available) handles valid files; anything it rejects is
    parsed again in round-trip mode, which locates every problem on its line.
    """
    if text is None:
        text = read_text(path)
    lines, data, sound = load_indexed(path, text)
    fast_problems = (
        structure_problems(path, data) if not sound and isinstance(data, dict | list) else []
    )
    if any(p.message == TOO_DEEP for p in fast_problems):
        # the round-trip parser would recurse through every level: locate it in the text
        raise InputError.single(path, nesting_line(text), TOO_DEEP, "yaml")
    if isinstance(data, dict) and not fast_problems:
        try:
            mission = Mission.model_validate(data)
        except ValidationError:
            pass
        else:
            mission_file = MissionFile(path=path, mission=mission, lines=lines)
            problems = check_references(mission_file)
            if problems:
                raise InputError(problems)
            return mission_file
    doc = load_document(path, text)
    try:
        mission = Mission.model_validate(_plain(doc))
    except ValidationError as exc:
        raise InputError(
            Problem(str(path), line_of(doc, tuple(e["loc"])), _describe(e), "schema")
            for e in exc.errors()
        ) from None
    mission_file = MissionFile(path=path, mission=mission, _doc=doc, lines=lines)
    problems = check_references(mission_file)
    if problems:
        raise InputError(problems)
    return mission_file


def _plain(node: Any) -> Any:
    """Round-trip containers to plain dicts/lists so pydantic sees ordinary Python data.

    Keys stay as the file wrote them: an error's location then finds its line (``1: x``)."""
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, str):
        return str(node)
    return node


def mission_paths(root: Path) -> Iterator[Path]:
    directory = root / "missions"
    if not directory.is_dir():
        raise InputError.single(directory, 1, "no missions/ directory under the workspace root")
    try:
        entries = sorted(p for p in directory.iterdir() if p.suffix in {".yaml", ".yml"})
    except OSError as exc:
        raise InputError.single(
            directory, 1, f"cannot list the missions directory: {exc.strerror}"
        ) from None
    yield from entries


CATALOG_CACHE_VERSION = "7"
#: The catalogue's cache in the cache folder: per mission file, its stamp, content hash,
#: validated mission and line index.
CATALOG_FILE = "catalog.tsv"


def _stat_key(path: Path) -> dict[str, int] | None:
    """What the cache is keyed by: size, modification and status-change times.

    The change time moves on ``chmod`` too, so a file made unreadable is read (and reported)
    again instead of being answered from the cache.
    """
    try:
        stat = path.stat()
    except OSError:
        return None
    if is_racy(stat):
        return None  # its times cannot yet show its next change: read it, cache nothing
    return {"size": stat.st_size, "mtime": stat.st_mtime_ns, "ctime": stat.st_ctime_ns}


def _text_sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _cached_mission_file(path: Path, entry: Any, text: str | None = None) -> MissionFile | None:
    """A mission from the cache, re-validated (cheap) but not re-parsed: while the file's
    stamp is the cached one, or, given its ``text`` (its times moved: a fresh clone), while
    its content is the cached one."""
    if not isinstance(entry, dict):
        return None
    if text is not None:
        if entry.get("sha") != _text_sha(text):
            return None
    else:
        key = _stat_key(path)  # None for a racy file: then only its content can tell
        if key is None or any(entry.get(name) != value for name, value in key.items()):
            return None
    if not os.access(path, os.R_OK):
        return None
    try:
        mission = Mission.model_validate(entry["mission"])
    except (ValidationError, KeyError):
        return None
    lines = entry.get("lines")
    if not isinstance(lines, dict) or not all(type(v) is int for v in lines.values()):
        lines = None
    else:  # as check_depth makes them: the keys shared by every mission
        intern = sys.intern
        lines = {intern(key): line for key, line in lines.items()}
    return MissionFile(path=path, mission=mission, lines=lines)


def load_catalog(
    root: Path, *, use_cache: bool = True, only: Sequence[str] | None = None
) -> Catalog:
    """Load every mission under ``root/missions``; raise with all problems if any.

    Valid files are cached by size and modification time, so a warm run parses no YAML;
    the cache is a record store (:func:`missions.cache.read_records`, one line per file),
    so a run that changed one file re-encodes that file's line only.
    The workspace's own witness modules become importable (``missions.witnesses``).
    ``only``: load just these missions (a mission's id is its file name, so the others are
    never read), for commands that act on the missions they are given.
    """
    from missions.witnesses import add_workspace

    add_workspace(root)
    catalog = Catalog(root=root)
    problems: list[Problem] = []
    seen: dict[str, Path] = {}
    store = default_cache_dir(root) / CATALOG_FILE
    # a few chosen files parse faster than the whole catalogue's cache reads
    use_cache = use_cache and not only
    cached = read_records(store, CATALOG_CACHE_VERSION) if use_cache else {}
    # the line each file keeps in the store, and whether any is new
    fresh: dict[str, str] = {}
    renewed = False
    paths = list(mission_paths(root))
    if only:
        stems = {p.stem for p in paths}
        missing = [i for i in only if i not in stems]
        if missing:
            raise InputError(
                p for i in missing for p in unknown_mission(root, i, sorted(stems)).problems
            )
        chosen = set(only)
        paths = [p for p in paths if p.stem in chosen]
    for path in paths:
        with collecting_parser_garbage():  # the parser's cycles, freed per file
            record = cached.get(("mission", str(path)))
            entry = record_entry(record[1]) if record is not None else None
            key = _stat_key(path)  # before the read: a later change moves it, never hides
            mission_file = _cached_mission_file(path, entry)
            # what the cache keeps for the file: its line while it stands (no new dump)
            kept: dict[str, Any] | None = entry if mission_file is not None else None
            sha: str | None = None
            if mission_file is None:
                try:
                    text = read_text(path)
                    sha = _text_sha(text)
                    mission_file = _cached_mission_file(path, entry, text)
                    if mission_file is not None and isinstance(entry, dict):
                        kept = {**entry, **(key or {})}  # the same content, new times
                    if mission_file is None or check_references(mission_file):
                        mission_file, kept = load_mission_file(path, text), None
                except InputError as exc:
                    problems.extend(exc.problems)
                    continue
            elif check_references(mission_file):
                try:
                    mission_file, kept = load_mission_file(path), None
                except InputError as exc:
                    problems.extend(exc.problems)
                    continue
            if kept is not None and kept is entry and record is not None:
                fresh[str(path)] = record[1]
            elif kept is not None or (key is not None and sha is not None):
                if kept is None:
                    assert key is not None and sha is not None
                    kept = {
                        **key,
                        "sha": sha,
                        "mission": mission_file.mission.model_dump(mode="json", by_alias=True),
                        "lines": mission_file.lines,
                    }
                line = record_line("mission", str(path), str(kept.get("sha")), kept)
                renewed = renewed or record is None or line != record[1]
                fresh[str(path)] = line
            mission_id = mission_file.mission.id
            if mission_id in seen:
                problems.append(
                    Problem(
                        str(path),
                        mission_file.line("id"),
                        f"duplicate mission id {mission_id!r} (also in {seen[mission_id].name})",
                    )
                )
                continue
            seen[mission_id] = path
            catalog.files.append(mission_file)
    if use_cache and (renewed or len(fresh) != len(cached)):
        write_records(store, CATALOG_CACHE_VERSION, fresh.values())
    if problems:
        raise InputError(problems)
    return catalog
