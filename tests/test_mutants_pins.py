"""Statement pins: what ``missions pin`` records and refuses, where mutation testing found the
suite silent (``benchmarks/mutation.py``).

The recorded pin is data that outlives the code that wrote it: a digest computed differently
would make every pin in every mission YAML look moved. So the digest is recomputed here from
its definition (the sha256 over the closure's modules, sorted by name, of each name and its
token digest, then of each target's id, kind, statement and proof), independently of
:mod:`missions.pins`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import gate_json, git, invoke
from missions.catalog import load_catalog
from missions.errors import InputError
from missions.lean.scan import scan_source
from missions.lean.workspace import load_workspace
from missions.pins import apply_pin, closure_paths, pin_state, proof_closure_digest
from mutant_support import case_files

Build = Callable[..., Path]


#: The one target of the conftest mission YAML, as a pin covers it.
CASE_TARGETS = [("goal", "goal", "Formal.Case.Goal", "Formal.Case.goal")]


def expected_pin(
    root: Path, modules: list[str], targets: list[tuple[str, ...]] | None = CASE_TARGETS
) -> str:
    """A pin (or, with ``targets=None``, a proof closure's digest) from its definition."""
    h = hashlib.sha256()
    for name in sorted(modules):
        text = (root / (name.replace(".", "/") + ".lean")).read_text(encoding="utf-8")
        h.update(name.encode() + b"\x00" + scan_source(text).digest.encode() + b"\n")
    if targets is not None:
        h.update(b"targets\x00")
        for row in targets:
            h.update("\x1f".join(row).encode() + b"\n")
    return f"sha256:{h.hexdigest()}"


def lean_block(yaml: Path) -> list[str]:
    """The lines of the YAML from ``lean:`` up to ``targets:``."""
    lines = yaml.read_text(encoding="utf-8").splitlines()
    start = lines.index("lean:")
    return lines[start : lines.index("targets:")]


def test_a_first_pin_records_the_digest_in_place_with_an_initial_revision(
    make_workspace: Build,
) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    result = invoke("pin", "--root", root)
    assert result.exit_code == 0, result.stderr
    digest = expected_pin(root, ["Formal.Case.Defs", "Formal.Case.Statements"])
    assert f"pinned case: {digest} at uncommitted files" in result.stdout
    today = dt.date.today().isoformat()
    assert lean_block(root / "missions" / "case.yaml") == [
        "lean:",
        "  module: Formal.Case",
        f"  statement_pin: {digest}",
        "  pinned_at: uncommitted",
        "statement_history:",
        "  - revision: 1",
        f"    date: {today}",
        "    reason: initial",
        f"    digest: {digest}",
        "    commit: uncommitted",
    ]


def test_the_pin_follows_an_explicit_statements_key(make_workspace: Build) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    yaml = root / "missions" / "case.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            "  module: Formal.Case\n",
            "  module: Formal.Case\n  statements: Formal.Case.Statements\n"
            f"  witness_stamp: sha256:{'0' * 64}\n",
        ),
        encoding="utf-8",
    )
    assert invoke("pin", "--root", root).exit_code == 0
    assert [line.split(":")[0] for line in lean_block(yaml)[:6]] == [
        "lean",
        "  module",
        "  statements",
        "  statement_pin",
        "  pinned_at",
        "  witness_stamp",
    ]


def test_an_unknown_statements_module_cannot_be_pinned(make_workspace: Build) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    yaml = root / "missions" / "case.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            "  module: Formal.Case\n", "  module: Formal.Case\n  statements: Formal.Case.Nope\n"
        ),
        encoding="utf-8",
    )
    before = yaml.read_bytes()
    result = invoke("pin", "--root", root)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"{yaml}:10: cannot pin: statements module Formal.Case.Nope not found"
    )
    assert yaml.read_bytes() == before
    _, violations = gate_json(root)
    assert [(v["rule"], v["line"], v["message"]) for v in violations if v["target"] is None] == [
        (
            "statement-pin",
            10,
            "statement closure unavailable: statements module Formal.Case.Nope not found",
        )
    ]


def test_a_moved_statement_needs_a_real_reason_and_gets_the_next_revision(
    make_workspace: Build,
) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    yaml = root / "missions" / "case.yaml"
    assert invoke("pin", "--root", root).exit_code == 0
    statements = root / "Formal/Case/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace("two = 2", "two = 3"), encoding="utf-8"
    )
    pinned = yaml.read_bytes()
    blank = invoke("pin", "--root", root, "--reason", "  ")
    assert (blank.exit_code, blank.stderr.strip()) == (
        2,
        f"{yaml}:10: --reason is blank; say why the statements changed "
        "(it is kept in statement_history)",
    )
    missing = invoke("pin", "--root", root)
    assert (missing.exit_code, missing.stderr.strip()) == (
        2,
        f"{yaml}:12: statement closure of 'case' changed since it was pinned; "
        "re-pin with --reason explaining the change",
    )
    assert yaml.read_bytes() == pinned  # refused pins write nothing
    assert invoke("pin", "--root", root, "--reason", " moved ").exit_code == 0
    digest = expected_pin(root, ["Formal.Case.Defs", "Formal.Case.Statements"])
    block = lean_block(yaml)
    assert block[2] == f"  statement_pin: {digest}"
    assert block[-5:] == [
        "  - revision: 2",
        block[-4],  # the date
        "    reason: moved",
        f"    digest: {digest}",
        "    commit: uncommitted",
    ]


