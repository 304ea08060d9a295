"""Each gate rule and each forbidden construct, on fixture workspaces, through ``missions check``.

Every test builds the demo workspace (a milestone and a goal, both proved; see conftest), breaks
one thing and asserts the exact rule id and the ``path:line`` the gate reports, computed from the
fixture text rather than from the tool. The fixtures come in the layouts real files use (with and
without module docstrings, a copyright header, nested namespaces, other command orders).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import (
    DEMO_BODIES,
    DEMO_LAYOUTS,
    declaration_lines,
    demo_lean,
    gate_json,
    git,
    invoke,
    line_of,
    settle,
    status_json,
    target_of,
)

Build = Callable[..., Path]


def located(violations: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    return [(v["rule"], v["file"], v["line"]) for v in violations]


def only_violation(violations: list[dict[str, object]]) -> dict[str, object]:
    assert len(violations) == 1, violations
    return violations[0]


# ---------------------------------------------------------------- the fixture itself


@pytest.mark.parametrize("style", DEMO_LAYOUTS)
def test_the_demo_workspace_passes_the_gate_in_every_layout(
    demo_workspace: Build, style: str
) -> None:
    root = demo_workspace(style)
    assert gate_json(root) == (0, [])
    data = status_json(root)
    for target in ("step", "goal"):
        found = target_of(data, "demo", target)
        assert (found["status"], found["evidence"], found["reasons"]) == ("proved", "source", [])


# ---------------------------------------------------------------- forbidden constructs


@dataclass(frozen=True)
class Construct:
    name: str
    #: Lean text added inside a file's namespace (``header``: put before the imports)
    lean: str
    #: text on the line the gate must report
    needle: str
    #: forbidden anywhere in the workspace (else only inside a statement closure)
    everywhere: bool = True
    header: bool = False

    def __str__(self) -> str:
        return self.name


CONSTRUCTS = [
    Construct("axiom", "axiom junk : False", "axiom junk"),
    Construct("unsafe", "unsafe def rawTwo : ℕ := 2", "unsafe def"),
    Construct(
        "implemented_by",
        "def fastTwoImpl : ℕ := 2\n@[implemented_by fastTwoImpl] def fastTwo : ℕ := 2",
        "@[implemented_by",
    ),
    Construct("extern", '@[extern "lean_demo_two"] def externTwo : ℕ := 2', "@[extern"),
    Construct("csimp", "@[csimp] theorem two_eq_two : two = 2 := rfl", "@[csimp]"),
    Construct("debug-option", "set_option debug.skipKernelTC true", "set_option debug"),
    Construct("bv_decide", "theorem small : (3 : BitVec 4) < 5 := by\n  bv_decide", "bv_decide"),
    Construct("eval!", "#eval! two", "#eval!"),
    Construct("exec", '#exec IO.println "two"', "#exec"),
    Construct("open-private", "open private secretTwo from Formal.Demo.Defs", "open private"),
    Construct("run_elab", 'run_elab Lean.logInfo "two"', "run_elab"),
    Construct("initialize", "initialize demoRef : IO.Ref ℕ ← IO.mkRef 0", "initialize"),
    Construct("prelude", "prelude\n", "prelude", header=True),
    Construct("stop", "theorem helper : True := by\n  stop\n  trivial", "  stop", everywhere=False),
    Construct("syntax", 'syntax "cheat" : tactic', 'syntax "cheat"', everywhere=False),
    Construct(
        "simproc",
        "simproc reduceTwo (two) := fun _ => return .continue",
        "simproc reduceTwo",
        everywhere=False,
    ),
]
EVERYWHERE = [c for c in CONSTRUCTS if c.everywhere]
CLOSURE_ONLY = [c for c in CONSTRUCTS if not c.everywhere]
SCRATCH = "Formal/Demo/Scratch.lean"


def with_construct(build: Build, construct: Construct, place: str, style: str) -> Path:
    """The demo workspace with ``construct`` in ``place`` (Defs, Statements, Proofs, or a
    Scratch module nothing imports), pinned and synced afterwards."""
    if construct.header:
        imports, doc, body = DEMO_BODIES.get(place, (["Mathlib"], "Scratch work", ""))
        text = construct.lean + demo_lean(imports, doc, body, style)
        return build(style, files={f"Formal/Demo/{place}.lean": text})
    if place == "Scratch":
        text = demo_lean(["Mathlib"], "Scratch work", construct.lean + "\n", style)
        return build(style, files={SCRATCH: text})
    return build(style, extra={place: construct.lean})


def assert_reported(root: Path, construct: Construct, rel: str) -> None:
    code, violations = gate_json(root)
    line = line_of(root / rel, construct.needle)
    assert code == 1
    assert located(violations) == [("forbidden-construct", rel, line)], violations


@pytest.mark.parametrize("place", ["Defs", "Statements", "Proofs", "Scratch"])
@pytest.mark.parametrize("construct", EVERYWHERE, ids=str)
def test_forbidden_anywhere_is_reported_at_its_line(
    demo_workspace: Build, construct: Construct, place: str
) -> None:
    root = with_construct(demo_workspace, construct, place, "mathlib")
    rel = SCRATCH if place == "Scratch" else f"Formal/Demo/{place}.lean"
    assert_reported(root, construct, rel)
    if place != "Scratch":  # in the goal's import closure: the goal is not certainly clean
        goal = target_of(status_json(root), "demo", "goal")
        assert goal["status"] == "stated"
        assert any(f"{rel}:{line_of(root / rel, construct.needle)}" in r for r in goal["reasons"])


@pytest.mark.parametrize("style", DEMO_LAYOUTS)
@pytest.mark.parametrize("construct", CONSTRUCTS, ids=str)
def test_forbidden_constructs_in_every_layout(
    demo_workspace: Build, construct: Construct, style: str
) -> None:
    root = with_construct(demo_workspace, construct, "Defs", style)
    assert_reported(root, construct, "Formal/Demo/Defs.lean")


@pytest.mark.parametrize("construct", CLOSURE_ONLY, ids=str)
def test_closure_only_constructs_fail_inside_a_statement_closure(
    demo_workspace: Build, construct: Construct
) -> None:
    root = with_construct(demo_workspace, construct, "Statements", "mathlib")
    code, violations = gate_json(root)
    rel = "Formal/Demo/Statements.lean"
    assert code == 1
    assert located(violations) == [
        ("forbidden-construct", rel, line_of(root / rel, construct.needle))
    ]
    assert {v["mission"] for v in violations} == {"demo"}


@pytest.mark.parametrize("construct", [c for c in CLOSURE_ONLY if c.name != "stop"], ids=str)
def test_custom_syntax_beside_a_proof_blocks_it_without_failing_the_gate(
    demo_workspace: Build, construct: Construct
) -> None:
    """Outside statement closures, custom syntax and simprocs are allowed, but the source scan
    cannot follow them, so no proof that can see them is ``proved``."""
    root = demo_workspace(settled=False)
    proofs = root / "Formal/Demo/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    opening = "namespace Formal.Demo\n\n"
    assert opening in text
    proofs.write_text(text.replace(opening, f"{opening}{construct.lean}\n\n"), "utf-8")
    settle(root)  # both proofs come after the construct
    assert gate_json(root) == (0, [])
    rel = "Formal/Demo/Proofs.lean"
    where = f"{rel}:{line_of(root / rel, construct.needle)}"
    for target in ("step", "goal"):
        found = target_of(status_json(root), "demo", target)
        assert found["status"] == "stated"
        assert any(where in r and construct.name in r for r in found["reasons"]), found


def test_stop_in_a_proof_leaves_it_stated(demo_workspace: Build) -> None:
    """``stop`` is ``repeat sorry``: the proof is unfinished, the gate has nothing to reject."""
    root = demo_workspace(settled=False)
    proofs = root / "Formal/Demo/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    proofs.write_text(text.replace("  have h : two = 2", "  stop\n  have h : two = 2"), "utf-8")
    settle(root)
    assert gate_json(root) == (0, [])
    data = status_json(root)
    assert target_of(data, "demo", "step")["status"] == "proved"
    goal = target_of(data, "demo", "goal")
    assert goal["status"] == "stated"
    where = f"Formal/Demo/Proofs.lean:{line_of(proofs, '  stop')}"
    assert any(r.startswith("`stop` in Formal.Demo.goal") and where in r for r in goal["reasons"])


def test_a_command_right_after_the_imports_is_scanned(demo_workspace: Build) -> None:
    """``import Mathlib`` then ``axiom junk : False`` on the next line must fail the gate."""
    root = demo_workspace(files={"Formal/Junk.lean": "import Mathlib\naxiom junk : False\n"})
    code, violations = gate_json(root)
    assert code == 1
    assert located(violations) == [("forbidden-construct", "Formal/Junk.lean", 2)]


# ---------------------------------------------------------------- statement closures


@pytest.mark.parametrize(
    ("part", "lean", "needle"),
    [
        ("Defs", "def helper : ℕ := sorry", "def helper"),
        ("Statements", "def Aside : Prop := sorry = (1 : ℕ)", "def Aside"),
        ("Defs", "theorem handy : two = 2 := by\n  admit", "  admit"),
        ("Defs", "opaque secret : ℕ", "opaque secret"),
        ("Statements", "opaque hidden : Prop", "opaque hidden"),
        ("Defs", "partial def loop (n : ℕ) : ℕ := loop n", "partial def loop"),
    ],
    ids=["sorry-defs", "sorry-statements", "admit", "opaque-defs", "opaque-statements", "partial"],
)
def test_unproved_or_opaque_in_a_statement_closure(
    demo_workspace: Build, part: str, lean: str, needle: str
) -> None:
    root = demo_workspace(extra={part: lean})
    rel = f"Formal/Demo/{part}.lean"
    code, violations = gate_json(root)
    assert code == 1
    assert located(violations) == [("forbidden-construct", rel, line_of(root / rel, needle))]
    assert violations[0]["mission"] == "demo"


def test_a_statement_outside_its_closure(demo_workspace: Build) -> None:
    root = demo_workspace(settled=False)
    statements = root / "Formal/Demo/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace(
            "/-- Two times two is four (Demo paper, Thm. 2, p. 3). -/\n"
            "def Goal : Prop := two * two = 4\n",
            "",
        ),
        encoding="utf-8",
    )
    proofs = root / "Formal/Demo/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    proofs.write_text(
        text.replace(
            "/-- The milestone. -/",
            "/-- Moved. -/\ndef Goal : Prop := two * two = 4\n\n/-- The milestone. -/",
        ),
        encoding="utf-8",
    )
    settle(root)
    code, violations = gate_json(root)
    assert code == 1
    found = only_violation(violations)
    assert (found["rule"], found["target"], found["file"]) == (
        "statement-closure",
        "goal",
        "Formal/Demo/Proofs.lean",
    )
    assert found["line"] in declaration_lines(proofs, "def Goal")
    assert target_of(status_json(root), "demo", "goal")["status"] == "stated"


def test_statements_importing_proofs(demo_workspace: Build) -> None:
    root = demo_workspace(settled=False)
    # a separate proof module, so the closure does not become cyclic
    (root / "Formal/Demo/ProofsExtra.lean").write_text(
        "import Formal.Demo.Defs\n\n/-! Extra proofs. -/\n", encoding="utf-8"
    )
    statements = root / "Formal/Demo/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace(
            "import Formal.Demo.Defs\n", "import Formal.Demo.Defs\nimport Formal.Demo.ProofsExtra\n"
        ),
        encoding="utf-8",
    )
    settle(root)
    code, violations = gate_json(root)
    assert code == 1
    assert located(violations) == [("statement-closure", "Formal/Demo/ProofsExtra.lean", 1)]
    assert "imports proof module Formal.Demo.ProofsExtra" in violations[0]["message"]


# ---------------------------------------------------------------- declarations and shapes


@pytest.mark.parametrize("key", ["statement", "proof"])
def test_a_named_declaration_missing_from_the_sources(demo_workspace: Build, key: str) -> None:
    root = demo_workspace(settled=False)
    yaml = root / "missions/demo.yaml"
    old = f"    {key}: Formal.Demo.{'Goal' if key == 'statement' else 'goal'}\n"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(old, old.replace("Demo.", "Demo.Typo")),
        encoding="utf-8",
    )
    settle(root)
    code, violations = gate_json(root)
    assert code == 1
    line = line_of(yaml, old.replace("Demo.", "Demo.Typo").rstrip("\n"))
    assert [(v["rule"], v["target"], v["file"], v["line"]) for v in violations] == [
        ("missing-declaration", "goal", "missions/demo.yaml", line)
    ]
    goal = target_of(status_json(root), "demo", "goal")
    assert goal["status"] == ("missing" if key == "statement" else "stated")


@pytest.mark.parametrize(
    "statement",
    [
        "def Goal (n : ℕ) : Prop := n * n = 4",
        "def Goal : ℕ := two * two",
        "theorem Goal : two * two = 4 := rfl",
        "def Goal := two * two = 4",
    ],
    ids=["parameter", "not-a-prop", "a-theorem", "no-type"],
)
def test_a_statement_that_is_not_a_parameterless_prop(
    demo_workspace: Build, statement: str
) -> None:
    root = demo_workspace(settled=False)
    path = root / "Formal/Demo/Statements.lean"
    path.write_text(
        path.read_text(encoding="utf-8").replace("def Goal : Prop := two * two = 4", statement),
        encoding="utf-8",
    )
    settle(root)
    code, violations = gate_json(root)
    assert code == 1
    found = only_violation(violations)
    assert (found["rule"], found["target"], found["file"]) == (
        "statement-shape",
        "goal",
        "Formal/Demo/Statements.lean",
    )
    assert found["line"] in declaration_lines(path, statement)
    assert target_of(status_json(root), "demo", "goal")["status"] == "stated"


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("theorem goal : Goal := by", "theorem goal : two * two = 4 := by", "not exactly"),
        ("theorem goal : Goal := by", "theorem goal : Step := by", "is `Step`, not"),
        ("theorem goal : Goal := by", "theorem goal (h : True) : Goal := by", "not exactly"),
        ("theorem goal : Goal := by", "def goal : Goal := by", "declared as `def`"),
        ("theorem goal : Goal := by", "abbrev goal : Goal := by", "declared as `abbrev`"),
    ],
    ids=["spelled-out", "other-statement", "binder", "def", "abbrev"],
)
def test_a_proof_must_be_a_theorem_of_exactly_its_statement(
    demo_workspace: Build, old: str, new: str, reason: str
) -> None:
    root = demo_workspace(settled=False)
    path = root / "Formal/Demo/Proofs.lean"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    settle(root)
    code, violations = gate_json(root)
    assert code == 1
    assert violations, "a proof of the wrong kind or type passed the gate"
    lines = declaration_lines(path, new)
    for found in violations:  # the kind and the type are separate findings, both at the proof
        assert (found["rule"], found["target"], found["file"]) == (
            "proof-type",
            "goal",
            "Formal/Demo/Proofs.lean",
        )
        assert found["line"] in lines
    goal = target_of(status_json(root), "demo", "goal")
    assert goal["status"] == "stated"
    assert any(reason in r for r in goal["reasons"]), goal["reasons"]


# ---------------------------------------------------------------- pins, drift, toolchain


def test_a_never_pinned_mission_is_not_proved(demo_workspace: Build) -> None:
    root = demo_workspace(settled=False)
    assert invoke("sync", "--root", root).exit_code == 0
    data = status_json(root)
    for target in ("step", "goal"):
        found = target_of(data, "demo", target)
        assert found["status"] == "stated"
        assert "statements are not pinned (run `missions pin`)" in found["reasons"]
    code, violations = gate_json(root)
    yaml = root / "missions/demo.yaml"
    assert code == 1
    assert located(violations) == [("statement-pin", "missions/demo.yaml", line_of(yaml, "lean:"))]
    assert "missions pin demo" in violations[0]["message"]


def test_a_statement_changed_since_its_pin(demo_workspace: Build) -> None:
    root = demo_workspace(use_git=True)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "pin demo")
    defs = root / "Formal/Demo/Defs.lean"
    defs.write_text(defs.read_text(encoding="utf-8").replace(":= 2", ":= 3"), encoding="utf-8")
    git(root, "commit", "-q", "-am", "change the model")
    code, violations = gate_json(root)
    yaml = root / "missions/demo.yaml"
    assert code == 1
    pins = [v for v in violations if v["rule"] == "statement-pin"]
    assert located(pins) == [
        ("statement-pin", "missions/demo.yaml", line_of(yaml, "statement_pin:"))
    ]
    assert "Formal/Demo/Defs.lean" in pins[0]["message"]
    assert "change the model" in pins[0]["message"]
    # the computed statuses fell back to stated, so the recorded ones drifted too, and a
    # recorded proof lost without a recorded reason is a regression (the ratchet)
    assert {(v["rule"], v["target"]) for v in violations if v["rule"] != "statement-pin"} == {
        ("status-drift", "step"),
        ("status-drift", "goal"),
        ("status-regression", "step"),
        ("status-regression", "goal"),
    }


@pytest.mark.parametrize(("recorded", "computed"), [("proved", "stated"), ("stated", "proved")])
def test_a_recorded_status_that_differs_from_the_computed_one(
    demo_workspace: Build, recorded: str, computed: str
) -> None:
    root = demo_workspace(settled=False)
    assert invoke("pin", "--root", root).exit_code == 0
    if computed == "stated":  # the milestone's proof is unfinished, the YAML claims otherwise
        proofs = root / "Formal/Demo/Proofs.lean"
        text = proofs.read_text(encoding="utf-8")
        proofs.write_text(text.replace("  norm_num [Step, two]", "  sorry"), encoding="utf-8")
    yaml = root / "missions/demo.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace("status: stated", f"status: {recorded}"),
        encoding="utf-8",
    )
    code, violations = gate_json(root)
    lines = [
        i for i, line in enumerate(yaml.read_text("utf-8").splitlines(), 1) if "status:" in line
    ]
    assert code == 1
    drifting = ["step", "goal"]  # a sorry in the milestone also leaves the goal stated
    drift = [v for v in violations if v["rule"] == "status-drift"]
    assert [(v["target"], v["file"], v["line"]) for v in drift] == [
        (t, "missions/demo.yaml", line) for t, line in zip(drifting, lines, strict=True)
    ]
    expected = f"YAML says {recorded} (source evidence), computed {computed} (source evidence)"
    assert expected in drift[0]["message"]
    regressions = sorted(v["target"] for v in violations if v["rule"] == "status-regression")
    # a recorded `proved` lowered without a recorded reason is a regression (the ratchet)
    assert regressions == (sorted(drifting) if recorded == "proved" else [])
    assert {v["rule"] for v in violations} <= {"status-drift", "status-regression"}
    if recorded == "proved":
        assert invoke("sync", "--root", root).exit_code == 2  # refuses to lower silently
        allow = [a for t in drifting for a in ("--allow-regression", f"demo/{t}")]
        reason = ["--reason", "the milestone proof was never finished"]
        assert invoke("sync", *allow, *reason, "--root", root).exit_code == 0
    else:
        assert invoke("sync", "--root", root).exit_code == 0
    assert gate_json(root) == (0, [])


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("lean-toolchain", "leanprover/lean4:v4.29.0\n"),
        ("lean-toolchain", "leanprover/lean4:nightly\n"),
    ],
)
def test_a_toolchain_that_is_not_the_pinned_one(
    demo_workspace: Build, name: str, text: str
) -> None:
    root = demo_workspace()
    (root / name).write_text(text, encoding="utf-8")
    code, violations = gate_json(root)
    assert code == 1
    assert ("toolchain-pin", name, 1) in located(violations)
    # what Lean checks under another toolchain is not known: no proof stands on it
    lost = {v["rule"] for v in violations if v["rule"] != "toolchain-pin"}
    assert lost and lost <= {"status-drift", "status-regression"}


@pytest.mark.parametrize(
    "declaration",
    [
        "inductive Goal : Prop\n  | intro",
        "inductive Goal : Prop | intro",
        "structure Goal : Prop",
        "class Goal : Prop",
        "class inductive Goal : Prop | intro",
        "axiom Goal : Prop",
        "opaque Goal : Prop",
        "irreducible_def Goal : Prop := True",
        "theorem Goal : True := trivial",
        "instance Goal : Inhabited Prop := ⟨True⟩",
        "def Goal (n : ℕ) : Prop := n = n",
        "def Goal : Type := Unit",
    ],
)
def test_a_statement_must_be_a_parameterless_prop_definition(
    make_workspace: Build, declaration: str
) -> None:
    """Whatever else declares the statement's name (an inductive proposition its own
    constructor proves, a structure, an axiom, a def with parameters), the target is not
    proved and the gate names the shape."""
    files = {
        "Formal/Case/Statements.lean": f"import Mathlib\nnamespace Formal.Case\n{declaration}\n"
        "end Formal.Case\n",
        "Formal/Case/Proofs.lean": "import Formal.Case.Statements\nnamespace Formal.Case\n"
        "theorem goal : Goal := Goal.intro\nend Formal.Case\n",
    }
    root = make_workspace(files, {"case": "Formal.Case"}, use_git=False)
    settle(root)
    data = status_json(root)
    assert target_of(data, "case", "goal")["status"] == "stated"
    code, violations = gate_json(root)
    assert code == 1 and "statement-shape" in {v["rule"] for v in violations}
