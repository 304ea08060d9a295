"""Edits inside statement closures (a shared definitions file): the incremental ``status``
answers them declaration by declaration and must print exactly what the full command prints,
edit after edit, or hand over to the full command."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from missions import incremental
from missions.cli import app
from missions.roots import RACY_STAMP, file_stamp
from test_incremental import _incremental, _status, _write

DEFS = """\
import Mathlib

namespace Formal.Shared

/-- A bound. -/
def bound (n : ℕ) : ℕ := n * n

theorem bound_self (n : ℕ) : bound n = n * n := rfl

theorem unrelated_fact : True := trivial

end Formal.Shared
"""
STATEMENTS = """\
import Formal.Shared.Defs

namespace Formal.{name}

/-- The claim of mission {name}. -/
def Goal : Prop := {claim}

end Formal.{name}
"""
PROOFS = """\
import Formal.{name}.Statements

namespace Formal.{name}

theorem goal : Goal := by
  intro n
  {tactic}

end Formal.{name}
"""


def _mission(name: str, claim: str, tactic: str, imports: str = "") -> dict[str, str]:
    statements = STATEMENTS.format(name=name, claim=claim)
    if not imports:
        statements = statements.replace("import Formal.Shared.Defs", "import Mathlib")
    return {
        f"Formal/{name}/Statements.lean": statements,
        f"Formal/{name}/Proofs.lean": PROOFS.format(name=name, tactic=tactic),
        f"Formal/{name}.lean": f"import Formal.{name}.Statements\nimport Formal.{name}.Proofs\n",
    }


#: The shared definitions, a mission whose statement uses them and one that never sees them.
SHARED_AND_ALPHA = {
    "Formal/Shared/Defs.lean": DEFS,
    **_mission(
        "Alpha",
        "∀ n : ℕ, Formal.Shared.bound n = n * n",
        "exact Formal.Shared.bound_self n",
        imports="shared",
    ),
}
GAMMA = _mission("Gamma", "∀ n : ℕ, n ≤ n ^ 2", "nlinarith [Nat.zero_le n]")


@pytest.fixture
def root(make_workspace: Callable[..., Path]) -> Path:
    """Alpha's statement uses the shared definitions, Beta's only imports them, Gamma's does
    not see them at all."""
    files = {
        **SHARED_AND_ALPHA,
        **_mission("Beta", "∀ n : ℕ, n ≤ n ^ 2", "nlinarith [Nat.zero_le n]", imports="shared"),
        **GAMMA,
        "Formal.lean": "import Formal.Alpha\nimport Formal.Beta\nimport Formal.Gamma\n",
    }
    missions = {"alpha": "Formal.Alpha", "beta": "Formal.Beta", "gamma": "Formal.Gamma"}
    built = make_workspace(files, missions)
    for command in (["pin"], ["sync"]):
        assert CliRunner().invoke(app, [*command, "--root", str(built)]).exit_code == 0
    _status(built)  # a full run leaves the state the incremental path starts from
    return built


def _answered(root: Path) -> dict[str, dict]:
    text = _incremental(root)
    assert text is not None, "the incremental path should have answered"
    assert text == _status(root, "--no-cache")
    return {m["id"]: m for m in json.loads(text)["missions"]}


def _edit(root: Path, old: str, new: str) -> None:
    path = root / "Formal/Shared/Defs.lean"
    text = path.read_text(encoding="utf-8")
    assert old in text
    _write(path, text.replace(old, new, 1))


def _append(root: Path, lean: str) -> None:
    _edit(root, "end Formal.Shared\n", f"{lean}\n\nend Formal.Shared\n")


def test_an_added_lemma_changes_the_pins_above_it(root: Path) -> None:
    gamma = json.loads(_status(root))["missions"][2]
    _append(root, "theorem fresh_fact : True := sorry")
    missions = _answered(root)
    assert not missions["alpha"]["pin"]["matches"] and not missions["beta"]["pin"]["matches"]
    assert missions["gamma"] == gamma  # outside the shared file's reach
    for mission in ("alpha", "beta"):
        target = missions[mission]["targets"][0]
        assert target["status"] == "stated"
        assert "statement closure changed since it was pinned" in target["reasons"]
    _edit(root, "\ntheorem fresh_fact : True := sorry\n", "")  # undone: the pins match again
    missions = _answered(root)
    assert missions["alpha"]["pin"]["matches"]
    assert missions["alpha"]["targets"][0]["status"] == "proved"


def test_sorry_in_a_lemma_a_proof_uses(root: Path) -> None:
    _edit(root, "n * n := rfl", "n * n := sorry")
    missions = _answered(root)
    reasons = missions["alpha"]["targets"][0]["reasons"]
    assert any(r.startswith("sorry in Formal.Shared.bound_self") for r in reasons)
    beta = missions["beta"]["targets"][0]["reasons"]
    assert not any(r.startswith("sorry in Formal.Shared") for r in beta)  # not reached, but
    assert any(r.startswith("sorry in the statement closure of beta") for r in beta)  # held


def test_a_new_declaration_a_field_name_may_denote(root: Path) -> None:
    """Beta's proof mentions `Nat.zero_le`: a new `zero_le` anywhere it imports may be meant."""
    _append(root, "theorem zero_le : True := sorry")
    missions = _answered(root)
    reasons = missions["beta"]["targets"][0]["reasons"]
    assert any(r.startswith("sorry in Formal.Shared.zero_le") for r in reasons)


