#!/usr/bin/env python3
"""What the scanner turns away in real, honest Lean: a sample of a package's files at a commit.

Every fault (``path:line: …``) or uncertain structure on honest code is a clean layout that
would be reported ``stated``: the price of over-approximating. Run it on Mathlib at the pinned
commit (any clone or bare mirror that has it) after changing the lexer, the scanner or the
vocabulary, and compare the counts with the previous run. Nothing is asserted.

Usage:
    python benchmarks/scan_real_world.py --git-dir PATH/mathlib4 \\
        [--rev c5ea00351c28e24afc9f0f84379aa41082b1188f] [--folder Mathlib] \\
        [--sample 1500] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
from collections import Counter

from missions.lean.scan import scan_source
from missions.toolchain import PINNED_MATHLIB

_CODE = re.compile(r"`[^`]*`")


def read_files(git_dir: str, rev: str, paths: list[str]) -> dict[str, str]:
    """The files' texts at ``rev``, read in one ``git cat-file --batch``."""
    batch = subprocess.run(
        ["git", "-C", git_dir, "cat-file", "--batch"],
        input="".join(f"{rev}:{path}\n" for path in paths).encode(),
        capture_output=True,
        check=True,
    ).stdout
    texts: dict[str, str] = {}
    position = 0
    for path in paths:
        header_end = batch.index(b"\n", position)
        header = batch[position:header_end].split()
        position = header_end + 1
        if len(header) < 3 or header[1] != b"blob":
            continue
        size = int(header[2])
        texts[path] = batch[position : position + size].decode("utf-8", errors="replace")
        position += size + 1
    return texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--rev", default=PINNED_MATHLIB)
    parser.add_argument("--folder", default="Mathlib")
    parser.add_argument("--sample", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    listing = subprocess.run(
        ["git", "-C", args.git_dir, "ls-tree", "-r", "--name-only", args.rev, args.folder],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    paths = sorted(p for p in listing if p.endswith(".lean"))
    sample = random.Random(args.seed).sample(paths, min(args.sample, len(paths)))
    faults: Counter[str] = Counter()
    uncertain: Counter[str] = Counter()
    examples: dict[str, str] = {}
    for path, text in read_files(args.git_dir, args.rev, sample).items():
        scan = scan_source(text)
        found = [("fault", scan.error)] if scan.error else []
        found += [("uncertain", item) for item in scan.structure]
        for what, (line, message) in found:
            key = _CODE.sub("`…`", message)  # one count per kind of message
            (faults if what == "fault" else uncertain)[key] += 1
            examples.setdefault(key, f"{path}:{line}: {message}")
    if args.json:
        print(
            json.dumps(
                {
                    "files": len(sample),
                    "faults": dict(faults),
                    "uncertain": dict(uncertain),
                    "examples": examples,
                },
                ensure_ascii=False,
                indent=1,
            )
        )
        return 0
    print(f"{len(sample)} files of {args.folder} at {args.rev[:12]} (seed {args.seed})")
    print(f"files with a fault: {sum(faults.values())}")
    for key, count in faults.most_common():
        print(f"  {count:5}  {examples[key]}")
    print(f"uncertain structure: {sum(uncertain.values())}")
    for key, count in uncertain.most_common():
        print(f"  {count:5}  {examples[key]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
