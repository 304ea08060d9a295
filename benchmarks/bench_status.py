#!/usr/bin/env python3
"""Benchmark `missions status --json` against `grep -rc sorry` on a large synthetic workspace.

One run of this script:

1. generates the synthetic workspace (``generate_tree.py``) into a temporary directory, or
   uses ``--tree DIR`` (generated there first if DIR is missing or empty, then kept);
2. times ``grep -rc sorry DIR/Formal`` (best of 3): the floor, reading every Lean file once;
3. times ``missions status --json --root DIR`` cold: a fresh, empty ``MISSIONS_CACHE_DIR``,
   so every Lean file is read, hashed and scanned;
4. times the same command warm: the cache the cold run left behind (best of 3), and on a
   fresh clone with that cache restored: every input file given new times, its bytes kept
   (what a CI checkout looks like to the caches; best of 3);
5. times it after editing one file, as a person at work does (best of 3, each run a new
   edit): a mission's proof file (a ``sorry`` filled in), then a shared definitions file
   that is in the statement closure of many missions (a lemma added, a different one each
   run, so that every run changes declarations); each edited file is restored after;
6. records the peak RSS of every missions run;
7. times a fixed piece of pure-Python work (:data:`CALIBRATION`) between the phases: how
   fast the machine was while they ran.

The missions runs keep Python's bytecode cache (``PYTHONDONTWRITEBYTECODE`` is removed from
their environment), as an installed tool does.

The warm and edit runs must print what a full scan prints: the warm runs are compared with
the cold run, the last run of each edit with ``status --json --no-cache`` on the same tree.

Each command runs under a tiny wrapper process that starts it, times it with
``time.perf_counter`` and reads ``resource.getrusage(RUSAGE_CHILDREN)`` after it exits; the
wrapper has no other child, so ``ru_maxrss`` is the command's own peak RSS and the wall time
excludes the wrapper's start-up. Times are compared as ratios to grep from the same run on
the same machine, so results are comparable across machines. Aims (printed, never enforced):
warm <= 2x grep, a fresh clone with the cache restored, and after editing a proof or a
shared file <= 10x grep, cold <= 130x grep, peak RSS < 300 MB.

Usage:
    python benchmarks/bench_status.py [--tree DIR] [--json] [--missions N] [--files N]
        [--lines N] [--seed N] [--cold-runs 1] [--warm-runs 3] [--edit-runs 3]
        [--grep-runs 3] [--keep]
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate_tree  # noqa: E402

AIM_WARM = 2.0
AIM_EDIT = 10.0
AIM_COLD = 130.0
AIM_CLONE = 10.0
AIM_PEAK_MB = 300.0
#: Calibration times further apart than this mean the machine's speed moved during a run.
MACHINE_DRIFT = 1.15

WRAPPER = r"""
import json, resource, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
try:  # this process's own high-water mark (RUSAGE_SELF would include what exec carried in)
    with open("/proc/self/status") as status:
        floor = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
except (OSError, StopIteration):
    floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with open(out, "wb") as sink:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.PIPE)
    _, err = proc.communicate()
    wall = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump({
    "rc": proc.returncode,
    "wall": wall,
    "user": after.ru_utime - before.ru_utime,
    "sys": after.ru_stime - before.ru_stime,
    "maxrss_kib": after.ru_maxrss,  # the only child: its peak RSS (KiB on Linux)
    "floor_kib": floor,  # the wrapper's own RSS, which exec carries into the child's maxrss
    "stderr": err.decode("utf-8", "replace")[-4000:],
}, sys.stdout)
"""


#: A fixed piece of pure-Python work of the kind the tool does (JSON, a regular expression,
#: dicts of strings), timed like every command: how fast the machine is at that moment. A shared
#: machine's speed moves within minutes, and a ratio to grep moves with it, since grep's short
#: reads slow down less than an interpreter does.
CALIBRATION = r"""
import json, re
data = [{"name": f"n{i}", "xs": list(range(i % 40)), "s": "ab" * (i % 9)} for i in range(12000)]
text = json.dumps(data)
for _ in range(3):
    json.loads(text)
counts = {}
for word in re.findall(r"[a-z]+[0-9]*", text):
    counts[word] = counts.get(word, 0) + 1
"""


FINGERPRINT = r"""
import hashlib, json, pathlib, missions
root = pathlib.Path(missions.__file__).resolve().parent
h = hashlib.sha256()
for path in sorted(root.rglob("*.py")):
    h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
