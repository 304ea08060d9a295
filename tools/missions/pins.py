"""Statement pins: a hash of everything a mission's statements mean.

A mission's *statement closure* is its Statements module and every workspace module that it
imports, transitively. Proofs can never change what the closure means, so its hash, taken
over the normalized token stream of each module (comments removed, the layout Lean reads
kept), together with which statement and proof each target names, pins the statements.
``missions pin`` records the hash with the commit and a history entry; ``missions check``
recomputes it and names the files and commits that moved it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from missions import gitinfo
from missions.errors import InputError
from missions.lean.workspace import Workspace, module_path

if TYPE_CHECKING:  # the pydantic models; ``status`` runs without importing them
    from missions.catalog import Mission, MissionFile


@dataclass
class PinState:
    """The statement closure of one mission as it is now, against its recorded pin."""

    modules: list[str]
    digest: str | None
    recorded: str | None
    problems: list[str] = field(default_factory=list)

    @property
    def pinned(self) -> bool:
        return self.recorded is not None

    @property
    def matches(self) -> bool:
        return self.digest is not None and self.digest == self.recorded


#: What a pin covers of each target besides the closure: (id, kind, statement, proof).
Binding = tuple[str, str, str | None, str | None]


def statement_closure(workspace: Workspace, mission: Mission) -> list[str]:
    return workspace.closure(mission.lean.statements_module)


def bindings(mission: Mission) -> list[Binding]:
    """Which statement and proof each target names: pointing the goal at an easier
    milestone's statement changes no Lean file, so the pin covers it too."""
    return [(t.id, t.kind, t.statement, t.proof) for t in mission.targets]


def closure_digest(workspace: Workspace, modules: list[str]) -> str:
    return digest_of({name: workspace.modules[name].scan.digest for name in modules})


def digest_of(digests: dict[str, str], binding: list[Binding] | None = None) -> str:
    """The digest of a closure, from each module's token digest (by module name), and, for a
    pin, the targets' bindings."""
    h = hashlib.sha256()
    for name in sorted(digests):
        h.update(name.encode())
        h.update(b"\x00")
        h.update(digests[name].encode())
        h.update(b"\n")
    if binding is not None:
        h.update(b"targets\x00")
        for row in binding:
            h.update("\x1f".join(part or "" for part in row).encode())
            h.update(b"\n")
    return f"sha256:{h.hexdigest()}"


def proof_closure_digest(workspace: Workspace, proof_module: str) -> str | None:
    """The digest of a proof module's import closure: what a kernel verdict on it covers
    (None when the closure cannot be resolved)."""
    if workspace.unresolved_in_closure(proof_module):
        return None
    return closure_digest(workspace, workspace.closure(proof_module))


def pin_state(workspace: Workspace, mission: Mission) -> PinState:
    start = mission.lean.statements_module
    recorded = mission.lean.statement_pin
    if start not in workspace.modules:
        return PinState([], None, recorded, [f"statements module {start} not found"])
    modules = statement_closure(workspace, mission)
    problems = workspace.unresolved_in_closure(start)
    digests = {name: workspace.modules[name].scan.digest for name in modules}
    digest = None if problems else digest_of(digests, bindings(mission))
    return PinState(modules, digest, recorded, problems)


def closure_paths(workspace: Workspace, modules: list[str]) -> list[Path]:
    return [
        workspace.modules[m].path if m in workspace.modules else module_path(workspace.root, m)
        for m in modules
    ]


#: ``pinned_at`` when no commit holds the pinned files as they are (uncommitted changes, or
#: no git): the pin is honest about what it cannot point to.
UNCOMMITTED = "uncommitted"


def is_blank(reason: str | None) -> bool:
    return reason is not None and not reason.strip()


def needs_recording(mission_file: MissionFile, state: PinState, commit: str | None) -> bool:
    """Whether :func:`apply_pin` would change the mission document."""
    if state.digest is None:
        return False
    if not state.matches:
        return True
    recorded = mission_file.mission.lean.pinned_at
    return recorded == UNCOMMITTED and commit not in (None, UNCOMMITTED)


def apply_pin(
    mission_file: MissionFile,
    state: PinState,
    *,
    commit: str | None,
    reason: str | None,
    today: dt.date,
) -> bool:
    """Write the current digest into the mission document; return whether anything changed.

    A first pin is recorded as revision 1 with reason ``initial``; a re-pin that changes the
    digest needs a reason, so weakening a statement always leaves a trace in the history.
    ``commit`` is the commit that holds the closure files as they are, or :data:`UNCOMMITTED`;
    a pin taken on uncommitted files gets its commit once they are committed and ``pin`` runs
    again (the digest does not change, so no new revision is added).
    """
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    from missions.yamlio import set_key

    if state.digest is None:
        raise InputError.single(
            mission_file.path,
            mission_file.line("lean"),
            "cannot pin: " + "; ".join(state.problems),  # a digest is missing only with them
        )
    if is_blank(reason):
        raise InputError.single(
            mission_file.path,
            mission_file.line("lean"),
            "--reason is blank; say why the statements changed (it is kept in statement_history)",
        )
    doc = mission_file.doc
    lean = doc["lean"]
    if state.matches:
        if not needs_recording(mission_file, state, commit):
            return False
        set_key(lean, "pinned_at", commit, after="statement_pin")
        history = doc.get("statement_history") or []
        last = history[-1] if history else {}
        if last.get("digest") == state.digest and last.get("commit") in (None, UNCOMMITTED):
            last["commit"] = commit
        return True
    if state.recorded is not None and not reason:
        raise InputError.single(
            mission_file.path,
            mission_file.line("lean", "statement_pin"),
            f"statement closure of {mission_file.mission.id!r} changed since it was pinned; "
            "re-pin with --reason explaining the change",
        )
    set_key(
        lean,
        "statement_pin",
        state.digest,
        after="statements" if "statements" in lean else "module",
    )
    set_key(lean, "pinned_at", commit, after="statement_pin")
    history = doc.get("statement_history")
    if history is None:
        history = CommentedSeq()
        set_key(doc, "statement_history", history, after="lean")
    last = max((int(entry["revision"]) for entry in history), default=0)
    entry = CommentedMap()
    entry["revision"] = last + 1
    entry["date"] = today
    entry["reason"] = reason.strip() if reason else "initial"
    entry["digest"] = state.digest
    entry["commit"] = commit
    history.append(entry)
    return True


def pin_commit(root: Path, workspace: Workspace, state: PinState) -> tuple[str, list[Path]]:
    """The commit to record as ``pinned_at``, and the closure files that keep it from one.

    HEAD only if it holds every closure file exactly as it is on disk; otherwise
    :data:`UNCOMMITTED` and the files that differ (all of them when git cannot tell).
    """
    paths = closure_paths(workspace, state.modules)
    head = gitinfo.head_commit(root)
    if head is None:
        return UNCOMMITTED, paths
    changed = gitinfo.changed_since(root, head, paths)
    if changed is None:
        return UNCOMMITTED, paths
    return (head, []) if not changed else (UNCOMMITTED, changed)
