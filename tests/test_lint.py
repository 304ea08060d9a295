"""`missions lint`: every rule fires on its trap and stays silent on the near miss.

Each case is a tiny workspace (one mission, `Formal.T`) built in a temporary directory; no
test reads the bundled catalogue's findings.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import LAKEFILE, MISSION_YAML, init_repo, line_of, write_files
from missions.catalog import load_catalog
from missions.cli import app
from missions.errors import InputError
from missions.lean.workspace import load_workspace
from missions.lint import RULES, Finding, LintResult, lint_missions

HEADER = "import Mathlib\n\n/-! Test module. -/\n\nnamespace Formal.T\n\n"
FOOTER = "\nend Formal.T\n"
PROOFS = (
    "import Formal.T.Statements\n\n/-! Proofs. -/\n\nnamespace Formal.T\n\n"
    "theorem goal : Goal := sorry\n\nend Formal.T\n"
)

Builder = Callable[..., Path]


@pytest.fixture
def make_workspace(tmp_path: Path) -> Builder:
    """Like conftest's builder, but callable several times in one test (fires, near miss)."""
    count = 0

    def build(files: dict[str, str], missions: dict[str, str], *, use_git: bool = True) -> Path:
        nonlocal count
        count += 1
        root = tmp_path / f"ws{count}"
        root.mkdir()
        (root / "lakefile.lean").write_text(LAKEFILE, encoding="utf-8")
        (root / "lean-toolchain").write_text("leanprover/lean4:v4.30.0\n", encoding="utf-8")
        (root / "missions").mkdir()
        write_files(root, files)
        for mission_id, module in missions.items():
            (root / "missions" / f"{mission_id}.yaml").write_text(
                MISSION_YAML.format(id=mission_id, module=module), encoding="utf-8"
            )
        if use_git:
            init_repo(root, "initial")
        return root

    return build


def workspace(
    make_workspace: Builder, statements: str, defs: str | None = None, *, use_git: bool = False
) -> Path:
    files = {
        "Formal/T.lean": "import Formal.T.Proofs\n",
        "Formal/T/Proofs.lean": PROOFS,
    }
    if defs is None:
        files["Formal/T/Statements.lean"] = HEADER + statements + FOOTER
    else:
        files["Formal/T/Defs.lean"] = HEADER + defs + FOOTER
        files["Formal/T/Statements.lean"] = (
            "import Formal.T.Defs\n\n/-! Statements. -/\n\nnamespace Formal.T\n\n"
            + statements
            + FOOTER
        )
    return make_workspace(files, {"t": "Formal.T"}, use_git=use_git)


def run_lint(root: Path) -> LintResult:
    catalog = load_catalog(root)
    return lint_missions(root, load_workspace(root), [m.mission for m in catalog.files])


def rules_of(result: LintResult, *, accepted: bool | None = False) -> list[str]:
    return [
        f.rule
        for f in result.findings
        if f.level == "error" and (accepted is None or f.accepted == accepted)
    ]


def lint(make_workspace: Builder, statements: str, defs: str | None = None) -> LintResult:
    return run_lint(workspace(make_workspace, statements, defs))


