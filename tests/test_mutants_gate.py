"""Gate behaviour that mutation testing found unguarded (``benchmarks/mutation.py``).

Each test pins down a decision of :mod:`missions.gate` that a one-point change of the code
(an operator, a condition, a message) got past the rest of the suite: what the frontier
counts as proved, what a drift message says when the YAML records no evidence, and which
violations name which file, line and fix.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import gate_json, git, invoke, line_of
from missions import gitinfo
from missions.catalog import CheckedBy, load_catalog
from missions.gate import kernel_record_problem, standing_status
from missions.lean.workspace import load_workspace
from missions.pins import proof_closure_digest
from missions.status import Analysis, TargetStatus, analyze
from missions.toolchain import PINNED_MATHLIB
from missions.witness import source_digest
from mutant_support import case_files, outcome
from test_ratchet import PROOFS, YAML_PATH, break_proof, commit, proved, rules, run, set_status

__all__ = ["proved"]  # the fixture, imported for the tests below

Build = Callable[..., Path]


def frontier_targets(root: Path) -> list[str]:
    code, stdout, stderr = run(root, "next", "--json")
    assert code == 0, stderr
    return [item["target"] for item in json.loads(stdout)["frontier"]]


def record_kernel_verdict(root: Path) -> None:
    """The kernel checked the goal at HEAD and said proved, while the source scan says stated."""
    head = git(root, "rev-parse", "HEAD")
    path = root / YAML_PATH
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "evidence: source", f"evidence: kernel\n    checked: {{lean: 4.30.0, commit: {head}}}"
        ),
        encoding="utf-8",
    )
    commit(root, "record a kernel verdict")


def test_the_frontier_counts_a_standing_kernel_verdict_as_proved(proved: Path) -> None:
    break_proof(proved)  # the source scan says stated from here on
    commit(proved, "sorry, but the kernel checked the old proof")
    record_kernel_verdict(proved)
    assert frontier_targets(proved) == []  # the kernel's proved stands: nothing left to do
    proofs = proved / PROOFS
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    assert frontier_targets(proved) == ["goal"]  # the checked closure moved: back to work


def test_the_frontier_ignores_a_recorded_proved_that_the_sources_contradict(
    proved: Path,
) -> None:
    break_proof(proved)  # YAML still says proved (source evidence); the sources say stated
    assert frontier_targets(proved) == ["goal"]


def test_drift_without_recorded_evidence_names_the_status_alone(proved: Path) -> None:
    path = proved / YAML_PATH
    path.write_text(
        path.read_text(encoding="utf-8").replace("    evidence: source\n", ""), encoding="utf-8"
    )
    code, stdout, _ = run(proved, "check", "--json")
    assert code == 1
    drift = [v for v in json.loads(stdout)["violations"] if v["rule"] == "status-drift"]
    assert [v["message"] for v in drift] == [
        "YAML says proved, computed proved (source evidence); run `missions sync`"
    ]
    assert ("status-drift", "goal") in rules(proved)


def test_an_unresolvable_statement_closure_is_a_pin_violation_at_the_lean_entry(
    make_workspace: Build,
) -> None:
    files = case_files()
    statements = "Formal/Case/Statements.lean"
    broken = files[statements].replace(
        "import Formal.Case.Defs\n", "import Formal.Case.Defs\nimport Formal.Case.Missing\n"
    )
    found = outcome(make_workspace, files, after_pin={statements: broken})
    yaml = found.root / "missions" / "case.yaml"
    assert [v for v in found.violations if v["rule"] == "statement-pin"] == [
        {
            "rule": "statement-pin",
            "mission": "case",
            "target": None,
            "file": "missions/case.yaml",
            "line": line_of(yaml, "lean:"),
            "message": "statement closure unavailable: "
            "Formal/Case/Statements.lean:2: import Formal.Case.Missing not found",
        }
    ]


def test_unpinned_statements_are_a_pin_violation_naming_the_command(make_workspace: Build) -> None:
    found = outcome(make_workspace, case_files(), pin=False)
    yaml = found.root / "missions" / "case.yaml"
    assert [v for v in found.violations if v["rule"] == "statement-pin"] == [
        {
            "rule": "statement-pin",
            "mission": "case",
            "target": None,
            "file": "missions/case.yaml",
            "line": line_of(yaml, "lean:"),
            "message": "statements are not pinned; run `missions pin case`",
        }
    ]
    assert found.says("statements are not pinned (run `missions pin`)")


def test_a_moved_pin_names_every_closure_file_and_both_fixes(make_workspace: Build) -> None:
    """Without a commit to compare with, every file of the closure is named."""
    files = case_files()
    statements = "Formal/Case/Statements.lean"
    changed = files[statements].replace("two = 2", "two = 3")
    found = outcome(make_workspace, files, after_pin={statements: changed})
    (violation,) = [v for v in found.violations if v["rule"] == "statement-pin"]
    message = violation["message"]
    assert message.startswith("statement closure changed since the pin sha256:")
    assert (
        "; closure files: Formal/Case/Defs.lean, Formal/Case/Statements.lean. If the change is "
        'intended, record it: missions pin case --reason "<why the statements changed>"; '
        "otherwise revert the change to those files"
    ) in message
    yaml = found.root / "missions" / "case.yaml"
    assert (violation["mission"], violation["file"], violation["line"]) == (
        "case",
        "missions/case.yaml",
        line_of(yaml, "statement_pin:"),
    )


def test_a_moved_pin_lists_the_changed_file_and_at_most_ten_commits(
    make_workspace: Build,
) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"})  # one commit
    assert invoke("pin", "--root", root).exit_code == 0
    git(root, "add", "-A")
    pinned_at = git(root, "rev-parse", "HEAD")  # the commit that holds the pinned files
    git(root, "commit", "-q", "-m", "pin")
    statements = root / "Formal/Case/Statements.lean"
    text = statements.read_text(encoding="utf-8")
    for k in range(3, 14):  # eleven commits, each moving the statement
        statements.write_text(text.replace("two = 2", f"two = {k}"), encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"statement {k}")
    _, violations = gate_json(root)
    (violation,) = [v for v in violations if v["rule"] == "statement-pin"]
    message = violation["message"]
    assert "; changed files: Formal/Case/Statements.lean; commits since " in message
    listed = message.split(f"; commits since {pinned_at[:10]}: ", 1)[1].split(". If ", 1)[0]
    entries = listed.split("; ")
    assert len(entries) == 10  # the ten most recent of eleven
    assert all(e.endswith("(Test Author)") for e in entries), entries
    assert "statement 13 (Test Author)" in entries[0]
    assert f"revert those files (git checkout {pinned_at[:10]} -- <files>)" in message


def test_a_pin_taken_on_uncommitted_files_lists_no_commits(make_workspace: Build) -> None:
    """``pinned_at: uncommitted`` names no commit, so there are no commits to list."""
    root = make_workspace(case_files(), {"case": "Formal.Case"})
    statements = root / "Formal/Case/Statements.lean"
    statements.write_text(statements.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert invoke("pin", "--root", root).exit_code == 0  # pinned on an uncommitted file
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "pin")
    statements.write_text(
        statements.read_text(encoding="utf-8").replace("two = 2", "two = 3"), encoding="utf-8"
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "move the statement")
    _, violations = gate_json(root)
    (violation,) = [v for v in violations if v["rule"] == "statement-pin"]
    assert "closure files: " in violation["message"]
    assert "commits since" not in violation["message"]
    assert "not committed" not in violation["message"]


def test_a_moved_pin_without_commits_says_the_change_is_not_committed(
    make_workspace: Build,
) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"})
    assert invoke("pin", "--root", root).exit_code == 0
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "pin")
    statements = root / "Formal/Case/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace("two = 2", "two = 3"), encoding="utf-8"
    )
    _, violations = gate_json(root)
    (violation,) = [v for v in violations if v["rule"] == "statement-pin"]
    assert (
        "; changed files: Formal/Case/Statements.lean; changes are not committed yet. If "
        in violation["message"]
    )


def test_each_closure_violation_names_its_file_line_and_mission(make_workspace: Build) -> None:
    defs = (
        "def two : ℕ := 2\n\n"
        "theorem leak : two = 2 := sorry\n\n"  # line 7
        "opaque hidden : ℕ\n\n"  # 9
        "partial def loop (n : ℕ) : ℕ := loop n\n\n"  # 11
        'macro "zz" : term => `(1)\n\n'  # 13
        "theorem goal : True := trivial\n"  # 15: the proof, inside the closure
    )
    found = outcome(make_workspace, case_files(defs=defs, proofs="theorem goal2 : Goal := rfl\n"))
    closure = [
        (v["rule"], v["file"], v["line"], v["mission"], v["message"])
        for v in found.violations
        if v["target"] is None
    ]
    d = "Formal/Case/Defs.lean"
    assert closure == [
        ("forbidden-construct", d, 7, "case", "sorry in the statement closure of case"),
        (
            "forbidden-construct",
            d,
            9,
            "case",
            "opaque Formal.Case.hidden in a statement closure hides its value",
        ),
        (
            "forbidden-construct",
            d,
            11,
            "case",
            "partial Formal.Case.loop in a statement closure is opaque to the kernel",
        ),
        (
            "forbidden-construct",
            d,
            13,
            "case",
            "custom syntax or elaborator (`macro`) in the statement closure of case: "
            "statements must mean what they read",
        ),
        (
            "statement-closure",
            d,
            15,
            "case",
            "proof Formal.Case.goal lies inside the statement closure",
        ),
    ]


#: An existing witness module (its sources have a digest the stamp records).
WITNESS = "missions.witnesses.alethean_checksum"


def test_witnesses_never_stamped_or_stamped_at_an_old_pin_are_stale(make_workspace: Build) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    yaml = root / "missions" / "case.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            "    depends_on:", f"    witness: {WITNESS}\n    depends_on:"
        ),
        encoding="utf-8",
    )
    assert invoke("pin", "--root", root).exit_code == 0
    _, violations = gate_json(root)
    stale = [v for v in violations if v["rule"] == "witness-stale"]
    assert [(v["mission"], v["file"], v["line"], v["message"]) for v in stale] == [
        (
            "case",
            "missions/case.yaml",
            line_of(yaml, "statement_pin:"),
            "the witnesses were never stamped against the statement pin; review the witnesses "
            "against the statements and run `missions witness --stamp case`",
        )
    ]
    # stamped at the current pin: nothing to review
    text = yaml.read_text(encoding="utf-8")
    pin = text.split("statement_pin: ", 1)[1].split("\n", 1)[0]
    sources = source_digest(
        SimpleNamespace(targets=[SimpleNamespace(witness=WITNESS, kind="goal")])
    )
    yaml.write_text(
        text.replace(
            f"statement_pin: {pin}",
            f"statement_pin: {pin}\n  witness_stamp: {pin}\n  witness_source: {sources}",
        ),
        encoding="utf-8",
    )
    assert [v for v in gate_json(root)[1] if v["rule"] == "witness-stale"] == []
    # the statement moves and is re-pinned: the stamp is old
    statements = root / "Formal/Case/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace("two = 2", "two = 3"), encoding="utf-8"
    )
    assert invoke("pin", "--root", root, "--reason", "moved").exit_code == 0
    new_pin = yaml.read_text(encoding="utf-8").split("statement_pin: ", 1)[1].split("\n", 1)[0]
    (moved,) = [v for v in gate_json(root)[1] if v["rule"] == "witness-stale"]
    assert (moved["line"], moved["message"]) == (
        line_of(yaml, "witness_stamp:"),
        f"the witnesses were stamped at {pin[:19]}…; the statements are pinned at "
        f"{new_pin[:19]}…; review the witnesses against the statements and run "
        "`missions witness --stamp case`",
    )


def regression_messages(root: Path) -> list[tuple[str, str]]:
    code, stdout, _ = run(root, "check", "--json")
    assert code == 1
    return [
        (v["rule"], v["message"])
        for v in json.loads(stdout)["violations"]
        if v["rule"] in ("status-regression", "status-drift")
    ]


FIX = 'missions sync --allow-regression demo/goal --reason "..."'


def test_a_proof_back_to_sorry_is_a_regression_with_the_reason(proved: Path) -> None:
    break_proof(proved)
    messages = regression_messages(proved)
    line = line_of(proved / PROOFS, "sorry")
    assert messages == [
        (
            "status-drift",
            "YAML says proved (source evidence), computed stated (source evidence); "
            "a loss of proved: see status-regression",
        ),
        (
            "status-regression",
            "goal is recorded proved but the sources now give stated (sorry in "
            f"Formal.Demo.goal at Formal/Demo/Proofs.lean:{line}), with no regression "
            f"recorded; restore the proof, or record the loss: {FIX}",
        ),
    ]


def test_a_status_lowered_by_hand_is_a_regression_in_the_tree_then_in_a_commit(
    proved: Path,
) -> None:
    set_status(proved, "stated")
    assert regression_messages(proved)[1] == (
        "status-regression",
        "goal is recorded proved in HEAD and stated in the working tree, with no regression "
        f"recorded; record why: {FIX}",
    )
    commit(proved, "lower")
    first = git(proved, "rev-parse", "HEAD")[:10]
    assert regression_messages(proved)[1] == (
        "status-regression",
        f"goal lost proved in commit {first} (now stated), with no regression recorded; "
        f"record why: {FIX}",
    )
    set_status(proved, "proved")
    yaml = proved / YAML_PATH
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace("status: stated", "status: proved"),
        encoding="utf-8",
    )
    commit(proved, "proved again")
    set_status(proved, "stated")
    commit(proved, "lower again")
    second = git(proved, "rev-parse", "HEAD")[:10]
    assert regression_messages(proved)[1] == (
        "status-regression",
        f"goal lost proved in commit {second} (now stated); 2 losses of proved are "
        f"unrecorded, with no regression recorded; record why: {FIX}",
    )


def _record_kernel_evidence(root: Path, checked: str) -> None:
    """Mark the first target (step) kernel-checked and the last (goal) stated."""
    yaml = root / "missions" / "demo.yaml"
    text = yaml.read_text(encoding="utf-8")
    step_evidence = text.index("evidence: source")  # the first target: step
    text = f"{text[:step_evidence]}evidence: kernel{checked}{text[step_evidence + 16 :]}"
    goal_status = text.rindex("status: proved")  # the last target: goal
    text = text[:goal_status] + "status: stated" + text[goal_status + 14 :]
    yaml.write_text(text, encoding="utf-8")


def test_a_standing_kernel_record_does_not_hide_drift_in_later_targets(
    demo_workspace: Callable[..., Path],
) -> None:
    root = demo_workspace()  # pinned and synced: step and goal proved from source
    analysis = analyze(load_catalog(root, use_cache=False), load_workspace(root, use_cache=False))
    step = analysis.missions[0].targets[0]
    assert step.proof_decl is not None
    digest = proof_closure_digest(analysis.workspace, step.proof_decl[0].name)
    _record_kernel_evidence(root, f"\n    checked: {{lean: 4.30.0, closure: '{digest}'}}")
    _, violations = gate_json(root)
    assert [(v["rule"], v["target"]) for v in violations] == [("status-drift", "goal")]


def test_kernel_evidence_nothing_recorded_checked_is_drift(
    demo_workspace: Callable[..., Path],
) -> None:
    root = demo_workspace()
    _record_kernel_evidence(root, "")  # a hand-written claim: no `checked:` record
    _, violations = gate_json(root)
    assert [(v["rule"], v["target"]) for v in violations] == [
        ("status-drift", "step"),
        ("status-drift", "goal"),
    ]
    assert "no `checked:` record says what checked it" in violations[0]["message"]
    assert run(root, "sync")[0] == 0  # plain sync replaces the claim with the source verdict
    assert "evidence: kernel" not in (root / "missions" / "demo.yaml").read_text("utf-8")
    _record_kernel_evidence(root, "\n    checked: {lean: 4.30.0, closure: 'sha256:0'}")
    _, violations = gate_json(root)
    assert "import closure changed since the kernel checked it" in violations[0]["message"]


def test_a_proof_module_in_the_statement_closure_is_named_with_its_mission(
    make_workspace: Build,
) -> None:
    files = case_files()
    files["Formal/Case/Defs.lean"] = files["Formal/Case/Defs.lean"].replace(
        "import Mathlib\n", "import Mathlib\nimport Formal.Case.ProofHelpers\n"
    )
    files["Formal/Case/ProofHelpers.lean"] = "import Mathlib\n"
    found = outcome(make_workspace, files)
    closure = [v for v in found.violations if v["rule"] == "statement-closure"]
    assert [(v["mission"], v["file"], v["line"], v["message"]) for v in closure] == [
        (
            "case",
            "Formal/Case/ProofHelpers.lean",
            1,
            "statement closure of case imports proof module Formal.Case.ProofHelpers",
        )
    ]


def test_every_target_owing_a_record_is_reported_not_only_up_to_the_first_clean_one(
    demo_workspace: Callable[..., Path],
) -> None:
    root = demo_workspace(use_git=True)  # step, then goal: both proved and committed
    commit(root, "both proved")
    yaml = root / "missions" / "demo.yaml"
    text = yaml.read_text(encoding="utf-8")
    goal_status = text.rindex("status: proved")  # the last target, after a clean one
    yaml.write_text(text[:goal_status] + "status: stated" + text[goal_status + 14 :], "utf-8")
    found = [(v["rule"], v["target"]) for v in gate_json(root)[1]]
    assert ("status-regression", "goal") in found
    assert ("status-regression", "step") not in found


def test_a_loss_to_no_status_says_so(proved: Path) -> None:
    path = proved / YAML_PATH
    path.write_text(
        path.read_text(encoding="utf-8").replace("    status: proved\n", ""), encoding="utf-8"
    )
    commit(proved, "drop the status")
    messages = [m for rule, m in regression_messages(proved) if rule == "status-regression"]
    assert messages and "(now not recorded)" in messages[0], messages


def test_a_recorded_loss_still_to_be_synced_asks_for_sync(proved: Path) -> None:
    break_proof(proved)  # the sources say stated; the YAML still says proved
    path = proved / YAML_PATH
    path.write_text(
        path.read_text(encoding="utf-8")
        + "regressions:\n  - {target: goal, from: proved, to: stated, date: 2026-01-01, "
        "reason: the lemma moved}\n",
        encoding="utf-8",
    )
    assert regression_messages(proved) == [
        (
            "status-drift",
            "YAML says proved (source evidence), computed stated (source evidence); run "
            "`missions sync`",
        )
    ]


def test_a_long_placeholder_is_quoted_to_sixty_characters(
    demo_workspace: Callable[..., Path],
) -> None:
    long = "TODO " + "x" * 80
    root = demo_workspace()
    yaml = root / "missions" / "demo.yaml"
    text = yaml.read_text(encoding="utf-8")
    yaml.write_text(text.replace("summary: >\n", f"summary: >\n  {long}\n", 1), "utf-8")
    placeholders = [v["message"] for v in gate_json(root)[1] if v["rule"] == "placeholder"]
    assert placeholders, gate_json(root)
    assert long[:60] in placeholders[0] and long[:61] not in placeholders[0]


# ------------------------------------------- why a recorded kernel verdict no longer stands

KERNEL_COMMIT = "0123456789abcdef0123456789abcdef01234567"


def kernel_claim(
    root: Path, checked: CheckedBy | None, *, evidence: str = "kernel"
) -> tuple[Analysis, TargetStatus]:
    """The analysis of ``root`` and its first target (step, proved from source) as if the YAML
    recorded ``evidence`` with ``checked`` and the status ``proved``."""
    analysis = analyze(load_catalog(root, use_cache=False), load_workspace(root, use_cache=False))
    status = analysis.missions[0].targets[0]
    target = status.target.model_copy(
        update={"evidence": evidence, "checked": checked, "status": "proved"}
    )
    return analysis, dataclasses.replace(status, target=target)


def closure_of_step(analysis: Analysis, status: TargetStatus) -> str:
    assert status.proof_decl is not None
    return proof_closure_digest(analysis.workspace, status.proof_decl[0].name)


@pytest.fixture
def demo(demo_workspace: Callable[..., Path]) -> Path:
    """The demo workspace, synced, in one git commit."""
    return demo_workspace(use_git=True)


def test_a_record_stands_while_its_closure_digest_and_mathlib_do(demo: Path) -> None:
    analysis, status = kernel_claim(demo, None)
    digest = closure_of_step(analysis, status)
    for checked in (
        CheckedBy(lean="4.30.0", closure=digest),
        CheckedBy(lean="4.30.0", closure=digest, mathlib=PINNED_MATHLIB),
        CheckedBy(lean="4.30.0", commit=git(demo, "rev-parse", "HEAD")),
    ):
        analysis, status = kernel_claim(demo, checked)
        assert kernel_record_problem(analysis, status) is None, checked
        assert standing_status(analysis, status) == "proved"


def test_only_a_kernel_record_outranks_the_scan(demo: Path) -> None:
    analysis, status = kernel_claim(demo, None)
    checked = CheckedBy(lean="4.30.0", closure=closure_of_step(analysis, status))
    analysis, status = kernel_claim(demo, checked, evidence="source")
    computed = dataclasses.replace(status, status="stated")
    assert standing_status(analysis, computed) == "stated"
    analysis, status = kernel_claim(demo, checked)
    assert standing_status(analysis, dataclasses.replace(status, status="stated")) == "proved"
    # a verdict the kernel gave in this very run is not a record to stand on
    fresh = dataclasses.replace(status, status="stated", evidence="kernel")
    assert standing_status(analysis, fresh) == "stated"


def test_why_a_record_does_not_stand_in_words(demo: Path) -> None:
    """Each reason names what to do or what moved, with commits cut to twelve characters."""
    analysis, status = kernel_claim(demo, None)
    assert kernel_record_problem(analysis, status) == (
        "no `checked:` record says what checked it (only `missions sync --lean` writes one)"
    )
    analysis, status = kernel_claim(demo, CheckedBy(lean="4.30.0", closure="sha256:0"))
    assert kernel_record_problem(analysis, dataclasses.replace(status, proof_decl=None)) == (
        "the proof is not in the sources"
    )
    other = "f" * 40
    analysis, status = kernel_claim(demo, CheckedBy(lean="4.30.0", mathlib=other, closure="x"))
    assert kernel_record_problem(analysis, status) == (
        f"it was checked against Mathlib {other[:12]}; the workspace now has {PINNED_MATHLIB[:12]}"
    )
    analysis, status = kernel_claim(demo, CheckedBy(lean="4.30.0", closure="sha256:0"))
    assert kernel_record_problem(analysis, status) == (
        "the proof's import closure changed since the kernel checked it"
    )
    analysis, status = kernel_claim(demo, CheckedBy(lean="4.30.0"))
    assert kernel_record_problem(analysis, status) == (
        "the record names neither the closure digest nor the commit the kernel checked"
    )
    analysis, status = kernel_claim(demo, CheckedBy(lean="4.30.0", commit=KERNEL_COMMIT))
    assert kernel_record_problem(analysis, status) == (
        "git cannot find commit 0123456789ab here (a shallow clone? fetch the full history)"
    )


def test_a_file_changed_since_the_checked_commit_is_named(demo: Path) -> None:
    head = git(demo, "rev-parse", "HEAD")
    proofs = demo / "Formal/Demo/Proofs.lean"
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    analysis, status = kernel_claim(demo, CheckedBy(lean="4.30.0", commit=head))
    assert kernel_record_problem(analysis, status) == (
        f"Formal/Demo/Proofs.lean changed since commit {head[:12]}, which the kernel checked"
    )


@pytest.mark.parametrize(
    ("count", "named"),
    [
        (3, "A0.lean, A1.lean, A2.lean"),
        (4, "A0.lean, A1.lean, A2.lean and 1 more"),
        (6, "A0.lean, A1.lean, A2.lean and 3 more"),
    ],
)
def test_at_most_three_changed_files_are_named(
    demo: Path, monkeypatch: pytest.MonkeyPatch, count: int, named: str
) -> None:
    changed = [demo / f"A{i}.lean" for i in range(count)]
    monkeypatch.setattr(gitinfo, "changed_since", lambda root, since, paths: changed)
    analysis, status = kernel_claim(demo, CheckedBy(lean="4.30.0", commit=KERNEL_COMMIT))
    assert kernel_record_problem(analysis, status) == (
        f"{named} changed since commit 0123456789ab, which the kernel checked"
    )


def test_a_recorded_loss_does_not_hide_an_unrecorded_one_after_it(
    demo_workspace: Callable[..., Path],
) -> None:
    root = demo_workspace(use_git=True)  # step, then goal: both proved and committed
    commit(root, "both proved")
    yaml = root / "missions" / "demo.yaml"
    text = yaml.read_text(encoding="utf-8").replace("status: proved", "status: stated")
    yaml.write_text(
        text + "regressions:\n  - {target: step, from: proved, to: stated, date: 2026-01-01, "
        "reason: the milestone is reworked}\n",
        encoding="utf-8",
    )
    found = [(v["rule"], v["target"]) for v in gate_json(root)[1]]
    assert ("status-regression", "goal") in found  # step's loss is on record, goal's is not
    assert ("status-regression", "step") not in found


def test_violations_come_workspace_first_then_by_mission_rule_file_and_line(
    demo_workspace: Callable[..., Path],
) -> None:
    """The order of `check`: findings about no mission first (even before a mission whose id
    sorts before letters), then per mission and rule by file, and by line within a file."""
    root = demo_workspace()
    done = invoke("new", "0-first", "--module", "Formal.ZeroFirst", "--root", root)
    assert done.exit_code == 0, done.stderr
    (root / "lean-toolchain").write_text("leanprover/lean4:v4.29.0\n", encoding="utf-8")
    _, violations = gate_json(root)
    assert (violations[0]["rule"], violations[0]["mission"]) == ("toolchain-pin", None)
    placeholders = [(v["file"], v["line"]) for v in violations if v["rule"] == "placeholder"]
    assert placeholders == sorted(placeholders)
    # the files' own order is not their lines' order, so the file decides first
    assert [line for _, line in placeholders] != sorted(line for _, line in placeholders)
