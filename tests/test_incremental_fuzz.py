"""Random edits anywhere in a workspace, as a person (or an adversary) makes them: after every
edit the incremental ``status`` must print exactly what the full command prints, or hand
over to it. Runs on a copy of the bundled missions (real Lean) and on a small generated tree
(shared definitions in many statement closures).

``MISSIONS_FUZZ_STEPS`` sets the number of edits per run (a few by default; the closing note
of a change to :mod:`missions.incremental` should say how many it survived), and
``MISSIONS_FUZZ_SEED`` shifts the seeds to explore other sequences.
"""

from __future__ import annotations

import difflib
import json
import os
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import REPO, copy_repo_workspace, init_repo
from test_incremental import _incremental, _status, _write

#: Left out of the edit loop (pytest -m 'not slow'): random edit sequences against the full command.
pytestmark = pytest.mark.slow


STEPS = int(os.environ.get("MISSIONS_FUZZ_STEPS", "12"))
SEED = int(os.environ.get("MISSIONS_FUZZ_SEED", "0"))
DECLARED = re.compile(r"\b(?:theorem|lemma|def|abbrev|structure|class|inductive)\s+([^\s:({\[]+)")
#: Commands that change what a scan can bound, appended at the end of a file.
COMMANDS = [
    "open Nat",
    "instance : Inhabited Nat := ⟨0⟩",
    "attribute [simp] {name}",
    "#exit",
    "set_option debug.skipKernelTC true",
    'macro "hole" : tactic => `(tactic| sorry)',
    "-- lint: allow junk-div because the divisor is positive",
    "axiom {name}_ax : False",
    "def {name}_ratio (a b : ℝ) : ℝ := a / b",
    "theorem {name} : True := sorry",
]

Mutation = Callable[[random.Random, str, list[str]], str]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _sorry_after_assign(rng: random.Random, text: str, names: list[str]) -> str:
    lines = _lines(text)
    candidates = [i for i, line in enumerate(lines) if ":=" in line]
    if not candidates:
        return text
    i = rng.choice(candidates)
    lines[i] = lines[i].split(":=", 1)[0] + ":= sorry"
    return "\n".join(lines)


def _add_declaration(rng: random.Random, text: str, names: list[str]) -> str:
    name = rng.choice(names) if names and rng.random() < 0.6 else f"fresh{rng.randrange(999)}"
    body = rng.choice(["sorry", "trivial"])
    decl = f"theorem {name} : True := {body}\n"
    lines = _lines(text)
    ends = [i for i, line in enumerate(lines) if line.startswith("end ")]
    at = rng.choice(ends) if ends and rng.random() < 0.7 else len(lines)
    return "\n".join([*lines[:at], decl, *lines[at:]])


def _delete_line(rng: random.Random, text: str, names: list[str]) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def _duplicate_line(rng: random.Random, text: str, names: list[str]) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    return "\n".join([*lines[: i + 1], lines[i], *lines[i + 1 :]])


def _blank_line(rng: random.Random, text: str, names: list[str]) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines) + 1)
    return "\n".join([*lines[:i], rng.choice(["", "-- a note"]), *lines[i:]])


