"""``report --format badges``: shields.io endpoint JSON that says what ``status`` says, tiers
named apart."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from missions.badges import badge_message
from missions.cli import app
from missions.status import TargetStatus

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _badges(root: Path, out: Path) -> dict[str, dict[str, Any]]:
    code, _, stderr = _run("report", "--format", "badges", "-o", str(out), "--root", str(root))
    assert code == 0, stderr
    return {
        p.relative_to(out).as_posix(): json.loads(p.read_text("utf-8"))
        for p in out.rglob("*")
        if p.is_file()
    }


def _expected_prefix(targets: list[dict[str, Any]]) -> str:
    return f"{sum(t['status'] == 'proved' for t in targets)}/{len(targets)} proved"


def test_badges_count_what_status_counts_and_fail_with_the_gate(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = demo_workspace()
    for attempt in ("clean", "broken"):
        if attempt == "broken":
            proofs = demo / "Formal/Demo/Proofs.lean"
            text = proofs.read_text(encoding="utf-8")
            assert "  simp [Goal, h]\n" in text
            proofs.write_text(text.replace("  simp [Goal, h]\n", "  sorry\n"), encoding="utf-8")
        code, stdout, _ = _run("status", "--json", "--root", str(demo))
        status = json.loads(stdout)
        assert code == 0
        code, stdout, _ = _run("check", "--json", "--root", str(demo))
        gate = json.loads(stdout)
        assert code == (0 if gate["ok"] else 1)
        failing = {v["mission"] for v in gate["violations"]}
        found = _badges(demo, tmp_path / attempt)
        assert set(found) == {"workspace.json"} | {
            f"missions/{m['id']}.json" for m in status["missions"]
        }
        for badge in found.values():
            assert badge["schemaVersion"] == 1 and badge["message"] and badge["label"]
        everything = [t for m in status["missions"] for t in m["targets"]]
        workspace = found["workspace.json"]
        assert workspace["message"].startswith(_expected_prefix(everything) + " ")
        assert ("gate failing" in workspace["message"]) == (not gate["ok"])
        for mission in status["missions"]:
            badge = found[f"missions/{mission['id']}.json"]
            assert badge["label"] == mission["id"]
            assert badge["message"].startswith(_expected_prefix(mission["targets"]))
            broken = mission["id"] in failing or None in failing
            assert (badge["color"] == "red") == broken
        assert (attempt == "broken") == (not gate["ok"])


def test_badges_need_a_directory(demo_workspace: Callable[..., Path], tmp_path: Path) -> None:
    demo = demo_workspace()
    code, _, stderr = _run("report", "--format", "badges", "--root", str(demo))
    assert (code, stderr.count("\n")) == (2, 1) and "-o DIR" in stderr
    in_the_way = tmp_path / "file"
    in_the_way.write_text("x", encoding="utf-8")
    code, _, stderr = _run(
        "report", "--format", "badges", "-o", str(in_the_way), "--root", str(demo)
    )
    assert (code, stderr.count("\n")) == (2, 1) and "not a directory" in stderr
    assert in_the_way.read_text(encoding="utf-8") == "x"


_MESSAGE = re.compile(
    r"^(?P<proved>\d+)/(?P<total>\d+) proved"
    r"(?: · (?:(?P<only>kernel|source)|(?P<mixed>\d+ kernel, \d+ source)))?"
    r"(?: · (?P<external>\d+) external)?(?P<failing> · gate failing)?$"
)

statuses = st.sampled_from(
    [
        ("proved", "kernel"),
        ("proved", "source"),
        ("stated", None),
        ("missing", None),
        ("external", None),
    ]
)


@given(found=st.lists(statuses, max_size=12), gate_ok=st.booleans())
def test_a_badge_names_every_tier_and_never_merges_them(
    found: list[tuple[str, str | None]], gate_ok: bool
) -> None:
    targets = [
        cast("TargetStatus", SimpleNamespace(status=status, evidence=evidence))
        for status, evidence in found
    ]
    message, color = badge_message(targets, gate_ok)
    parsed = _MESSAGE.match(message)
    assert parsed is not None, message
    kernel = sum(1 for s in found if s == ("proved", "kernel"))
    source = sum(1 for s in found if s == ("proved", "source"))
    external = sum(1 for s, _ in found if s == "external")
    assert (int(parsed["proved"]), int(parsed["total"])) == (kernel + source, len(found))
    if kernel and source:
        assert parsed["mixed"] == f"{kernel} kernel, {source} source"
    elif kernel or source:
        assert parsed["only"] == ("kernel" if kernel else "source")
    else:
        assert parsed["only"] is None and parsed["mixed"] is None
    assert int(parsed["external"] or 0) == external
    assert bool(parsed["failing"]) == (not gate_ok)
    complete = bool(kernel + source) and kernel + source + external == len(found)
    expected = "red" if not gate_ok else "brightgreen" if complete else None
    if expected is not None:
        assert color == expected
    else:
        assert color == ("yellow" if kernel + source else "lightgrey")
