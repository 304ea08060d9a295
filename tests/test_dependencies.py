"""``depends_on`` against the source reach: warnings that never fail the gate.

Constructed fixtures: the demo mission (a goal whose proof uses its milestone) and a chain of
three targets, edited so that the declared and the used dependencies disagree in each way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import DEMO_YAML, demo_lean, invoke, line_of, settle
from missions.catalog import load_catalog
from missions.gate import run_gate
from missions.lean.workspace import load_workspace
from missions.status import analyze

#: The demo proofs with a goal that no longer uses the milestone's proof.
INDEPENDENT_PROOFS = demo_lean(
    ["Formal.Demo.Statements"],
    "The demo proofs",
    "theorem step : Step := by\n  norm_num [Step, two]\n\n"
    "theorem goal : Goal := by\n  norm_num [Goal, two]\n",
)


def reviews_off(root: Path) -> None:
    """Faithfulness reviews are a policy of their own (tests/test_reviews.py): off here, so
    every warning these tests see is about ``depends_on``."""
    (root / "missions.yaml").write_text("policy:\n  reviews: 'off'\n", encoding="utf-8")


def check(root: Path) -> tuple[int, dict[str, Any]]:
    reviews_off(root)
    result = invoke("check", "--json", "--root", root)
    assert result.exit_code in (0, 1), (result.stdout, result.stderr)
    data: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, data


def goal_depends_line(root: Path) -> int:
    yaml = root / "missions" / "demo.yaml"
    text = yaml.read_text(encoding="utf-8")
    goal_at = text.index("  - id: goal")
    return text.count("\n", 0, text.index("depends_on", goal_at)) + 1


def test_declared_and_used_agree_no_warning(demo_workspace: Callable[..., Path]) -> None:
    code, data = check(demo_workspace())
    assert code == 0
    assert data["warnings"] == []


def test_used_but_undeclared_is_a_warning_at_depends_on(
    demo_workspace: Callable[..., Path],
) -> None:
    yaml = DEMO_YAML.replace("depends_on: [step]", "depends_on: []")
    root = demo_workspace(files={"missions/demo.yaml": yaml})
    code, data = check(root)
    assert code == 0, data["violations"]
    [warning] = data["warnings"]
    assert (warning["rule"], warning["mission"], warning["target"]) == (
        "dependency-mismatch",
        "demo",
        "goal",
    )
    assert "may use the proof of step" in warning["message"]
    assert (warning["file"], warning["line"]) == ("missions/demo.yaml", goal_depends_line(root))


def test_declared_but_unreachable_is_a_warning_for_a_proved_target(
    demo_workspace: Callable[..., Path],
) -> None:
    root = demo_workspace(files={"Formal/Demo/Proofs.lean": INDEPENDENT_PROOFS})
    code, data = check(root)
    assert code == 0
    [warning] = data["warnings"]
    assert warning["target"] == "goal"
    assert "declared but unreachable from Formal.Demo.goal: step" in warning["message"]


def test_an_unfinished_proof_may_still_come_to_use_what_it_declares(
    demo_workspace: Callable[..., Path],
) -> None:
    unfinished = INDEPENDENT_PROOFS.replace("norm_num [Goal, two]", "sorry")
    root = demo_workspace(files={"Formal/Demo/Proofs.lean": unfinished})
    _, data = check(root)
    assert data["warnings"] == []


def test_unbounded_reach_decides_nothing(demo_workspace: Callable[..., Path]) -> None:
    # `exact?` may find any imported proof: what the goal uses is unknown, so no warning
    # either way (and the target is not proved, for the same reason).
    yaml = DEMO_YAML.replace("depends_on: [step]", "depends_on: []")
    searching = INDEPENDENT_PROOFS.replace("norm_num [Goal, two]", "exact?")
    root = demo_workspace(files={"missions/demo.yaml": yaml, "Formal/Demo/Proofs.lean": searching})
    _, data = check(root)
    assert data["warnings"] == []


def test_warnings_print_after_violations_and_leave_the_exit_code(
    demo_workspace: Callable[..., Path],
) -> None:
    yaml = DEMO_YAML.replace("depends_on: [step]", "depends_on: []")
    root = demo_workspace(files={"missions/demo.yaml": yaml})
    reviews_off(root)
    result = invoke("check", "--root", root)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"missions/demo.yaml:{goal_depends_line(root)}: warning: ")
    assert lines[-1].startswith("gate: ok, 1 warning — ")


def test_the_kernel_comparison_replaces_the_warnings(
    demo_workspace: Callable[..., Path],
) -> None:
    yaml = DEMO_YAML.replace("depends_on: [step]", "depends_on: []")
    root = demo_workspace(files={"missions/demo.yaml": yaml})
    reviews_off(root)
    catalog = load_catalog(root)
    analysis = analyze(catalog, load_workspace(root))
    assert run_gate(analysis).warnings
    assert run_gate(analysis, kernel_dependencies=True).warnings == []


# ------------------------------------------------------- a chain: first <- middle <- last

CHAIN_YAML = """\
id: chain
title: "A chain"
category: example
summary: >
  Three facts, each from the one before.