from missions.lean.native import scanner_kind
print(json.dumps({"path": str(root), "sha256": h.hexdigest()[:16], "scanner": scanner_kind()}))
"""


def interpreter_of(executable: str) -> str:
    """The Python that runs a console script (its shebang), else this one."""
    try:
        with open(executable, "rb") as script:
            first = script.readline().decode("utf-8", "replace")
    except OSError:
        return sys.executable
    if first.startswith("#!") and "python" in first:
        return first[2:].strip().split()[0]
    return sys.executable


def code_fingerprint(python: str) -> dict[str, Any]:
    """Which `missions` source the runs use: its directory, a hash, and git's view of it."""
    proc = subprocess.run([python, "-c", FINGERPRINT], capture_output=True, text=True)
    if proc.returncode != 0:
        return {"path": None, "sha256": None, "scanner": None, "commit": None, "dirty": None}
    info: dict[str, Any] = json.loads(proc.stdout)
    git = shutil.which("git")
    info["commit"] = info["dirty"] = None
    if git:
        head = subprocess.run(
            [git, "-C", info["path"], "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
        )
        if head.returncode == 0:
            info["commit"] = head.stdout.strip()
            dirty = subprocess.run(
                [git, "-C", info["path"], "status", "--porcelain", "--", "."],
                capture_output=True,
                text=True,
            )
            info["dirty"] = bool(dirty.stdout.strip())
    return info


def measure(cmd: list[str], env: dict[str, str], out: Path) -> dict[str, Any]:
    """Run ``cmd`` once under the wrapper; its stdout goes to ``out``."""
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(out), *cmd],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    result["peak_mb"] = result["maxrss_kib"] / 1024
    # exec records the forking process's RSS in the child's ru_maxrss, so the wrapper's own
    # RSS is a floor: a value at the floor means "at most this much" (grep), anything above
    # it is the command's true peak.
    result["floor_mb"] = result["floor_kib"] / 1024
    return result


def missions_command(explicit: str | None) -> str:
    if explicit:
        return explicit
    sibling = Path(sys.executable).parent / "missions"
    if sibling.exists():
        return str(sibling)
    found = shutil.which("missions")
    if found is None:
        sys.exit("bench_status: no `missions` executable (use the venv python or --missions-cmd)")
    return found


def tree_stats(root: Path) -> dict[str, int]:
    files = lines = sorry_lines = 0
    paths = [root / "Formal.lean"] if (root / "Formal.lean").is_file() else []
    paths += sorted((root / "Formal").rglob("*.lean"))
    for path in paths:
        text = path.read_text(encoding="utf-8")
        files += 1
        lines += text.count("\n")
        sorry_lines += sum("sorry" in line for line in text.splitlines())
    missions = len(list((root / "missions").glob("*.yaml")))
    return {
        "missions": missions,
        "lean_files": files,
        "lean_lines": lines,
        "sorry_lines": sorry_lines,
    }


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return min(runs, key=lambda r: r["wall"])


def check(run: dict[str, Any], what: str, ok_codes: tuple[int, ...] = (0,)) -> None:
    if run["rc"] not in ok_codes:
        sys.exit(f"bench_status: {what} exited {run['rc']}:\n{run['stderr']}")


def proof_file_to_edit(root: Path) -> tuple[Path, Callable[[int], str]]:
    """The first mission proof file holding a ``sorry``, and its text for edit ``k``: the
    ``sorry`` filled in, and a numbered comment so that every edit changes the file."""
    for path in sorted((root / "Formal").glob("*/Proofs.lean")):
        text = path.read_text(encoding="utf-8")
        if "sorry" in text:
            filled = text.replace("sorry", "trivial", 1)
            return path, lambda k, filled=filled: filled + f"\n-- benchmark edit {k}\n"
    sys.exit(f"bench_status: no Proofs.lean under {root / 'Formal'} holds a sorry to fill in")


def shared_file_to_edit(root: Path) -> tuple[Path, Callable[[int], str]]:
    """The first shared definitions file, and its text for edit ``k``: a lemma of its own
    added (a statement-closure edit that changes declarations every time, not a comment)."""
    shared = sorted((root / "Formal" / "Common").glob("*.lean"))
    if not shared:
        sys.exit(f"bench_status: no shared files under {root / 'Formal' / 'Common'}")
    text = shared[0].read_text(encoding="utf-8")
    return shared[0], lambda k: text + f"\ntheorem benchmarkAdded{k} : True := trivial\n"


