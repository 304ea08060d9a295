"""Faults stay local: a Lean file that cannot be read, decoded or lexed affects only the
targets whose import closure holds it, and hostile shapes never raise."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from missions.cli import app
from missions.lean.lexer import lex
from missions.lean.scan import scan_source
from missions.roots import lean_file_stats, library_roots

STATEMENTS = """\
import Mathlib

namespace Formal.{name}

def Goal : Prop := ∀ n : ℕ, n ≤ n ^ 2

end Formal.{name}
"""
PROOFS = """\
import Formal.{name}.Statements
{extra_import}
namespace Formal.{name}

theorem goal : Goal := by
  intro n
  nlinarith [Nat.zero_le n]

end Formal.{name}
"""


def _mission_files(name: str, extra_import: str = "") -> dict[str, str]:
    return {
        f"Formal/{name}/Statements.lean": STATEMENTS.format(name=name),
        f"Formal/{name}/Proofs.lean": PROOFS.format(name=name, extra_import=extra_import),
    }


@pytest.fixture
def two_missions(make_workspace: Callable[..., Path]) -> Path:
    """Mission `one` imports Formal/One/Helper.lean; mission `two` imports nothing else."""
    files = {
        **_mission_files("One", "import Formal.One.Helper"),
        **_mission_files("Two"),
        "Formal/One/Helper.lean": "import Mathlib\n\ntheorem helper_fact : True := trivial\n",
    }
    root = make_workspace(files, {"one": "Formal.One", "two": "Formal.Two"})
    for mission in ("one", "two"):
        assert CliRunner().invoke(app, ["pin", mission, "--root", str(root)]).exit_code == 0
    assert CliRunner().invoke(app, ["sync", "--root", str(root)]).exit_code == 0
    return root


def _statuses(root: Path) -> dict[str, tuple[str, list[str]]]:
    result = CliRunner().invoke(app, ["status", "--json", "--no-cache", "--root", str(root)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    return {
        m["id"]: (m["targets"][0]["status"], m["targets"][0]["reasons"]) for m in data["missions"]
    }


BROKEN = {
    "unterminated comment": ("theorem x : True := by\n  /- never closed\n", b"", 2),
    "unterminated string": ('def s := "never closed\n', b"", 1),
    "unterminated escape": ("def «never closed := 1\n", b"", 1),
    "invalid UTF-8": ("", b"-- fine\n-- caf\xe9\n", 2),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_file_touches_only_the_targets_that_import_it(
    two_missions: Path, kind: str
) -> None:
    text, raw, line = BROKEN[kind]
    before = _statuses(two_missions)
    assert before["one"][0] == before["two"][0] == "proved", before
    helper = two_missions / "Formal/One/Helper.lean"
    if raw:
        helper.write_bytes(raw)
    else:
        helper.write_text(text, encoding="utf-8")
    after = _statuses(two_missions)
    assert after["two"] == before["two"]
    status, reasons = after["one"]
    assert status == "stated"
    assert any(r.startswith(f"Formal/One/Helper.lean:{line}: ") for r in reasons), reasons


def test_a_broken_file_nothing_imports_changes_nothing(two_missions: Path) -> None:
    before = _statuses(two_missions)
    (two_missions / "Formal/Scratch.lean").write_text("/- unterminated", encoding="utf-8")
    assert _statuses(two_missions) == before
    result = CliRunner().invoke(app, ["check", "--root", str(two_missions)])
    assert "Scratch" not in result.output


def test_a_broken_statement_closure_cannot_be_pinned_and_says_where(
    two_missions: Path,
) -> None:
    statements = two_missions / "Formal/Two/Statements.lean"
    statements.write_text(statements.read_text(encoding="utf-8") + '\n"oops', encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "--json", "--root", str(two_missions)])
    assert result.exit_code == 1
    violations = json.loads(result.stdout)["violations"]
    pins = [v for v in violations if v["rule"] == "statement-pin" and v["mission"] == "two"]
    assert (
        pins and "Formal/Two/Statements.lean:9: unterminated string literal" in (pins[0]["message"])
    )
    assert not [v for v in violations if v["mission"] == "one"]


def test_unreadable_file_is_a_local_fault(
    two_missions: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    helper = str(two_missions / "Formal/One/Helper.lean")
    real_open = os.open

    def guarded(path: str, *args: int) -> int:
        if str(path) == helper:
            raise PermissionError(13, "Permission denied", helper)
        return real_open(path, *args)

    monkeypatch.setattr(os, "open", guarded)
    status, reasons = _statuses(two_missions)["one"]
    assert status == "stated"
    assert "Formal/One/Helper.lean:1: cannot read the file: Permission denied" in reasons
    assert _statuses(two_missions)["two"][0] == "proved"


def test_a_file_made_unreadable_is_never_answered_from_a_cache(
    two_missions: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``chmod`` moves only a file's change time. With every cache warm (the stored answer,
    the incremental state, the scans), status must still read the file again, and fail on
    it exactly as a run without any cache does."""
    from missions import fastpath

    root = str(two_missions)
    warm = CliRunner().invoke(app, ["status", "--json", "--root", root])
    assert json.loads(warm.stdout)["missions"][0]["targets"][0]["status"] == "proved"
    helper = two_missions / "Formal/One/Helper.lean"
    helper.chmod(0)  # root can still read it: the denial below is what a user would meet
    real_open = os.open

    def guarded(path: str, *args: int) -> int:
        if str(path) == str(helper):
            raise PermissionError(13, "Permission denied", str(helper))
        return real_open(path, *args)

    monkeypatch.setattr(os, "open", guarded)
    try:
        cold = _statuses(two_missions)
        # the start-up path answers only what it can vouch for, else leaves it to the CLI
        served = fastpath.try_status(["status", "--json", "--root", root])
        answers = [json.loads(capsys.readouterr().out)] if served else []
        cli = CliRunner().invoke(app, ["status", "--json", "--root", root])
        answers.append(json.loads(cli.stdout))
    finally:
        helper.chmod(0o644)
    fault = "Formal/One/Helper.lean:1: cannot read the file: Permission denied"
    assert cold["one"][0] == "stated" and fault in cold["one"][1]
    for answer in answers:
        one = next(m for m in answer["missions"] if m["id"] == "one")["targets"][0]
        assert (one["status"], one["reasons"]) == (cold["one"][0], cold["one"][1])


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read a chmod 000 file")
def test_chmod_000_file_is_a_local_fault(two_missions: Path) -> None:
    helper = two_missions / "Formal/One/Helper.lean"
    helper.chmod(0)
    try:
        statuses = _statuses(two_missions)
    finally:
        helper.chmod(0o644)
    assert statuses["one"][0] == "stated" and statuses["two"][0] == "proved"


