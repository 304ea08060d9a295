"""Lake's text output, parsed from constructed fixtures (see fixtures/lake/README.md)."""

from __future__ import annotations

from pathlib import Path

from missions.lean.lake import group_diagnostics, parse_lake_output

FIXTURES = Path(__file__).parent / "fixtures" / "lake"


def lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").splitlines(keepends=True)


def test_failed_build() -> None:
    log = parse_lake_output(lines("build-failed.txt"))
    assert [(j.done, j.total, j.verb, j.caption) for j in log.jobs][-1] == (
        5,
        6,
        "Building",
        "Formal.MAE.Proofs",
    )
    assert [j.failed for j in log.jobs] == [False, False, False, False, True]
    assert log.jobs[0].time == "0.8s"
    assert log.succeeded is False
    assert log.failed_jobs == ["Formal.MAE.Proofs"]
    assert "build failed" in log.errors
    levels = [(d.level, d.path, d.line, d.column) for d in log.diagnostics]
    assert levels == [
        ("warning", "Formal/MAE/Statements.lean", 12, 4),  # leading ./ stripped
        ("warning", "Formal/LPFT/Proofs.lean", 30, 8),
        ("warning", "Formal/LPFT/Proofs.lean", 41, 8),
        ("error", "Formal/MAE/Proofs.lean", 57, 4),
        ("error", "Formal/MAE/Proofs.lean", 90, 2),
    ]
    assert log.diagnostics[0].message.endswith("linter.unusedVariables false`")
    assert log.diagnostics[3].message == "unsolved goals\nx : ℝ\n⊢ x = x"
    assert [d.is_sorry for d in log.diagnostics] == [False, True, True, False, False]


def test_successful_build_and_info_lines() -> None:
    log = parse_lake_output(lines("build-ok.txt"))
    assert log.succeeded is True and log.job_count == 3
    assert log.jobs[1].icon == "ℹ"
    assert log.diagnostics[0].level == "info"
    assert "depends on axioms" in log.diagnostics[0].message


def test_ansi_redraws_keep_the_last_frame() -> None:
    log = parse_lake_output(lines("build-ansi.txt"))
    assert [(j.verb, j.caption) for j in log.jobs] == [
        ("Built", "Formal.MAE.Defs"),
        ("Built", "Formal.MAE"),
    ]
    assert log.succeeded is True and log.job_count is None


def test_unknown_lines_are_kept_not_fatal() -> None:
    log = parse_lake_output(["something new from a future Lake\n", "\n"])
    assert log.other == ["something new from a future Lake"]
    assert log.succeeded is None


def test_grouping_by_mission_and_file() -> None:
    log = parse_lake_output(lines("build-failed.txt"))
    owners = {"Formal/MAE": "mae-normalized-pixel", "Formal/LPFT": "lp-ft"}

    def mission_of(path: str) -> str | None:
        return next((m for prefix, m in owners.items() if path.startswith(prefix)), None)

    grouped = group_diagnostics(log.diagnostics, mission_of)
    assert sorted(grouped) == ["lp-ft", "mae-normalized-pixel"]
    assert sorted(grouped["mae-normalized-pixel"]) == [
        "Formal/MAE/Proofs.lean",
        "Formal/MAE/Statements.lean",
    ]
    assert len(grouped["lp-ft"]["Formal/LPFT/Proofs.lean"]) == 2
