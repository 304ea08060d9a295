"""Target statuses from the source scan, sound in the safe direction.

A proof is ``proved`` (evidence ``source``) only when the scanner can see everything it may
depend on and none of it is unproved: its own body, every workspace declaration it mentions
(transitively, across files and namespaces), every declaration automation could use without
naming it (instances, ``simp`` and other attributed lemmas, notations), and the statement
closure itself. Anything the scanner cannot follow — custom syntax or elaborators, code run
at elaboration time, ``variable``s in scope, unresolvable imports, an unpinned or changed
statement — makes the answer ``stated``, with the reason. Compile errors are beyond a source
scan: ``source`` evidence means "nothing unproved is visible", and only kernel evidence
means "Lean checked it".
"""

from __future__ import annotations

import functools
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from missions.lean.scan import Decl
from missions.lean.workspace import Module, Workspace
from missions.pins import PinState, pin_state
from missions.roots import default_builds
from missions.toolchain import pin_checks
from missions.walks import WalkStore, closure_token
from missions.walks import key_of as walk_key

if TYPE_CHECKING:  # the pydantic models: the incremental status runs without importing them
    from missions.catalog import Catalog, Evidence, Mission, MissionFile, Status, Target
    from missions.verdicts import Check

STANDARD_AXIOMS = ("propext", "Classical.choice", "Quot.sound")


@dataclass(frozen=True)
class Violation:
    """One gate finding; ``rule`` is a stable id used in JSON and JUnit output."""

    rule: str
    message: str
    file: str | None = None
    line: int | None = None
    mission: str | None = None
    target: str | None = None

    def location(self) -> str:
        if self.file is None:
            return "-"
        return f"{self.file}:{self.line or 1}"


@dataclass
class TargetStatus:
    mission: str
    target: Target
    status: Status
    evidence: Evidence | None
    reasons: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    statement_decl: tuple[Module, Decl] | None = None
    proof_decl: tuple[Module, Decl] | None = None
    #: see :attr:`reached`: the names, or how to decode them from a stored walk
    _reached: list[str] | ReachedBits = field(default_factory=list, repr=False, compare=False)
    #: the reach could not be bounded: everything in the proof's import closure is reached
    unbounded: bool = False
    #: where among ``reasons`` the pin's reason stands, or would stand if the pin changed
    #: (None when the pin does not decide the status): the incremental ``status`` patches it
    pin_at: int | None = None
    #: every checker's verdict, by checker name (kernel runs; a source run derives its one)
    checks: dict[str, Check] | None = None

    @property
    def reached(self) -> list[str]:
        """Workspace declarations the proof may reach (the over-approximation), by name."""
        if isinstance(self._reached, ReachedBits):
            self._reached = self._reached.names()
        return self._reached

    def reaches(self, names: set[str]) -> set[str]:
        """Which of ``names`` the proof may reach (without decoding every name)."""
        if isinstance(self._reached, ReachedBits):
            return self._reached.reaches(names)
        return names.intersection(self._reached)


@dataclass
class MissionStatus:
    file: MissionFile
    pin: PinState
    targets: list[TargetStatus]

    @property
    def id(self) -> str:
        return self.file.mission.id

    @property
    def status(self) -> str:
        return mission_state([t.status for t in self.targets])


def mission_state(statuses: Sequence[str]) -> str:
    """``complete`` when every counted target is proved, ``incomplete`` when one is missing,
    else ``open`` (external targets are never counted)."""
    counted = [s for s in statuses if s != "external"]
    if counted and all(s == "proved" for s in counted):
        return "complete"
    if "missing" in counted:
        return "incomplete"
    return "open"


def summary_of(missions: list[dict[str, Any]]) -> dict[str, int]:
    """The ``summary`` of ``status --json``, from its ``missions`` entries.

    A ``draft`` mission (placeholders left) is counted as a draft, never as complete.
    """
    counts = {"missions": len(missions), "targets": 0, "proved": 0, "stated": 0}
    counts["missing"] = counts["external"] = counts["complete"] = 0
    counts["draft"] = 0
    for mission in missions:
        if mission["status"] in ("complete", "draft"):
            counts[mission["status"]] += 1
        for target in mission["targets"]:
            counts["targets"] += 1
            counts[target["status"]] += 1
    return counts


@dataclass
class Analysis:
    root: Path
    workspace: Workspace
    missions: list[MissionStatus]
    #: the analysis' walks and scopes, for questions asked after it (see :func:`targets_used`)
    memo: AnalysisMemo
    #: every mission of the catalog, chosen or not (the lint reads its neighbours' reach)
    catalog: list[Mission] = field(default_factory=list)

    def summary(self) -> dict[str, int]:
        counts = {"missions": len(self.missions), "targets": 0, "proved": 0, "stated": 0}
        counts["missing"] = counts["external"] = counts["complete"] = 0
        for mission in self.missions:
            counts["complete"] += mission.status == "complete"
            for target in mission.targets:
                counts["targets"] += 1
                counts[target.status] += 1
        return counts


_Entry = tuple[Module, Decl]


def _entry(workspace: Workspace, module: Module, decl: Decl) -> _Entry:
    """The workspace's own ``(module, decl)`` pair for ``decl`` (one object per declaration
    however many indexes hold it)."""
    known = workspace.by_name.get(decl.name)
    if isinstance(known, tuple):
        if known[1] is decl:
            return known
    elif known is not None:
        for entry in known:
            if entry[1] is decl:
                return entry
    return (module, decl)


