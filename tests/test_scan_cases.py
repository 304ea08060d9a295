"""The scanner against a corpus of small workspaces: tricks must never be 'proved'.

Each case under ``fixtures/scan_cases/<group>/<case>/`` is a tiny workspace plus
``case.json`` (see that folder's README). The harness pins the statements as a user would,
optionally swaps files afterwards (to change a statement behind the pin), then computes the
target's status from source.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import LAKEFILE, MISSION_YAML
from missions.catalog import load_catalog
from missions.gate import run_gate
from missions.lean.workspace import load_workspace
from missions.pins import apply_pin, pin_state
from missions.status import analyze
from missions.yamlio import atomic_write_text, dump_document

CASES = Path(__file__).parent / "fixtures" / "scan_cases"


def _cases(group: str) -> list[Path]:
    return sorted(p.parent for p in (CASES / group).glob("*/case.json"))


def _materialize(case: Path, root: Path, spec: dict[str, Any]) -> None:
    root.mkdir()
    for path in case.rglob("*"):
        rel = path.relative_to(case)
        if path.is_dir() or rel.name == "case.json" or rel.suffix == ".after":
            continue
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    (root / "lakefile.lean").write_text(LAKEFILE, encoding="utf-8")
    (root / "lean-toolchain").write_text("leanprover/lean4:v4.30.0\n", encoding="utf-8")
    (root / "missions").mkdir()
    text = MISSION_YAML.format(id="case", module="Formal.Case")
    text = text.replace("Formal.Case.Goal", spec["statement"]).replace(
        "Formal.Case.goal", spec["proof"]
    )
    (root / "missions" / "case.yaml").write_text(text, encoding="utf-8")


def _pin(root: Path) -> None:
    catalog = load_catalog(root)
    workspace = load_workspace(root, use_cache=False)
    for mission_file in catalog.files:
        state = pin_state(workspace, mission_file.mission)
        if state.digest is None:
            return  # an unpinnable closure (broken import) is itself a case
        apply_pin(mission_file, state, commit=None, reason=None, today=dt.date(2026, 1, 1))
        atomic_write_text(mission_file.path, dump_document(mission_file.doc))


def _run(case: Path, tmp_path: Path) -> tuple[dict[str, Any], str, list[str]]:
    spec = json.loads((case / "case.json").read_text(encoding="utf-8"))
    root = tmp_path / "ws"
    _materialize(case, root, spec)
    _pin(root)
    for rel, replacement in spec.get("swap_after_pin", {}).items():
        shutil.copy(case / Path(rel).parent / replacement, root / rel)
    analysis = analyze(load_catalog(root), load_workspace(root, use_cache=False))
    status = analysis.missions[0].targets[0]
    gate = run_gate(analysis)
    evidence = status.reasons + [v.message for v in gate.violations]
    return spec, status.status, evidence


@pytest.mark.parametrize("case", _cases("cheats"), ids=lambda p: p.name)
def test_cheat_is_never_proved(case: Path, tmp_path: Path) -> None:
    spec, status, evidence = _run(case, tmp_path)
    assert status != "proved", f"{case.name}: {spec['description']}"
    keyword = spec.get("reason_contains")
    if keyword:
        assert any(keyword in line.lower() for line in evidence), (keyword, evidence)


@pytest.mark.parametrize("case", _cases("clean"), ids=lambda p: p.name)
def test_clean_proof_is_proved(case: Path, tmp_path: Path) -> None:
    spec, status, evidence = _run(case, tmp_path)
    assert status == "proved", (spec["description"], evidence)


def test_corpus_is_large_enough() -> None:
    assert len({p.name.split("-", 1)[1] for p in _cases("cheats")}) >= 15
    assert len(_cases("clean")) >= 10
