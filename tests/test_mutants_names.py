"""The workspace index that mutation testing found unguarded (``benchmarks/mutation.py``):
what a proof's type may name, what a declaration refers to without its uncertain tail, where a
module's file is, and how a file that cannot be scanned is recorded."""

from __future__ import annotations

import gc
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from missions.lean.workspace import Workspace, load_workspace, module_path, scan_file
from missions.status import References

Build = Callable[..., Path]

STATEMENTS = """\
def Top : Prop := True

namespace Formal.Case
def Goal : Prop := True
namespace Inner
def Top : Prop := True
end Inner
end Formal.Case
"""


def index(make_workspace: Build, proofs: str) -> Workspace:
    files = {
        "Formal/Case/Statements.lean": STATEMENTS,
        "Formal/Case/Proofs.lean": "import Formal.Case.Statements\n" + proofs,
    }
    return load_workspace(make_workspace(files, use_git=False), use_cache=False)


def one_proof(
    make_workspace: Build, namespace: str, before: str, type_: str, body: str
) -> tuple[Workspace, str]:
    """The index with one proof ``p : type_ := body`` (after ``before``, in ``namespace``) in
    the proofs module, and the proof's full name."""
    proof = f"{before}theorem p : {type_} := {body}\n"
    if namespace:
        proof = f"namespace {namespace}\n{proof}end {namespace}\n"
    return index(make_workspace, proof), f"{namespace}.p" if namespace else "p"


def type_candidates(workspace: Workspace, proof: str) -> list[str]:
    module = workspace.modules["Formal.Case.Proofs"]
    [decl] = [d for d in module.scan.decls if d.name == proof]
    assert decl.type_name is not None
    return workspace.type_candidates(module, decl, decl.type_name)


CASE, INNER = "Formal.Case", "Formal.Case.Inner"


@pytest.mark.parametrize(
    ("namespace", "before", "written", "candidates"),
    [
        # a name is read in each enclosing namespace and at the root
        (CASE, "", "Goal", ["Formal.Case.Goal"]),
        (CASE, "", "Top", ["Top"]),
        (INNER, "", "Top", ["Formal.Case.Inner.Top", "Top"]),
        # `_root_.` reads it at the root only
        (INNER, "", "_root_.Top", ["Top"]),
        (CASE, "", "_root_.Formal.Case.Goal", ["Formal.Case.Goal"]),
        # a renamed head stands for its old name, alone or before more components
        ("", "open Formal.Case renaming Goal → G\n", "G", ["Formal.Case.Goal"]),
        ("", "open Formal renaming Case → C\n", "C.Goal", ["Formal.Case.Goal"]),
        ("", "open Formal renaming Case → C\n", "C.Inner.Top", ["Formal.Case.Inner.Top"]),
        # … in every namespace the old name may be read in, the root included
        ("", "open Formal.Case.Inner renaming Top → T\n", "T", ["Formal.Case.Inner.Top", "Top"]),
        # no field notation in a type written as one name: `Inner.Goal` is not `Goal`
        (CASE, "", "Inner.Goal", []),
    ],
)
def test_what_a_proofs_type_may_name(
    make_workspace: Build, namespace: str, before: str, written: str, candidates: list[str]
) -> None:
    workspace, name = one_proof(make_workspace, namespace, before, written, "trivial")
    assert sorted(type_candidates(workspace, name)) == candidates


def test_own_mentions_leave_out_only_what_the_uncertain_tail_adds(make_workspace: Build) -> None:
    """``(id h).Goal`` (field notation) in the body is the declaration's own; a word after it at
    column 0 may belong to it or start a command, and only the full reading counts it."""
    workspace = index(
        make_workspace,
        "theorem p (h : Nat) : True := (id h).Goal\nInner.Top\ntheorem q : True := trivial\n",
    )
    module = workspace.modules["Formal.Case.Proofs"]
    decl = next(d for d in module.scan.decls if d.name == "p")
    assert decl.tail_mentions  # the premise of this test
    own = References(workspace).own(module, decl)
    assert [d.name for _, d in own] == ["Formal.Case.Goal"]
    # `Inner.Top`: `Top` may be field notation, so every declaration ending in it counts
    assert set(workspace.mention_targets(module, decl)) == {
        "Formal.Case.Goal",
        "Formal.Case.Inner.Top",
        "Top",
    }