# ------------------------------------------------------------------- rule fixtures
# (rule, statement that must fire, near miss that must not)
CASES: list[tuple[str, str, str]] = [
    (
        "exists-implies",
        "def Goal : Prop := ∃ n : ℕ, 0 < n → n = 1\n",
        "def Goal : Prop := (∃ n : ℕ, 0 < n) → ∃ f : ℕ → ℕ, f 0 = 1 ∧ ∀ m, m < 2 → f m = 1\n",
    ),
    (
        "missing-integrability",
        "def Goal : Prop :=\n  ∀ (f : ℝ → ℝ), ∫ x in (0 : ℝ)..1, f x ≤ 1\n",
        "def Goal : Prop :=\n"
        "  ∀ (f : ℝ → ℝ), IntervalIntegrable f MeasureTheory.volume 0 1 →\n"
        "    ∫ x in (0 : ℝ)..1, f x ≤ 1 ∧ ∫⁻ x, ENNReal.ofReal (f x) ≤ 1\n",
    ),
    (
        "missing-summability",
        "def Goal : Prop := ∀ a : ℕ → ℝ, ∑' n, a n ≤ 1\n",
        "def Goal : Prop := ∀ a : ℕ → ℝ, Summable a → ∑' n, a n ≤ 1\n",
    ),
    (
        "missing-differentiability",
        "def Goal : Prop := ∀ f : ℝ → ℝ, deriv f 0 = 0\n",
        "def Goal : Prop := ∀ f : ℝ → ℝ, DifferentiableAt ℝ f 0 → deriv f 0 = 0\n",
    ),
    (
        "nat-sub",
        "def Goal : Prop := ∀ n : ℕ, n - 1 < n\n",
        "def Goal : Prop := ∀ n : ℕ, (n : ℝ) - 1 < n ∧ ∀ x : ℝ, x - n ≤ x\n",
    ),
    (
        "nat-div",
        "def Goal : Prop := ∀ n : ℕ, n / 2 ≤ n\n",
        "def Goal : Prop := ∀ (n : ℕ) (x : ℝ), 0 < x → x * n / 2 ≤ n * x\n",
    ),
    (
        "int-div",
        "def Goal : Prop := ∀ z : ℤ, z / 2 ≤ z\n",
        "def Goal : Prop := ∀ z : ℤ, z - 2 ≤ z ∧ (z : ℝ) / 2 ≤ z\n",
    ),
    (
        "junk-div",
        "def Goal : Prop := ∀ x y : ℝ, x / y ≤ x\n",
        "def Goal : Prop := ∀ x y : ℝ, 0 < y → x / y ≤ x ∧ x / (2 * y) ≤ x ∧ y⁻¹ ≤ 1\n",
    ),
    (
        "junk-sqrt",
        "def Goal : Prop := ∀ x : ℝ, Real.sqrt x ≤ x\n",
        "def Goal : Prop := ∀ (x : ℝ) (n : ℕ), 0 ≤ x → Real.sqrt x ≤ x ∧ Real.sqrt (n : ℝ) ≤ n\n",
    ),
    (
        "junk-log",
        "def Goal : Prop := ∀ x : ℝ, Real.log x ≤ x\n",
        "def Goal : Prop := ∀ x : ℝ, 1 ≤ x → Real.log x ≤ x ∧ Real.log (Real.exp x) = x\n",
    ),
    (
        "unused-hypothesis",
        "def Goal : Prop := ∀ (x y : ℝ) (z : ℝ), 0 ≤ y → x ≤ x + 1\n",
        "def Goal : Prop := ∀ (x y : ℝ), 0 ≤ y → x ≤ x + y\n",
    ),
]


@pytest.mark.parametrize(("rule", "fires", "near_miss"), CASES, ids=[c[0] for c in CASES])
def test_rule_fires_on_trap_and_not_on_near_miss(
    make_workspace: Builder, rule: str, fires: str, near_miss: str
) -> None:
    hit = lint(make_workspace, fires)
    assert rule in rules_of(hit), [f.text() for f in hit.findings]
    finding = next(f for f in hit.findings if f.rule == rule)
    assert finding.path == "Formal/T/Statements.lean"
    assert finding.missions == ("t",)
    assert finding.statements == ("Formal.T.Goal",)
    miss = lint(make_workspace, near_miss)
    assert rule not in rules_of(miss, accepted=None), [f.text() for f in miss.findings]


def test_every_rule_has_a_fixture() -> None:
    covered = {c[0] for c in CASES} | {"type-universe", "lint-allow", "unused-allow"}
    assert covered == set(RULES)


def test_type_universe_only_for_declaration_parameters(make_workspace: Builder) -> None:
    defs = (
        "def card' (Ω : Type) [Fintype Ω] : ℕ := Fintype.card Ω\n\n"
        "def card'' (Ω : Type*) [Fintype Ω] : ℕ := Fintype.card Ω\n"
    )
    result = lint(
        make_workspace, "def Goal : Prop := ∀ (M : Type) [Fintype M], 0 ≤ card' M\n", defs
    )
    hits = [f for f in result.findings if f.rule == "type-universe"]
    assert [(f.path, f.line) for f in hits] == [("Formal/T/Defs.lean", 7)]


def test_unused_hypothesis_names_a_disconnected_premise(make_workspace: Builder) -> None:
    result = lint(make_workspace, "def Goal : Prop := ∀ (x y : ℝ), 0 ≤ y → x ≤ x + 1\n")
    messages = [f.message for f in result.findings if f.rule == "unused-hypothesis"]
    assert any("`0 ≤ y`" in m for m in messages), messages
    assert not any("`x`" in m for m in messages)


def test_unused_hypothesis_follows_binder_types(make_workspace: Builder) -> None:
    # `h` only appears in a premise, but its type ties it to the conclusion's `s`
    text = "def Goal : Prop := ∀ (s : Finset ℕ) (h : s.Nonempty), 0 < s.card → s ≠ ∅\n"
    result = lint(make_workspace, text)
    assert [f.message for f in result.findings if f.rule == "unused-hypothesis"] == [
        "`h` is bound but never used"
    ]