def test_lines_that_move(root: Path) -> None:
    """Declarations below an inserted line move: reasons that name their lines follow."""
    _edit(root, "theorem bound_self", "-- moved\ntheorem bound_self")
    _edit(root, "n * n := rfl", "n * n := sorry")
    missions = _answered(root)
    reasons = missions["alpha"]["targets"][0]["reasons"]
    assert any("Formal/Shared/Defs.lean:9" in r for r in reasons), reasons


def test_a_definition_statements_use_is_linted_again(root: Path) -> None:
    """`bound` is named in a statement closure: moving it may move lint findings."""
    _edit(root, "/-- A bound. -/", "-- moved\n/-- A bound. -/")
    assert _incremental(root) is None
    assert _status(root) == _status(root, "--no-cache")


@pytest.mark.parametrize(
    "lean",
    [
        "instance : Inhabited ℕ := ⟨0⟩",  # automation uses it unnamed
        "attribute [simp] bound_self",
        "open Nat",  # the file's scope changes
        "def Junk (f : ℕ → ℝ) : ℝ := ∫ x in (0 : ℝ)..1, f 0",  # a lint rule starts here
        "theorem typed (X : Type) : True := trivial",
        "-- lint: allow junk-div because the divisor is positive",
        "#exit",
    ],
)
def test_edits_it_cannot_bound_go_to_the_full_command(root: Path, lean: str) -> None:
    _append(root, lean)
    assert _incremental(root) is None
    assert _status(root) == _status(root, "--no-cache")


def test_an_edit_only_the_lints_can_see(root: Path) -> None:
    """`a * b` to `a / b` keeps every name the scan records; the lints read the tokens."""
    _append(root, "def ratio (a b : ℝ) : ℝ := a * b")
    _answered(root)
    _edit(root, "a * b", "a / b")
    assert _incremental(root) is None
    assert json.loads(_status(root))["lint"]["unaccepted"] > 0


def test_a_lint_finding_in_a_removed_declaration(root: Path) -> None:
    _append(root, "def ratio (a b : ℝ) : ℝ := a / b")
    assert _incremental(root) is None  # a new finding: the full command counts it
    first = json.loads(_status(root))
    assert first["lint"]["unaccepted"] > 0
    _edit(root, "\ndef ratio (a b : ℝ) : ℝ := a / b\n", "")
    assert _incremental(root) is None  # the finding goes away with its declaration
    assert json.loads(_status(root))["lint"]["unaccepted"] < first["lint"]["unaccepted"]


