"""Checks of a workspace's mission catalogue against its Lean sources.

Every expectation is derived from the mission YAML and the sources: no mission id, target id
or status is written here. The same checks run on this repository (``test_missions.py``) and
on copies where a user followed the README, added a mission or proved a target
(``test_recipes.py``), so they stay true when users do what the README says.

Each function returns a list of problems (empty when the workspace is consistent) so that a
failing test names every inconsistency at once.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from missions.catalog import load_catalog
from missions.gate import run_gate
from missions.lean.lexer import IDENT, lex
from missions.lean.workspace import load_workspace, module_path
from missions.status import Analysis, MissionStatus, TargetStatus, analyze


def mission_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "missions").iterdir() if p.suffix in (".yaml", ".yml"))


def analysis_of(root: Path) -> Analysis:
    """The source-scan analysis of ``root``, read fresh (no cache written or read)."""
    return analyze(load_catalog(root, use_cache=False), load_workspace(root, use_cache=False))


def _raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    return data


def _missions(analysis: Analysis, mission_id: str | None) -> list[MissionStatus]:
    chosen = [m for m in analysis.missions if mission_id is None or m.id == mission_id]
    assert chosen, f"no mission {mission_id!r} in {analysis.root}"
    return chosen


def _source(status: TargetStatus, which: str) -> tuple[str, str]:
    """(whole file text, the declaration's text) of the statement or proof declaration."""
    found = status.statement_decl if which == "statement" else status.proof_decl
    assert found is not None
    module, decl = found
    text = module.path.read_text(encoding="utf-8")
    return text, text[decl.start : decl.end]


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


# ---------------------------------------------------------------- the YAML on its own


def dependency_problems(root: Path, mission_id: str | None = None) -> list[str]:
    """Every ``depends_on`` names a target of the same mission, none itself, and the graph
    has no cycle; read from the raw YAML, independently of the tool's validator."""
    problems: list[str] = []
    for path in mission_files(root):
        data = _raw(path)
        if mission_id is not None and data.get("id") != mission_id:
            continue
        targets = data.get("targets") or []
        ids = [t["id"] for t in targets]
        graph = {t["id"]: list(t.get("depends_on") or []) for t in targets}
        problems += [f"{path.name}: target id {t} used twice" for t in graph if ids.count(t) > 1]
        for target, deps in graph.items():
            for dep in deps:
                if dep not in ids:
                    problems.append(f"{path.name}: {target} depends on unknown {dep}")
                if dep == target:
                    problems.append(f"{path.name}: {target} depends on itself")
        for target in graph:  # on a cycle: reachable from its own dependencies
            seen: set[str] = set()
            stack = list(graph[target])
            while stack:
                node = stack.pop()
                if node not in seen and node in graph:
                    seen.add(node)
                    stack.extend(graph[node])
            if target in seen:
                problems.append(f"{path.name}: cycle through {target}")
    return problems


# ---------------------------------------------------------------- YAML against sources


def status_problems(analysis: Analysis, mission_id: str | None = None) -> list[str]:
    """The status and evidence recorded in the YAML are the computed ones (what ``missions
    sync`` writes). A recorded kernel verdict cannot be re-derived without Lean: it must at
    least say what checked it."""
    problems: list[str] = []
    for mission in _missions(analysis, mission_id):
        for status in mission.targets:
            target = status.target
            where = f"{mission.id}/{target.id}"
            if target.evidence == "kernel":
                if target.checked is None:
                    problems.append(f"{where}: kernel evidence without a `checked` record")
                continue
            recorded = (target.status, target.evidence)
            computed = (status.status, status.evidence)
            if recorded != computed:
                problems.append(f"{where}: YAML says {recorded}, sources give {computed}")
    return problems


def declaration_problems(analysis: Analysis, mission_id: str | None = None) -> list[str]:
    """Every workspace target's statement is a parameterless Prop-valued ``def`` with a
    docstring inside its mission's statement closure; every named proof is a parameterless
    ``theorem`` outside it, whose type is that statement."""
    problems: list[str] = []
    for mission in _missions(analysis, mission_id):
        closure = set(mission.pin.modules)
        for status in mission.targets:
            target = status.target
            where = f"{mission.id}/{target.id}"
            if target.kind == "external":
                if target.external is None or target.statement or target.proof:
                    problems.append(f"{where}: external targets name no workspace declaration")
                continue
            if status.statement_decl is None:
                problems.append(f"{where}: statement {target.statement} not found in the sources")
                continue
            module, decl = status.statement_decl
            text, own = _source(status, "statement")
            short = _short(decl.name)
            if module.name not in closure:
                problems.append(f"{where}: {decl.name} is outside the statement closure")
            if not re.search(rf"\b(def|abbrev)\s+{re.escape(short)}\s*:\s*Prop\s*:=", own):
                problems.append(f"{where}: {decl.name} is not `def {short} : Prop := ...`")
            modifiers = r"(?:(?:noncomputable|private|protected|nonrec)\s+)*"
            docstring = (
                r"/--(?:(?!-/).)*-/\s*(?:@\[[^\]]*\]\s*)*"
                + rf"{modifiers}(def|abbrev)\s+{re.escape(short)}\b"
            )
            if not re.search(docstring, text, re.DOTALL):
                problems.append(f"{where}: {decl.name} has no docstring citing its source")
            if target.proof is None:
                continue
            if status.proof_decl is None:
                problems.append(f"{where}: proof {target.proof} not found in the sources")
                continue
            proof_module, proof = status.proof_decl
            _, proof_text = _source(status, "proof")
            if proof_module.name in closure:
                problems.append(f"{where}: proof {proof.name} is inside the statement closure")
            shape = rf"\b(theorem|lemma)\s+{re.escape(_short(proof.name))}\s*:\s*([\w.]+)\s*:="
            match = re.search(shape, proof_text)
            if match is None or _short(match.group(2)) != short:
                problems.append(f"{where}: {proof.name} is not `theorem _ : {short} := ...`")
    return problems


def citation_problems(analysis: Analysis, mission_id: str | None = None) -> list[str]:
    """A proved target's proof refers by name to the proof of every target it depends on
    (milestones are used by their theorem names, so the YAML's graph is the proofs' graph)."""
    problems: list[str] = []
    for mission in _missions(analysis, mission_id):
        proofs = {t.target.id: t.target.proof for t in mission.targets}
        for status in mission.targets:
            if status.status != "proved":
                continue
            _, proof_text = _source(status, "proof")
            named = {_short(text) for kind, text, _ in lex(proof_text).tokens if kind == IDENT}
            for dep in status.target.depends_on:
                dep_proof = proofs.get(dep)
                if dep_proof is not None and _short(dep_proof) not in named:
                    problems.append(
                        f"{mission.id}/{status.target.id}: proved without naming {dep_proof}, "
                        f"although it depends on {dep}"
                    )
    return problems


def module_problems(root: Path) -> list[str]:
    """The root module imports every mission's module, and each module file exists."""
    problems: list[str] = []
    index = root / "Formal.lean"
    imports = re.findall(r"^import\s+(\S+)", index.read_text(encoding="utf-8"), re.MULTILINE)
    for path in mission_files(root):
        module = _raw(path)["lean"]["module"]
        if module not in imports:
            problems.append(f"{path.name}: {module} is not imported by Formal.lean")
        if not module_path(root, module).is_file():
            problems.append(f"{path.name}: {module_path(root, module)} does not exist")
    return problems


def gate_problems(analysis: Analysis, mission_id: str | None = None) -> list[str]:
    """What ``missions check`` would report."""
    return [
        f"{v.location()}: [{v.rule}] {v.message}"
        for v in run_gate(analysis).violations
        if mission_id is None or v.mission in (None, mission_id)
    ]


def all_problems(root: Path) -> list[str]:
    """Every check above, on the workspace at ``root``."""
    analysis = analysis_of(root)
    return [
        *dependency_problems(root),
        *status_problems(analysis),
        *declaration_problems(analysis),
        *citation_problems(analysis),
        *module_problems(root),
        *gate_problems(analysis),
    ]