# ------------------------------------------------------------- scope and reachability
STRUCT_DEFS = (
    "structure IsLaw (μ : MeasureTheory.Measure ℝ) : Prop where\n"
    "  /-- finite second moment -/\n"
    "  memLp : MeasureTheory.MemLp id 2 μ\n\n"
    "def mean (μ : MeasureTheory.Measure ℝ) : ℝ := ∫ x, x ∂μ\n"
)


def test_guard_in_a_hypothesis_bundle_structure(make_workspace: Builder) -> None:
    guarded = "def Goal : Prop := ∀ μ : MeasureTheory.Measure ℝ, IsLaw μ → mean μ ≤ mean μ\n"
    assert "missing-integrability" not in rules_of(lint(make_workspace, guarded, STRUCT_DEFS))


def test_unguarded_statement_reports_the_definition_it_reaches(make_workspace: Builder) -> None:
    bare = "def Goal : Prop := ∀ μ : MeasureTheory.Measure ℝ, mean μ ≤ mean μ\n"
    result = lint(make_workspace, bare, STRUCT_DEFS)
    finding = next(f for f in result.findings if f.rule == "missing-integrability")
    assert finding.path == "Formal/T/Defs.lean"
    assert "Formal.T.mean" in finding.message and "Formal.T.Goal" in finding.message
    assert finding.statements == ("Formal.T.Goal",)


def test_guard_in_a_prop_definition_bundle(make_workspace: Builder) -> None:
    defs = (
        "def Smooth (f : ℝ → ℝ) : Prop := Differentiable ℝ f ∧ Continuous (deriv f)\n\n"
        "def slope (f : ℝ → ℝ) (x : ℝ) : ℝ := deriv f x\n"
    )
    statement = "def Goal : Prop := ∀ f : ℝ → ℝ, Smooth f → slope f 0 = slope f 0\n"
    assert "missing-differentiability" not in rules_of(lint(make_workspace, statement, defs))


def test_positivity_from_a_structure_field(make_workspace: Builder) -> None:
    defs = "structure Problem where\n  β : ℝ\n  β_pos : 0 < β\n"
    statement = "def Goal : Prop := ∀ pb : Problem, 1 / (2 * pb.β) ≤ 1 / pb.β\n"
    assert "junk-div" not in rules_of(lint(make_workspace, statement, defs))


def test_definition_reached_by_no_statement_is_linted_on_its_own(
    make_workspace: Builder,
) -> None:
    defs = "def unused (μ : MeasureTheory.Measure ℝ) : ℝ := ∫ x, x ∂μ\n"
    result = lint(make_workspace, "def Goal : Prop := True\n", defs)
    finding = next(f for f in result.findings if f.rule == "missing-integrability")
    assert finding.statements == ()
    assert "no integrability hypothesis" in finding.message


def test_proof_bodies_are_not_linted(make_workspace: Builder) -> None:
    defs = (
        "theorem helper (n : ℕ) : n ≤ n + 1 := by\n  have : n - 1 ≤ n := Nat.sub_le n 1\n  omega\n"
    )
    assert "nat-sub" not in rules_of(lint(make_workspace, "def Goal : Prop := True\n", defs))


def test_comments_and_docstrings_are_not_code(make_workspace: Builder) -> None:
    statement = (
        "/-- `∃ n, 0 < n → n = 1` and `n - 1` in a docstring. -/\n"
        "def Goal : Prop := ∀ n : ℕ, n ≤ n + 1 -- n - 1 in a comment\n"
    )
    assert rules_of(lint(make_workspace, statement), accepted=None) == []


# ------------------------------------------------------------------- allow comments
def test_allow_on_the_same_line_accepts_with_its_reason(make_workspace: Builder) -> None:
    statement = (
        "def Goal : Prop := ∀ n : ℕ, n - 1 < n + 1 -- lint: allow nat-sub because 0 - 1 = 0 < 1\n"
    )
    result = lint(make_workspace, statement)
    finding = next(f for f in result.findings if f.rule == "nat-sub")
    assert finding.accepted and finding.reason == "0 - 1 = 0 < 1"
    assert result.failing == []


