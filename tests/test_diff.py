"""``missions diff BASE``: what a change does, read from real commits and from random sides."""

from __future__ import annotations

import io
import json
import re
import tarfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import committed_demo, git
from missions.cli import app
from missions.diff import Pin, Snapshot, _extract, compare, diff_markdown

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _break_proof(demo: Path) -> None:
    proofs = demo / "Formal/Demo/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    assert "  simp [Goal, h]\n" in text
    proofs.write_text(text.replace("  simp [Goal, h]\n", "  sorry\n"), encoding="utf-8")


def _targets(root: Path) -> dict[str, tuple[str, str | None]]:
    data = json.loads(_run("status", "--json", "--root", str(root))[1])
    return {
        f"{m['id']}/{t['id']}": (t["status"], t["evidence"] if t["status"] == "proved" else None)
        for m in data["missions"]
        for t in m["targets"]
    }


def test_a_lost_and_a_won_proof_are_named_with_their_tier(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    before = _targets(demo)
    _break_proof(demo)
    after = _targets(demo)
    code, stdout, stderr = _run("diff", "HEAD", "--json", "--root", str(demo))
    assert code == 0, stderr
    data = json.loads(stdout)
    lost = {f"{c['mission']}/{c['target']}" for c in data["lost"]}
    assert lost == {k for k in before if before[k][0] == "proved" and after[k][0] != "proved"}
    assert lost and data["proved"] == [] and data["pins"] == []
    for change in data["lost"]:
        key = f"{change['mission']}/{change['target']}"
        assert (change["before"]["status"], change["before"]["evidence"]) == before[key]
        assert (change["after"]["status"], change["after"]["evidence"]) == after[key]
    git(demo, "commit", "-qam", "break the proof")
    git(demo, "checkout", "-q", "HEAD~1", "--", "Formal/Demo/Proofs.lean")  # the fix, uncommitted
    code, stdout, _ = _run("diff", "HEAD", "--root", str(demo))
    assert code == 0
    for key in lost:
        assert re.search(rf"`{re.escape(key)}` .*: stated → \*\*proved \(source\)\*\*", stdout)
    assert "**Proved**" in stdout and "**Lost**" not in stdout


def test_a_moved_pin_is_named_with_the_reason_recorded(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    statements = demo / "Formal/Demo/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8") + "\n/-- Added. -/\ndef extraConstant : Nat := 3\n",
        encoding="utf-8",
    )
    code, _, stderr = _run("pin", "demo", "--reason", "an extra constant", "--root", str(demo))
    assert code == 0, stderr
    code, stdout, _ = _run("diff", "HEAD", "--json", "--root", str(demo))
    [moved] = json.loads(stdout)["pins"]
    yaml = (demo / "missions/demo.yaml").read_text(encoding="utf-8")
    assert moved["mission"] == "demo" and moved["after"]["digest"] in yaml
    assert moved["after"]["reason"] == "an extra constant"
    assert moved["before"]["digest"] != moved["after"]["digest"]
    code, stdout, _ = _run("diff", "HEAD", "--root", str(demo))
    assert "**Pins moved** (1)" in stdout and "an extra constant" in stdout
    assert "Reviews gone stale" not in stdout  # no review was recorded to go stale


def test_a_review_the_change_makes_stale_is_named(demo_workspace: Callable[..., Path]) -> None:
    demo = committed_demo(demo_workspace)
    code, _, stderr = _run(
        "review", "demo", "--verdict", "pass", "--reviewer", "Ada", "--root", str(demo)
    )
    assert code == 0, stderr
    git(demo, "commit", "-qam", "reviewed")
    statements = demo / "Formal/Demo/Statements.lean"
    statements.write_text(statements.read_text("utf-8") + "\ndef extra : Nat := 3\n", "utf-8")
    code, _, stderr = _run("pin", "demo", "--reason", "an extra", "--root", str(demo))
    assert code == 0, stderr
    code, stdout, _ = _run("diff", "HEAD", "--json", "--root", str(demo))
    [stale] = json.loads(stdout)["stale_reviews"]
    assert stale["mission"] == "demo" and "review them again" in stale["reason"]


