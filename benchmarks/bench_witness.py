#!/usr/bin/env python3
"""Time ``missions witness`` and print how strong each witness is.

One run of this script:

1. times ``missions witness --budget quick --json`` on the repository's workspace (best of
   ``--runs``), with sensitivity measurement (the default) and without it
   (``--no-sensitivity``), against ``missions --version`` (the CLI's start-up) as the
   baseline of the same run;
2. prints, from the JSON of the first run, one row per named constant: the smallest relative
   decrease and increase the checks detect (``-`` for none up to ÷100 or ×100), whether the
   flipped inequalities are caught, and whether the target is non-vacuous.

Nothing is asserted: the numbers are for the README's witness section and for reviews.

Usage:
    python benchmarks/bench_witness.py [--root DIR] [--runs 3] [--budget quick] [--json]
        [--missions-cmd PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed, done.stdout


def best(cmd: list[str], env: dict[str, str], runs: int) -> tuple[float, str]:
    results = [timed(cmd, env) for _ in range(runs)]
    return min(t for t, _ in results), results[0][1]


def percent(value: float | None, down: bool) -> str:
    """A detected relative change as the ladder reads it: 5%, ÷10, ×2 (``-``: none)."""
    if value is None:
        return "-"
    if down and value >= 0.9:
        return f"÷{1 / (1 - value):.0f}"
    if not down and value >= 1:
        return f"×{value + 1:g}"
    return f"{value * 100:g}%"


def table(data: dict[str, Any]) -> list[str]:
    lines = [
        "| target | constant | detected decrease | detected increase | flips caught | "
        "non-vacuous |",
        "|---|---|---:|---:|---|---|",
    ]
    for result in data["results"]:
        key = f"{result['mission']}/{result['target']}"
        flips = result.get("flip") or {}
        caught = sum(v == "caught" for v in flips.values())
        flip_text = f"{caught}/{len(flips)}" if flips else "-"
        constants = result.get("sensitivity") or {}
        if not constants:
            lines.append(f"| {key} | (none) | | | {flip_text} | {result.get('nonvacuous')} |")
        for name, s in constants.items():
            lines.append(
                f"| {key} | {name} | {percent(s['detects_decrease_at'], True)} | "
                f"{percent(s['detects_increase_at'], False)} | {flip_text} | "
                f"{result.get('nonvacuous')} |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=REPO)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--budget", default="quick")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--missions-cmd", default=str(Path(sys.executable).with_name("missions")))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "MISSIONS_CACHE_DIR": cache, "NO_COLOR": "1"}
        base = [args.missions_cmd, "witness", "--root", str(args.root), "--budget", args.budget]
        startup, _ = best([args.missions_cmd, "--version"], env, args.runs)
        plain, _ = best([*base, "--no-sensitivity", "--json"], env, args.runs)
        measured, out = best([*base, "--json"], env, args.runs)
    data = json.loads(out)
    numbers = {
        "budget": args.budget,
        "startup_s": round(startup, 3),
        "witness_no_sensitivity_s": round(plain, 3),
        "witness_s": round(measured, 3),
        "ratio_to_startup": round(measured / startup, 1),
        "ok": data["ok"],
    }
    if args.json:
        print(json.dumps({**numbers, "table": table(data)}, indent=2))
        return
    print(f"missions --version (start-up):                 {startup:.2f} s")
    print(f"missions witness --budget {args.budget} --no-sensitivity: {plain:.2f} s")
    print(
        f"missions witness --budget {args.budget}:                  {measured:.2f} s "
        f"({measured / startup:.0f}× start-up)"
    )
    print()
    print("\n".join(table(data)))


if __name__ == "__main__":
    main()