def test_allow_on_the_line_above(make_workspace: Builder) -> None:
    statement = (
        "def Goal : Prop :=\n"
        "  -- lint: allow nat-sub, junk-div because truncation is intended here\n"
        "  ∀ n : ℕ, n - 1 < n + 1\n"
    )
    result = lint(make_workspace, statement)
    assert [f.rule for f in result.findings] == ["nat-sub"]
    assert result.findings[0].accepted


def test_allow_two_lines_above_does_not_reach(make_workspace: Builder) -> None:
    statement = (
        "-- lint: allow nat-sub because too far away\n"
        "def Goal : Prop :=\n"
        "  ∀ n : ℕ, n - 1 < n + 1\n"
    )
    result = lint(make_workspace, statement)
    assert rules_of(result) == ["nat-sub"]
    assert [f.rule for f in result.findings if f.level == "warning"] == ["unused-allow"]


@pytest.mark.parametrize(
    ("comment", "problem"),
    [
        ("-- lint: allow nat-sub", "has no reason"),
        ("-- lint: allow nat-sub because   ", "has no reason"),
        ("-- lint: allow because it is fine", "names no rule"),
        ("-- lint: allow nat-subtraction because typo", "unknown rule"),
        ("-- lint: allow lint-allow because no", "unknown rule"),
    ],
)
def test_malformed_allow_is_a_finding_and_accepts_nothing(
    make_workspace: Builder, comment: str, problem: str
) -> None:
    statement = f"def Goal : Prop := ∀ n : ℕ, n - 1 < n + 1 {comment}\n"
    result = lint(make_workspace, statement)
    assert sorted(rules_of(result)) == ["lint-allow", "nat-sub"]
    malformed = next(f for f in result.findings if f.rule == "lint-allow")
    assert problem in malformed.message


def test_unused_allow_is_a_warning_that_does_not_fail(make_workspace: Builder) -> None:
    statement = "def Goal : Prop := ∀ n : ℕ, n ≤ n + 1 -- lint: allow nat-sub because stale\n"
    result = lint(make_workspace, statement)
    assert result.failing == []
    warning = next(f for f in result.findings if f.rule == "unused-allow")
    assert warning.level == "warning" and not warning.accepted


def test_allow_text_inside_a_string_is_not_an_allow(make_workspace: Builder) -> None:
    statement = (
        'def note : String := "-- lint: allow nat-sub because fake"\n\n'
        "def Goal : Prop := ∀ n : ℕ, n - 1 < n + 1\n"
    )
    result = lint(make_workspace, statement)
    assert rules_of(result) == ["nat-sub"]
    assert not any(f.rule == "unused-allow" for f in result.findings)


# --------------------------------------------------------------------------- the CLI
def test_cli_lint_output_json_and_exit_codes(make_workspace: Builder) -> None:
    root = workspace(make_workspace, "def Goal : Prop := ∀ n : ℕ, n - 1 < n + 1\n")
    runner = CliRunner()
    done = runner.invoke(app, ["lint", "--root", str(root)])
    assert done.exit_code == 1
    assert "Formal/T/Statements.lean:7: nat-sub: `n - 1` on ℕ truncates at 0" in done.stdout
    done = runner.invoke(app, ["lint", "--root", str(root), "--json"])
    assert done.exit_code == 1
    data = json.loads(done.stdout)
    assert data["ok"] is False
    (finding,) = data["findings"]
    assert {k: finding[k] for k in ("path", "line", "rule", "accepted", "reason")} == {
        "path": "Formal/T/Statements.lean",
        "line": 7,
        "rule": "nat-sub",
        "accepted": False,
        "reason": None,
    }
    done = runner.invoke(app, ["lint", "nope", "--root", str(root)])
    assert done.exit_code == 2
    assert "nope" in done.stderr


def test_cli_lint_shows_the_reason_and_passes_when_accepted(make_workspace: Builder) -> None:
    statement = (
        "def Goal : Prop := ∀ n : ℕ, n - 1 < n + 1 -- lint: allow nat-sub because 0 - 1 = 0\n"
    )
    root = workspace(make_workspace, statement)
    done = CliRunner().invoke(app, ["lint", "--root", str(root)])
    assert done.exit_code == 0, done.stdout
    # what needs no attention is counted, not listed; the counts are the last line
    assert done.stdout.splitlines() == [
        "lint: 0 unaccepted, 1 accepted (--accepted lists them), 0 warnings in 1 mission"
    ]
    done = CliRunner().invoke(app, ["lint", "--accepted", "--root", str(root)])
    assert done.exit_code == 0, done.stdout
    assert "(accepted: 0 - 1 = 0)" in done.stdout.splitlines()[0]
    assert done.stdout.splitlines()[-1].startswith("lint: 0 unaccepted, 1 accepted,")


