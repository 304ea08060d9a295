"""Inputs that used to crash: each gives one ``path:line: message`` line and exit 2.

Unreadable files are simulated where the tests run as root (root reads any file whatever
its mode); where they do not, the same cases also run with a real ``chmod 000``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from conftest import copy_repo_workspace
from missions.catalog import load_catalog

runner = CliRunner()
READERS = ("status", "check", "validate", "show mae-normalized-pixel")
WRITERS = ("sync", "pin")
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def run(*args: str) -> tuple[int, str, str]:
    from missions.cli import app

    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def one_line(stderr: str, prefix: str, fragment: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(prefix), lines[0]
    assert fragment in lines[0], lines[0]
    assert "internal error" not in stderr and "Traceback" not in stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repo_workspace(tmp_path)


@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[Path]]:
    """Paths in this set behave as if mode 000: listing and reading them is refused."""
    blocked: set[Path] = set()
    iterdir, read_bytes, os_open = Path.iterdir, Path.read_bytes, os.open

    def no_iterdir(self: Path) -> Iterator[Path]:
        if self in blocked:
            raise PermissionError(13, "Permission denied", str(self))
        return iterdir(self)

    def no_read(self: Path) -> bytes:
        if self in blocked:
            raise PermissionError(13, "Permission denied", str(self))
        return read_bytes(self)

    def no_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if isinstance(path, str | os.PathLike) and Path(path) in blocked:
            raise PermissionError(13, "Permission denied", str(path))
        return os_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "iterdir", no_iterdir)
    monkeypatch.setattr(Path, "read_bytes", no_read)
    monkeypatch.setattr(os, "open", no_open)
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) not in blocked)
    yield blocked


def test_unlistable_missions_directory(repo: Path, unreadable: set[Path]) -> None:
    unreadable.add(repo / "missions")
    for command in READERS + WRITERS:
        code, _, stderr = run(*command.split(), "--root", str(repo))
        assert code == 2, command
        one_line(stderr, f"{repo / 'missions'}:1: ", "Permission denied")


def test_unreadable_yaml_with_a_warm_cache_is_never_answered_from_the_cache(
    repo: Path, unreadable: set[Path]
) -> None:
    for command in ("status", "check"):
        code, _, _ = run(command, "--root", str(repo))
        assert code == 0  # caches warm
    path = repo / "missions" / "mae-normalized-pixel.yaml"
    path.chmod(0)  # changes the status-change time the cache is keyed by
    unreadable.add(path)
    try:
        for command in READERS + WRITERS:
            code, _, stderr = run(*command.split(), "--root", str(repo))
            assert code == 2, command
            one_line(stderr, f"{path}:1: ", "cannot read file: Permission denied")
    finally:
        path.chmod(0o644)


def test_unreadable_yaml_is_caught_even_if_its_stat_is_unchanged(
    repo: Path, unreadable: set[Path]
) -> None:
    assert run("status", "--root", str(repo))[0] == 0
    path = repo / "missions" / "mae-normalized-pixel.yaml"
    unreadable.add(path)  # same size, mtime and ctime: only the access check can tell
    code, _, stderr = run("check", "--root", str(repo))
    assert code == 2
    one_line(stderr, f"{path}:1: ", "Permission denied")


@pytest.mark.skipif(AS_ROOT, reason="root reads files whatever their mode")
def test_real_chmod_000_through_the_installed_command(repo: Path) -> None:
    script = Path(sys.executable).parent / "missions"
    env = {**os.environ, "NO_COLOR": "1"}

    def missions(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(script), *args, "--root", str(repo)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )

    assert missions("status").returncode == 0
    yaml = repo / "missions" / "lp-ft.yaml"
    yaml.chmod(0)
    try:
        for command in ("status", "check"):
            done = missions(command)
            assert done.returncode == 2, (command, done.stdout)
            one_line(done.stderr, f"{yaml}:1: ", "Permission denied")
    finally:
        yaml.chmod(0o644)
    (repo / "missions").chmod(0)
    try:
        for command in ("status", "check", "sync"):
            done = missions(command)
            assert done.returncode == 2, (command, done.stdout)
            one_line(done.stderr, f"{repo / 'missions'}:1: ", "Permission denied")
    finally:
        (repo / "missions").chmod(0o755)


@pytest.mark.parametrize("style", ["flow", "block"])
def test_yaml_nested_a_thousand_levels_deep(repo: Path, style: str) -> None:
    path = repo / "missions" / "deep.yaml"
    if style == "flow":
        text = "id: " + "[" * 1000 + "]" * 1000 + "\n"
    else:
        text = "".join(" " * depth + "a:\n" for depth in range(1000))
    path.write_text(text, encoding="utf-8")
    assert len(text.encode()) < 600_000
    line = 1 if style == "flow" else 64  # the key whose value is the 65th level
    for command in ("status", "check", "validate"):
        code, _, stderr = run(command, "--root", str(repo))
        assert code == 2, command
        one_line(stderr, f"{path}:{line}: ", "YAML nested deeper than 64 levels")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["validate", "status", "check", "report", "sync"])
def test_a_small_file_nested_fifty_thousand_deep_is_refused_before_it_is_built(
    repo: Path, command: str
) -> None:
    """100 KB of brackets used to overflow the C stack (a segmentation fault, exit -11):
    the depth is bounded from the parser's events before any document is built."""
    path = repo / "missions" / "deep.yaml"
    path.write_text("id: deep\nsummary: " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "missions", command, "--root", str(repo)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    one_line(done.stderr, f"{path}:2: ", "YAML nested deeper than 64 levels")


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("2020-13-45", "month must be in 1..12"),
        ("!!float abc", "could not convert string to float"),
        ("0x_", "YAML value cannot be read"),
        ("{? [[1]] : 2}", "a mapping key must be a plain value"),
    ],
)
def test_a_value_yaml_cannot_build_is_one_located_line(
    repo: Path, value: str, fragment: str
) -> None:
    """Such values used to end every command with an internal error."""
    path = repo / "missions" / "bad.yaml"
    path.write_text(f"id: bad\ntitle: Bad\nextra: {value}\n", encoding="utf-8")
    for command in ("status", "check", "validate"):
        code, _, stderr = run(command, "--root", str(repo))
        assert code == 2, command
        one_line(stderr, f"{path}:3: ", fragment)