def _rename(rng: random.Random, text: str, names: list[str]) -> str:
    found = list(DECLARED.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    return text[: match.end(1)] + "'" + text[match.end(1) :]


def _swap_mention(rng: random.Random, text: str, names: list[str]) -> str:
    present = [n for n in names if re.search(rf"\b{re.escape(n)}\b", text)]
    if not present or len(names) < 2:
        return text
    old = rng.choice(present)
    spots = [m.start() for m in re.finditer(rf"\b{re.escape(old)}\b", text)]
    at = rng.choice(spots)
    return text[:at] + rng.choice(names) + text[at + len(old) :]


def _operator(rng: random.Random, text: str, names: list[str]) -> str:
    spots = [m.start() for m in re.finditer(r" [*+] ", text)]
    if not spots:
        return text
    at = rng.choice(spots)
    return text[: at + 1] + rng.choice("/-") + text[at + 2 :]


def _command(rng: random.Random, text: str, names: list[str]) -> str:
    name = rng.choice(names) if names else "x"
    return text.rstrip("\n") + "\n\n" + rng.choice(COMMANDS).format(name=name) + "\n"


#: Lean written to trick the scanner (and ordinary Lean of real layouts): its commands pasted
#: into a workspace file, header dropped.
CORPUS = sorted((REPO / "tests" / "fixtures" / "scan_cases").glob("*/*/**/*.lean"))
HEADER = re.compile(r"^(?:module|prelude|(?:public |meta )*import)\b")


def _corpus_snippet(rng: random.Random, text: str, names: list[str]) -> str:
    source = rng.choice(CORPUS).read_text(encoding="utf-8")
    body = "\n".join(line for line in source.split("\n") if not HEADER.match(line))
    return text.rstrip("\n") + "\n\n" + body


MUTATIONS: list[Mutation] = [
    _sorry_after_assign,
    _add_declaration,
    _delete_line,
    _duplicate_line,
    _blank_line,
    _rename,
    _swap_mention,
    _operator,
    _command,
    _corpus_snippet,
]


def yaml_edit(rng: random.Random, text: str) -> str:
    """A target's recorded status set at random, or the title changed."""
    lines = text.split("\n")
    statuses = [i for i, line in enumerate(lines) if line.strip().startswith("status: ")]
    if statuses and rng.random() < 0.7:
        i = rng.choice(statuses)
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        lines[i] = f"{indent}status: {rng.choice(['stated', 'proved', 'missing'])}"
    else:
        titles = [i for i, line in enumerate(lines) if line.startswith("title: ")]
        for i in titles[:1]:
            lines[i] = f'title: "Edited {rng.randrange(1000)}"'
    return "\n".join(lines)


def _first_difference(a: str, b: str) -> str:
    """The first mission the two answers disagree on, as a diff (incremental, then full)."""
    for x, y in zip(json.loads(a)["missions"], json.loads(b)["missions"], strict=True):
        if x != y:
            lines = difflib.unified_diff(
                json.dumps(x, indent=1).split("\n"),
                json.dumps(y, indent=1).split("\n"),
                lineterm="",
            )
            return "\n".join(lines)
    return "(the missions agree; the summary or lint differ)"


def _fuzz(root: Path, rng: random.Random, steps: int) -> int:
    """Edit, compare, repeat; return how many edits the incremental path answered."""
    files = sorted(root.glob("Formal/**/*.lean"))
    yamls = sorted((root / "missions").glob("*.yaml"))
    originals = {path: path.read_text(encoding="utf-8") for path in files}
    names = sorted(
        {m.group(1).rsplit(".", 1)[-1] for t in originals.values() for m in DECLARED.finditer(t)}
    )
    _status(root)  # the state the first edit starts from
    answered = 0
    for step in range(steps):
        kind = rng.random()
        if kind < 0.25:  # a mission's YAML (a recorded status, its title), alone or with Lean
            path = rng.choice(yamls)
            _write(path, yaml_edit(rng, path.read_text(encoding="utf-8")))
        if kind >= 0.15:  # mostly one file between two runs, sometimes several (a checkout)
            for path in rng.sample(files, 1 if rng.random() < 0.8 else 3):
                if rng.random() < 0.1:
                    edited = originals[path]
                else:
                    edited = rng.choice(MUTATIONS)(rng, path.read_text(encoding="utf-8"), names)
                _write(path, edited)
        text = _incremental(root)
        full = _status(root, "--no-cache")
        if text is None:
            assert _status(root) == full  # the full command renews the state
            continue
        answered += 1
        assert text == full, (
            f"edit {step} of {path.relative_to(root)} answered differently:\n"
            + _first_difference(text, full)
        )
    print(f"{answered} of {steps} edits answered incrementally")  # shown with -s
    return answered


@pytest.mark.parametrize("seed", [11, 12])
def test_random_edits_of_the_bundled_missions(tmp_path: Path, seed: int) -> None:
    root = copy_repo_workspace(tmp_path)
    answered = _fuzz(root, random.Random(seed + SEED), STEPS)
    assert answered, "no edit was answered incrementally"


@pytest.mark.parametrize("seed", [21, 22])
def test_random_edits_of_a_generated_tree(tmp_path: Path, seed: int) -> None:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import generate_tree
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    root = tmp_path / "tree"
    generate_tree.generate(root, missions=12, files=60, lines=4000, seed=seed + SEED)
    init_repo(root, "generated")
    answered = _fuzz(root, random.Random(seed + SEED), STEPS)
    assert answered, "no edit was answered incrementally"