def test_check_fails_with_rule_lint_until_the_finding_is_accepted(
    make_workspace: Builder,
) -> None:
    root = workspace(make_workspace, "def Goal : Prop := ∀ n : ℕ, n - 1 < n + 1\n", use_git=True)
    runner = CliRunner()
    runner.invoke(app, ["pin", "--root", str(root)])
    runner.invoke(app, ["sync", "--root", str(root)])
    done = runner.invoke(app, ["check", "--root", str(root), "--json"])
    data = json.loads(done.stdout)
    lint_violations = [v for v in data["violations"] if v["rule"] == "lint"]
    assert done.exit_code == 1 and len(lint_violations) == 1
    assert lint_violations[0]["file"] == "Formal/T/Statements.lean"
    assert lint_violations[0]["mission"] == "t"
    assert lint_violations[0]["message"].startswith("nat-sub: ")
    statements = root / "Formal/T/Statements.lean"
    assert lint_violations[0]["line"] == line_of(statements, "n - 1 < n + 1")
    text = statements.read_text(encoding="utf-8")
    statements.write_text(
        text.replace("n - 1 < n + 1", "n - 1 < n + 1 -- lint: allow nat-sub because 0 - 1 = 0"),
        encoding="utf-8",
    )
    done = runner.invoke(app, ["check", "--root", str(root), "--json"])
    data = json.loads(done.stdout)
    assert not [v for v in data["violations"] if v["rule"] == "lint"], data


def test_status_json_and_show_carry_the_lint_state(make_workspace: Builder) -> None:
    statement = (
        "def Goal : Prop :=\n"
        "  ∀ n : ℕ, n - 1 < n + 1 ∧ n / 2 ≤ n -- lint: allow nat-div because floor intended\n"
    )
    root = workspace(make_workspace, statement)
    runner = CliRunner()
    data = json.loads(runner.invoke(app, ["status", "--root", str(root), "--json"]).stdout)
    mission = data["missions"][0]
    assert mission["lint"] == {"unaccepted": 1, "accepted": 1, "warnings": 0}
    assert mission["targets"][0]["lint"] == {"unaccepted": 1, "accepted": 1, "warnings": 0}
    shown = runner.invoke(app, ["show", "t", "--root", str(root)])
    assert "nat-sub: `n - 1` on ℕ truncates at 0" in shown.stdout
    assert "floor intended" in shown.stdout
    shown_json = json.loads(runner.invoke(app, ["show", "t", "--root", str(root), "--json"]).stdout)
    assert {f["rule"] for f in shown_json["lint_findings"]} == {"nat-sub", "nat-div"}


def test_a_reason_may_continue_on_the_comment_lines_below(make_workspace: Builder) -> None:
    statement = (
        "def Goal : Prop :=\n"
        "  -- lint: allow nat-sub because truncation is intended: for n = 0 both\n"
        "  --   sides are about 0\n"
        "  ∀ n : ℕ, n - 1 < n + 1\n"
    )
    finding = next(f for f in lint(make_workspace, statement).findings if f.rule == "nat-sub")
    assert finding.accepted
    assert finding.reason == "truncation is intended: for n = 0 both sides are about 0"


def test_exists_fun_form_and_nested_binders(make_workspace: Builder) -> None:
    fires = "def Goal : Prop := Exists fun n : ℕ => 0 < n → n = 1\n"
    assert "exists-implies" in rules_of(lint(make_workspace, fires))
    nested = "def Goal : Prop := ∃ n : ℕ, ∀ m : ℕ, m < n → m = 0\n"
    assert "exists-implies" not in rules_of(lint(make_workspace, nested))


COMMON = {
    "Formal/Common/Mean.lean": (
        "import Mathlib\n\n/-! Shared. -/\n\nnamespace Formal.Common\n\n"
        "def mean (μ : MeasureTheory.Measure ℝ) : ℝ := ∫ x, x ∂μ\n\n"
        "def pred (n : ℕ) : ℕ := n - 1\n\nend Formal.Common\n"
    )
}