def retime(root: Path, k: int) -> None:
    """Give every input file new times, as a fresh checkout does, keeping its bytes."""
    stamp = time.time_ns() + k * 1_000_000_000
    inputs = [*(root / "Formal").rglob("*.lean"), *(root / "missions").glob("*.yaml")]
    inputs += [p for p in (root / "lakefile.lean", root / "lean-toolchain") if p.exists()]
    for path in inputs:
        os.utime(path, ns=(stamp, stamp))


def timed_edits(
    path: Path,
    edit: Callable[[int], str],
    runs: int,
    status_run: Any,
    full_run: Any,
) -> list[dict[str, Any]]:
    """Time ``status`` after ``runs`` distinct edits of ``path``; the file is restored after.

    The last run's output must equal a full scan's (``--no-cache``) of the same text.
    """
    original = path.read_bytes()
    results: list[dict[str, Any]] = []
    try:
        data: dict[str, Any] = {}
        for k in range(runs):
            path.write_text(edit(k), encoding="utf-8")
            run, data = status_run(f"status after editing {path.name}")
            results.append(run)
        _, full = full_run()
        if data != full:
            sys.exit(f"bench_status: after editing {path}, status differs from a full scan")
    finally:
        path.write_bytes(original)
    return results


def run_summary(runs: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    b = best(runs)
    return {
        "runs": len(runs),
        "wall_s": b["wall"],
        "user_s": b["user"],
        "sys_s": b["sys"],
        "peak_mb": max(r["peak_mb"] for r in runs),
        "all_wall_s": [r["wall"] for r in runs],
        **extra,
    }


def bench(root: Path, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    missions = missions_command(args.missions_cmd)
    python = interpreter_of(missions)
    code_before = code_fingerprint(python)
    base_env = {k: v for k, v in os.environ.items() if k != "MISSIONS_CACHE_DIR"}
    base_env["MISSIONS_DEBUG"] = "1"  # a crash prints a traceback instead of one line
    # an installed tool runs from cached bytecode; compiling its modules on every run (what
    # this variable asks for) would be measured as the tool's own time
    base_env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = work / "stdout"

    # (a) grep: the floor
    grep = ["grep", "-rc", "sorry", str(root / "Formal")]
    grep_runs = [measure(grep, base_env, out) for _ in range(args.grep_runs)]
    for run in grep_runs:
        check(run, "grep", (0, 1))
    grep_matches = sum(
        int(line.rsplit(":", 1)[1]) for line in out.read_text().splitlines() if ":" in line
    )

    status = [missions, "status", "--json", "--root", str(root)]
    calibration: list[float] = []

    def calibrate() -> None:
        run = measure([sys.executable, "-c", CALIBRATION], base_env, out)
        check(run, "the calibration")
        calibration.append(run["wall"])

    calibrate()

    def status_run(cache: Path, what: str, *options: str) -> tuple[dict[str, Any], dict[str, Any]]:
        env = dict(base_env, MISSIONS_CACHE_DIR=str(cache))
        run = measure([*status, *options], env, out)
        check(run, what)
        return run, json.loads(out.read_text(encoding="utf-8"))

    # (b) cold: a fresh, empty cache directory for every cold run
    cold_runs: list[dict[str, Any]] = []
    reference: dict[str, Any] | None = None
    cache = work / "cache-0"
    for k in range(args.cold_runs):
        cache = work / f"cache-{k}"
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir(parents=True)
        run, data = status_run(cache, "cold missions status")
        cold_runs.append(run)
        reference = reference or data
        if data != reference:
            sys.exit("bench_status: two cold runs printed different JSON")

    calibrate()

    # (c) warm: the cache the last cold run wrote
    warm_runs: list[dict[str, Any]] = []
    for _ in range(args.warm_runs):
        run, data = status_run(cache, "warm missions status")
        warm_runs.append(run)
        if data != reference:
            sys.exit("bench_status: a warm run printed different JSON from the cold run")

    # (c') a fresh clone with the cache restored: the same bytes at the same path, every file
    # with new times (what a CI checkout looks like to the caches)
    clone_runs: list[dict[str, Any]] = []
    for k in range(args.warm_runs):
        retime(root, k)
        run, data = status_run(cache, "status on a fresh clone")
        clone_runs.append(run)
        if data != reference:
            sys.exit("bench_status: a fresh clone printed different JSON from the cold run")

    calibrate()

    # (d) after editing one file, on the warm cache
    edits: dict[str, dict[str, Any]] = {}
    for key, (path, edit) in (
        ("edit_proof", proof_file_to_edit(root)),
        ("edit_shared", shared_file_to_edit(root)),
    ):
        runs = timed_edits(
            path,
            edit,
            args.edit_runs,
            lambda what: status_run(cache, what),
            lambda: status_run(work / "unused-cache", "status --no-cache", "--no-cache"),
        )
        edits[key] = run_summary(runs, file=str(path.relative_to(root)))

    calibrate()

    # start-up floor of the CLI (information only)
    version_runs = [measure([missions, "--version"], base_env, out) for _ in range(3)]
    for run in version_runs:
        check(run, "missions --version")

    g, c, w = best(grep_runs), best(cold_runs), best(warm_runs)
    edit_proof = edits["edit_proof"]["wall_s"]
    peak = max(r["peak_mb"] for r in cold_runs + warm_runs + clone_runs)
    peak = max([peak, *(e["peak_mb"] for e in edits.values())])
    assert reference is not None
    code_after = code_fingerprint(python)
    code = dict(code_before, changed_during_run=code_after != code_before)
    return {
        "code": code,
        "grep_matches": grep_matches,
        "status_summary": reference["summary"],
        # before the cold runs, after them, after the warm runs and after the edits
        "calibration_s": calibration,
        "runs": {
            "grep": {
                "runs": len(grep_runs),
                "wall_s": g["wall"],
                "peak_mb": g["peak_mb"],
                "all_wall_s": [r["wall"] for r in grep_runs],
            },
            "rss_floor_mb": max(r["floor_mb"] for r in grep_runs + cold_runs + warm_runs),
            "cold": run_summary(cold_runs),
            "warm": run_summary(warm_runs),
            "clone": run_summary(clone_runs),
            **edits,
            "startup": {
                "runs": len(version_runs),
                "wall_s": best(version_runs)["wall"],
                "peak_mb": max(r["peak_mb"] for r in version_runs),
            },
        },
        "ratios": {
            "cold_over_grep": c["wall"] / g["wall"],
            "warm_over_grep": w["wall"] / g["wall"],
            "clone_over_grep": best(clone_runs)["wall"] / g["wall"],
            "edit_proof_over_grep": edit_proof / g["wall"],
            "edit_shared_over_grep": edits["edit_shared"]["wall_s"] / g["wall"],
        },
        "aims": {
            "warm_le_2x_grep": {
                "aim": AIM_WARM,
                "value": w["wall"] / g["wall"],
                "met": w["wall"] / g["wall"] <= AIM_WARM,
            },
            "clone_le_10x_grep": {
                "aim": AIM_CLONE,
                "value": best(clone_runs)["wall"] / g["wall"],
                "met": best(clone_runs)["wall"] / g["wall"] <= AIM_CLONE,
            },
            "edit_proof_le_10x_grep": {
                "aim": AIM_EDIT,
                "value": edit_proof / g["wall"],
                "met": edit_proof / g["wall"] <= AIM_EDIT,
            },
            "edit_shared_le_10x_grep": {
                "aim": AIM_EDIT,
                "value": edits["edit_shared"]["wall_s"] / g["wall"],
                "met": edits["edit_shared"]["wall_s"] / g["wall"] <= AIM_EDIT,
            },
            "cold_le_130x_grep": {
                "aim": AIM_COLD,
                "value": c["wall"] / g["wall"],
                "met": c["wall"] / g["wall"] <= AIM_COLD,
            },
            "peak_lt_300_mb": {"aim": AIM_PEAK_MB, "value": peak, "met": peak < AIM_PEAK_MB},
        },
    }


def print_table(result: dict[str, Any]) -> None:
    tree, runs = result["tree"], result["runs"]
    s = result["status_summary"]
    print(f"workspace  {tree['root']}")
    print(
        f"           {tree['lean_files']:,} Lean files, {tree['lean_lines']:,} lines, "
        f"{tree['missions']:,} missions, {s['targets']:,} targets"
        + (f" (generated in {tree['generate_s']:.1f} s)" if tree.get("generate_s") else "")
    )
    print(
        f"status     {s['proved']} proved, {s['stated']} stated, {s['missing']} missing, "
        f"{s['external']} external; {s['complete']} of {s['missions']} missions complete"
    )
    print(f"grep       {result['grep_matches']:,} lines with `sorry`")
    print(f"python     {result['python']}")
    code = result["code"]
    where = f"{code['path']} sha256:{code['sha256']}"
    if code["commit"]:
        where += f" (git {code['commit']}{', uncommitted changes' if code['dirty'] else ''})"
    print(f"code       {where}")
    print(f"scanner    {code.get('scanner') or 'unknown'}")
    if code["changed_during_run"]:
        print("WARNING    the missions source changed during this run: the numbers mix versions")
    print()
    rows = [
        ("grep -rc sorry DIR/Formal", "grep", "best of"),
        ("missions status --json (cold)", "cold", "best of"),
        ("missions status --json (warm)", "warm", "best of"),
        ("  fresh clone, cache restored", "clone", "best of"),
        ("  after editing a proof file", "edit_proof", "best of"),
        ("  after editing a shared Defs file", "edit_shared", "best of"),
        ("missions --version (start-up, info)", "startup", "best of"),
    ]
    print(f"{'command':<38} {'wall s':>9} {'x grep':>8} {'peak MB':>9}  runs")
    grep_wall = runs["grep"]["wall_s"]
    floor = runs["rss_floor_mb"]
    for label, key, how in rows:
        r = runs[key]
        peak = f"{r['peak_mb']:.1f}" if r["peak_mb"] > floor + 0.5 else f"<={r['peak_mb']:.1f}"
        print(
            f"{label:<38} {r['wall_s']:>9.3f} {r['wall_s'] / grep_wall:>8.1f} "
            f"{peak:>9}  {how} {r['runs']}"
        )
    print(f"(peak RSS floor: the measuring wrapper's own {floor:.1f} MB)")
    print(machine_line(result["calibration_s"]))
    print()
    aims = result["aims"]
    met = lambda ok: "met" if ok else "NOT met"  # noqa: E731
    a = aims["warm_le_2x_grep"]
    print(f"warm/grep  {a['value']:8.2f}x   aim <= {a['aim']:g}x    {met(a['met'])}")
    a = aims["clone_le_10x_grep"]
    print(f"clone/grep {a['value']:8.2f}x   aim <= {a['aim']:g}x   {met(a['met'])}")
    for key, what in (("edit_proof_le_10x_grep", "proof"), ("edit_shared_le_10x_grep", "shared")):
        a = aims[key]
        print(f"edit/grep  {a['value']:8.2f}x   aim <= {a['aim']:g}x   {met(a['met'])}   ({what})")
    a = aims["cold_le_130x_grep"]
    print(f"cold/grep  {a['value']:8.2f}x   aim <= {a['aim']:g}x   {met(a['met'])}")
    a = aims["peak_lt_300_mb"]
    print(
        f"peak RSS   {a['value']:8.1f} MB  aim < {a['aim']:g} MB  {met(a['met'])}"
        f"   (cold {runs['cold']['peak_mb']:.1f} MB, warm {runs['warm']['peak_mb']:.1f} MB)"
    )
    print()
    print(f"edited     {runs['edit_proof']['file']} (a sorry filled in)")
    print(f"           {runs['edit_shared']['file']} (a lemma added; in statement closures)")


def machine_line(calibration: list[float]) -> str:
    """How much the machine's speed moved during the runs, from the calibration's times."""
    fast, slow = min(calibration), max(calibration)
    line = (
        f"machine    a fixed piece of Python work took {fast:.3f}-{slow:.3f} s during the runs "
        f"({slow / fast:.2f}x apart)"
    )
    if slow / fast > MACHINE_DRIFT:
        line += ": the machine's speed moved, and the ratios with it"
    return line


def rest() -> None:
    """Let a tree written just now rest, as a person's does: a file changed within two
    seconds is racy (``missions.roots.RACY_NS``) and no cache remembers it by its times, so
    the first warm runs would read it again."""
    time.sleep(2.1)


def scaling(sizes: list[int], args: argparse.Namespace) -> int:
    """The whole benchmark on one generated tree per size (``--tree DIR`` keeps them as
    ``DIR/missions-N``), then one table: is the time linear in the catalogue, and the
    memory below its aim at the largest size?"""
    base = args.tree.resolve() if args.tree else Path(tempfile.mkdtemp(prefix="missions-scale-"))
    files_per, lines_per = args.files / args.missions, args.lines / args.missions
    results = []
    try:
        for size in sizes:
            root = base / f"missions-{size}"
            if not root.exists() or not any(root.iterdir()):
                generate_tree.generate(
                    root,
                    missions=size,
                    files=round(size * files_per),
                    lines=round(size * lines_per),
                    seed=args.seed,
                )
                rest()
            if not args.json:
                print(f"benchmarking {root} ...", file=sys.stderr)
            work = Path(tempfile.mkdtemp(prefix="missions-bench-"))
            try:
                result = bench(root, args, work)
            finally:
                shutil.rmtree(work, ignore_errors=True)
            results.append({"tree": {"root": str(root), **tree_stats(root)}, **result})
    finally:
        if args.tree is None and not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_scaling(results)
    return 0


def print_scaling(results: list[dict[str, Any]]) -> None:
    """One row per size: each time as a ratio to that tree's grep, and the cold run's time
    per thousand lines (flat when the time is linear in the catalogue)."""
    names = ("cold", "warm", "clone", "edit_proof", "edit_shared")
    heads = ("cold", "warm", "clone", "proof edit", "shared edit")
    print(
        f"{'missions':>8} {'files':>7} {'lines':>9} {'grep':>7}  "
        + "  ".join(f"{h:>15}" for h in heads)
        + f"  {'cold ms/kline':>13}  {'peak RSS':>8}  {'machine':>9}"
    )
    fastest = min(t for result in results for t in result["calibration_s"])
    for result in results:
        tree, runs = result["tree"], result["runs"]
        grep = runs["grep"]["wall_s"]
        cells = "  ".join(
            f"{runs[n]['wall_s']:7.3f} s {runs[n]['wall_s'] / grep:4.0f}x" for n in names
        )
        per_kline = runs["cold"]["wall_s"] / tree["lean_lines"] * 1e6
        peak = result["aims"]["peak_lt_300_mb"]["value"]
        print(
            f"{tree['missions']:>8,} {tree['lean_files']:>7,} {tree['lean_lines']:>9,} "
            f"{grep:6.3f}s  {cells}  {per_kline:13.2f}  {peak:5.0f} MB"
            f"  {min(result['calibration_s']) / fastest:4.2f}-"
            f"{max(result['calibration_s']) / fastest:4.2f}"
        )
    print("(each time the best of its runs, as a ratio to grep over the same tree in the same run;")
    print(" machine: a fixed piece of Python work during that tree's runs, against its fastest")
    print(f" time in this whole run: 1.00 is the machine at its quickest, {fastest:.3f} s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="use (or generate and keep) the tree at DIR")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--missions", type=int, default=500)
    parser.add_argument("--files", type=int, default=3500)
    parser.add_argument("--lines", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=generate_tree.DEFAULT_SEED)
    parser.add_argument("--grep-runs", type=int, default=3)
    parser.add_argument("--cold-runs", type=int, default=1)
    parser.add_argument("--warm-runs", type=int, default=3)
    parser.add_argument("--edit-runs", type=int, default=3)
    parser.add_argument("--missions-cmd", help="the missions executable (default: the venv's)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary tree")
    parser.add_argument(
        "--sizes",
        help="a scaling table instead: one tree per number of missions (e.g. 50,500,2000), "
        "each with files and lines in the default tree's proportion",
    )
    args = parser.parse_args(argv)
    for name in ("grep_runs", "cold_runs", "warm_runs", "edit_runs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.sizes:
        try:
            sizes = [int(size) for size in args.sizes.split(",")]
        except ValueError:
            parser.error("--sizes takes numbers of missions separated by commas")
        return scaling(sizes, args)

    work = Path(tempfile.mkdtemp(prefix="missions-bench-"))
    try:
        generate_s = None
        if args.tree is not None:
            root = args.tree.resolve()
            if not root.exists() or not any(root.iterdir()):
                start = time.perf_counter()
                generate_tree.generate(
                    root, missions=args.missions, files=args.files, lines=args.lines, seed=args.seed
                )
                generate_s = time.perf_counter() - start
                rest()
        else:
            root = work / "tree"
            start = time.perf_counter()
            generate_tree.generate(
                root, missions=args.missions, files=args.files, lines=args.lines, seed=args.seed
            )
            generate_s = time.perf_counter() - start
            rest()
        if not args.json:
            print(f"benchmarking {root} ...", file=sys.stderr)
        result = bench(root, args, work)
        result = {
            "tree": {"root": str(root), **tree_stats(root), "generate_s": generate_s},
            "python": sys.version.split()[0],
            **result,
        }
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print_table(result)
        if args.keep and args.tree is None:
            kept = Path(tempfile.mkdtemp(prefix="missions-bench-tree-"))
            shutil.move(str(root), kept / "tree")
            print(f"kept the tree at {kept / 'tree'}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
