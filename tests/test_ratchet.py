"""The regression ratchet (a recorded ``proved`` is lost only on the record) and honest pins.

Every workspace here is built from a small Demo mission whose goal has a real proof: the
tests pin it, sync it to ``proved`` and commit, then break it in the ways people do.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from conftest import git
from missions.catalog import load_catalog
from missions.cli import app
from test_pins import FILES

runner = CliRunner()
YAML_PATH = "missions/demo.yaml"
PROOFS = "Formal/Demo/Proofs.lean"


def run(root: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--root", str(root)])
    return result.exit_code, result.stdout, result.stderr


def rules(root: Path) -> list[tuple[str, str | None]]:
    code, stdout, _ = run(root, "check", "--json")
    assert code in (0, 1)
    return [(v["rule"], v["target"]) for v in json.loads(stdout)["violations"]]


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def commit_at(root: Path, message: str, date: str) -> None:
    """Commit with a fixed date, so history order does not depend on the clock."""
    git(root, "add", "-A")
    subprocess.run(
        ["git", "commit", "-q", "-m", message],
        cwd=root,
        check=True,
        env={
            "GIT_AUTHOR_NAME": "T",
            "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "T",
            "GIT_COMMITTER_EMAIL": "t@example.com",
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_DATE": date,
            "PATH": "/usr/bin:/bin:/usr/local/bin",
            "HOME": str(root),
        },
    )


def recorded_status(root: Path) -> str | None:
    return load_catalog(root, use_cache=False).get("demo").mission.target("goal").status


@pytest.fixture
def proved(make_workspace: Callable[..., Path]) -> Path:
    """Demo, pinned and synced: its goal is recorded ``proved`` in a commit."""
    root = make_workspace(FILES, {"demo": "Formal.Demo"})
    assert run(root, "pin")[0] == 0
    assert run(root, "sync")[0] == 0
    assert recorded_status(root) == "proved"
    commit(root, "prove the goal")
    assert rules(root) == []
    return root


def break_proof(root: Path) -> None:
    path = root / PROOFS
    path.write_text(
        path.read_text(encoding="utf-8").replace("unfold Goal two\n  rfl", "sorry"),
        encoding="utf-8",
    )


def set_status(root: Path, status: str) -> None:
    path = root / YAML_PATH
    path.write_text(
        path.read_text(encoding="utf-8").replace("status: proved", f"status: {status}"),
        encoding="utf-8",
    )


def test_a_proof_back_to_sorry_fails_the_gate_and_sync_refuses(proved: Path) -> None:
    break_proof(proved)
    assert ("status-regression", "goal") in rules(proved)
    yaml = proved / YAML_PATH
    before = yaml.read_bytes()
    code, _, stderr = run(proved, "sync")
    assert code == 2
    assert stderr.startswith(f"{yaml}:")
    assert "demo/goal is recorded proved" in stderr and "--allow-regression demo/goal" in stderr
    assert yaml.read_bytes() == before  # nothing written
    assert ("status-regression", "goal") in rules(proved)  # still failing


def test_allowed_regression_is_recorded_and_the_gate_passes(proved: Path) -> None:
    break_proof(proved)
    head = git(proved, "rev-parse", "HEAD")
    code, _, stderr = run(proved, "sync", "--allow-regression", "goal", "--reason", "   ")
    assert code == 2 and "--reason" in stderr
    code, stdout, stderr = run(
        proved, "sync", "--allow-regression", "goal", "--reason", "lemma withdrawn upstream"
    )
    assert code == 0, stderr
    assert "recorded a regression of demo/goal" in stdout
    doc = YAML(typ="safe").load((proved / YAML_PATH).read_text(encoding="utf-8"))
    entry = doc["regressions"][0]
    assert entry["target"] == "goal" and entry["from"] == "proved" and entry["to"] == "stated"
    assert entry["reason"] == "lemma withdrawn upstream" and entry["commit"] == head
    assert "date" in entry
    assert recorded_status(proved) == "stated"
    assert rules(proved) == []
    commit(proved, "record the regression")
    assert rules(proved) == []  # the committed loss is covered by its record


def test_the_report_shows_regressions_recorded_or_not(proved: Path, tmp_path: Path) -> None:
    break_proof(proved)
    _, stdout, _ = run(proved, "report", "--format", "md")
    assert "## Regressions" in stdout and "**demo/goal**" in stdout
    run(proved, "sync", "--allow-regression", "demo/goal", "--reason", "lemma withdrawn")
    _, stdout, _ = run(proved, "report", "--format", "md")
    assert "| demo/goal | proved | stated |" in stdout and "lemma withdrawn" in stdout
    _, stdout, _ = run(proved, "report", "--format", "json")
    mission = json.loads(stdout)["missions"][0]
    assert mission["regressions"][0]["reason"] == "lemma withdrawn"
    site = tmp_path / "site"
    assert run(proved, "report", "--format", "html", "-o", str(site))[0] == 0
    page = (site / "demo.html").read_text(encoding="utf-8")
    assert "Recorded regressions" in page and "lemma withdrawn" in page


def test_hand_edited_status_is_caught_uncommitted_and_committed(proved: Path) -> None:
    break_proof(proved)
    set_status(proved, "stated")  # nothing drifts: YAML and sources agree on stated
    assert rules(proved) == [("status-regression", "goal")]
    commit(proved, "quietly drop the proof")
    _, stdout, _ = run(proved, "check")
    assert "lost proved in commit" in stdout
    assert rules(proved) == [("status-regression", "goal")]
    code, _, stderr = run(proved, "sync", "--allow-regression", "demo/goal", "--reason", "why")
    assert code == 0, stderr
    assert rules(proved) == []


def test_every_loss_needs_its_own_record(proved: Path) -> None:
    good = (proved / PROOFS).read_text(encoding="utf-8")
    break_proof(proved)
    run(proved, "sync", "--allow-regression", "demo/goal", "--reason", "first loss")
    commit(proved, "first loss")
    (proved / PROOFS).write_text(good, encoding="utf-8")
    assert run(proved, "sync")[0] == 0  # proved again
    commit(proved, "proved again")
    assert rules(proved) == []
    break_proof(proved)
    assert ("status-regression", "goal") in rules(proved)
    assert run(proved, "sync")[0] == 2
    run(proved, "sync", "--allow-regression", "demo/goal", "--reason", "second loss")
    assert rules(proved) == []
    doc = YAML(typ="safe").load((proved / YAML_PATH).read_text(encoding="utf-8"))
    assert [r["reason"] for r in doc["regressions"]] == ["first loss", "second loss"]


def test_a_recorded_kernel_verdict_stands_until_its_closure_changes(proved: Path) -> None:
    break_proof(proved)  # the source scan now says stated
    commit(proved, "sorry, but the kernel checked the old proof")
    head = git(proved, "rev-parse", "HEAD")
    path = proved / YAML_PATH
    text = path.read_text(encoding="utf-8").replace(
        "evidence: source",
        f"evidence: kernel\n    checked: {{lean: 4.30.0, commit: {head}}}",
    )
    path.write_text(text, encoding="utf-8")
    commit(proved, "record a kernel verdict")
    assert rules(proved) == []  # nothing in the proof's closure moved since the check
    before = path.read_bytes()
    assert run(proved, "sync")[0] == 0
    assert path.read_bytes() == before  # sync does not lower a standing kernel verdict
    proofs = proved / PROOFS
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    assert ("status-regression", "goal") in rules(proved)


def test_allow_regression_names_real_losses_only(proved: Path) -> None:
    code, _, stderr = run(proved, "sync", "--allow-regression", "demo/nope", "--reason", "x")
    assert code == 2 and "no such target" in stderr
    code, _, stderr = run(proved, "sync", "--allow-regression", "demo/goal", "--reason", "x")
    assert code == 2 and "has no loss of proved to record" in stderr
    code, _, stderr = run(proved, "sync", "--reason", "x")
    assert code == 2 and "--reason goes with --allow-regression" in stderr


def test_regression_records_are_validated(proved: Path) -> None:
    path = proved / YAML_PATH
    path.write_text(
        path.read_text(encoding="utf-8")
        + "regressions:\n  - {target: nope, from: proved, to: stated, date: 2026-01-01, "
        "reason: x}\n  - {target: goal, from: proved, to: stated, date: 2026-01-01, "
        "reason: '  '}\n",
        encoding="utf-8",
    )
    code, _, stderr = run(proved, "validate")
    assert code == 2
    assert "regressions.1.reason: a regression needs a reason" in stderr


# ---------------------------------------------------------------- pins


def change_statement(root: Path) -> None:
    path = root / "Formal/Demo/Statements.lean"
    path.write_text(path.read_text(encoding="utf-8").replace("= 4", "≤ 4"), encoding="utf-8")


def test_blank_reason_is_refused(proved: Path) -> None:
    change_statement(proved)
    yaml = proved / YAML_PATH
    before = yaml.read_bytes()
    code, _, stderr = run(proved, "pin", "--reason", "   ")
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{yaml}:") and "blank" in lines[0]
    assert yaml.read_bytes() == before


def test_pinned_at_names_a_commit_holding_the_pinned_files(proved: Path) -> None:
    change_statement(proved)
    code, stdout, stderr = run(proved, "pin", "--reason", "tighten the goal")
    assert code == 0
    assert "warning:" in stderr and "Formal/Demo/Statements.lean" in stderr
    assert "uncommitted" in stdout
    lean = load_catalog(proved, use_cache=False).get("demo").mission
    assert lean.lean.pinned_at == "uncommitted"
    assert lean.statement_history[-1].commit == "uncommitted"
    commit(proved, "tighten the goal")
    head = git(proved, "rev-parse", "HEAD")
    code, stdout, stderr = run(proved, "pin")  # now the commit holds them: record it
    assert code == 0 and not stderr
    mission = load_catalog(proved, use_cache=False).get("demo").mission
    assert mission.lean.pinned_at == head
    assert mission.statement_history[-1].commit == head
    assert len(mission.statement_history) == 2  # no new revision for the same digest
    assert run(proved, "pin")[1].strip() == "all selected pins are current"


def test_pin_outside_git_is_uncommitted(make_workspace: Callable[..., Path]) -> None:
    root = make_workspace(FILES, {"demo": "Formal.Demo"}, use_git=False)
    code, _, stderr = run(root, "pin")
    assert code == 0 and "warning:" in stderr
    assert load_catalog(root, use_cache=False).get("demo").mission.lean.pinned_at == ("uncommitted")


def test_statement_pin_violation_says_how_to_fix_it(proved: Path) -> None:
    change_statement(proved)
    commit(proved, "change the goal")
    _, stdout, _ = run(proved, "check", "--json")
    message = next(v for v in json.loads(stdout)["violations"] if v["rule"] == "statement-pin")
    text = message["message"]
    assert "Formal/Demo/Statements.lean" in text and "change the goal" in text
    assert text.endswith("-- <files>)")
    assert 'missions pin demo --reason "<why the statements changed>"' in text
    assert "otherwise revert those files (git checkout " in text


def test_a_merged_branch_from_before_the_proof_is_no_regression(
    make_workspace: Callable[..., Path],
) -> None:
    root = make_workspace(FILES, {"demo": "Formal.Demo"})  # goal recorded stated
    git(root, "branch", "side")  # a branch from before the proof
    assert run(root, "pin")[0] == 0 and run(root, "sync")[0] == 0
    commit_at(root, "prove the goal", "2026-01-01T10:00:00")
    git(root, "checkout", "-q", "side")
    path = root / YAML_PATH
    path.write_text(
        path.read_text(encoding="utf-8").replace("A test mission.", "A better summary."),
        encoding="utf-8",
    )
    # still records goal: stated, and is later in time than the proof
    commit_at(root, "reword the summary on a side branch", "2026-01-02T10:00:00")
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-edit", "side")
    assert recorded_status(root) == "proved"
    from missions.ratchet import status_timelines

    line = status_timelines(root, [path])[path]
    # the first-parent line: initial, proof, merge; the side branch's commit is not on it
    assert [statuses["goal"] for _, statuses in line] == ["stated", "proved", "proved"]
    break_proof(root)
    code, _, stderr = run(root, "sync", "--allow-regression", "demo/goal", "--reason", "x")
    assert code == 0, stderr
    doc = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    assert len(doc["regressions"]) == 1  # one real loss, no phantom one from the side branch
    assert rules(root) == []


def test_the_timeline_cache_gives_the_same_answer(proved: Path) -> None:
    from missions.ratchet import status_timelines

    path = proved / YAML_PATH
    first = status_timelines(proved, [path])
    assert [statuses["goal"] for _, statuses in first[path]] == ["stated", "proved"]
    assert status_timelines(proved, [path]) == first  # now from the cache


def test_one_command_reads_the_history_once_and_a_new_commit_reads_it_again(
    proved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ratchet, the dashboard's history and its progress chart ask git for the same
    files' versions: asked again at the same HEAD, the answer is kept (as a copy); a commit,
    or :func:`versions.forget` (each MCP answer calls it), reads the history again."""
    from missions import versions
    from missions.mcp_server import Answers

    path = proved / YAML_PATH
    logs: list[tuple[str, ...]] = []
    real = versions.run_git

    def counting(top: Path, *args: str, **kwargs: object) -> bytes | None:
        if args[0] == "log":
            logs.append(args)
        return real(top, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(versions, "run_git", counting)
    versions.forget()
    first = versions.committed_versions(proved, [path])[path]
    assert first and len(logs) == 1
    versions.committed_versions(proved, [path])[path].clear()  # a caller's copy
    assert versions.committed_versions(proved, [path])[path] == first and len(logs) == 1
    set_status(proved, "stated")
    commit(proved, "back to stated")
    after = versions.committed_versions(proved, [path])[path]
    assert len(logs) == 2 and after[:-1] == first and after[-1].statuses == {"goal": "stated"}
    Answers(proved).status()
    versions.committed_versions(proved, [path])
    assert len(logs) == 3


def _oracle(root: Path, rels: list[str]) -> dict[str, list[tuple[str, str]]]:
    """Versions the slow, obvious way: along the first-parent line, each commit whose entry
    for a file (mode and object) differs from its first parent's, as (commit, blob)."""

    def entry(rev: str, rel: str) -> str | None:
        out = git(root, "ls-tree", rev, "--", rel).strip()
        return out.split("\t")[0] if out else None

    line = git(root, "rev-list", "--first-parent", "--reverse", "HEAD").split()
    found: dict[str, list[tuple[str, str]]] = {rel: [] for rel in rels}
    for i, sha in enumerate(line):
        for rel in rels:
            now = entry(sha, rel)
            before = entry(line[i - 1], rel) if i else None
            if now is not None and now != before and now.split()[1] == "blob":
                found[rel].append((sha, now.split()[2]))
    return found


def test_versions_come_from_the_log_as_the_obvious_walk_finds_them(tmp_path: Path) -> None:
    """Renames, deletions and re-additions, a merged side branch, a mode change, a name git
    quotes, a symlink to another mission file (its history is the link's own) and a subject
    that looks like a change: each version is the one a commit-by-commit walk of the
    first-parent line finds."""
    from missions import versions
    from missions.versions import read_version

    root = tmp_path / "repo"
    (root / "missions").mkdir(parents=True)
    git(root, "init", "-q")
    names = ["a.yaml", "b c.yaml", "ü.yaml", "d.yaml"]

    def write(name: str, pin: str) -> None:
        (root / "missions" / name).write_text(f"lean:\n  statement_pin: {pin}\n", "utf-8")

    def save(message: str) -> None:
        git(root, "add", "-A")
        git(root, "commit", "-qm", message, "--allow-empty")

    for name in names:
        write(name, "p0")
    save("start")
    write("a.yaml", "p1")
    save(":100644 100644 0000 1111 M\tmissions/a.yaml")  # a subject shaped like a change
    git(root, "mv", "missions/b c.yaml", "missions/e.yaml")
    save("rename")
    git(root, "checkout", "-qb", "side")
    write("ü.yaml", "side")
    save("on the side")
    git(root, "checkout", "-q", "-")
    write("d.yaml", "p2")
    save("main moves on")
    git(root, "merge", "-q", "--no-edit", "side")
    (root / "missions" / "d.yaml").unlink()
    save("delete d")
    write("d.yaml", "p3")
    (root / "missions" / "a.yaml").chmod(0o755)
    save("d again, a executable")
    (root / "missions" / "link.yaml").symlink_to("a.yaml")
    save("a link")
    rels = [f"missions/{n}" for n in [*names, "e.yaml", "link.yaml"]]
    versions.forget()
    answer = versions.committed_versions(root, [root / rel for rel in rels])
    expected = _oracle(root, rels)
    for rel in rels:
        got = [(v.commit.sha, v.pin) for v in answer[root / rel]]
        blobs = [(sha, git(root, "cat-file", "blob", blob)) for sha, blob in expected[rel]]
        want = [
            (sha, parsed[0]) for sha, text in blobs if (parsed := read_version(text)) is not None
        ]
        assert got == want, rel
    assert [v.pin for v in answer[root / "missions/ü.yaml"]] == ["p0", "side"]
    assert len(answer[root / "missions/a.yaml"]) == 3  # p0, p1, the mode change