def two_missions(make_workspace: Builder, statement_b: str) -> Path:
    """Mission `a` uses the shared `mean` under an integrability premise; `b` as given."""
    files = dict(COMMON)
    for name, body in (
        (
            "A",
            "def Goal : Prop := ∀ μ : MeasureTheory.Measure ℝ, MeasureTheory.Integrable id μ →\n"
            "  Formal.Common.mean μ = Formal.Common.mean μ\n",
        ),
        ("B", statement_b),
    ):
        files[f"Formal/{name}.lean"] = f"import Formal.{name}.Proofs\n"
        files[f"Formal/{name}/Statements.lean"] = (
            f"import Formal.Common.Mean\n\n/-! S. -/\n\nnamespace Formal.{name}\n\n{body}\n"
            f"end Formal.{name}\n"
        )
        files[f"Formal/{name}/Proofs.lean"] = PROOFS.replace("Formal.T", f"Formal.{name}")
    return make_workspace(files, {"a": "Formal.A", "b": "Formal.B"}, use_git=False)


def test_shared_definition_guarded_by_one_mission_and_unused_by_another(
    make_workspace: Builder,
) -> None:
    root = two_missions(make_workspace, "def Goal : Prop := True\n")
    result = run_lint(root)
    assert "missing-integrability" not in rules_of(result)
    # a local rule in the shared file concerns every mission whose closure holds it
    local = next(f for f in result.findings if f.rule == "nat-sub")
    assert local.path == "Formal/Common/Mean.lean" and local.missions == ("a", "b")


def test_shared_definition_reached_unguarded_names_only_that_mission(
    make_workspace: Builder,
) -> None:
    bare = "def Goal : Prop := ∀ μ : MeasureTheory.Measure ℝ, 0 ≤ Formal.Common.mean μ\n"
    result = run_lint(two_missions(make_workspace, bare))
    finding = next(f for f in result.findings if f.rule == "missing-integrability")
    assert finding.missions == ("b",) and finding.statements == ("Formal.B.Goal",)
    assert result.counts(result.for_mission("a"))["unaccepted"] == 1  # the shared nat-sub only


def test_results_are_cached_and_an_edit_invalidates_them(make_workspace: Builder) -> None:
    root = workspace(make_workspace, "def Goal : Prop := ∀ n : ℕ, n - 1 < n + 1\n")
    first = run_lint(root)
    assert run_lint(root).findings == first.findings  # served from the cache
    path = root / "Formal/T/Statements.lean"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "n - 1 <", "n - 1 < 2 * n -- lint: allow nat-sub because ok\n  ∧ n <"
        ),
        encoding="utf-8",
    )
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    again = run_lint(root)
    assert [f.accepted for f in again.findings if f.rule == "nat-sub"] == [True]


def test_a_damaged_stored_result_is_linted_again(make_workspace: Builder) -> None:
    """Every stored entry cut short (a crash, a bad disk): the next run lints afresh to the
    same findings and stores whole entries again."""
    from missions import lint as lint_module
    from missions.cache import default_cache_dir, read_records, record_entry

    root = workspace(make_workspace, "def Goal : Prop := ∀ n : ℕ, n - 1 < n + 1\n")
    first = run_lint(root)
    store = default_cache_dir(root) / lint_module.CACHE_FILE
    head, *lines = store.read_text(encoding="utf-8").splitlines()
    assert lines
    store.write_text("\n".join([head, *(line[:-2] for line in lines)]) + "\n", encoding="utf-8")
    version = lint_module._cache_version()
    assert all(record_entry(line) is None for _, line in read_records(store, version).values())
    assert run_lint(root).findings == first.findings
    stored = read_records(store, version)
    assert len(stored) == len(lines)
    assert all(isinstance(record_entry(line), dict) for _, line in stored.values())


def test_markdown_report_and_dashboard_show_findings_and_reasons(
    make_workspace: Builder, tmp_path: Path
) -> None:
    statement = (
        "def Goal : Prop :=\n"
        "  ∀ n : ℕ, n - 1 < n + 1 ∧ n / 2 ≤ n -- lint: allow nat-div because floor intended\n"
    )
    root = workspace(make_workspace, statement)
    runner = CliRunner()
    markdown = runner.invoke(app, ["report", "--root", str(root), "--format", "md"]).stdout
    assert "## Lint" in markdown
    assert "| `nat-div` | `Formal/T/Statements.lean:8` |" in markdown
    assert "floor intended" in markdown and "**not accepted**" in markdown
    site = tmp_path / "site"
    done = runner.invoke(app, ["report", "--root", str(root), "--format", "html", "-o", str(site)])
    assert done.exit_code == 0, done.output
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "<dt>Lint</dt><dd>1 unaccepted, 1 accepted</dd>" in index
    page = next(p for p in site.glob("*.html") if p.name != "index.html").read_text(
        encoding="utf-8"
    )
    assert 'id="lint"' in page and "floor intended" in page
    assert "lint: 1 unaccepted, 1 accepted" in page