@contextmanager
def no_hang(seconds: int = 60) -> Iterator[None]:
    """Fail, instead of hanging the suite, if the body blocks (a read of a FIFO would)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs or /dev/zero on this platform")
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_special_file_under_a_lean_name_is_a_local_fault_not_a_hang(
    two_missions: Path, kind: str
) -> None:
    helper = two_missions / "Formal/One/Helper.lean"
    helper.unlink()
    if kind == "fifo":
        os.mkfifo(helper)  # a read would wait for a writer forever
    else:
        helper.symlink_to("/dev/zero")  # a read would never end
    with no_hang():
        statuses = _statuses(two_missions)
        result = CliRunner().invoke(app, ["check", "--json", "--root", str(two_missions)])
    status, reasons = statuses["one"]
    assert status == "stated"
    assert "Formal/One/Helper.lean:1: cannot read the file: not a regular file" in reasons
    assert statuses["two"][0] == "proved"
    assert result.exit_code == 1
    assert {v["mission"] for v in json.loads(result.stdout)["violations"]} == {"one"}


def test_a_lean_file_beyond_the_size_limit_is_a_local_fault(
    two_missions: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    helper = two_missions / "Formal/One/Helper.lean"
    helper.write_text(helper.read_text(encoding="utf-8") + "-- " + "x" * 5000 + "\n", "utf-8")
    limit = len(helper.read_bytes()) - 1  # every other file is far smaller
    monkeypatch.setattr("missions.lean.workspace.MAX_LEAN_BYTES", limit)
    status, reasons = _statuses(two_missions)["one"]
    assert status == "stated"
    assert f"Formal/One/Helper.lean:1: cannot read the file: larger than {limit} bytes" in reasons
    assert _statuses(two_missions)["two"][0] == "proved"
    monkeypatch.setattr("missions.lean.workspace.MAX_LEAN_BYTES", limit + 1)
    assert _statuses(two_missions)["one"][0] == "proved"  # at the limit it is read


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize(
    ("name", "pins_fail"),
    # Lake reads lakefile.lean when both exist: an unreadable lakefile.toml beside it is moot
    [("lean-toolchain", True), ("lake-manifest.json", True), ("lakefile.toml", False)],
)
def test_a_fifo_for_a_lake_file_is_not_a_hang(
    two_missions: Path, name: str, pins_fail: bool
) -> None:
    config = two_missions / name
    config.unlink(missing_ok=True)
    os.mkfifo(config)
    with no_hang():
        status = CliRunner().invoke(app, ["status", "--json", "--root", str(two_missions)])
        check = CliRunner().invoke(app, ["check", "--json", "--root", str(two_missions)])
    assert status.exit_code == 0, status.output
    rules = {v["rule"] for v in json.loads(check.stdout)["violations"]}
    assert ("toolchain-pin" in rules) is pins_fail
    assert check.exit_code == (1 if pins_fail else 0)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_for_a_mission_file_is_bad_input_not_a_hang(two_missions: Path) -> None:
    fifo = two_missions / "missions" / "evil.yaml"
    os.mkfifo(fifo)
    with no_hang():
        result = CliRunner().invoke(app, ["status", "--root", str(two_missions)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{fifo}:1: cannot read file: not a regular file"


@pytest.mark.parametrize(
    "name", [".#Proofs.lean", "Dangling.lean", "Loop.lean"], ids=["lock", "dangling", "loop"]
)
def test_editor_lock_files_and_dangling_links_are_skipped(two_missions: Path, name: str) -> None:
    link = two_missions / "Formal/Two" / name
    target = link if name == "Loop.lean" else two_missions / "gone" / "nowhere.lean"
    link.symlink_to(target)
    statuses = _statuses(two_missions)
    assert statuses["two"][0] == "proved"
    names = [p for p, _ in lean_file_stats(str(two_missions), library_roots(two_missions))]
    assert str(link) not in names


def test_hostile_nesting_lexes_without_recursion() -> None:
    depth = 5000
    text = "def s := " + 's!"{' * depth + "sorry" + '}"' * depth + "\n"
    source = lex(text)
    assert source.error is None
    assert [t[1] for t in source.tokens].count("sorry") == 1
    scan = scan_source(text)
    assert scan.decls[0].sorries == (1,)
    unclosed = lex("def s := " + 's!"{' * depth)
    assert unclosed.error is not None and "unterminated" in unclosed.error.message


def test_doc_comments_inside_one_declaration_scan_in_one_pass() -> None:
    """Many doc comments in one structure (field docs): each is read once, none is a command.

    Linear time is measured by ``benchmarks/bench_scan_shapes.py``; here the shape is checked.
    """
    fields = "".join(f"  /-- field {k} -/\n  f{k} : Nat := {k}\n" for k in range(3000))
    text = f"structure Big where\n{fields}\ntheorem after : True := trivial\n"
    scan = scan_source(text)
    assert [d.name for d in scan.decls] == ["Big", "after"]
    assert {"f0", "f2999"} <= set(scan.decls[0].generated)


def test_a_lakefile_too_large_to_read_proves_nothing(two_missions: Path) -> None:
    """Lake would read it, the scanner does not: its layout and settings are unknown, so no
    target is proved and the gate names the file."""
    lakefile = two_missions / "lakefile.lean"
    padding = "-- " + "x" * 1_100_000 + "\n"
    lakefile.write_text(lakefile.read_text(encoding="utf-8") + padding, encoding="utf-8")
    statuses = _statuses(two_missions)
    assert {status for status, _ in statuses.values()} == {"stated"}
    check = CliRunner().invoke(app, ["check", "--json", "--root", str(two_missions)])
    messages = [v["message"] for v in json.loads(check.stdout)["violations"]]
    assert any(m.startswith("cannot be read (larger than") for m in messages), messages


def test_read_regular_reads_whole_files_up_to_the_limit(tmp_path: Path) -> None:
    """Exactly the file's bytes, however they compare with one read; past the limit, or not a
    regular file, an OSError that says why."""
    import errno

    from missions.roots import read_regular

    empty, exact, over = tmp_path / "empty", tmp_path / "exact", tmp_path / "over"
    empty.write_bytes(b"")
    exact.write_bytes(b"x" * 100)
    over.write_bytes(b"x" * 101)
    assert read_regular(str(empty), 100)[0] == b""
    data, info = read_regular(str(exact), 100)
    assert data == b"x" * 100 and info.st_size == 100
    with pytest.raises(OSError) as too_big:
        read_regular(str(over), 100)
    assert too_big.value.errno == errno.EFBIG and "larger than 100 bytes" in str(too_big.value)
    with pytest.raises(IsADirectoryError):
        read_regular(str(tmp_path), 100)


@pytest.mark.parametrize(
    ("damage", "fault"),
    [
        ("binary", "the file is not valid UTF-8"),
        ("latin-1", "the file is not valid UTF-8"),
        ("oversize", "cannot read the file: larger than"),
        ("directory", "import Formal.One.{which} not found"),
    ],
)
@pytest.mark.parametrize("which", ["Proofs", "Statements"])
def test_a_damaged_file_is_its_fault_never_a_missing_declaration(
    two_missions: Path, damage: str, fault: str, which: str
) -> None:
    """A proof or statement file Lean could not read either is reported as what is wrong
    with it (``path:line: …``), never as a declaration missing from the sources: the gate
    then names the file, not ``missing-declaration``."""
    path = two_missions / f"Formal/One/{which}.lean"
    text = path.read_text(encoding="utf-8")
    path.unlink()
    if damage == "binary":
        path.write_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe" * 20)
    elif damage == "latin-1":
        path.write_bytes(text.replace("≤", "<=").encode() + "-- café\n".encode("latin-1"))
    elif damage == "oversize":
        path.write_text(text + "--" + "x" * (8 * 1024 * 1024) + "\n", encoding="utf-8")
    else:
        path.mkdir()
    fault = fault.format(which=which)
    status, reasons = _statuses(two_missions)["one"]
    assert status == "stated"
    where = "Formal/One.lean:" if damage == "directory" else f"Formal/One/{which}.lean:"
    assert reasons[0].startswith(where) and fault in reasons[0], reasons
    assert not any("missing" in r for r in reasons), reasons
    assert _statuses(two_missions)["two"][0] == "proved"  # the fault stays local
    check = CliRunner().invoke(app, ["check", "--json", "--root", str(two_missions)])
    violations = json.loads(check.stdout)["violations"]
    assert not [v for v in violations if v["rule"] == "missing-declaration"], violations
    losses = [v for v in violations if v["rule"] == "status-regression"]
    assert losses and fault in losses[0]["message"]  # the recorded proof lost, and why
