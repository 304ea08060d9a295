"""``missions new``: a mission skeleton that the gate accepts once pinned.

The placeholder goal is ``False`` on purpose: nobody can "prove" a mission before its real
statement is written, and the first ``missions pin`` after filling it in records it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from missions.catalog import ID_PATTERN
from missions.errors import InputError
from missions.lean.workspace import module_path
from missions.yamlio import atomic_write_text


@dataclass
class Scaffold:
    mission_id: str
    module: str
    files: dict[Path, str]


def default_module(mission_id: str) -> str:
    return "Formal." + "".join(part.capitalize() for part in mission_id.split("-"))


def plan(root: Path, mission_id: str, module: str | None, title: str | None) -> Scaffold:
    if not ID_PATTERN.match(mission_id):
        raise InputError.single(
            root / "missions", 1, f"mission id {mission_id!r} must be kebab-case (a-z, 0-9, -)"
        )
    module = module or default_module(mission_id)
    if not module.startswith("Formal.") or not all(p.isidentifier() for p in module.split(".")):
        raise InputError.single(
            root / "missions", 1, f"module {module!r} must be a Lean name under Formal."
        )
    namespace = module
    title = title or mission_id.replace("-", " ").capitalize()
    yaml_path = root / "missions" / f"{mission_id}.yaml"
    base = module_path(root, module).with_suffix("")
    files = {
        yaml_path: _yaml(mission_id, title, module, namespace),
        base / "Defs.lean": _defs(namespace, title),
        base / "Statements.lean": _statements(namespace, module, title),
        base / "Proofs.lean": _proofs(namespace, module, title),
        module_path(root, module): _root_module(module, title),
    }
    clashes = [p for p in files if p.exists()]
    if clashes:
        raise InputError.single(clashes[0], 1, "already exists; choose another id or --module")
    return Scaffold(mission_id, module, files)


def write(root: Path, scaffold: Scaffold) -> list[Path]:
    """Create every file, then register the module in ``Formal.lean``; undo on failure."""
    written: list[Path] = []
    try:
        for path, text in scaffold.files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, text)
            written.append(path)
        index = root / "Formal.lean"
        line = f"import {scaffold.module}\n"
        current = index.read_text(encoding="utf-8") if index.exists() else ""
        if line not in current.splitlines(keepends=True):
            if current and not current.endswith("\n"):
                current += "\n"
            atomic_write_text(index, current + line)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    return written


def _yaml(mission_id: str, title: str, module: str, namespace: str) -> str:
    return f"""id: {mission_id}
title: "{title}"
category: research-paper
summary: >
  TODO: what the result says and why it matters, in your own words.
sources:
  - key: source
    citation: "TODO: authors, title, venue, year"
    locators: ["TODO: section, theorem, PDF page, equation"]
lean:
  module: {module}
conventions:
  - "TODO: scope and modelling choices the source fixes"
targets:
  - id: goal
    kind: goal
    title: "TODO: the main theorem"
    informal: >
      TODO: the claim in words and formulas.
    source: source
    locator: "TODO"
    statement: {namespace}.Goal
    proof: {namespace}.goal
    depends_on: []
    provenance: {{statement: literature-sourced, proof: none}}
    status: stated
    evidence: source
"""


def _defs(namespace: str, title: str) -> str:
    return f"""import Mathlib

/-!
# {title}: the model

Definitions only, sorry-free. Nothing the mission asks to prove is assumed here.
-/

namespace {namespace}

end {namespace}
"""


def _statements(namespace: str, module: str, title: str) -> str:
    return f"""import {module}.Defs

/-!
# {title}: statements

One Prop-valued definition per target. This file and what it imports form the statement
closure that `missions pin` hashes.
-/

namespace {namespace}

/-- The mission's goal. Placeholder (unprovable on purpose): replace it with the statement,
citing its source locator, then run `missions pin`. -/
def Goal : Prop := False

end {namespace}
"""


def _proofs(namespace: str, module: str, title: str) -> str:
    return f"""import {module}.Statements

/-!
# {title}: proofs

One theorem per target, whose type is exactly the statement constant.
-/

namespace {namespace}

theorem goal : Goal := by
  sorry

end {namespace}
"""


def _root_module(module: str, title: str) -> str:
    return f"""import {module}.Defs
import {module}.Statements
import {module}.Proofs

/-! # {title} -/
"""