@pytest.mark.parametrize(
    ("lean", "inert"),
    [
        ("theorem t : True := trivial", True),
        ("theorem t : True := by exact (fun x : ℝ => x / 2) 1 |> fun _ => trivial", True),
        ("theorem t (n : ℕ) : n - 1 ≤ n := sorry", False),
        ("def D : Prop := True", False),
        ("def f (x : ℝ) : ℝ := ∫ t in (0 : ℝ)..x, t", False),
        ("def g (X : Type) : X → X := id", False),
        ("def h : ℕ := 2", True),
        ("theorem e : ∃ n : ℕ, n = n := ⟨0, rfl⟩", False),
        ("theorem t : True := trivial -- lint: allow junk-div because positive", False),
    ],
)
def test_inert_declarations(lean: str, inert: bool) -> None:
    """What the incremental status may skip: a declaration no rule can start in (proof
    bodies are never linted), in a file with no allow comment."""
    from missions.lean.scan import scan_source
    from missions.lint import lint_inert

    text = f"import Mathlib\n\n{lean}\n"
    assert lint_inert("F.lean", text, scan_source(text).decls) is inert


def test_a_missions_findings_do_not_depend_on_which_missions_are_linted_with_it(
    tmp_path: Path,
) -> None:
    """A declaration in a shared file that another mission's statement reaches is linted
    there, with that statement's hypotheses in scope: linting one mission alone must drop
    and name it exactly as the whole catalogue's lint does."""
    from conftest import copy_repo_workspace

    root = copy_repo_workspace(tmp_path)
    catalog = load_catalog(root)
    workspace = load_workspace(root)
    everyone = [m.mission for m in catalog.files]
    whole = lint_missions(root, workspace, everyone, use_cache=False)

    def seen(findings: list[Finding]) -> list[tuple[str, int, str, str, bool]]:
        return sorted((f.path, f.line, f.rule, f.message, f.accepted) for f in findings)

    for mission in everyone:
        alone = lint_missions(root, workspace, [mission], catalog=everyone, use_cache=False)
        assert seen(alone.for_mission(mission.id)) == seen(whole.for_mission(mission.id))
        assert alone.counts() == whole.counts(whole.for_mission(mission.id)), mission.id


def test_a_file_changed_after_its_scan_is_bad_input_never_an_empty_lint(
    make_workspace: Builder,
) -> None:
    """Linting other text than the scan read (or none) could pass a gate on a state nothing
    checked whole: the run stops and says to run it again."""
    root = workspace(make_workspace, "def Goal : Prop := ∀ n : ℕ, n - 1 < n\n")
    catalog = load_catalog(root)
    scanned = load_workspace(root)
    statements = root / "Formal/T/Statements.lean"
    found = lint_missions(root, scanned, catalog.missions, use_cache=False)
    assert [f.rule for f in found.failing] == ["nat-sub"]
    statements.write_text(statements.read_text("utf-8").replace("n - 1", "n + 1"), "utf-8")
    with pytest.raises(InputError) as raised:
        lint_missions(root, scanned, catalog.missions, use_cache=False)
    [problem] = raised.value.problems
    assert problem.path == str(statements) and "run the command again" in problem.message
    assert (
        lint_missions(root, load_workspace(root), catalog.missions, use_cache=False).failing == []
    )


def shared_catalogue(make_workspace: Builder) -> Path:
    """Six missions over one shared file: a local finding accepted by an allow comment, a
    second allow that accepts nothing, a definition that some statements reach guarded,
    some unguarded and some not at all (so parts disagree on what reaches it)."""
    files = {
        "Formal/Common/Mean.lean": (
            "import Mathlib\n\n/-! Shared. -/\n\nnamespace Formal.Common\n\n"
            "def mean (μ : MeasureTheory.Measure ℝ) : ℝ := ∫ x, x ∂μ\n\n"
            "def pred (n : ℕ) : ℕ := n - 1 -- lint: allow nat-sub because truncation is meant\n\n"
            "-- lint: allow junk-div because nothing here divides\n"
            "def succ (n : ℕ) : ℕ := n + 1\n\nend Formal.Common\n"
        )
    }
    guarded = (
        "def Goal : Prop := ∀ μ : MeasureTheory.Measure ℝ, MeasureTheory.Integrable id μ →\n"
        "  Formal.Common.mean μ = Formal.Common.mean μ\n"
    )
    bare = "def Goal : Prop := ∀ μ : MeasureTheory.Measure ℝ, 0 ≤ Formal.Common.mean μ\n"
    own = "def Goal : Prop := ∀ n : ℕ, n - 2 < n + Formal.Common.pred n\n"
    bodies = {"A": guarded, "B": bare, "C": own, "D": guarded, "E": bare, "F": own}
    for name, body in bodies.items():
        files[f"Formal/{name}.lean"] = f"import Formal.{name}.Proofs\n"
        files[f"Formal/{name}/Statements.lean"] = (
            f"import Formal.Common.Mean\n\n/-! S. -/\n\nnamespace Formal.{name}\n\n{body}\n"
            f"end Formal.{name}\n"
        )
        files[f"Formal/{name}/Proofs.lean"] = PROOFS.replace("Formal.T", f"Formal.{name}")
    missions = {name.lower(): f"Formal.{name}" for name in bodies}
    return make_workspace(files, missions, use_git=False)


