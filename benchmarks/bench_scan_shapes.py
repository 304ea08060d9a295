#!/usr/bin/env python3
"""How scanning time grows with the size of hostile Lean shapes.

A scanner that is linear in ordinary files can still be quadratic on a shape nobody thought
of (doc comments inside one declaration once took 30 s for a 343 KiB file). For each shape
this script scans it at sizes n, 2n, 4n and 8n and prints the growth factor per doubling
(about 2 when linear, about 4 when quadratic), with a plain file of ordinary declarations as
the baseline of the same run. Nothing is asserted; the numbers are printed (or ``--json``).

Usage:
    python benchmarks/bench_scan_shapes.py [--size N] [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from itertools import pairwise

from missions.lean.scan import scan_source


def ordinary(n: int) -> str:
    return "".join(
        f"/-- Lemma {k}. -/\ntheorem t{k} (a b : Nat) : a + b = b + a := by\n  omega\n\n"
        for k in range(n)
    )


def field_docs(n: int) -> str:
    fields = "".join(f"  /-- field {k} -/\n  f{k} : Nat := {k}\n" for k in range(n))
    return f"structure Big where\n{fields}\ntheorem after : True := trivial\n"


def nested_interpolation(n: int) -> str:
    return "def s := " + 's!"{' * n + "sorry" + '}"' * n + "\n"


def nested_comments(n: int) -> str:
    return "/-" * n + " x " + "-/" * n + "\ntheorem after : True := trivial\n"


def nested_brackets(n: int) -> str:
    return "theorem deep : True := by\n  exact " + "(" * n + "trivial" + ")" * n + "\n"


def long_tactic_block(n: int) -> str:
    steps = "".join(f"  · have h{k} : {k} = {k} := rfl\n    exact h{k}\n" for k in range(n))
    return f"theorem long : True := by\n{steps}  trivial\n"


def open_in_everywhere(n: int) -> str:
    return "".join(
        f"open Nat in\ntheorem t{k} : True := by\n  open Finset in\n  trivial\n" for k in range(n)
    )


SHAPES: dict[str, Callable[[int], str]] = {
    "ordinary declarations (baseline)": ordinary,
    "doc comments inside one structure": field_docs,
    "nested s! interpolation": nested_interpolation,
    "nested block comments": nested_comments,
    "nested parentheses": nested_brackets,
    "one long tactic block": long_tactic_block,
    "open … in around every command": open_in_everywhere,
}


def best_time(text: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        scan_source(text)
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1000, help="the smallest size n")
    parser.add_argument("--runs", type=int, default=5, help="best of this many scans")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [args.size * k for k in (1, 2, 4, 8)]
    rows = []
    baseline_per_kib = None
    for label, make in SHAPES.items():
        texts = [make(n) for n in sizes]
        times = [best_time(text, args.runs) for text in texts]
        growth = [b / a if a else float("inf") for a, b in pairwise(times)]
        kib = len(texts[-1].encode()) / 1024
        per_kib = times[-1] / kib
        if baseline_per_kib is None:
            baseline_per_kib = per_kib
        rows.append(
            {
                "shape": label,
                "sizes": sizes,
                "kib_at_largest": round(kib, 1),
                "seconds": times,
                "growth_per_doubling": growth,
                "per_kib_vs_baseline": per_kib / baseline_per_kib,
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'shape':<36} {'KiB':>7} {'s at 8n':>8} {'growth per doubling':>22} {'÷ base':>7}")
    for row in rows:
        growth = " ".join(f"{g:4.1f}" for g in row["growth_per_doubling"])
        print(
            f"{row['shape']:<36} {row['kib_at_largest']:>7.1f} {row['seconds'][-1]:>8.3f} "
            f"{growth:>22} {row['per_kib_vs_baseline']:>7.2f}"
        )
    print("growth per doubling: about 2 is linear, about 4 quadratic; ÷ base: time per KiB at")
    print("the largest size over the ordinary file's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