class References:
    """What each declaration may refer to, shared by every proof of one analysis.

    Lean elaborates a module with only its imports in scope, so a declaration can refer to
    the declarations of its own module's import closure and to no others. Within that
    closure, an identifier may denote every declaration whose last component (or a name it
    generates) is one of its components, whatever the scopes (as
    :meth:`Workspace.mention_targets` resolves names, and through ``open … renaming``). Each
    declaration's references are computed once, whichever proofs reach it, from an index of
    declarations by those keys and module. A module's declarations join the index when a
    closure holding it is first asked for: references never leave their closure, and a run
    that walks a few proofs (the rest from :mod:`missions.walks`) indexes only their
    closures, not the whole workspace.
    """

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._edges: dict[int, tuple[tuple[Module, Decl], ...]] = {}
        self._closures: dict[str, tuple[list[str], set[str]]] = {}
        # most keys belong to one declaration: kept as that entry, and a key's declarations
        # in one module as that entry, not as lists (a large workspace has a hundred
        # thousand keys); the entries are the workspace's own (see `_entry`)
        self._index: dict[str, _Entry | dict[str, _Entry | list[_Entry]]] = {}
        self._indexed: set[str] = set()

    def _add(self, module: Module) -> None:
        """Index ``module``'s declarations by their keys."""
        index, name, intern = self._index, module.name, sys.intern
        for decl in module.scan.decls:
            entry = _entry(self.workspace, module, decl)
            for key in {intern(decl.name.rsplit(".", 1)[-1]), *decl.generated}:
                known = index.get(key)
                if known is None:
                    index[key] = entry
                    continue
                if isinstance(known, tuple):
                    known = index[key] = {known[0].name: known}
                here = known.get(name)
                if here is None:
                    known[name] = entry
                elif isinstance(here, tuple):
                    known[name] = [here, entry]
                else:
                    here.append(entry)

    def of(self, module: Module, decl: Decl) -> Sequence[_Entry]:
        cached = self._edges.get(id(decl))
        if cached is None:
            cached = self._edges[id(decl)] = self._resolve(module, decl.mentions, decl.dot_mentions)
        return cached

    def own(self, module: Module, decl: Decl) -> Sequence[_Entry]:
        """Like :meth:`of`, without what only an uncertain tail mentions (commands after a
        boundary the scanner is unsure of: they count for reach, but do not make a theorem
        refer to itself)."""
        if not decl.tail_mentions:
            return self.of(module, decl)
        tail = set(decl.tail_mentions)
        return self._resolve(
            module,
            [m for m in decl.mentions if m not in tail],
            [m for m in decl.dot_mentions if m not in tail],
        )

    def _resolve(
        self, module: Module, mentions: Sequence[str], dot_mentions: Sequence[str]
    ) -> tuple[_Entry, ...]:
        ordered, inside = self._closure(module.name)
        index = self._index
        found: dict[int, _Entry] = {}

        def reach(name: str) -> None:
            for part in name.split("."):
                by_module = index.get(part)
                if not by_module:
                    continue
                if isinstance(by_module, tuple):
                    if by_module[0].name in inside:
                        found.setdefault(id(by_module[1]), by_module)
                    continue
                if len(by_module) <= len(ordered):
                    groups = [es for m, es in by_module.items() if m in inside]
                else:
                    groups = [es for m in ordered if (es := by_module.get(m)) is not None]
                for group in groups:
                    if isinstance(group, tuple):
                        found.setdefault(id(group[1]), group)
                    else:
                        for entry in group:
                            found.setdefault(id(entry[1]), entry)

        renames = module.scan.renames
        for mention in mentions:
            reach(mention)
            head, _, rest = mention.partition(".")
            for old in renames.get(head, ()):
                reach(f"{old}.{rest}" if rest else old)
        for suffix in dot_mentions:
            reach(suffix)
        # in the closure's order, however the index was walked
        return tuple(sorted(found.values(), key=lambda e: (e[0].name, e[1].start)))

    def _closure(self, module: str) -> tuple[list[str], set[str]]:
        """``module``'s import closure, sorted and as a set, its modules indexed."""
        found = self._closures.get(module)
        if found is None:
            ordered = self.workspace.closure(module)  # sorted
            found = self._closures[module] = (ordered, set(ordered))
            for name in ordered:
                if name not in self._indexed and name in self.workspace.modules:
                    self._indexed.add(name)
                    self._add(self.workspace.modules[name])
        return found