@pytest.mark.parametrize("cores", [1, 2, 3, 4])
@pytest.mark.parametrize("chosen", ["all", "some"])
def test_linting_in_parts_side_by_side_finds_what_one_process_finds(
    make_workspace: Builder, monkeypatch: pytest.MonkeyPatch, cores: int, chosen: str
) -> None:
    """The parts share a file, its allow comments and the declarations several parts reach:
    the merged result (findings, acceptances, unused allows, the cache it leaves) is the
    sequential one, whichever way the missions are split."""
    from missions import lint as lint_module

    root = shared_catalogue(make_workspace)
    catalog = load_catalog(root)
    workspace = load_workspace(root)
    everyone = catalog.missions
    missions = everyone if chosen == "all" else [m for m in everyone if m.id in "abcef"]
    expected = lint_missions(root, workspace, missions, catalog=everyone, use_cache=False)
    assert {f.rule for f in expected.findings} >= {"nat-sub", "unused-allow"}
    assert any(f.accepted for f in expected.findings)
    monkeypatch.setattr(lint_module, "PARALLEL_MISSIONS", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    found = lint_module.lint_in_background(root, workspace, missions, everyone)()
    assert found.findings == expected.findings
    assert found.allow_files == expected.allow_files
    # the cache the parts left answers the next run alone, and the same
    monkeypatch.setattr(lint_module._Run, "file", _no_reading)
    cached = lint_missions(root, workspace, missions, catalog=everyone)
    assert cached.findings == expected.findings


def _no_reading(*args: object) -> object:
    raise AssertionError("a file was linted again: the parts' cache entries were not all stored")


def test_a_part_whose_child_fails_is_linted_here(
    make_workspace: Builder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from missions import lint as lint_module

    root = shared_catalogue(make_workspace)
    catalog = load_catalog(root)
    workspace = load_workspace(root)
    expected = lint_missions(root, workspace, catalog.missions, use_cache=False)
    parent = os.getpid()
    real = lint_module._lint_part
    linted_here: list[int] = []

    def failing_in_children(*args: Any) -> Any:
        if os.getpid() != parent:
            os._exit(1)
        linted_here.append(len(args[2]))
        return real(*args)

    monkeypatch.setattr(lint_module, "PARALLEL_MISSIONS", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(lint_module, "_lint_part", failing_in_children)
    found = lint_module.lint_in_background(root, workspace, catalog.missions, catalog.missions)()
    assert found.findings == expected.findings
    assert linted_here == [3, 3]  # both parts, after their children failed
    monkeypatch.delattr(os, "fork")  # no fork at all: every part here
    linted_here.clear()
    again = lint_module.lint_in_background(root, workspace, catalog.missions, catalog.missions)()
    assert again.findings == expected.findings and linted_here == [3, 3]


def test_a_part_that_cannot_lint_a_file_keeps_every_part_from_the_cache(
    make_workspace: Builder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the scan could not read as Lean is linted as empty; no result of that run may
    be stored, whichever part met the file."""
    from missions import lint as lint_module
    from missions.cache import default_cache_dir

    root = shared_catalogue(make_workspace)
    catalog = load_catalog(root)
    monkeypatch.setattr(lint_module, "PARALLEL_MISSIONS", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    store = default_cache_dir(root) / lint_module.CACHE_FILE
    lint_module.lint_in_background(root, load_workspace(root), catalog.missions, catalog.missions)()
    assert store.is_file()
    store.unlink()
    (root / "Formal/F/Statements.lean").write_bytes(b"import Formal.Common.Mean\n\xff\n")
    workspace = load_workspace(root)
    lint_module.lint_in_background(root, workspace, catalog.missions, catalog.missions)()
    assert not store.exists()
