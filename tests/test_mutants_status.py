"""Verdicts and reasons of :mod:`missions.status` that mutation testing found unguarded.

One small workspace per rule of the status layer: the exact reason a user reads for each way a
target is not certainly proved (so a reworded or dropped reason fails), and the rule, file and
line of the gate violation it raises. Each case also shows that the verdict is ``stated``, so
the reason is the reason for something.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import gate_json, invoke, line_of, status_json
from missions.catalog import load_catalog
from missions.lean.workspace import load_workspace
from missions.status import Violation, _single, analyze, mission_state, summary_of
from mutant_support import case_files, outcome
from test_mutants_pins import two_missions

Build = Callable[..., Path]
P = "Formal/Case/Proofs.lean"
BAD = "theorem bad : two = 2 := sorry\n\n"  # line 5 of Proofs

CASES: dict[str, tuple[dict[str, Any], list[str], list[tuple[str, str, int | str]]]] = {
    "statement declared twice": (
        {"defs": "def two : ℕ := 2\n\ndef Goal : Prop := True\n"},
        ["statement Formal.Case.Goal is declared more than once"],
        [("missing-declaration", "missions/case.yaml", "statement:")],
    ),
    "statement is a theorem": (
        {"statements": "theorem Goal : two = 2 := rfl\n"},
        ["statement Formal.Case.Goal is not a Prop-valued definition"],
        [("statement-shape", "Formal/Case/Statements.lean", 5)],
    ),
    "statement with parameters": (
        {"statements": "def Goal (n : ℕ) : Prop := n = n\n"},
        ["statement Formal.Case.Goal is not a Prop-valued definition"],
        [("statement-shape", "Formal/Case/Statements.lean", 5)],
    ),
    "statement of another type": (
        {"statements": "def Goal : Type := ℕ\n", "proofs": "theorem goal : True := trivial\n"},
        ["statement Formal.Case.Goal is not a Prop-valued definition"],
        [("statement-shape", "Formal/Case/Statements.lean", 5)],
    ),
    "statement under a variable": (
        {"statements": "variable (n : ℕ)\n\ndef Goal : Prop := two = 2\n"},
        ["a `variable` is in scope of statement Formal.Case.Goal"],
        [],
    ),
    "proof is a def": (
        {"proofs": "def goal : Goal := rfl\n"},
        ["proof Formal.Case.goal is declared as `def`, not `theorem`"],
        [("proof-type", P, 5)],
    ),
    "proof with binders": (
        {"proofs": "theorem goal (n : ℕ) : Goal := rfl\n"},
        ["the type of Formal.Case.goal is not exactly Formal.Case.Goal"],
        [("proof-type", P, 5)],
    ),
    "proof of another statement": (
        {
            "statements": "def Goal : Prop := two = 2\n\ndef Other : Prop := True\n",
            "proofs": "theorem goal : Other := trivial\n",
        },
        ["the type of Formal.Case.goal is `Other`, not Formal.Case.Goal"],
        [("proof-type", P, 5)],
    ),
    "ambiguous statement name": (
        {
            "statements": (
                "def Goal : Prop := two = 2\n\nnamespace Sub\ndef Goal : Prop := True\nend Sub\n"
            ),
            "proofs": "open Sub in\ntheorem goal : Goal := rfl\n",
        },
        ["`Goal` in the type of Formal.Case.goal is ambiguous (also Formal.Case.Sub.Goal)"],
        [],
    ),
    "ambiguous among three": (
        {
            "statements": (
                "def Goal : Prop := two = 2\n\nnamespace Sub\ndef Goal : Prop := True\nend Sub\n"
                "\nnamespace Sub2\ndef Goal : Prop := True\nend Sub2\n"
            ),
            "proofs": "open Sub Sub2 in\ntheorem goal : Goal := rfl\n",
        },
        [
            "`Goal` in the type of Formal.Case.goal is ambiguous "
            "(also Formal.Case.Sub.Goal, Formal.Case.Sub2.Goal)"
        ],
        [],
    ),
    "proof cut off by #exit in two files": (
        {"defs": "def two : ℕ := 2\n#exit\n", "proofs": "#exit\n\ntheorem goal : Goal := rfl\n"},
        [
            "proof Formal.Case.goal is missing from the sources (`#exit` at "
            "Formal/Case/Defs.lean:6, Formal/Case/Proofs.lean:5 cuts off what follows)"
        ],
        [("missing-declaration", "missions/case.yaml", "proof:")],
    ),
    "proof cut off by #exit": (
        {"proofs": "#exit\n\ntheorem goal : Goal := rfl\n"},
        [
            "proof Formal.Case.goal is missing from the sources "
            "(`#exit` at Formal/Case/Proofs.lean:5 cuts off what follows)"
        ],
        [("missing-declaration", "missions/case.yaml", "proof:")],
    ),
    "proof declared twice": (
        {"defs": "def two : ℕ := 2\n\ntheorem goal : True := trivial\n"},
        ["proof Formal.Case.goal is declared more than once"],
        [("missing-declaration", "missions/case.yaml", "proof:")],
    ),
    "proof refers to itself": (
        {"proofs": "theorem goal : Goal := goal\n"},
        ["Formal.Case.goal refers to itself: a parameterless theorem cannot recurse"],
        [],
    ),
    "proof refers to itself through a lemma": (
        {"proofs": "theorem goal : Goal := helper\n\ntheorem helper : Goal := goal\n"},
        [
            "Formal.Case.goal refers to itself through Formal.Case.helper: "
            "a parameterless theorem cannot recurse"
        ],
        [],
    ),
    "proof refers to itself through a lemma about something else": (
        {
            "proofs": "theorem goal : Goal := by\n  have := helper\n  rfl\n\n"
            "theorem helper : True := by\n  have := goal\n  trivial\n"
        },
        [
            "Formal.Case.goal refers to itself through Formal.Case.helper: "
            "a parameterless theorem cannot recurse"
        ],
        [],
    ),
    "exact? reaches a lemma that uses the proof": (
        {
            "proofs": "theorem goal : Goal := by exact?\n\n"
            "theorem other : True := by\n  have := goal\n  trivial\n"
        },
        [
            "Formal.Case.goal refers to itself through Formal.Case.other: "
            "a parameterless theorem cannot recurse"
        ],
        [],
    ),
    "native computation": (
        {"proofs": "theorem goal : Goal := by native_decide\n"},
        [
            "native computation in Formal.Case.goal at Formal/Case/Proofs.lean:5 "
            "adds a non-standard axiom",
            "`native_decide` trusts compiled code (adds an axiom) (Formal/Case/Proofs.lean:5)",
        ],
        [("forbidden-construct", P, 5)],
    ),
    "an axiom": (
        {"proofs": "axiom magic : Goal\n\ntheorem goal : Goal := magic\n"},
        ["uses axiom Formal.Case.magic (Formal/Case/Proofs.lean:5)"],
        [("forbidden-construct", P, 5)],
    ),
    "a sorry reached through a lemma": (
        {"proofs": BAD + "theorem goal : Goal := by\n  have := bad\n  rfl\n"},
        ["sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 (used by Formal.Case.goal)"],
        [],
    ),
    "a sorry two lemmas away": (
        {
            "proofs": BAD
            + "theorem mid : two = 2 := bad\n\n"
            + "theorem goal : Goal := by\n  have := mid\n  rfl\n"
        },
        ["sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 (used by Formal.Case.goal)"],
        [],
    ),
    "exact? makes everything reachable": (
        {"proofs": BAD + "theorem goal : Goal := by exact?\n"},
        [
            "sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 (everything imported is "
            "reachable: `exact?`-style search at Formal/Case/Proofs.lean:7)"
        ],
        [],
    ),
    "two searches": (
        {
            "proofs": BAD
            + "theorem h2 : True := by exact?\n\n"
            + "theorem goal : Goal := by\n  have := h2\n  exact?\n"
        },
        [
            "sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 (everything imported is "
            "reachable: `exact?`-style search at Formal/Case/Proofs.lean:11 (and 1 more))"
        ],
        [],
    ),
    "an unknown command makes everything reachable": (
        {"proofs": BAD + "frobnicate\n\ntheorem goal : Goal := rfl\n"},
        [
            "Formal/Case/Proofs.lean:7: unknown command `frobnicate`; the scanner cannot be "
            "sure of the names declared in this file",
            "sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 (everything imported is "
            "reachable: unknown command `frobnicate` at Formal/Case/Proofs.lean:7)",
        ],
        [],
    ),
    "an instance": (
        {"proofs": "instance bad : Inhabited ℕ := sorry\n\ntheorem goal : Goal := rfl\n"},
        ["sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 (instance, usable implicitly)"],
        [],
    ),
    "an attribute command": (
        {"proofs": BAD + "attribute [simp] bad\n\ntheorem goal : Goal := by simp [Goal]\n"},
        [
            "sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 "
            "(attribute [simp] command, usable implicitly)"
        ],
        [],
    ),
    "a simp lemma": (
        {"proofs": "@[simp] " + BAD + "theorem goal : Goal := by simp [Goal]\n"},
        [
            "sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 "
            "(@[simp] declaration, usable implicitly)"
        ],
        [],
    ),
    "a notation": (
        {"proofs": 'notation "Q" => (sorry : ℕ)\n\ntheorem goal : Goal := rfl\n'},
        ["sorry in notation command at Formal/Case/Proofs.lean:5 (notation in scope)"],
        [],
    ),
    "a deriving command": (
        {
            "proofs": "structure Bad where\n  x : ℕ := sorry\n\n"
            "deriving instance Repr for Bad\n\ntheorem goal : Goal := rfl\n"
        },
        [
            "sorry in Formal.Case.Bad at Formal/Case/Proofs.lean:6 "
            "(deriving command, usable implicitly)"
        ],
        [],
    ),
    "a macro": (
        {"proofs": 'macro "zz" : tactic => `(tactic| rfl)\n\ntheorem goal : Goal := rfl\n'},
        [
            "custom syntax, elaborator or metaprogram (`macro`) at Formal/Case/Proofs.lean:5 "
            "cannot be followed by a source scan"
        ],
        [],
    ),
    "an unknown hash command": (
        {"proofs": "#frobnicate\n\ntheorem goal : Goal := rfl\n"},
        [
            "`#frobnicate` at Formal/Case/Proofs.lean:5 is a command the scanner does not "
            "know; it may run code"
        ],
        [],
    ),
    "a sorry outside any declaration": (
        {"proofs": "#check (sorry : ℕ)\n\ntheorem goal : Goal := rfl\n"},
        ["sorry outside any declaration at Formal/Case/Proofs.lean:5"],
        [],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_way_to_fall_short_of_proved_says_why(make_workspace: Build, case: str) -> None:
    parts, reasons, violations = CASES[case]
    found = outcome(make_workspace, case_files(**parts))
    assert found.status == "stated", found.reasons
    for reason in reasons:
        assert reason in found.reasons, found.reasons
    for rule, file, where in violations:
        line = line_of(found.root / file, where) if isinstance(where, str) else where
        matching = [
            v
            for v in found.violations
            if (v["rule"], v["file"], v["line"]) == (rule, file, line)
            # findings forbidden anywhere belong to no mission
            and v["mission"] == (None if rule == "forbidden-construct" else "case")
        ]
        assert matching, found.violations


def test_a_clean_case_is_proved_with_no_reason(make_workspace: Build) -> None:
    """The baseline of every case above: the same workspace untouched is proved."""
    found = outcome(make_workspace, case_files())
    assert (found.status, found.reasons) == ("proved", [])
    data = status_json(found.root)
    assert data["missions"][0]["status"] == "complete"
    assert (data["summary"]["complete"], data["summary"]["proved"]) == (1, 1)


def test_a_missing_statement_makes_the_mission_incomplete(make_workspace: Build) -> None:
    found = outcome(make_workspace, case_files(), statement="Nope")
    assert found.status == "missing"
    assert found.reasons == ["statement Formal.Case.Nope is missing from the sources"]
    data = status_json(found.root)
    assert data["missions"][0]["status"] == "incomplete"
    assert (data["summary"]["missing"], data["summary"]["complete"]) == (1, 0)
    yaml = found.root / "missions" / "case.yaml"
    assert ("missing-declaration", line_of(yaml, "statement:")) in [
        (v["rule"], v["line"]) for v in found.violations if v["target"] == "goal"
    ]


EXTRA_TARGETS = """\
  - id: later
    kind: milestone
    title: "A milestone nobody proved yet"
    informal: >
      Later.
    source: src
    statement: Formal.Case.Goal
    depends_on: []
    provenance: {statement: literature-sourced, proof: none}
  - id: elsewhere
    kind: external
    title: "Proved in another repository"
    informal: >
      Elsewhere.
    source: src
    external: {repository: "github.com/example/lean", commit: "0123456789"}
    depends_on: []
    provenance: {statement: literature-sourced, proof: external}