def test_nesting_limit_reports_the_line(tmp_path: Path) -> None:
    from missions.yamlio import MAX_DEPTH, load_document, structure_problems

    path = tmp_path / "x.yaml"
    lines = ["top: 1"] + [" " * (2 * depth) + "k:" for depth in range(MAX_DEPTH + 5)]
    path.write_text("\n".join(lines) + " 1\n", encoding="utf-8")
    doc = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    problems = structure_problems(path, doc)
    assert [p.message for p in problems] == [f"YAML nested deeper than {MAX_DEPTH} levels"]
    with pytest.raises(Exception, match="nested deeper"):
        load_document(path)


def test_a_300_character_id_in_new(repo: Path) -> None:
    code, _, stderr = run("new", "a" * 300, "--root", str(repo))
    assert code == 2
    one_line(stderr, f"{repo / 'missions'}:1: ", "300 characters long; use at most 64")
    code, _, stderr = run("new", "ok-id", "--module", "Formal." + "M" * 300, "--root", str(repo))
    assert code == 2
    one_line(stderr, f"{repo / 'missions'}:1: ", "use at most 100")
    assert not (repo / "missions" / "ok-id.yaml").exists()


@pytest.mark.parametrize(
    "title",
    [
        'a "quoted" title',
        "it's: # not a comment",
        "yes",
        "null",
        "- leading dash",
        "{a: b} [c]",
        "back\\slash and ü — ∀ε",
        "  padded  ",
        "-/ closes a Lean comment /-",
    ],
)
def test_new_writes_valid_yaml_for_any_title(repo: Path, title: str) -> None:
    code, _, stderr = run("new", "toy", "--title", title, "--root", str(repo))
    assert code == 0, stderr
    path = repo / "missions" / "toy.yaml"
    for typ in ("safe", "rt"):
        assert YAML(typ=typ).load(path.read_text(encoding="utf-8"))["title"] == title
    mission = load_catalog(repo, use_cache=False).get("toy").mission
    assert mission.title == title
    code, _, stderr = run("status", "toy", "--json", "--root", str(repo))
    assert code == 0, stderr  # and the Lean files (title in comments) still scan


def test_new_refuses_a_multi_line_title(repo: Path) -> None:
    code, _, stderr = run("new", "toy", "--title", "two\nlines", "--root", str(repo))
    assert code == 2
    one_line(stderr, f"{repo / 'missions'}:1: ", "one line")