def test_a_module_lives_in_one_file_per_component(tmp_path: Path) -> None:
    assert module_path(tmp_path, "Formal.Case.Proofs") == tmp_path / "Formal/Case/Proofs.lean"


def test_a_file_that_cannot_be_scanned_is_a_scan_with_its_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "Dir.lean"
    folder.mkdir()
    unreadable = scan_file(str(folder))
    assert json.loads(unreadable.text)["error"] == [1, "cannot read the file: Is a directory"]
    assert unreadable.sha == ""  # nothing to remember: the next run reads it again
    for data, line in ((b"def a := 1\n\xff\n\n\n", 2), (b"\n\xff", 2), (b"\xff\n", 1)):
        bad = tmp_path / "Bad.lean"
        bad.write_bytes(data)
        assert json.loads(scan_file(str(bad)).text)["error"] == [
            line,
            "the file is not valid UTF-8",
        ]

    def nameless(path: str, limit: int) -> None:
        raise OSError()  # no errno, no message: the error's name stands in

    monkeypatch.setattr("missions.lean.workspace.read_regular", nameless)
    assert json.loads(scan_file(str(bad)).text)["error"] == [1, "cannot read the file: OSError"]


def test_loading_records_each_files_hash_and_leaves_the_collector_on(
    make_workspace: Build,
) -> None:
    text = "def a := 1\n"
    root = make_workspace({"Formal/A.lean": text}, use_git=False)
    assert gc.isenabled()
    workspace = load_workspace(root, use_cache=False)
    assert gc.isenabled()
    assert workspace.modules["Formal.A"].sha == hashlib.sha256(text.encode()).hexdigest()


def targets_of(workspace: Workspace, module_name: str, name: str) -> list[str]:
    module = workspace.modules[module_name]
    [decl] = [d for d in module.scan.decls if d.name == name]
    return workspace.mention_targets(module, decl)


@pytest.mark.parametrize(
    ("namespace", "before", "body", "targets"),
    [
        # every component reaches every declaration whose last component it is, in whatever
        # namespace it is read: the scopes the scanner tracks never narrow the reach
        (CASE, "", "Top", {"Top", "Formal.Case.Inner.Top"}),
        (INNER, "", "Top", {"Top", "Formal.Case.Inner.Top"}),
        (INNER, "", "Goal", {"Formal.Case.Goal"}),
        (CASE, "", "Inner.Top", {"Formal.Case.Inner.Top", "Top"}),
        (INNER, "", "_root_.Top", {"Top", "Formal.Case.Inner.Top"}),
        (INNER, "", "_root_.Goal", {"Formal.Case.Goal"}),
        (CASE, "", "_root_.Formal.Case.Goal", {"Formal.Case.Goal"}),
        # a component that ends no declaration reaches nothing
        (CASE, "", "Inner.Missing", set()),
        # a renamed head stands for its old name, before more components too
        ("", "open Formal.Case renaming Goal → G\n", "G.symm", {"Formal.Case.Goal"}),
        # after a term every component is field notation
        ("", "", "(id h).Goal.Top", {"Top", "Formal.Case.Inner.Top", "Formal.Case.Goal"}),
        ("", "", "h |>.Top.Goal", {"Top", "Formal.Case.Goal", "Formal.Case.Inner.Top"}),
    ],
)
def test_what_a_name_in_a_proof_may_denote(
    make_workspace: Build, namespace: str, before: str, body: str, targets: set[str]
) -> None:
    workspace, name = one_proof(make_workspace, namespace, before, "True", body)
    found = [t for t in targets_of(workspace, "Formal.Case.Proofs", name) if t != "True"]
    assert len(found) == len(set(found))  # each once
    assert set(found) == targets


