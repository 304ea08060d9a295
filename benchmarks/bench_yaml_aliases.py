#!/usr/bin/env python3
"""How fast the mission loader rejects a YAML alias bomb, against loading a real mission.

The alias bomb (12 levels of 9 aliases: 9**12 nodes once expanded) must be rejected by the
node budget before anything expands it. The test suite checks that it is rejected (under a
memory and CPU cap); this script measures how fast, as a ratio to loading the largest bundled
mission file in the same run, so results compare across machines. Aim (printed, never
enforced): rejecting the bomb costs at most 10x loading a real mission.

Usage:
    python benchmarks/bench_yaml_aliases.py [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

from missions.catalog import load_catalog  # noqa: E402
from missions.errors import InputError  # noqa: E402

AIM_RATIO = 10.0

ALIAS_BOMB = (
    "\n".join(
        ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
        + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 12)]
    )
    + "\n"
)


def best_of(runs: int, action: Callable[[], None]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        bomb_root, real_root = Path(tmp, "bomb"), Path(tmp, "real")
        (bomb_root / "missions").mkdir(parents=True)
        (bomb_root / "missions" / "bomb.yaml").write_text(ALIAS_BOMB, encoding="utf-8")
        (real_root / "missions").mkdir(parents=True)
        largest = max((REPO / "missions").glob("*.yaml"), key=lambda p: p.stat().st_size)
        shutil.copy(largest, real_root / "missions" / largest.name)

        def reject() -> None:
            try:
                load_catalog(bomb_root, use_cache=False)
            except InputError as exc:
                assert any("alias bomb" in p.message for p in exc.problems), exc.problems
            else:
                raise AssertionError("the alias bomb was accepted")

        def load() -> None:
            load_catalog(real_root, use_cache=False)

        real = best_of(args.runs, load)
        bomb = best_of(args.runs, reject)
    result = {
        "mission": largest.name,
        "load_mission_s": round(real, 5),
        "reject_bomb_s": round(bomb, 5),
        "ratio": round(bomb / real, 2),
        "aim_ratio": AIM_RATIO,
        "aim_met": bomb / real <= AIM_RATIO,
        "python": sys.version.split()[0],
        "runs": args.runs,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"load {largest.name}: {real * 1000:.2f} ms (best of {args.runs})")
    print(f"reject the alias bomb: {bomb * 1000:.2f} ms (best of {args.runs})")
    met = "met" if result["aim_met"] else "NOT met"
    print(f"ratio {result['ratio']}x (aim <= {AIM_RATIO:g}x: {met})")


if __name__ == "__main__":
    main()
