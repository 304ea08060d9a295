"""The scanner against a corpus of small workspaces, and mutation tests of its design.

Each case under ``fixtures/scan_cases/<group>/<case>/`` is a tiny workspace plus
``case.json`` (see that folder's README). The harness pins the statements as a user would,
optionally swaps files afterwards (to change a statement behind the pin), then computes the
target's status from source and runs the gate.

Besides the verdict each case expects, three properties are checked on every clean case,
because a list of cheats only covers the cheats someone thought of:

* **mutation**: put ``sorry`` into the body of each workspace declaration in turn. If Lean's
  proof uses the declaration (``uses`` in ``case.json``, written by hand) or the scanner's
  over-approximation says the proof may reach it, the verdict must flip; a declaration
  outside the proof's import closure must never flip it.
* **insertion**: a ``sorry`` inserted at random token boundaries of the proof must flip it.
* **harmless commands**: inserting commands that change nothing a proof can use, in random
  number and places, never changes any case's verdict.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import LAKEFILE, MISSION_YAML
from missions.catalog import load_catalog
from missions.gate import run_gate
from missions.lean.lexer import IDENT, SYMBOL, lex
from missions.lean.vocabulary import COMMAND_KEYWORDS
from missions.lean.workspace import load_workspace
from missions.pins import apply_pin, pin_state
from missions.status import TargetStatus, analyze
from missions.yamlio import atomic_write_text, dump_document

#: Left out of the edit loop (pytest -m 'not slow'): the whole corpus of cheats and clean layouts.
pytestmark = pytest.mark.slow


CASES = Path(__file__).parent / "fixtures" / "scan_cases"


def _cases(group: str) -> list[Path]:
    return sorted(p.parent for p in (CASES / group).glob("*/case.json"))


ALL_CASES = _cases("clean") + _cases("cheats") + _cases("conservative")

#: The mission root and the library root a case gets when it has none of its own: what
#: ``missions new`` writes, so that ``lake build`` elaborates the case's statements and proofs.
ROOT_FILES = {
    "Formal/Case.lean": "import Formal.Case.Statements\nimport Formal.Case.Proofs\n",
    "Formal.lean": "import Formal.Case\n",
}


def _spec(case: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((case / "case.json").read_text(encoding="utf-8"))
    return data


def _materialize(case: Path, root: Path, spec: dict[str, Any]) -> None:
    root.mkdir(parents=True)
    for path in case.rglob("*"):
        rel = path.relative_to(case)
        if path.is_dir() or rel.name in ("case.json", "lakefile.lean") or rel.suffix == ".after":
            continue
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    for rel, text in ROOT_FILES.items():
        if not (root / rel).exists():
            (root / rel).write_text(text, encoding="utf-8")
    lakefile = case / "lakefile.lean"
    (root / "lakefile.lean").write_text(
        lakefile.read_text(encoding="utf-8") if lakefile.exists() else LAKEFILE, encoding="utf-8"
    )
    (root / "lean-toolchain").write_text("leanprover/lean4:v4.30.0\n", encoding="utf-8")
    (root / "missions").mkdir()
    text = MISSION_YAML.format(id="case", module="Formal.Case")
    text = text.replace("Formal.Case.Goal", spec["statement"]).replace(
        "Formal.Case.goal", spec["proof"]
    )
    (root / "missions" / "case.yaml").write_text(text, encoding="utf-8")


def _pin(root: Path) -> None:
    catalog = load_catalog(root, use_cache=False)
    workspace = load_workspace(root, use_cache=False)
    for mission_file in catalog.files:
        state = pin_state(workspace, mission_file.mission)
        if state.digest is None:
            return  # an unpinnable closure (broken import) is itself a case
        apply_pin(mission_file, state, commit=None, reason=None, today=dt.date(2026, 1, 1))
        atomic_write_text(mission_file.path, dump_document(mission_file.doc))


@dataclass
class Verdict:
    status: TargetStatus
    rules: set[str]
    evidence: list[str]
    closure: set[str]


def _verdict(root: Path) -> Verdict:
    analysis = analyze(load_catalog(root, use_cache=False), load_workspace(root, use_cache=False))
    status = analysis.missions[0].targets[0]
    gate = run_gate(analysis)
    closure: set[str] = set()
    if status.proof_decl is not None:
        closure = set(analysis.workspace.closure(status.proof_decl[0].name))
    return Verdict(
        status,
        {v.rule for v in gate.violations},
        status.reasons + [v.message for v in gate.violations],
        closure,
    )


def _prepare(case: Path, root: Path) -> dict[str, Any]:
    spec = _spec(case)
    _materialize(case, root, spec)
    _pin(root)
    for rel, replacement in spec.get("swap_after_pin", {}).items():
        shutil.copy(case / Path(rel).parent / replacement, root / rel)
    return spec


# ------------------------------------------------------------------- verdicts
@pytest.mark.parametrize("case", ALL_CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case_verdict(case: Path, tmp_path: Path) -> None:
    spec = _prepare(case, tmp_path / "ws")
    verdict = _verdict(tmp_path / "ws")
    expected = spec["expect"]
    assert expected == ("proved" if case.parent.name == "clean" else "stated"), spec
    if expected == "proved":
        assert verdict.status.status == "proved", (spec["description"], verdict.evidence)
    else:
        assert verdict.status.status in ("stated", "missing"), spec["description"]
        keyword = spec.get("reason_contains")
        if keyword:
            found = [line for line in verdict.evidence if keyword in line.lower()]
            assert found, (keyword, verdict.evidence)
    missing_rules = set(spec.get("rules", [])) - verdict.rules
    assert not missing_rules, (missing_rules, verdict.evidence)


def test_corpus_covers_real_layouts_and_every_class() -> None:
    clean, cheats = _cases("clean"), _cases("cheats")
    assert len(clean) >= 40 and len(cheats) >= 40
    # real files often have no module docstring right after their imports
    without_moddoc = [
        c for c in clean if "/-!" not in (c / "Formal/Case/Proofs.lean").read_text("utf-8")
    ]
    assert len(without_moddoc) >= 10
    classes = {_spec(c).get("class") for c in cheats} - {None}
    assert len(classes) >= 12, sorted(classes)


# ------------------------------------------------------------------ mutations
_DECL = re.compile(
    r"^(?P<indent>[ \t]*)(?:(?:@\[[^\]]*\]|private|protected|noncomputable|public|partial)"
    r"\s+)*(?:theorem|lemma|def|abbrev|instance|example)\b",
    re.MULTILINE,
)


_NEXT_COMMAND = re.compile(
    r"\n(?=(?:" + "|".join(sorted(COMMAND_KEYWORDS, key=len, reverse=True)) + r")\b|#|@\[|/-)"
)


def _mutable_bodies(text: str) -> list[tuple[int, int]]:
    """(start, end) character ranges of declaration bodies after their first ``:=``."""
    source = lex(text)
    tokens = source.tokens
    bodies: list[tuple[int, int]] = []
    starts = [m.start() for m in _DECL.finditer(text)]
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        depth = 0
        for kind, value, offset in tokens:
            if offset < start or offset >= end:
                continue
            if kind == SYMBOL and value in "([{⟨":
                depth += 1
            elif kind == SYMBOL and value in ")]}⟩":
                depth -= 1
            elif depth == 0 and kind == SYMBOL and value == ":=":
                body_end = end
                # stop at the next command written at column 0
                tail = _NEXT_COMMAND.search(text, offset, end)
                if tail:
                    body_end = tail.start()
                bodies.append((offset + 2, body_end))
                break
    return bodies


def _workspace_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "Formal").rglob("*.lean"))


def _decl_names(root: Path) -> dict[Path, list[tuple[int, int, str]]]:
    """Per file, the (start, end, name) of every declaration the scanner found."""
    workspace = load_workspace(root, use_cache=False)
    return {
        module.path: [(d.start, d.end, d.name) for d in module.scan.decls]
        for module in workspace.modules.values()
    }


@pytest.mark.parametrize("case", _cases("clean"), ids=lambda p: p.name)
def test_sorry_in_any_reachable_declaration_flips_the_verdict(case: Path, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    spec = _prepare(case, root)
    base = _verdict(root)
    assert base.status.status == "proved", base.evidence
    uses = set(spec.get("uses", []))
    assert uses, f"{case.name}: case.json must list what the proof uses (`uses`)"
    reached = set(base.status.reached)
    assert uses <= reached, f"the over-approximation misses {sorted(uses - reached)}"
    mutated_any = False
    names = _decl_names(root)
    for path in _workspace_files(root):
        original = path.read_text(encoding="utf-8")
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for start, end in _mutable_bodies(original):
            name = next((n for s, e, n in names.get(path, []) if s <= start <= e), None)
            path.write_text(original[:start] + " sorry\n" + original[end:], encoding="utf-8")
            try:
                after = _verdict(root)
            finally:
                path.write_text(original, encoding="utf-8")
            if module not in base.closure:
                # Lean never sees this module when it checks the proof
                assert after.status.status == "proved", f"{name} is outside the closure"
            elif name in uses or name in reached:
                mutated_any = True
                assert after.status.status != "proved", f"sorry in {name} went unnoticed"
    assert mutated_any


@pytest.mark.parametrize("case", _cases("clean"), ids=lambda p: p.name)
def test_sorry_inserted_anywhere_in_the_proof_flips_the_verdict(case: Path, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _prepare(case, root)
    base = _verdict(root)
    assert base.status.proof_decl is not None
    module, decl = base.status.proof_decl
    text = module.path.read_text(encoding="utf-8")
    boundaries = sorted(
        {offset for _, _, offset in lex(text).tokens if decl.start < offset <= decl.end}
    )
    rng = random.Random(case.name)
    for offset in rng.sample(boundaries, min(6, len(boundaries))):
        module.path.write_text(text[:offset] + " sorry " + text[offset:], encoding="utf-8")
        try:
            assert _verdict(root).status.status != "proved", text[offset - 20 : offset + 20]
        finally:
            module.path.write_text(text, encoding="utf-8")


# ---------------------------------------------------------- harmless commands
HARMLESS = [
    "#check Nat.succ",
    "set_option maxHeartbeats 400000",
    "set_option linter.unusedVariables false",
    "example : True := trivial",
    "/-! A note between commands. -/",
    "-- a line comment",
    "/- a block comment with sorry inside -/",
    "open Function",
    "universe uHarmless",
    "attribute [-simp] Nat.succ_ne_zero",
    "#print axioms Nat.add_comm",
    "section\nend",
]
_TOP_LEVEL = re.compile(
    r"(?<=\n\n)(?=(?:theorem|lemma|def|abbrev|namespace|end|open|section|@\[|/--|instance|example|"
    r"noncomputable|private|structure|class|inductive)\b)",
)


def _insert_harmless(text: str, choices: list[tuple[int, int]]) -> str:
    positions = [m.start() for m in _TOP_LEVEL.finditer(text)]
    if not positions:
        return text
    inserts: dict[int, list[str]] = {}
    for where, what in choices:
        inserts.setdefault(positions[where % len(positions)], []).append(
            HARMLESS[what % len(HARMLESS)]
        )
    out, last = [], 0
    for position in sorted(inserts):
        out.append(text[last:position])
        out.append("".join(f"{command}\n\n" for command in inserts[position]))
        last = position
    out.append(text[last:])
    return "".join(out)


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    choices=st.lists(
        st.tuples(st.integers(0, 50), st.integers(0, len(HARMLESS) - 1)), min_size=1, max_size=6
    )
)
def test_harmless_commands_never_change_a_verdict(
    case: Path, tmp_path_factory: pytest.TempPathFactory, choices: list[tuple[int, int]]
) -> None:
    root = tmp_path_factory.mktemp("harmless") / "ws"
    spec = _prepare(case, root)
    before = _verdict(root).status.status
    proofs = root / "Formal/Case/Proofs.lean"
    if not proofs.exists():
        return
    text = proofs.read_bytes().decode("utf-8")  # as written: a lone CR stays one
    changed = _insert_harmless(text, choices)
    if changed == text:
        return
    proofs.write_bytes(changed.encode("utf-8"))
    after = _verdict(root).status.status
    assert after == before, (spec["description"], changed)


def test_harness_detects_identifiers_it_inserts() -> None:
    """The insertion test is only meaningful if inserted text lexes as code."""
    text = "theorem goal : Goal := by\n  exact trivial\n"
    tokens = lex(text[:25] + " sorry " + text[25:]).tokens
    assert (IDENT, "sorry") in [(k, v) for k, v, _ in tokens]