def test_a_pin_on_uncommitted_files_gets_its_commit_once_they_are_committed(
    make_workspace: Build,
) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"})
    yaml = root / "missions" / "case.yaml"
    statements = root / "Formal/Case/Statements.lean"
    statements.write_text(statements.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert invoke("pin", "--root", root).exit_code == 0
    assert "  pinned_at: uncommitted" in lean_block(yaml)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "commit the statements")
    head = git(root, "rev-parse", "HEAD")
    again = invoke("pin", "--root", root)
    assert again.exit_code == 0, again.stderr
    block = lean_block(yaml)
    assert f"  pinned_at: {head}" in block
    assert [line for line in block if "revision" in line] == ["  - revision: 1"]
    assert block[-1] == f"    commit: {head}"
    # and nothing left to record: a third pin changes nothing
    before = yaml.read_bytes()
    assert invoke("pin", "--root", root).exit_code == 0
    assert yaml.read_bytes() == before


def two_missions(make_workspace: Build) -> Path:
    """Missions ``alpha`` and ``beta``, each the one-goal case in its own module, pinned."""
    files: dict[str, str] = {}
    for name in ("Alpha", "Beta"):
        for rel, text in case_files().items():
            if rel != "Formal.lean":
                files[rel.replace("Case", name)] = text.replace("Formal.Case", f"Formal.{name}")
    files["Formal.lean"] = "import Formal.Alpha\nimport Formal.Beta\n"
    root = make_workspace(files, {"alpha": "Formal.Alpha", "beta": "Formal.Beta"}, use_git=False)
    assert invoke("pin", "--root", root).exit_code == 0
    return root


def test_a_blank_reason_is_reported_on_the_missions_whose_pin_would_move(
    make_workspace: Build,
) -> None:
    root = two_missions(make_workspace)
    statements = root / "Formal/Beta/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace("two = 2", "two = 3"), encoding="utf-8"
    )
    result = invoke("pin", "--root", root, "--reason", " ")
    assert result.exit_code == 2
    beta = root / "missions" / "beta.yaml"
    assert result.stderr.strip().splitlines() == [
        f"{beta}:10: --reason is blank; say why the statements changed "
        "(it is kept in statement_history)"
    ]


def test_a_blank_reason_names_a_mission_even_when_no_pin_would_move(
    make_workspace: Build,
) -> None:
    root = two_missions(make_workspace)
    # beta's closure cannot be pinned at all: it is not among those whose pin would move
    statements = root / "Formal/Beta/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace(
            "import Formal.Beta.Defs\n", "import Formal.Beta.Defs\nimport Formal.Beta.Missing\n"
        ),
        encoding="utf-8",
    )
    result = invoke("pin", "--root", root, "--reason", " ")
    assert result.exit_code == 2
    alpha = root / "missions" / "alpha.yaml"
    assert result.stderr.strip().splitlines() == [
        f"{alpha}:10: --reason is blank; say why the statements changed "
        "(it is kept in statement_history)"
    ]


def test_every_reason_a_closure_cannot_be_pinned_is_named(make_workspace: Build) -> None:
    files = case_files()
    statements = "Formal/Case/Statements.lean"
    files[statements] = files[statements].replace(
        "import Formal.Case.Defs\n",
        "import Formal.Case.Defs\nimport Formal.Case.Missing\nimport Formal.Case.Gone\n",
    )
    root = make_workspace(files, {"case": "Formal.Case"}, use_git=False)
    result = invoke("pin", "--root", root)
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "cannot pin: Formal/Case/Statements.lean:2: import Formal.Case.Missing not found; "
        "Formal/Case/Statements.lean:3: import Formal.Case.Gone not found"
    )


def test_the_library_refuses_a_blank_reason_too(make_workspace: Build) -> None:
    """``apply_pin`` is the API other tools call (the CLI checks first): a blank reason never
    reaches the history, and the refusal points at the mission's ``lean:`` entry."""
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    mission_file = load_catalog(root, use_cache=False).get("case")
    state = pin_state(load_workspace(root, use_cache=False), mission_file.mission)
    before = mission_file.path.read_bytes()
    with pytest.raises(InputError) as refused:
        apply_pin(mission_file, state, commit=None, reason=" \t", today=dt.date(2026, 1, 1))
    (problem,) = refused.value.problems
    assert (problem.line, problem.message) == (
        10,
        "--reason is blank; say why the statements changed (it is kept in statement_history)",
    )
    assert "statement_pin" not in mission_file.doc["lean"]
    assert mission_file.path.read_bytes() == before