"""


def test_targets_without_a_proof_or_living_elsewhere(make_workspace: Build) -> None:
    """A target that names no proof is stated; an external one is shown, never counted as
    proved; a mission with an open milestone is open, not complete."""
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    yaml = root / "missions" / "case.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8") + EXTRA_TARGETS, encoding="utf-8")
    assert invoke("pin", "--root", root).exit_code == 0
    data = status_json(root)
    targets = {t["id"]: t for t in data["missions"][0]["targets"]}
    assert (targets["goal"]["status"], targets["goal"]["reasons"]) == ("proved", [])
    assert (targets["later"]["status"], targets["later"]["reasons"]) == (
        "stated",
        ["no proof named"],
    )
    assert (targets["elsewhere"]["status"], targets["elsewhere"]["evidence"]) == (
        "external",
        None,
    )
    assert targets["elsewhere"]["reasons"] == [
        "lives in another repository; never counted as proved here"
    ]
    assert data["missions"][0]["status"] == "open"
    summary = data["summary"]
    assert {k: summary[k] for k in ("missions", "targets", "proved", "stated", "external")} == {
        "missions": 1,
        "targets": 3,
        "proved": 1,
        "stated": 1,
        "external": 1,
    }
    assert (summary["missing"], summary["complete"]) == (0, 0)


@pytest.mark.parametrize(
    ("command", "role"),
    [
        ('notation3 "Q" => bad', "notation in scope"),
        ('infix:65 " ⊞ " => fun (a b : ℕ) => bad', "notation in scope"),
        ('infixl:65 " ⊞ " => fun (a b : ℕ) => bad', "notation in scope"),
        ('infixr:65 " ⊞ " => fun (a b : ℕ) => bad', "notation in scope"),
        ('prefix:max "⊞" => fun (a : ℕ) => bad', "notation in scope"),
        ('postfix:max "⊞" => fun (a : ℕ) => bad', "notation in scope"),
        (
            "attribute [simp, norm_cast] bad",
            "attribute [simp, norm_cast] command, usable implicitly",
        ),
        ("frobnicate bad", "a command the scanner does not know"),
    ],
)
def test_every_notation_command_and_attribute_list_is_named_as_the_way_in(
    make_workspace: Build, command: str, role: str
) -> None:
    proofs = BAD + command + "\n\ntheorem goal : Goal := by simp [Goal]\n"
    found = outcome(make_workspace, case_files(proofs=proofs))
    assert found.status == "stated"
    way_in = f"sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 ({role})"
    if command.startswith("frobnicate"):  # an unknown command also unsettles the file's names
        assert found.reasons == [
            "Formal/Case/Proofs.lean:7: unknown command `frobnicate`; the scanner cannot be "
            "sure of the names declared in this file",
            way_in,
        ]
    else:
        assert found.reasons == [way_in]


def test_a_violation_without_a_place_says_so() -> None:
    """``check`` prints ``path:line`` before each violation, ``-`` when there is no file, and
    line 1 when the file has no better line."""
    assert Violation("toolchain-pin", "m").location() == "-"
    assert Violation("toolchain-pin", "m", "lean-toolchain").location() == "lean-toolchain:1"
    assert Violation("lint", "m", "Formal/A.lean", 7).location() == "Formal/A.lean:7"


def test_the_summary_counts_every_mission_and_target(make_workspace: Build) -> None:
    root = two_missions(make_workspace)
    summary = status_json(root)["summary"]
    assert {k: summary[k] for k in ("missions", "targets", "proved", "complete")} == {
        "missions": 2,
        "targets": 2,
        "proved": 2,
        "complete": 2,
    }


def test_a_lemma_with_several_automation_attributes_names_them_all(make_workspace: Build) -> None:
    proofs = "@[simp, norm_cast] " + BAD + "theorem goal : Goal := by simp [Goal]\n"
    found = outcome(make_workspace, case_files(proofs=proofs))
    assert found.reasons == [
        "sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5 "
        "(@[simp, norm_cast] declaration, usable implicitly)"
    ]


def test_the_reach_lists_declarations_by_name_only(make_workspace: Build) -> None:
    """``TargetStatus.reached`` names workspace declarations; commands that act like one for
    reachability (a notation here) have no name to list."""
    files = case_files(proofs='notation "Q" => two\n\ntheorem goal : Goal := rfl\n')
    root = make_workspace(files, {"case": "Formal.Case"}, use_git=False)
    assert invoke("pin", "--root", root).exit_code == 0
    analysis = analyze(load_catalog(root, use_cache=False), load_workspace(root, use_cache=False))
    reached = analysis.missions[0].targets[0].reached
    assert "Formal.Case.two" in reached and "Formal.Case.goal" in reached
    assert not [name for name in reached if name.startswith("<")]


def test_a_copy_of_the_proof_outside_the_mission_is_not_the_mission_s(
    make_workspace: Build,
) -> None:
    """A scratch file nothing imports may redeclare the proof: Lean never sees both."""
    files = case_files()
    files["Formal/Case/Scratch.lean"] = (
        "import Formal.Case.Statements\n\nnamespace Formal.Case\n\n"
        "theorem goal : Goal := sorry\n\nend Formal.Case\n"
    )
    found = outcome(make_workspace, files)
    assert (found.status, found.reasons) == ("proved", [])


def test_statement_shape_message(make_workspace: Build) -> None:
    shaped = outcome(make_workspace, case_files(statements="def Goal (n : ℕ) : Prop := n = n\n"))
    assert shaped.says(
        "statement Formal.Case.Goal must be `def Goal : Prop := ...` with no parameters"
    )


def test_an_abbrev_statement_is_a_statement(make_workspace: Build) -> None:
    files = case_files(statements="abbrev Goal : Prop := two = 2\n")
    assert outcome(make_workspace, files).status == "proved"


def test_a_proof_cut_off_by_exit_names_where(make_workspace: Build) -> None:
    cut = outcome(make_workspace, case_files(proofs="#exit\n\ntheorem goal : Goal := rfl\n"))
    assert cut.status == "stated"
    assert (
        "proof Formal.Case.goal is missing from the sources (`#exit` at "
        "Formal/Case/Proofs.lean:5 cuts off what follows)"
    ) in cut.reasons, cut.reasons


def test_a_missing_proof_without_exit_says_only_that(make_workspace: Build) -> None:
    plain = outcome(make_workspace, case_files(proofs="theorem other : Goal := rfl\n"))
    assert "proof Formal.Case.goal is missing from the sources" in plain.reasons


def test_a_statement_changed_since_its_pin_says_so(make_workspace: Build) -> None:
    moved = outcome(
        make_workspace,
        case_files(),
        after_pin={
            "Formal/Case/Defs.lean": "import Mathlib\nnamespace Formal.Case\n"
            "def two : ℕ := 3\nend Formal.Case\n"
        },
    )
    assert "statement closure changed since it was pinned" in moved.reasons


def test_a_notation_spelling_the_statement_counts_for_a_fully_named_type(
    make_workspace: Build,
) -> None:
    files = case_files(
        proofs='local notation "Goal" => True\ntheorem goal : Formal.Case.Goal := trivial\n'
    )
    found = outcome(make_workspace, files)
    assert found.status == "stated", found.reasons
    assert found.says("may change what `Formal.Case.Goal` means"), found.reasons


@pytest.mark.parametrize(
    ("statuses", "state"),
    [
        (["proved", "external"], "complete"),  # what lives elsewhere is not owed here
        (["external"], "open"),  # nothing counted: nothing complete
        (["proved", "stated", "external"], "open"),
        (["external", "missing", "proved"], "incomplete"),
    ],
)
def test_external_targets_are_never_counted_for_the_mission_state(
    statuses: list[str], state: str
) -> None:
    assert mission_state(statuses) == state


def test_the_summary_counts_drafts_only_when_there_are_some() -> None:
    def mission(status: str, *targets: str) -> dict[str, Any]:
        return {"status": status, "targets": [{"status": t} for t in targets]}

    assert summary_of([mission("complete", "proved")]) == {
        "missions": 1,
        "targets": 1,
        "proved": 1,
        "stated": 0,
        "missing": 0,
        "external": 0,
        "complete": 1,
        "draft": 0,
    }
    counts = summary_of([mission("draft", "stated"), mission("open", "external", "missing")])
    assert (counts["draft"], counts["complete"], counts["targets"]) == (1, 0, 3)


def test_a_copy_in_another_library_is_not_the_missions_declaration(make_workspace: Build) -> None:
    """Without the mission's root module, a name declared in two libraries is read in the
    library the root module names (its first component), as Comparator challenges restate
    every proof under ``Challenge``."""
    files = case_files()
    files["comparator/Challenge/Case.lean"] = (
        "import Formal.Case.Statements\n\nnamespace Formal.Case\n\n"
        "theorem goal : Goal := sorry\n\nend Formal.Case\n"
    )
    root = make_workspace(files, use_git=False)
    workspace = load_workspace(root, use_cache=False)
    assert {m.name for m, _ in workspace.lookup("Formal.Case.goal")} == {
        "Formal.Case.Proofs",
        "Challenge.Case",
    }
    for root_module in ("Formal.Case.Sub.Missing", "Formal"):
        found, entries = _single(workspace, "Formal.Case.goal", root_module)
        assert found is not None and found[0].name == "Formal.Case.Proofs", root_module
        assert [m.name for m, _ in entries] == ["Formal.Case.Proofs"]
    found, entries = _single(workspace, "Formal.Case.goal", "Elsewhere.Root")
    assert found is None and len(entries) == 2  # neither copy is that library's: ambiguous


def test_a_statement_at_the_root_namespace_is_named_whole(make_workspace: Build) -> None:
    # a notation in the closure: the scan asks whether it may change what the statement means
    statements = (
        "end Formal.Case\n\ntheorem RootGoal : True := trivial\n\n"
        'notation "ROOTY" => True\n\nnamespace Formal.Case\n'
    )
    root = make_workspace(case_files(statements=statements), {"case": "Formal.Case"})
    yaml = root / "missions" / "case.yaml"
    text = yaml.read_text(encoding="utf-8").replace("Formal.Case.Goal", "RootGoal")
    yaml.write_text(text, encoding="utf-8")
    shapes = [v["message"] for v in gate_json(root)[1] if v["rule"] == "statement-shape"]
    assert shapes == ["statement RootGoal must be `def RootGoal : Prop := ...` with no parameters"]
