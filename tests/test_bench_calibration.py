"""The benchmark's calibration: how a run reports that the machine's speed moved under it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from conftest import REPO


@pytest.fixture
def bench() -> Iterator[ModuleType]:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import bench_status

        yield bench_status
    finally:
        sys.path.remove(str(REPO / "benchmarks"))


def test_the_machine_line_warns_only_when_the_calibration_drifted(bench: ModuleType) -> None:
    steady = bench.machine_line([0.200, 0.210, 0.205, 0.229])
    assert "0.200-0.229 s" in steady and "1.15x apart" in steady
    assert "moved" not in steady
    drifted = bench.machine_line([0.200, 0.240, 0.205])
    assert "1.20x apart" in drifted and "the machine's speed moved" in drifted


def _result(missions: int, calibration: list[float]) -> dict[str, Any]:
    run = {"wall_s": 1.0}
    return {
        "tree": {"missions": missions, "lean_files": 7 * missions, "lean_lines": 600 * missions},
        "runs": {
            "grep": {"wall_s": 0.01},
            **{n: run for n in ("cold", "warm", "clone", "edit_proof", "edit_shared")},
        },
        "aims": {"peak_lt_300_mb": {"value": 100.0}},
        "calibration_s": calibration,
    }


def test_the_scaling_table_gives_each_tree_its_calibration_against_the_fastest(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    bench.print_scaling([_result(50, [0.25, 0.30]), _result(500, [0.20, 0.22])])
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].startswith("      50") and rows[1].endswith("1.25-1.50")
    assert rows[2].startswith("     500") and rows[2].endswith("1.00-1.10")
    assert any("0.200 s" in row for row in rows[3:])