sources:
  - key: chain2024
    citation: "A. Author. Chain paper. 2024."
    arxiv: 2401.00002v1
    locators: ["Thm. 1"]
lean:
  module: Formal.Chain
targets:
{targets}
"""

CHAIN_TARGET = """\
  - id: {id}
    kind: {kind}
    title: "{id}"
    informal: >
      The fact {id}.
    source: chain2024
    locator: "Thm. 1"
    statement: Formal.Chain.{Name}
    proof: Formal.Chain.{id}
    depends_on: [{depends}]
    provenance: {{statement: literature-sourced, proof: ai-generated}}
    status: stated
    evidence: source
"""


#: A target proved in another repository, for a chain that declares it.
EXTERNAL_TARGET = """\
  - id: elsewhere
    kind: external
    title: "Proved in another repository"
    informal: >
      Elsewhere.
    source: chain2024
    external: {repository: "github.com/example/lean", commit: "0123456789"}
    depends_on: []
    provenance: {statement: literature-sourced, proof: external}
"""


def chain_workspace(
    make_workspace: Callable[..., Path],
    last_depends: str,
    last_proof: str,
    *,
    first_proof: str = "rfl",
    extra_targets: str = "",
    leading_targets: str = "",
    helpers: str = "",
) -> Path:
    targets = [
        ("first", "milestone", ""),
        ("middle", "milestone", "first"),
        ("last", "goal", last_depends),
    ]
    yaml = CHAIN_YAML.format(
        targets=leading_targets
        + "".join(
            CHAIN_TARGET.format(id=i, kind=k, Name=i.capitalize(), depends=d) for i, k, d in targets
        )
        + extra_targets
    )
    statements = "".join(f"def {i.capitalize()} : Prop := 1 + 1 = 2\n\n" for i, _, _ in targets)
    proofs = (
        f"theorem first : First := {first_proof}\n\n"
        "theorem middle : Middle := first\n\n"
        f"{helpers}"
        f"theorem last : Last := {last_proof}\n"
    )
    files = {
        "Formal/Chain/Statements.lean": demo_lean(["Mathlib"], "Chain", statements).replace(
            "Formal.Demo", "Formal.Chain"
        ),
        "Formal/Chain/Proofs.lean": demo_lean(
            ["Formal.Chain.Statements"], "Chain proofs", proofs
        ).replace("Formal.Demo", "Formal.Chain"),
        "Formal/Chain.lean": "import Formal.Chain.Statements\nimport Formal.Chain.Proofs\n",
        "Formal.lean": "import Formal.Chain\n",
        "missions/chain.yaml": yaml,
    }
    root = make_workspace(files, use_git=False)
    settle(root)
    return root


def warnings_of(root: Path) -> list[str]:
    code, data = check(root)
    assert code == 0, data["violations"]
    return [w["message"] for w in data["warnings"]]


def test_a_proof_used_only_through_another_targets_proof_is_not_a_direct_use(
    make_workspace: Callable[..., Path],
) -> None:
    # `last` reaches `first` only through `middle`: declaring `middle` is exactly right.
    assert warnings_of(chain_workspace(make_workspace, "middle", "middle")) == []


def test_declaring_a_transitive_dependency_is_flagged(make_workspace: Callable[..., Path]) -> None:
    [message] = warnings_of(chain_workspace(make_workspace, "first, middle", "middle"))
    assert "declared but unreachable from Formal.Chain.last: first" in message


def test_a_direct_use_beside_the_chain_counts(make_workspace: Callable[..., Path]) -> None:
    root = chain_workspace(make_workspace, "middle", "(fun _ => middle) first")
    _, data = check(root)
    [warning] = data["warnings"]
    assert "may use the proof of first" in warning["message"]
    assert warning["line"] == line_of(root / "missions" / "chain.yaml", "depends_on: [middle]")


def test_reports_list_the_warnings_apart_from_the_violations(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    yaml = DEMO_YAML.replace("depends_on: [step]", "depends_on: []")
    root = demo_workspace(files={"missions/demo.yaml": yaml})
    reviews_off(root)
    markdown = invoke("report", "--root", root)
    assert markdown.exit_code == 0, markdown.stderr
    gate_section = markdown.stdout.split("## Gate", 1)[1].split("\n## ", 1)[0]
    assert "All gate rules pass." in gate_section
    assert "may use the proof of step" in gate_section.split("Warnings", 1)[1]
    site = tmp_path / "site"
    html = invoke("report", "--root", root, "--format", "html", "-o", site)
    assert html.exit_code == 0, html.stderr
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "1 warning (they do not fail the gate)" in index
    assert "may use the proof of step" in index


#: How every source-reach warning ends: it is a possibility, the kernel decides.
SOURCE_REACH = " (source reach; `check --lean` decides)"


def test_the_warning_lists_every_unreachable_declaration_in_words(
    make_workspace: Callable[..., Path],
) -> None:
    [message] = warnings_of(chain_workspace(make_workspace, "first, middle", "rfl"))
    assert (
        message == "declared but unreachable from Formal.Chain.last: first, middle" + SOURCE_REACH
    )


def test_the_warning_lists_every_undeclared_use_in_words(
    make_workspace: Callable[..., Path],
) -> None:
    [message] = warnings_of(chain_workspace(make_workspace, "", "(fun _ => middle) first"))
    assert message == (
        "Formal.Chain.last may use the proof of first, middle, which depends_on does not declare"
        + SOURCE_REACH
    )


def test_both_disagreements_of_one_target_are_one_warning(
    make_workspace: Callable[..., Path],
) -> None:
    [message] = warnings_of(chain_workspace(make_workspace, "first", "middle"))
    assert message == (
        "declared but unreachable from Formal.Chain.last: first; "
        "Formal.Chain.last may use the proof of middle, which depends_on does not declare"
        + SOURCE_REACH
    )


def test_an_unbounded_target_does_not_silence_the_targets_after_it(
    make_workspace: Callable[..., Path],
) -> None:
    # `first` searches the environment and `middle` reaches it: nothing is known of either.
    # `last` reaches neither, so declaring both is certainly wrong.
    root = chain_workspace(make_workspace, "first, middle", "rfl", first_proof="by exact?")
    _, data = check(root)
    assert [w["target"] for w in data["warnings"]] == ["last"]


def test_declaring_an_external_target_is_never_unreachable(
    make_workspace: Callable[..., Path],
) -> None:
    root = chain_workspace(
        make_workspace, "middle, elsewhere", "middle", extra_targets=EXTERNAL_TARGET
    )
    assert warnings_of(root) == []


def test_a_target_without_a_proof_before_the_others_hides_no_use(
    make_workspace: Callable[..., Path],
) -> None:
    root = chain_workspace(
        make_workspace, "", "(fun _ => middle) first", leading_targets=EXTERNAL_TARGET
    )
    assert [w["message"] for w in check(root)[1]["warnings"]] == [
        "Formal.Chain.last may use the proof of first, middle, which depends_on does not declare"
        + SOURCE_REACH
    ]


def test_a_use_after_something_already_reached_still_counts(
    make_workspace: Callable[..., Path],
) -> None:
    # `last` reaches `Last` itself, then `aux`; `aux` names `Last` again before `first`.
    helper = "theorem aux : Last := (fun _ => first) Last\n\n"
    root = chain_workspace(make_workspace, "", "(fun _ => aux) Last", helpers=helper)
    assert warnings_of(root) == [
        "Formal.Chain.last may use the proof of first, which depends_on does not declare"
        + SOURCE_REACH
    ]