def test_bad_bases_are_one_line_and_exit_2(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = demo_workspace(use_git=True)
    code, _, stderr = _run("diff", "no-such-branch", "--root", str(demo))
    assert (code, stderr.count("\n")) == (2, 1) and "no-such-branch" in stderr


def test_outside_git_there_is_nothing_to_compare_with(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = demo_workspace(use_git=False)
    code, _, stderr = _run("diff", "HEAD", "--root", str(demo))
    assert (code, stderr.count("\n")) == (2, 1)


states = st.sampled_from(
    [None, ("proved", "kernel"), ("proved", "source"), ("stated", None), ("missing", None)]
)
keys = st.tuples(st.sampled_from(["m", "n"]), st.sampled_from(["a", "b", "c"]))


def _side(draw_targets: dict[tuple[str, str], tuple[str, str | None] | None]) -> Snapshot:
    side = Snapshot()
    for key, state in draw_targets.items():
        if state is not None:
            side.targets[key] = state
            side.titles[key] = "t"
    return side


@given(
    base=st.dictionaries(keys, states),
    head=st.dictionaries(keys, states),
)
def test_every_difference_lands_in_exactly_one_list_and_tiers_never_merge(
    base: dict[tuple[str, str], tuple[str, str | None] | None],
    head: dict[tuple[str, str], tuple[str, str | None] | None],
) -> None:
    old, new = _side(base), _side(head)
    diff = compare(old, new, "BASE")
    lists = {"proved": diff.proved, "lost": diff.lost, "changed": diff.changed}
    seen = Counter((c.mission, c.target) for changes in lists.values() for c in changes)
    differing = {
        k for k in {*old.targets, *new.targets} if old.targets.get(k) != new.targets.get(k)
    }
    assert set(seen) == differing and all(n == 1 for n in seen.values())
    for change in diff.proved:
        assert change.after is not None and change.after[0] == "proved"
        assert change.before is None or change.before[0] != "proved"
    for change in diff.lost:
        assert change.before is not None and change.before[0] == "proved"
        assert change.after is None or change.after[0] != "proved"
    for change in diff.changed:  # e.g. proved (source) -> proved (kernel): a change, not a win
        assert (change.before or ("",))[0] == "proved" or (change.after or ("",))[0] != "proved"


def test_pins_accepted_findings_and_stale_witnesses_are_new_ones_only() -> None:
    base, head = Snapshot(), Snapshot()
    base.pins = {"m": Pin("sha256:aa", 1, "first"), "n": Pin("sha256:bb", 1, "first")}
    head.pins = {"m": Pin("sha256:aa", 1, "first"), "n": Pin("sha256:cc", 2, "second")}
    head.pins["o"] = Pin("sha256:dd", 1, "new mission")
    kept = ("F.lean", "nat-sub", "`n - 1` truncates", "n ≥ 1 in scope")
    new = ("G.lean", "junk-div", "divisor <b>", "")
    base.accepted = Counter([kept, kept])
    head.accepted = Counter([kept, kept, new])
    base.stale = {"m": "old"}
    head.stale = {"m": "old", "n": "stamped at another pin"}
    diff = compare(base, head, "main")
    assert [m for m, _, _ in diff.pins] == ["n", "o"]
    assert diff.accepted == [new]
    head.accepted[kept] += 1  # one more accepted copy of a finding counts too
    assert compare(base, head, "main").accepted == sorted([kept, new])
    assert diff.stale == [("n", "stamped at another pin")]
    text = diff_markdown(diff)
    assert "second" in text and "new mission" in text and "first" not in text
    assert "<b>" not in text and "&lt;b&gt;" in text  # workspace text is never markup
    assert "because: no reason" in text and "truncates" not in text


def test_an_archive_cannot_write_outside_its_folder(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, kind in [
            ("ok/file.txt", tarfile.REGTYPE),
            ("../escape.txt", tarfile.REGTYPE),
            ("/abs.txt", tarfile.REGTYPE),
            ("link", tarfile.SYMTYPE),
        ]:
            info = tarfile.TarInfo(name)
            info.type = kind
            if kind == tarfile.SYMTYPE:
                info.linkname = "/etc/passwd"
                archive.addfile(info)
            else:
                info.size = 2
                archive.addfile(info, io.BytesIO(b"hi"))
    into = tmp_path / "into"
    into.mkdir()
    _extract(buffer.getvalue(), into)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "into",
        "into/ok",
        "into/ok/file.txt",
    ]


def test_a_broken_base_is_named_by_revision_not_by_its_temporary_copy(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    yaml = demo / "missions/demo.yaml"
    good = yaml.read_text("utf-8")
    bad = good.replace("kind: goal", "kind: gaol")
    yaml.write_text(bad, encoding="utf-8")
    line = next(i for i, row in enumerate(bad.splitlines(), 1) if "gaol" in row)
    git(demo, "commit", "-qam", "broken")
    yaml.write_text(good, encoding="utf-8")  # the change fixes it
    code, _, stderr = _run("diff", "HEAD", "--root", str(demo))
    assert (code, stderr.count("\n")) == (2, 1)
    assert stderr.startswith(f"HEAD:missions/demo.yaml:{line}: ") and ".kind" in stderr