#: Edits a person makes to a shared definitions file, some the incremental path answers and
#: some it hands over; ``{k}`` makes each name new.
EDITS: list[Callable[[str, int], str]] = [
    lambda text, k: text.replace(
        "end Formal.Shared", f"theorem t{k} : True := trivial\n\nend Formal.Shared"
    ),
    lambda text, k: text.replace(
        "end Formal.Shared", f"theorem s{k} : True := sorry\n\nend Formal.Shared"
    ),
    lambda text, k: text.replace(
        "end Formal.Shared", f"theorem u{k} : bound 1 = 1 := bound_self 1\n\nend Formal.Shared"
    ),
    lambda text, k: (
        text.replace(":= rfl", ":= sorry")
        if ":= rfl" in text
        else text.replace("n * n := sorry", "n * n := rfl")
    ),
    lambda text, k: text.replace(
        "namespace Formal.Shared\n",
        f"namespace Formal.Shared\n\ntheorem top{k} : True := trivial\n",
    ),
    lambda text, k: text.replace(
        "namespace Formal.Shared\n", f"namespace Formal.Shared\n-- note {k}\n"
    ),
    lambda text, k: (
        text.replace("end Formal.Shared", "theorem zero_le : True := sorry\n\nend Formal.Shared")
        if "theorem zero_le" not in text
        else text.replace("theorem zero_le : True := sorry\n", "")
    ),
    lambda text, k: text.replace("theorem unrelated_fact", f"theorem unrelated_fact{k}"),
    lambda text, k: text.replace("bound_self 1", "bound_self 2"),
    lambda text, k: text.replace(
        "end Formal.Shared", "instance : Inhabited ℕ := ⟨0⟩\n\nend Formal.Shared"
    ),
    lambda text, k: (
        text.replace("end Formal.Shared", "def ratio (a b : ℝ) : ℝ := a * b\n\nend Formal.Shared")
        if "def ratio" not in text
        else text.replace("a * b", "a / b")
        if "a * b" in text
        else text.replace("a / b", "a * b")
    ),
    lambda text, k: DEFS,
]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_edit_sequences_agree_with_the_full_command(root: Path, seed: int) -> None:
    """Whatever a sequence of edits does, each answer is the full command's: the incremental
    path either answers exactly or hands over (and the full run then renews its state)."""
    rng = random.Random(seed)
    path = root / "Formal/Shared/Defs.lean"
    answered = 0
    for k in range(10):
        edit = rng.choice(EDITS)
        _write(path, edit(path.read_text(encoding="utf-8"), k))
        text = _incremental(root)
        full = _status(root, "--no-cache")
        if text is None:
            assert _status(root) == full
        else:
            answered += 1
            assert text == full, path.read_text(encoding="utf-8")
    assert answered, "no edit of the sequence was answered incrementally"


def test_texts_count_only_the_contents_that_were_scanned(tmp_path: Path) -> None:
    """A module is searched as it was scanned: changed since (other bytes than the index
    holds; a stamp that differs only sends it to its bytes), unreadable, a FIFO or unknown,
    it may name anything."""
    import os
    from types import SimpleNamespace

    plain = tmp_path / "Plain.lean"
    plain.write_bytes(b"theorem other : True := trivial\n")
    named = tmp_path / "Named.lean"
    named.write_bytes(b"theorem user : True := fresh_fact\n")
    fifo = tmp_path / "Fifo.lean"
    os.mkfifo(fifo)
    paths = {"Plain": str(plain), "Named": str(named), "Fifo": str(fifo), "Gone": "/nonexistent"}

    def row(path: Path) -> list:
        info = path.stat()
        return [info.st_size, file_stamp(info), hashlib.sha256(path.read_bytes()).hexdigest()]

    index = {str(p): row(p) for p in (plain, named)}
    store = SimpleNamespace(index=index)
    texts = incremental._Texts(store, paths, {"fresh_fact"})  # type: ignore[arg-type]
    assert [texts.mention(m) for m in ("Plain", "Named", "Fifo", "Gone", "Unknown")] == [
        False,
        True,
        True,
        True,
        True,
    ]
    index[str(plain)] = [row(plain)[0], RACY_STAMP, row(plain)[2]]  # a stamp not trusted
    assert not incremental._Texts(store, paths, {"fresh_fact"}).mention("Plain")  # type: ignore[arg-type]
    index[str(plain)] = [row(plain)[0], row(plain)[1] + "0", "0" * 64]  # other bytes, time
    stale = incremental._Texts(store, paths, {"fresh_fact"})  # type: ignore[arg-type]
    assert stale.mention("Plain")
    assert not incremental._Texts(store, paths, set()).mention("Plain")  # nothing to look for


def test_a_patched_entry_is_the_entry_encoded_again() -> None:
    """Pins, statuses and reasons are patched into an entry's text in place; the text is what
    encoding the new entry prints, and a text of another layout is not patched."""
    import copy

    before = {
        "id": "m",
        "status": "complete",
        "pin": {"recorded": "sha256:a", "current": "sha256:a", "matches": True},
        "targets": [
            {"witness": {"id": "x"}, "id": "t1", "status": "proved", "reasons": []},
            {"witness": None, "id": "t2", "status": "stated", "reasons": ["sorry in t2", "x"]},
        ],
    }
    after = copy.deepcopy(before)
    after["status"] = "open"
    after["pin"].update(current="sha256:b", matches=False)
    for target in after["targets"]:
        target["status"] = "stated"
        target["reasons"].insert(0, "statement closure changed since it was pinned")
    text = incremental.mission_text(before)
    assert incremental._patched(text, before, after) == incremental.mission_text(after)
    assert incremental._patched(text.replace('"t2"', '"t3"'), before, after) is None
    assert incremental._patched(json.dumps(before), before, after) is None