class _Reach:
    """Reachability from the proofs of one module over the declarations of its import closure.

    An edge goes from a declaration to every declaration any identifier in it may denote
    (:class:`References`); declarations automation may use unnamed (instances,
    attributed lemmas, notations, attribute and rule-set commands) are reached from every
    proof. When something's reach cannot be bounded — a tactic that searches the whole
    environment, a command the scanner does not know — everything in the import closure is
    reachable.
    """

    def __init__(
        self,
        workspace: Workspace,
        module: Module,
        references: Callable[[], References] | None = None,
    ) -> None:
        self.workspace = workspace
        self._references = references
        self.closure = workspace.closure(module.name)
        self.modules = set(self.closure)
        self._implicit: tuple[set[tuple[str, int]], list[str], list[str]] | None = None
        root = workspace.root
        #: unknown commands in the closure: their effect on automation is unbounded
        self.unknown = [
            f"unknown command `{word}` at {current.rel(root)}:{line}"
            for current in workspace.modules_in(self.closure)
            for line, word in current.scan.unknown
            if not word.startswith("#")
        ]

    @property
    def references(self) -> References:
        """Built on first use: a run that finds every walk in the store never builds it."""
        if self._references is None:
            made = References(self.workspace)
            self._references = lambda: made
        return self._references()

    def visible(self, names: list[str]) -> list[tuple[Module, Decl]]:
        found: list[tuple[Module, Decl]] = []
        for name in names:
            for module, decl in self.workspace.lookup(name):
                if module.name in self.modules:
                    found.append((module, decl))
        return found

    def edges(self, module: Module, decl: Decl) -> Sequence[tuple[Module, Decl]]:
        return self.references.of(module, decl)

    def everything(self) -> Iterator[tuple[Module, Decl]]:
        """Every declaration of the closure, in its order; made anew on each call (kept per
        proof module, these lists were a sixth of a large analysis' memory)."""
        for module in self.workspace.modules_in(self.closure):
            for decl in module.scan.decls:
                yield module, decl

    def size(self) -> int:
        """How many declarations :meth:`everything` yields."""
        return sum(len(m.scan.decls) for m in self.workspace.modules_in(self.closure))

    def _walk(
        self,
        queue: deque[tuple[Module, Decl, str]],
        seen: set[tuple[str, int]],
        start: Decl | None,
        searches: list[str],
    ) -> list[str]:
        """Breadth-first over declarations; reasons for everything unproved it meets.

        Environment-searching tactics met on the way are appended to ``searches``.
        """
        root = self.workspace.root
        reasons: list[str] = []
        while queue:
            module, decl, via = queue.popleft()
            rel = module.rel(root)
            label = decl.name if not decl.name.startswith("<") else f"{decl.kind} command"
            suffix = f" ({via})" if via else ""
            words = dict(module.scan.admits) if module.scan.admits else {}
            for line in decl.sorries:
                word = words.get(line)
                if word is None:
                    reasons.append(f"sorry in {label} at {rel}:{line}{suffix}")
                else:  # `plausible`, `stop`: a word of the vocabulary that admits
                    reasons.append(
                        f"`{word}` in {label} at {rel}:{line}{suffix} may close a goal without "
                        "a proof (sorry)"
                    )
            for line in decl.natives:
                reasons.append(
                    f"native computation in {label} at {rel}:{line}{suffix} "
                    "adds a non-standard axiom"
                )
            for line in decl.searches:
                searches.append(f"{rel}:{line}")
            if decl.kind == "axiom":
                reasons.append(f"uses axiom {decl.name} ({rel}:{decl.line})")
            for module_next, decl_next in self.edges(module, decl):
                if (
                    start is not None
                    and decl_next is start
                    and any(d.name == start.name for _, d in self.references.own(module, decl))
                ):
                    reasons.append(
                        f"{start.name} refers to itself"
                        + (f" through {decl.name}" if decl is not start else "")
                        + ": a parameterless theorem cannot recurse"
                    )
                key = (module_next.name, decl_next.start)
                if key not in seen:
                    seen.add(key)
                    next_via = via or (f"used by {start.name}" if start is not None else "")
                    queue.append((module_next, decl_next, next_via))
        return reasons

    def _implicit_closure(self) -> tuple[set[tuple[str, int]], list[str], list[str]]:
        """Everything automation may use unnamed, walked once per proof module."""
        if self._implicit is None:
            seen: set[tuple[str, int]] = set()
            queue: deque[tuple[Module, Decl, str]] = deque()
            for module, decl in self.everything():
                if decl.implicit:
                    key = (module.name, decl.start)
                    if key not in seen:
                        seen.add(key)
                        queue.append((module, decl, _implicit_role(decl)))
            searches: list[str] = []
            reasons = self._walk(queue, seen, None, searches)
            self._implicit = (seen, reasons, searches)
        return self._implicit

    def problems(self, start: tuple[Module, Decl]) -> tuple[list[str], list[str], bool]:
        """Reasons why something reachable from ``start`` is not certainly proved, the
        names of every declaration reachable from it, and whether that reach is unbounded."""
        reasons, seen, unbounded = self.walk(start)
        return reasons, self.names(seen), unbounded

    def walk(self, start: tuple[Module, Decl]) -> tuple[list[str], set[tuple[str, int]], bool]:
        """:meth:`problems`, with what was reached as the keys of ``seen``."""
        implicit_seen, implicit_reasons, implicit_searches = self._implicit_closure()
        seen = set(implicit_seen)
        module, decl = start
        seen.add((module.name, decl.start))
        queue: deque[tuple[Module, Decl, str]] = deque([(module, decl, "")])
        searches = list(implicit_searches)
        reasons = self._walk(queue, seen, decl, searches) + implicit_reasons
        unbounded = [f"`exact?`-style search at {site}" for site in searches] + self.unknown
        if unbounded:
            why = f"everything imported is reachable: {unbounded[0]}"
            if len(unbounded) > 1:
                why += f" (and {len(unbounded) - 1} more)"
            rest: deque[tuple[Module, Decl, str]] = deque()
            for module_next, decl_next in self.everything():
                key = (module_next.name, decl_next.start)
                if key not in seen:
                    seen.add(key)
                    rest.append((module_next, decl_next, why))
            reasons += self._walk(rest, seen, decl, [])
        return reasons, seen, bool(unbounded)

    def names(self, seen: set[tuple[str, int]]) -> list[str]:
        """The names of the declarations ``seen`` holds (commands have none)."""
        found = {
            d.name
            for m, d in self.everything()
            if (m.name, d.start) in seen and not d.name.startswith("<")
        }
        return sorted(found)

    def bits(self, seen: set[tuple[str, int]]) -> str:
        """``seen`` as a bit per declaration of the closure, in :meth:`everything`'s order
        (hex): what a stored walk keeps instead of the names, which it rebuilds from it."""
        mask = bytearray((self.size() + 7) // 8)
        for i, (m, d) in enumerate(self.everything()):
            if (m.name, d.start) in seen:
                mask[i >> 3] |= 1 << (i & 7)
        return mask.hex()

    def fits(self, bits: str) -> bool:
        """Whether ``bits`` has one bit per declaration of the closure (a stored walk of
        another closure, or a damaged one, does not)."""
        try:
            size = len(bytes.fromhex(bits))
        except ValueError:
            return False
        return size == (self.size() + 7) // 8

    def targets_used(
        self, start: tuple[Module, Decl], stops: dict[tuple[str, int], str]
    ) -> set[str] | None:
        """Which ``stops`` (other targets' proofs, keyed like ``seen``) the proof may use
        directly: reached without passing through another stop. The kernel's notion of
        "uses", over-approximated; ``None`` when the reach cannot be bounded."""
        if self.unknown:
            return None
        queue = deque([start] + [(m, d) for m, d in self.everything() if d.implicit])
        seen = {(m.name, d.start) for m, d in queue}
        used: set[str] = set()
        while queue:
            module, decl = queue.popleft()
            if decl.searches:
                return None
            for module_next, decl_next in self.edges(module, decl):
                key = (module_next.name, decl_next.start)
                if key in seen:
                    continue
                seen.add(key)
                if key in stops:
                    used.add(stops[key])
                else:
                    queue.append((module_next, decl_next))
        return used


class ReachedBits:
    """What a stored walk reached: a bit per declaration of the proof's closure, in
    :meth:`_Reach.everything`'s order. Names are decoded only when asked, and a question
    about a few names (the gate's: does it reach another target's proof?) reads only
    theirs."""

    __slots__ = ("_closure", "_mask", "_workspace")

    def __init__(self, workspace: Workspace, closure: list[str], bits: str) -> None:
        self._workspace, self._closure, self._mask = workspace, closure, bytes.fromhex(bits)

    def _reached(self) -> Iterator[Decl]:
        mask = self._mask
        decls = (d for m in self._workspace.modules_in(self._closure) for d in m.scan.decls)
        for i, decl in enumerate(decls):
            if mask[i >> 3] >> (i & 7) & 1:
                yield decl

    def names(self) -> list[str]:
        return sorted({d.name for d in self._reached() if not d.name.startswith("<")})

    def reaches(self, names: set[str]) -> set[str]:
        return {d.name for d in self._reached() if d.name in names}


def _stored_problems(reach: _Reach, stored: Any) -> tuple[list[str], ReachedBits, bool] | None:
    """A stored :meth:`AnalysisMemo.problems` answer, if it has the shape one has and fits
    ``reach``'s closure; else None (it is walked again). The names stay bits until asked
    (:class:`ReachedBits`)."""
    if not (isinstance(stored, list) and len(stored) == 3):
        return None
    reasons, bits, unbounded = stored
    if not (
        isinstance(reasons, list)
        and all(isinstance(r, str) for r in reasons)
        and isinstance(bits, str)
        and isinstance(unbounded, bool)
    ):
        return None
    if not reach.fits(bits):
        return None
    return (
        reasons,
        ReachedBits(reach.workspace, reach.closure, bits),
        unbounded,
    )


def _implicit_role(decl: Decl) -> str:
    if decl.kind == "instance":
        return "instance, usable implicitly"
    if decl.kind == "attribute":
        return f"attribute [{', '.join(decl.attrs)}] command, usable implicitly"
    if decl.kind in ("notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix"):
        return "notation in scope"
    if decl.kind == "unknown command":
        return "a command the scanner does not know"
    if decl.attrs:
        return f"@[{', '.join(decl.attrs)}] declaration, usable implicitly"
    return f"{decl.kind} command, usable implicitly"


def _closure_risks(workspace: Workspace, module: Module) -> list[str]:
    """Reasons from the proof's module closure as a whole (not tied to reachability)."""
    root = workspace.root
    reasons = list(workspace.unresolved_in_closure(module.name))
    for name in workspace.closure(module.name):
        current = workspace.modules[name]
        rel = current.rel(root)
        for extension in current.scan.extensions:
            if extension.code:
                reasons.append(
                    f"custom syntax, elaborator or metaprogram (`{extension.command}`) at "
                    f"{rel}:{extension.line} cannot be followed by a source scan"
                )
        for finding in current.scan.findings:
            reasons.append(f"{finding.message} ({rel}:{finding.line})")
        for line, word in current.scan.unknown:
            if word.startswith("#"):
                reasons.append(
                    f"`{word}` at {rel}:{line} is a command the scanner does not know; "
                    "it may run code"
                )
        # a sorry the command splitter did not attribute to any declaration
        attributed = {line for decl in current.scan.decls for line in decl.sorries}
        for extension in current.scan.extensions:
            attributed.update(extension.sorries)
        for line in sorted(set(current.scan.sorry_lines) - attributed):
            reasons.append(f"sorry outside any declaration at {rel}:{line}")
    reasons.extend(_declared_twice(workspace, workspace.closure(module.name)))
    return reasons


def _declared_twice(workspace: Workspace, closure: list[str]) -> list[str]:
    """Names declared twice in one import closure: Lean rejects the second declaration
    ("already declared"), so nothing that imports both builds. Private declarations of
    different files do not clash (Lean names them by their module)."""
    seen: dict[str, str] = {}
    reasons: list[str] = []
    for name in closure:
        module = workspace.modules[name]
        rel = module.rel(workspace.root)
        for decl in module.scan.decls:
            if decl.name.startswith("<") or decl.kind == "example" or "._" in f".{decl.name}":
                continue  # a command or an anonymous declaration: the scanner named it
            key = decl.name if decl.exported else f"{name}\x00{decl.name}"
            where = f"{rel}:{decl.line}"
            first = seen.setdefault(key, where)
            if first != where:
                reasons.append(
                    f"{decl.name} is declared twice ({first} and {where}): Lean rejects the "
                    "second declaration"
                )
    return reasons


def statement_closure_violations(
    workspace: Workspace, mission: str, modules: Sequence[str], proofs: set[str]
) -> list[Violation]:
    """Nothing unproved or unsafe in a statement closure, and no proof inside it.

    The gate reports each as a violation; :func:`target_status` turns the same list into
    reasons, so that ``status`` never says ``proved`` where ``check`` fails the closure.
    """
    root = workspace.root
    found: list[Violation] = []

    def add(rule: str, message: str, rel: str, line: int) -> None:
        found.append(Violation(rule, message, rel, line, mission))

    for name in modules:
        module = workspace.modules[name]
        rel = module.rel(root)
        for line in module.scan.sorry_lines:
            add("forbidden-construct", f"sorry in the statement closure of {mission}", rel, line)
        for decl in module.scan.decls:
            if decl.kind == "opaque":
                add(
                    "forbidden-construct",
                    f"opaque {decl.name} in a statement closure hides its value",
                    rel,
                    decl.line,
                )
            if "partial" in decl.modifiers:
                add(
                    "forbidden-construct",
                    f"partial {decl.name} in a statement closure is opaque to the kernel",
                    rel,
                    decl.line,
                )
            if decl.name in proofs:
                add(
                    "statement-closure",
                    f"proof {decl.name} lies inside the statement closure",
                    rel,
                    decl.line,
                )
        for extension in module.scan.extensions:
            # a macro, elaborator or simproc here can make a statement mean something other
            # than what it reads, and the source scan cannot see through it
            if extension.code:
                add(
                    "forbidden-construct",
                    f"custom syntax or elaborator (`{extension.command}`) in the statement "
                    f"closure of {mission}: statements must mean what they read",
                    rel,
                    extension.line,
                )
        if name.endswith(".Proofs") or name.rsplit(".", 1)[-1].startswith("Proof"):
            add(
                "statement-closure",
                f"statement closure of {mission} imports proof module {name}",
                rel,
                1,
            )
    return found


def _hiding_faults(workspace: Workspace, root_module: str, statements_module: str) -> list[str]:
    """What could hide a mission's declarations: faults and unresolved imports in its root's
    and its statements' import closures (every faulty file, when the root itself cannot be
    read). A declaration not found is then unreadable, not missing."""
    found: list[str] = []
    for start in (root_module, statements_module):
        if start in workspace.modules:
            found.extend(workspace.unresolved_in_closure(start))
    root = workspace.modules.get(root_module)
    if root is None or root.scan.error is not None:
        found.extend(f for f in map(workspace.fault, workspace.modules.values()) if f)
    return sorted(set(found))


def _single(
    workspace: Workspace, name: str, root_module: str
) -> tuple[tuple[Module, Decl] | None, list[tuple[Module, Decl]]]:
    """The one declaration named ``name``, if there is exactly one.

    Lean only ever sees the declarations the mission's root module imports: when the name is
    declared more than once in the workspace, copies outside that closure (a scratch file
    nothing imports) are not the mission's. Without a root module, copies in another library
    (generated Comparator challenges restate every proof) are not the mission's either.
    """
    entries = workspace.lookup(name)
    if len(entries) > 1:
        if root_module in workspace.modules:
            closure = set(workspace.closure(root_module))
            inside = [entry for entry in entries if entry[0].name in closure]
        else:
            library = root_module.split(".", 1)[0] + "."
            inside = [entry for entry in entries if entry[0].name.startswith(library)]
        if inside:
            entries = inside
    return (entries[0] if len(entries) == 1 else None), entries


def names_inside_root(workspace: Workspace, root_module: str, targets: Iterable[Any]) -> bool:
    """Whether every statement and proof the ``targets`` name is declared in the import
    closure of ``root_module`` (which must be in ``workspace``).

    Then :func:`_single` picks among exactly those copies, whatever other modules hold: a
    workspace that holds the root's closure whole answers as the whole workspace does. A
    name declared only outside it, or nowhere, is looked up among every module, so only the
    whole workspace can answer (the incremental paths check this before they answer).
    """
    if root_module not in workspace.modules:
        return False
    closure = set(workspace.closure(root_module))
    for target in targets:
        if target.kind == "external":
            continue
        for name in (target.statement, target.proof):
            if name and not any(m.name in closure for m, _ in workspace.lookup(name)):
                return False
    return True


#: Reaches :class:`AnalysisMemo` keeps, the most recently used; another is made again.
REACHES_KEPT = 16


class AnalysisMemo:
    """Per-run memo of work shared by many targets (closures, implicit roots, risks)."""

    def __init__(
        self,
        workspace: Workspace,
        built: set[str] | None = None,
        walks: WalkStore | None = None,
    ) -> None:
        """``built``: the modules ``lake build`` elaborates, when the caller knows them
        already (the incremental ``status`` analyses a part of the workspace that may not
        hold the default targets' roots). ``walks``: walks kept from earlier runs, by the
        content they walked (:mod:`missions.walks`)."""
        self.workspace = workspace
        self.walks = walks
        self._closure_keys: dict[str, str] = {}
        self._references: References | None = None
        self._reach: dict[str, _Reach] = {}
        self._risks: dict[str, list[str]] = {}
        self._structure: dict[str, list[str]] = {}
        self._unresolved: dict[str, list[str]] = {}
        self._statement_closures: dict[tuple[str, ...], list[str]] = {}
        self._built = built
        #: what the build trusts or runs beyond the sources (a toolchain, Mathlib or other
        #: dependency off the pins, options that weaken checking, code Lake runs) applies to
        #: every module: imports of Mathlib are trusted by name only at the pinned commit
        self.build_risks = [
            f"{check.file}:{check.line}: {check.message}"
            for check in pin_checks(workspace.root)
            if not check.ok
        ]

    @property
    def references(self) -> References:
        if self._references is None:
            self._references = References(self.workspace)
        return self._references

    def reach(self, module: Module) -> _Reach:
        """The reach from ``module``'s proofs; the last :data:`REACHES_KEPT` are kept (a
        mission's targets are analysed together, and a reach holds its closure's implicit
        walk: kept for every proof module, a large analysis' largest part)."""
        found = self._reach.pop(module.name, None)
        if found is None:
            found = _Reach(self.workspace, module, lambda: self.references)
            if len(self._reach) >= REACHES_KEPT:
                del self._reach[next(iter(self._reach))]
        self._reach[module.name] = found  # the most recent last
        return found

    def _closure_key(self, module: Module) -> str:
        """A digest of everything a walk from ``module`` reads (see :mod:`missions.walks`)."""
        found = self._closure_keys.get(module.name)
        if found is None:
            workspace, root = self.workspace, self.workspace.root
            found = self._closure_keys[module.name] = walk_key(
                *(
                    closure_token(m.name, m.rel(root), m.sha, m.scan.error)
                    for m in workspace.modules_in(workspace.closure(module.name))
                )
            )
        return found

    def problems(
        self, start: tuple[Module, Decl]
    ) -> tuple[list[str], list[str] | ReachedBits, bool]:
        """:meth:`_Reach.problems` of ``start``, from the store when it walked this before
        (the names reached then come as its bits, see :class:`ReachedBits`)."""
        module, decl = start
        reach = self.reach(module)
        if self.walks is None:
            return reach.problems(start)
        key = walk_key(self._closure_key(module), "problems", str(decl.start), decl.name)
        stored = self.walks.get(key)
        if stored is not None:
            known = _stored_problems(reach, stored)
            if known is not None:
                return known
            self.walks.discard(key)
        reasons, seen, unbounded = reach.walk(start)
        bits = reach.bits(seen)
        self.walks.put(key, [reasons, bits, unbounded])
        return (
            reasons,
            ReachedBits(self.workspace, reach.closure, bits),
            unbounded,
        )

    def dependencies(
        self, status: TargetStatus, others: Sequence[tuple[tuple[Module, Decl], str]]
    ) -> list[str] | None:
        """:func:`targets_used` of ``status`` among ``others`` (other targets' proofs and
        ids), from the store when it answered the same question over the same closure."""
        assert status.proof_decl is not None
        module, decl = status.proof_decl
        if self.walks is None:
            return self._dependencies(status, others)
        key = walk_key(
            self._closure_key(module),
            "used",
            str(decl.start),
            decl.name,
            *(f"{m.name}\0{d.start}\0{d.name}\0{target}" for (m, d), target in others),
        )
        stored = self.walks.get(key)
        if isinstance(stored, list) and len(stored) == 1:
            used = stored[0]
            ids = {target for _, target in others}
            if used is None or (isinstance(used, list) and all(u in ids for u in used)):
                return None if used is None else list(used)
        if stored is not None:
            self.walks.discard(key)
        found = self._dependencies(status, others)
        self.walks.put(key, [found])
        return found

    def _dependencies(
        self, status: TargetStatus, others: Sequence[tuple[tuple[Module, Decl], str]]
    ) -> list[str] | None:
        assert status.proof_decl is not None
        reachable = status.reaches({d.name for (_, d), _ in others})
        stops = {(m.name, d.start): target for (m, d), target in others if d.name in reachable}
        if not stops:
            return []
        used = self.reach(status.proof_decl[0]).targets_used(status.proof_decl, stops)
        return None if used is None else sorted(used)

    def keep(self) -> None:
        """Write the walks this run made to the store, if it has one."""
        if self.walks is not None:
            self.walks.save()

    def release(self) -> None:
        """Drop what the walks keep (each declaration's references, each proof module's
        reach; a fifth of a large analysis): an answer is encoded after its analysis, and
        at the top of its memory. Whatever is asked later is walked again."""
        self._references = None
        self._reach.clear()

    def risks(self, module: Module) -> list[str]:
        if module.name not in self._risks:
            self._risks[module.name] = self.build_risks + _closure_risks(self.workspace, module)
        return self._risks[module.name]

    def built(self) -> set[str]:
        """The workspace modules ``lake build`` elaborates: those of the default targets'
        globs and everything they import. A proof anywhere else is never checked."""
        if self._built is None:
            workspace = self.workspace
            globs, _ = default_builds(workspace.root)
            entries: list[str] = []
            for kind, name in globs:
                if kind in ("one", "andSubmodules"):
                    entries.append(name)
                if kind in ("submodules", "andSubmodules"):
                    entries.extend(m for m in workspace.modules if m.startswith(name + "."))
            built: set[str] = set()
            for entry in entries:
                built.update(workspace.closure(entry))
            self._built = built
        return self._built

    def unresolved(self, start: str) -> list[str]:
        """:meth:`Workspace.unresolved_in_closure`, once per module."""
        found = self._unresolved.get(start)
        if found is None:
            found = self._unresolved[start] = self.workspace.unresolved_in_closure(start)
        return found

    def structure(self, start: str) -> list[str]:
        """Files in the import closure of ``start`` whose scopes the scanner cannot follow
        with certainty: there the full names it gives declarations may not be Lean's, so a
        decoy could stand in for a proof or a sorry'd helper hide under another name."""
        found = self._structure.get(start)
        if found is None:
            workspace = self.workspace
            found = [
                f"{module.rel(workspace.root)}:{line}: {message}; the scanner cannot be sure "
                "of the names declared in this file"
                for module in workspace.modules_in(workspace.closure(start))
                for line, message in module.scan.structure
            ]
            self._structure[start] = found
        return found

    def statement_closure(self, mission: str, modules: Sequence[str]) -> list[str]:
        """Reasons from what :func:`statement_closure_violations` finds in a closure."""
        key = (mission, *modules)
        found = self._statement_closures.get(key)
        if found is None:
            found = [
                f"{v.message} ({v.file}:{v.line})"
                for v in statement_closure_violations(self.workspace, mission, modules, set())
            ]
            self._statement_closures[key] = found
        return found


PIN_REASONS = (
    "statements are not pinned (run `missions pin`)",
    "statement closure changed since it was pinned",
)


@functools.lru_cache(maxsize=8192)
def relative(path: Path, root: Path) -> str:
    """``path`` relative to ``root``, as messages name it (asked by every rule of every target
    and mission: ``Path.relative_to`` parses both paths each time)."""
    return str(path.relative_to(root))


def pin_reason(pin: PinState) -> str | None:
    """Why the pin keeps a proof from counting, if it does."""
    if not pin.pinned:
        return PIN_REASONS[0]
    return None if pin.matches else PIN_REASONS[1]


def target_status(
    workspace: Workspace,
    mission_file: MissionFile,
    pin: PinState,
    target: Target,
    context: AnalysisMemo | None = None,
) -> TargetStatus:
    mission = mission_file.mission
    yaml_path = relative(mission_file.path, workspace.root)
    result = TargetStatus(mission=mission.id, target=target, status="stated", evidence="source")

    def violation(
        rule: str, message: str, key: str | None = None, where: tuple[str, int] | None = None
    ) -> None:
        file, line = where if where else (yaml_path, mission_file.target_line(target.id, key))
        result.violations.append(Violation(rule, message, file, line, mission.id, target.id))

    if target.kind == "external":
        result.status, result.evidence = "external", None
        result.reasons.append("lives in another repository; never counted as proved here")
        return result
    assert target.statement is not None
    statement, statements = _single(workspace, target.statement, mission.lean.module)
    faults = (
        _hiding_faults(workspace, mission.lean.module, mission.lean.statements_module)
        if not statements or (target.proof is not None and not workspace.lookup(target.proof))
        else []
    )
    if not statements and faults:
        # not missing: in a file the scanner could not read, for all it knows
        result.reasons.extend(faults)
        result.reasons.append(f"statement {target.statement} is not in what could be read")
        return result
    if not statements:
        result.status = "missing"
        result.reasons.append(f"statement {target.statement} is missing from the sources")
        violation("missing-declaration", f"statement {target.statement} is missing", "statement")
        return result
    if statement is None:
        result.reasons.append(f"statement {target.statement} is declared more than once")
        violation(
            "missing-declaration",
            f"statement {target.statement} is declared more than once",
            "statement",
        )
        return result
    result.statement_decl = statement
    smodule, sdecl = statement
    swhere = (smodule.rel(workspace.root), sdecl.line)
    if smodule.name not in pin.modules:
        result.reasons.append(f"statement {sdecl.name} is outside the statement closure")
        violation(
            "statement-closure",
            f"statement {sdecl.name} is declared in {smodule.name}, outside the statement "
            f"closure of {mission.lean.statements_module}",
            where=swhere,
        )
    if sdecl.kind not in ("def", "abbrev") or sdecl.type_name != "Prop" or sdecl.has_binders:
        result.reasons.append(f"statement {sdecl.name} is not a Prop-valued definition")
        violation(
            "statement-shape",
            f"statement {sdecl.name} must be `def {sdecl.name.rsplit('.', 1)[-1]} : Prop := ...` "
            "with no parameters",
            where=swhere,
        )
    if sdecl.variables:
        result.reasons.append(f"a `variable` is in scope of statement {sdecl.name}")
    if not sdecl.exported:
        result.reasons.append(_private_reason("statement", sdecl.name, smodule))
    if target.proof is None:
        result.reasons.append("no proof named")
        return result
    proof, proofs = _single(workspace, target.proof, mission.lean.module)
    if not proofs and faults:
        result.reasons.extend(faults)
        result.reasons.append(f"proof {target.proof} is not in what could be read")
        return result
    if not proofs:
        exits = [  # in path order, whichever order the modules were loaded in
            f"{rel}:{line}"
            for rel, line in sorted(
                (m.rel(workspace.root), m.scan.exit_line)
                for m in workspace.modules.values()
                if m.scan.exit_line is not None
            )
        ]
        where = f" (`#exit` at {', '.join(exits)} cuts off what follows)" if exits else ""
        result.reasons.append(f"proof {target.proof} is missing from the sources{where}")
        violation("missing-declaration", f"proof {target.proof} is missing{where}", "proof")
        return result
    if proof is None:
        result.reasons.append(f"proof {target.proof} is declared more than once")
        violation(
            "missing-declaration", f"proof {target.proof} is declared more than once", "proof"
        )
        return result
    result.proof_decl = proof
    pmodule, pdecl = proof
    pwhere = (pmodule.rel(workspace.root), pdecl.line)
    reasons = result.reasons
    if not pdecl.is_theorem:
        reasons.append(f"proof {pdecl.name} is declared as `{pdecl.kind}`, not `theorem`")
        violation(
            "proof-type", f"{pdecl.name} must be a theorem, found `{pdecl.kind}`", where=pwhere
        )
    context = context or AnalysisMemo(workspace)
    reach = context.reach(pmodule)
    if pdecl.has_binders or pdecl.type_name is None:
        reasons.append(f"the type of {pdecl.name} is not exactly {sdecl.name}")
        violation(
            "proof-type",
            f"{pdecl.name} must have type exactly {sdecl.name} (no binders, nothing else)",
            where=pwhere,
        )
    else:
        candidates = {
            decl.name
            for _, decl in reach.visible(workspace.type_candidates(pmodule, pdecl, pdecl.type_name))
        }
        if sdecl.name not in candidates:
            reasons.append(f"the type of {pdecl.name} is `{pdecl.type_name}`, not {sdecl.name}")
            violation(
                "proof-type",
                f"{pdecl.name} has type `{pdecl.type_name}`, which does not denote {sdecl.name}",
                where=pwhere,
            )
        elif len(candidates) > 1:
            others = ", ".join(sorted(candidates - {sdecl.name}))
            reasons.append(
                f"`{pdecl.type_name}` in the type of {pdecl.name} is ambiguous (also {others})"
            )
        for module in workspace.modules_in(sorted(reach.modules)):
            for extension in module.scan.extensions:
                short = sdecl.name.rsplit(".", 1)[-1]
                if any(short in atom or pdecl.type_name in atom for atom in extension.atoms):
                    reasons.append(
                        f"`{extension.command}` at {module.rel(workspace.root)}:{extension.line} "
                        f"may change what `{pdecl.type_name}` means"
                    )
    if pdecl.variables:
        reasons.append(f"a `variable` is in scope of {pdecl.name} and may change its type")
    if not pdecl.exported:
        reasons.append(_private_reason("proof", pdecl.name, pmodule))
    reasons.extend(_elaboration(workspace, context, mission.lean.module, pmodule, pin))
    result.pin_at = len(dict.fromkeys(reasons))
    reason = pin_reason(pin)
    if reason is not None:
        reasons.append(reason)
    reasons.extend(context.risks(pmodule))
    reasons.extend(context.statement_closure(mission.id, pin.modules))
    problems, result._reached, result.unbounded = context.problems(proof)
    reasons.extend(problems)
    result.reasons = list(dict.fromkeys(reasons))
    if not result.reasons:
        result.status = "proved"
    return result


def _private_reason(role: str, name: str, module: Module) -> str:
    return (
        f"{role} {name} is private (not `public` in a `module` file, or `private`): Lean names "
        f"it _private.{module.name}.0.{name}, and nothing outside its file can check {name}"
    )


def _elaboration(
    workspace: Workspace, context: AnalysisMemo, root_module: str, pmodule: Module, pin: PinState
) -> list[str]:
    """Why Lean may never check the proof as the scanner read it: ``lake build`` elaborates
    only the default targets' import closures, and the names the scanner gives declarations
    are Lean's only where it is certain of every file's scopes."""
    reasons: list[str] = []
    if root_module not in workspace.modules:
        reasons.append(f"the mission root {root_module} is not in the sources")
    elif root_module not in context.built():
        reasons.append(
            f"`lake build` does not build the mission root {root_module}: no "
            "`@[default_target]` library imports it"
        )
    elif pmodule.name not in workspace.closure(root_module):
        reasons.append(
            f"the mission root {root_module} does not import {pmodule.name}, so `lake build` "
            "never elaborates this proof as part of the mission"
        )
    else:  # `lake build` fails on the root if anything it imports does
        reasons.extend(context.unresolved(root_module))
    for start in dict.fromkeys([root_module, pmodule.name, *pin.modules]):
        reasons.extend(context.structure(start))
    return reasons


def targets_used(
    analysis: Analysis, mission: MissionStatus, status: TargetStatus
) -> list[str] | None:
    """Ids of the mission's other targets whose proofs ``status``'s proof may use directly
    (not only through a third target's proof), as the source reach sees it: a superset of
    what the kernel reports. ``None`` without a proof or when the reach is unbounded."""
    if status.proof_decl is None:
        return None
    others = [
        (o.proof_decl, o.target.id)
        for o in mission.targets
        if o is not status and o.proof_decl is not None
    ]
    return analysis.memo.dependencies(status, others)


def development_modules(analysis: Analysis, mission: MissionStatus) -> list[str]:
    """The workspace modules of a mission's development: what its root, its statements and
    its proofs import (Mathlib and other packages are not the mission's)."""
    workspace = analysis.workspace
    names = set(workspace.closure(mission.file.mission.lean.module)) | set(mission.pin.modules)
    for status in mission.targets:
        if status.proof_decl is not None:
            names |= set(workspace.closure(status.proof_decl[0].name))
    return sorted(n for n in names if n in workspace.modules)


def analyze(
    catalog: Catalog,
    workspace: Workspace,
    ids: list[str] | None = None,
    walks: WalkStore | None = None,
) -> Analysis:
    """The chosen missions' statuses (all without ``ids``); ``walks`` as for
    :class:`AnalysisMemo`, written back once the analysis is done."""
    missions: list[MissionStatus] = []
    context = AnalysisMemo(workspace, walks=walks)
    for mission_file in catalog.select(ids or []):
        pin = pin_state(workspace, mission_file.mission)
        statuses = [
            target_status(workspace, mission_file, pin, target, context)
            for target in mission_file.mission.targets
        ]
        missions.append(MissionStatus(mission_file, pin, statuses))
    context.keep()
    return Analysis(
        root=catalog.root,
        workspace=workspace,
        missions=missions,
        memo=context,
        catalog=catalog.missions,
    )