def test_a_pin_without_history_still_gets_its_commit(make_workspace: Build) -> None:
    """A hand-written pin (no ``statement_history``) on uncommitted files is completed like
    any other once they are committed; there is no revision to update."""
    root = make_workspace(case_files(), {"case": "Formal.Case"})
    yaml = root / "missions" / "case.yaml"
    statements = root / "Formal/Case/Statements.lean"
    statements.write_text(statements.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert invoke("pin", "--root", root).exit_code == 0
    text = yaml.read_text(encoding="utf-8")
    start = text.index("statement_history:")
    yaml.write_text(text[:start] + text[text.index("targets:") :], encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "commit")
    result = invoke("pin", "--root", root)
    assert result.exit_code == 0, result.stderr
    head = git(root, "rev-parse", "HEAD")
    assert f"  pinned_at: {head}" in lean_block(yaml)
    assert "statement_history" not in yaml.read_text(encoding="utf-8")


def test_recording_a_commit_never_rewrites_a_revision_taken_at_another(
    make_workspace: Build,
) -> None:
    """Only a revision still waiting for its commit gets one: a revision recorded at a commit
    keeps it, even when ``pinned_at`` was set back to ``uncommitted`` by hand."""
    root = make_workspace(case_files(), {"case": "Formal.Case"})
    yaml = root / "missions" / "case.yaml"
    assert invoke("pin", "--root", root).exit_code == 0  # the files are committed: a real commit
    first = git(root, "rev-parse", "HEAD")
    assert lean_block(yaml)[-1] == f"    commit: {first}"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            f"  pinned_at: {first}", "  pinned_at: uncommitted"
        ),
        encoding="utf-8",
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "hand edit")
    assert invoke("pin", "--root", root).exit_code == 0
    head = git(root, "rev-parse", "HEAD")
    block = lean_block(yaml)
    assert f"  pinned_at: {head}" in block
    assert block[-1] == f"    commit: {first}"


def test_a_first_pin_goes_right_after_the_module_whatever_follows_it(
    make_workspace: Build,
) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    yaml = root / "missions" / "case.yaml"
    stamp = "sha256:" + "0" * 64
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            "  module: Formal.Case\n", f"  module: Formal.Case\n  witness_stamp: {stamp}\n"
        ),
        encoding="utf-8",
    )
    assert invoke("pin", "--root", root).exit_code == 0
    assert [line.split(":")[0] for line in lean_block(yaml)[:5]] == [
        "lean",
        "  module",
        "  statement_pin",
        "  pinned_at",
        "  witness_stamp",
    ]


# ------------------------------------------------- what a kernel record and a pin point at
def test_a_proof_closure_digest_covers_its_imports_and_ignores_comments(
    make_workspace: Build,
) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    closure = ["Formal.Case.Defs", "Formal.Case.Proofs", "Formal.Case.Statements"]
    digest = proof_closure_digest(load_workspace(root, use_cache=False), "Formal.Case.Proofs")
    assert digest == expected_pin(root, closure, None)
    defs = root / "Formal/Case/Defs.lean"
    defs.write_text(defs.read_text(encoding="utf-8") + "-- a comment\n", encoding="utf-8")
    assert proof_closure_digest(load_workspace(root, use_cache=False), "Formal.Case.Proofs") == (
        digest
    )
    defs.write_text(defs.read_text(encoding="utf-8") + "def three : ℕ := 3\n", "utf-8")
    moved = proof_closure_digest(load_workspace(root, use_cache=False), "Formal.Case.Proofs")
    assert moved == expected_pin(root, closure, None) != digest
    proofs = root / "Formal/Case/Proofs.lean"
    proofs.write_text("import Formal.Case.Missing\n" + proofs.read_text("utf-8"), "utf-8")
    assert proof_closure_digest(load_workspace(root, use_cache=False), "Formal.Case.Proofs") is (
        None
    )


def test_a_missing_statements_module_keeps_the_recorded_pin(make_workspace: Build) -> None:
    root = make_workspace(case_files(), {"case": "Formal.Case"}, use_git=False)
    assert invoke("pin", "--root", root).exit_code == 0
    (root / "Formal/Case/Statements.lean").unlink()
    mission = load_catalog(root, use_cache=False).get("case").mission
    state = pin_state(load_workspace(root, use_cache=False), mission)
    assert state.recorded == mission.lean.statement_pin is not None
    assert (state.modules, state.digest) == ([], None)
    assert state.problems == ["statements module Formal.Case.Statements not found"]


def test_closure_paths_are_where_lake_builds_each_module(make_workspace: Build) -> None:
    files = {f"src/{path}": text for path, text in case_files().items()}
    root = make_workspace(files, {"case": "Formal.Case"}, use_git=False)
    lakefile = root / "lakefile.lean"
    lakefile.write_text(
        lakefile.read_text(encoding="utf-8").replace(
            "package Formal where\n", 'package Formal where\n  srcDir := "src"\n'
        ),
        encoding="utf-8",
    )
    workspace = load_workspace(root, use_cache=False)
    assert closure_paths(workspace, ["Formal.Case.Defs", "Formal.Case.Gone"]) == [
        root / "src/Formal/Case/Defs.lean",  # scanned there
        root / "Formal/Case/Gone.lean",  # not found: where the module name puts it
    ]