# ------------------------------------------------------------ a file system that refuses


def _out_of_sync(repo: Path) -> Path:
    """A mission file whose first open target's recorded status ``sync`` will rewrite."""
    for path in sorted((repo / "missions").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "    status: stated\n" in text:
            path.write_text(text.replace("    status: stated\n", "    status: missing\n", 1))
            return path
    pytest.skip("no open target to put out of sync")


def _refuse(monkeypatch: pytest.MonkeyPatch, errno_: int, where: str) -> None:
    """Every atomic write fails like a read-only (at create) or full (at write) disk."""
    import errno as errnos
    import tempfile

    from missions import yamlio

    name = errnos.errorcode[errno_]
    if where == "create":

        def mkstemp(*args: object, **kwargs: object) -> tuple[int, str]:
            raise OSError(errno_, os.strerror(errno_) + f" ({name})")

        monkeypatch.setattr(yamlio.tempfile, "mkstemp", mkstemp)
    else:
        real = tempfile.mkstemp

        def fsync(fd: int) -> None:
            raise OSError(errno_, os.strerror(errno_))

        monkeypatch.setattr(yamlio.tempfile, "mkstemp", real)
        monkeypatch.setattr(yamlio.os, "fsync", fsync)


@pytest.mark.parametrize(
    ("errno_", "where"),
    [(30, "create"), (13, "create"), (28, "write")],
    ids=["rofs", "eacces", "enospc"],
)
@pytest.mark.parametrize("command", ["sync", "export", "new", "report", "junit"])
def test_a_write_the_file_system_refuses_is_one_line_and_leaves_nothing(
    repo: Path, monkeypatch: pytest.MonkeyPatch, errno_: int, where: str, command: str
) -> None:
    changed = _out_of_sync(repo)
    before = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file()}
    _refuse(monkeypatch, errno_, where)
    args = {
        "sync": ["sync"],
        "export": ["export", "--format", "comparator", "-o", str(repo / "out")],
        "new": ["new", "fresh-one"],
        "report": ["report", "-o", str(repo / "report.md")],
        "junit": ["check", "--junit", str(repo / "junit.xml")],
    }[command]
    code, _, stderr = run(*args, "--root", str(repo))
    assert code == 2, stderr
    lines = [line for line in stderr.strip().splitlines() if line]
    assert len(lines) == 1 and ":1: " in lines[0] and "cannot write" in lines[0], stderr
    assert os.strerror(errno_).lower() in lines[0]
    after = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file()}
    assert after == before, sorted(set(map(str, after)) ^ set(map(str, before)))[:5]
    assert changed in after


@pytest.mark.parametrize("command", ["junit", "report"])
def test_a_directory_where_the_output_goes_is_one_line(repo: Path, command: str) -> None:
    target = repo / "in-the-way"
    (target / "inside").mkdir(parents=True)
    args = (
        ["check", "--junit", str(target)] if command == "junit" else ["report", "-o", str(target)]
    )
    code, _, stderr = run(*args, "--root", str(repo))
    assert code == 2
    one_line(stderr, f"{target}:1: ", "a directory is in the way")
    assert [p.name for p in target.iterdir()] == ["inside"]


@pytest.mark.slow
def test_ctrl_c_is_one_line_and_exit_130_whenever_it_comes(repo: Path, tmp_path: Path) -> None:
    """Interrupts at many moments of a cold run (imports, the scan pool, the lint, the
    output): never a traceback, always exit 130, never a half-written file."""
    import signal
    import time

    env = {**os.environ, "MISSIONS_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("MISSIONS_DEBUG", None)
    before = sorted(p.name for p in (repo / "missions").iterdir())
    # from 0.15 s: before that, Python itself is still starting (no package code has run)
    for delay in (0.15, 0.25, 0.4, 0.6, 0.9, 1.3, 1.8, 2.5):
        proc = subprocess.Popen(
            [sys.executable, "-m", "missions", "sync", "--root", str(repo)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, errs = proc.communicate(timeout=120)
        if proc.returncode == 0 or (proc.returncode == -signal.SIGINT and out and not errs):
            continue  # finished before the signal (or while the interpreter shut down)
        assert proc.returncode == 130, (delay, proc.returncode, errs[-400:])
        assert errs.strip() == "missions: interrupted", (delay, errs[-400:])
    assert sorted(p.name for p in (repo / "missions").iterdir()) == before