def test_a_name_reaches_its_namesakes_in_every_namespace(make_workspace: Build) -> None:
    """``x`` inside ``namespace N1`` is ``N1.x`` to Lean, but the scanner's scopes may be
    wrong (a command it does not model can move them): every ``…x`` is reached, from any
    file, asked in any order."""
    files = {
        "Formal/A.lean": "def N1.x := 1\ndef N2.x := 2\ndef N3.x := 3\n",
        **{
            f"Formal/M{i}.lean": f"import Formal.A\nnamespace {ns}\ndef use := x\nend {ns}\n"
            for i, ns in enumerate(["N1", "N2", "N1", "N3"], 1)
        },
    }
    workspace = load_workspace(make_workspace(files, use_git=False), use_cache=False)
    for i, ns in enumerate(["N1", "N2", "N1", "N3"], 1):
        assert targets_of(workspace, f"Formal.M{i}", f"{ns}.use") == ["N1.x", "N2.x", "N3.x"]


def test_an_import_from_nowhere_is_named_with_its_line(make_workspace: Build) -> None:
    files = {
        "Formal/A.lean": "import Mathlib.Tactic\nimport Formal.Missing\nimport Evil.Lib\n",
    }
    workspace = load_workspace(make_workspace(files, use_git=False), use_cache=False)
    assert workspace.import_problems(workspace.modules["Formal.A"]) == [
        "Formal/A.lean:2: import Formal.Missing not found",
        "Formal/A.lean:3: import Evil.Lib is neither a workspace module nor part of Mathlib and "
        "its dependencies",
    ]


def test_a_renamed_head_is_read_with_the_rest_of_the_name(make_workspace: Build) -> None:
    """``D.Goal`` after ``open Formal renaming Case → D`` is ``Formal.Case.Goal``: the new
    head ``D`` names no declaration, but it stands for ``Formal.Case``, whose components
    reach the declaration ``Formal.Case`` too."""
    files = {
        "Formal/A.lean": "namespace Formal\ndef Case := 0\ndef Case.Goal := 1\nend Formal\n",
        "Formal/B.lean": "import Formal.A\nopen Formal renaming Case → D\ndef use := D.Goal\n",
    }
    workspace = load_workspace(make_workspace(files, use_git=False), use_cache=False)
    assert targets_of(workspace, "Formal.B", "use") == ["Formal.Case.Goal", "Formal.Case"]


def test_the_closure_goes_on_past_an_import_that_is_missing(make_workspace: Build) -> None:
    """A missing module (or one met twice) is skipped, not the end of the walk: what else is
    imported is still in the closure, with the fault of a file that cannot be lexed."""
    files = {
        "Formal/A.lean": "import Formal.B\nimport Formal.C\nimport Formal.Missing\n",
        "Formal/B.lean": "import Formal.C\ndef b := 1\n",
        "Formal/C.lean": 'def c := "unterminated\n',
    }
    workspace = load_workspace(make_workspace(files, use_git=False), use_cache=False)
    assert workspace.closure("Formal.A") == ["Formal.A", "Formal.B", "Formal.C"]
    [missing, fault] = workspace.unresolved_in_closure("Formal.A")
    assert missing == "Formal/A.lean:3: import Formal.Missing not found"
    assert fault.startswith("Formal/C.lean:1: ")


def test_the_order_modules_are_loaded_in_changes_no_answer(tmp_path: Path) -> None:
    """A full run loads modules in directory order, the incremental status in name order: a
    name declared twice must be found, and its reasons listed, in one order either way."""
    from missions.lean.scan import scan_source
    from missions.lean.workspace import Module

    texts = {
        "Formal.Dup": "theorem Formal.dup : True := sorry\n",
        "Formal.Dup.Inner": "theorem Formal.dup : True := by\n  sorry\n",
    }
    modules = {
        name: Module(name, tmp_path / f"{name.replace('.', '/')}.lean", scan_source(text), "")
        for name, text in texts.items()
    }
    orders = [
        Workspace(tmp_path, ["Formal"], {n: modules[n] for n in names})
        for names in (list(texts), list(reversed(texts)))
    ]
    found = [[m.name for m, _ in workspace.lookup("Formal.dup")] for workspace in orders]
    assert found[0] == found[1] == ["Formal.Dup", "Formal.Dup.Inner"]
