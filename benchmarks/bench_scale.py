#!/usr/bin/env python3
"""How the everyday commands scale with the catalogue: 50, 500 and 2,000 missions.

For each size one run of this script generates a workspace (``generate_tree.py``, about five
Lean files per mission), commits it (``pin`` records commits), lets it rest two seconds (no
file is racy then, see :data:`missions.roots.RACY_NS`), warms the caches as a workspace in
use has them (one ``status``, ``check`` and ``report --format html`` each: a first ``check``
also reads every committed version of every mission file, once), and then times, side by
side on that tree:

- ``status --json`` warm (the stored answer): the baseline every other figure is a ratio to;
- ``status ID --json`` for one mission (the first time: its answer is not stored yet);
- ``pin ID`` of one mission (a statement edited first, so there is something to record);
- ``status --json`` after that pin (the incremental ``status`` answers a YAML edit);
- ``check`` (the whole gate);
- ``report --format html`` (the dashboard);
- ``check`` and ``report --format html`` once more on the unchanged tree, answered from what
  the run before stored (:mod:`missions.stored`; a run within two seconds of a change stores
  nothing, so one run is made after a pause first);
- ``check`` after a lemma is added to one mission's proofs (the edit loop's change: answered
  by the incremental ``check``, :mod:`missions.recheck`).

The aim of issue 24 is every command within 10x the warm ``status`` of the whole workspace;
it is printed, never enforced. Peak RSS comes from the same wrapper as
``bench_status.py``.

Usage:
    python benchmarks/bench_scale.py [--sizes 50,500,2000] [--json] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate_tree  # noqa: E402
from bench_status import measure  # noqa: E402

AIM = 10.0
FILES_PER_MISSION = 5
LINES_PER_MISSION = 430


def _missions_cmd() -> str:
    beside = Path(sys.executable).with_name("missions")
    found = str(beside) if beside.exists() else shutil.which("missions")
    if found is None:
        raise SystemExit("bench_scale.py: no `missions` command (pip install -e .)")
    return found


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=bench@example.invalid", "-c", "user.name=bench", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def _mission_file(root: Path, mission: str, name: str) -> Path:
    module = next(
        line.split(":", 1)[1].strip()
        for line in (root / "missions" / f"{mission}.yaml").read_text().splitlines()
        if line.strip().startswith("module:")
    )
    return root.joinpath(*module.split(".")) / name


def _edit_a_statement(root: Path, mission: str) -> None:
    """Append a harmless definition to the mission's Statements file: its pin moves."""
    path = _mission_file(root, mission, "Statements.lean")
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n/-- Added by the benchmark. -/\ndef benchAdded : ℕ := 1\n")


def _edit_a_proof(root: Path, mission: str) -> None:
    """Append a lemma to the mission's Proofs file: the edit loop's usual change."""
    path = _mission_file(root, mission, "Proofs.lean")
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\ntheorem benchProved : True := trivial\n")


def one_size(size: int, base: Path, missions: str) -> dict[str, Any]:
    root = base / f"tree-{size}"
    generate_tree.main(
        [
            str(root),
            "--missions",
            str(size),
            "--files",
            str(size * FILES_PER_MISSION),
            "--lines",
            str(size * LINES_PER_MISSION),
            "--force",
        ]
    )
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "generated")
    # a tree at rest, as a person's is: files written this instant are racy
    # (missions.roots.RACY_NS), and every cache would read them again once
    time.sleep(2.1)
    env = {**os.environ, "MISSIONS_CACHE_DIR": str(base / f"cache-{size}"), "COLUMNS": "80"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = base / "out.txt"
    ids = sorted(p.stem for p in (root / "missions").glob("*.yaml"))
    first, second = ids[0], ids[len(ids) // 2]
    at = ["--root", str(root)]
    site = str(base / f"site-{size}")
    measure([missions, "status", "--json", *at], env, out)  # cold: fills the caches
    measure([missions, "check", *at], env, out)  # the history and the dependency walks
    measure([missions, "report", "--format", "html", "-o", site, *at], env, out)
    warm = min(
        (measure([missions, "status", "--json", *at], env, out) for _ in range(3)),
        key=lambda r: r["wall"],
    )
    _edit_a_statement(root, second)
    runs = {
        "status ID": measure([missions, "status", first, "--json", *at], env, out),
        "pin ID": measure([missions, "pin", second, "--reason", "benchmark", *at], env, out),
        "status after pin": measure([missions, "status", "--json", *at], env, out),
        "check": measure([missions, "check", *at], env, out),
        "report html": measure([missions, "report", "--format", "html", "-o", site, *at], env, out),
    }
    time.sleep(2.1)  # the files `pin` wrote are no longer racy (missions.roots.RACY_NS)
    for command in (
        [missions, "check", *at],
        [missions, "report", "--format", "html", "-o", site, *at],
    ):
        measure(command, env, out)  # computes afresh and stores
    runs["check again"] = measure([missions, "check", *at], env, out)
    runs["report again"] = measure(
        [missions, "report", "--format", "html", "-o", site, *at], env, out
    )
    _edit_a_proof(root, first)
    time.sleep(2.1)  # an edit at rest, as the next run after saving a file sees it
    runs["check proof edit"] = measure([missions, "check", *at], env, out)
    result: dict[str, Any] = {"missions": size, "warm status": warm}
    for name, run in runs.items():
        if run["rc"] not in (0, 1):  # check exits 1 on violations: the tree has some
            raise SystemExit(f"{name} failed at {size} missions: {run['stderr'][-500:]}")
        result[name] = run
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="50,500,2000")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path, help="generate the trees here and keep them")
    args = parser.parse_args(argv)
    missions = _missions_cmd()
    base = args.keep or Path(tempfile.mkdtemp(prefix="missions-scale-"))
    base.mkdir(parents=True, exist_ok=True)
    try:
        results = [one_size(int(s), base, missions) for s in args.sizes.split(",")]
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    names = [
        "warm status",
        "status ID",
        "pin ID",
        "status after pin",
        "check",
        "report html",
        "check again",
        "report again",
        "check proof edit",
    ]
    print(f"{'missions':>8}  " + "  ".join(f"{n:>18}" for n in names) + "  peak RSS")
    for result in results:
        baseline = result["warm status"]["wall"]
        cells = []
        for name in names:
            wall = result[name]["wall"]
            ratio = "" if name == "warm status" else f" {wall / baseline:5.0f}x"
            flag = "!" if name != "warm status" and wall / baseline > AIM else " "
            cells.append(f"{wall:8.2f} s{ratio}{flag}".rjust(18))
        peak = max(result[n]["maxrss_kib"] for n in names) / 1024
        print(f"{result['missions']:>8}  " + "  ".join(cells) + f"  {peak:5.0f} MB")
    print(f"(ratios to the warm status of the same tree; '!' marks more than {AIM:.0f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
