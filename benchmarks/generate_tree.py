#!/usr/bin/env python3
"""Generate a synthetic, deterministic `missions` workspace for benchmarking.

The tree looks like a large real workspace:

    DIR/lean-toolchain               leanprover/lean4:v4.30.0
    DIR/lakefile.lean                a copy of the repository's lakefile.lean
    DIR/Formal.lean                  imports every mission root module
    DIR/missions/<id>.yaml           one goal + a few milestones (sometimes an external target)
    DIR/Formal/Common/Basic<j>.lean  shared helpers (simp lemmas, instances) imported by Defs
    DIR/Formal/M<k>.lean             the mission's root module
    DIR/Formal/M<k>/Defs.lean        definitions, structures, simp lemmas
    DIR/Formal/M<k>/Statements.lean  `def Goal : Prop := ...` and one Prop per milestone
    DIR/Formal/M<k>/Proofs.lean      one theorem per target, a mix of `sorry` and complete proofs
    DIR/Formal/M<k>/Aux<j>.lean      extra helper modules, added until the file and line
                                     counts are met

Every bulky Lean file is about 100 lines of realistic Lean 4 text: module docs, `open`
lines, namespaces and sections, doc comments, nested block comments, `def`/`theorem`/
`lemma`/`structure`/`instance`/`example`, `@[simp]` lemmas and multi-line tactic blocks.
The Lean is not meant to compile (no Lean toolchain is needed); it is meant to exercise
the scanner and the status analysis the way real files do.

Most missions are pinned: the generator computes each statement-closure digest with the
tool's own scanner (``missions.lean.scan``) and hash (``missions.pins.closure_digest``), so
sorry-free missions come out ``proved`` and the analysis walks complete proofs. A few
missions are left unpinned or carry a stale pin, as in a real catalogue.

Output is a pure function of the flags (fixed seed) and of the tool's scanner version.

Usage:
    python benchmarks/generate_tree.py DIR [--missions 500] [--files 2000] [--lines 200000]
        [--file-lines 100] [--seed 20250101] [--force]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parents[1]
TOOLCHAIN = "leanprover/lean4:v4.30.0\n"
DEFAULT_SEED = 20250101

WORDS = (  # noqa: SIM905 (one string reads better than a 60-item literal)
    "margin loss risk bound kernel norm weight gradient step rate width depth layer token patch "
    "mask sample batch prior entropy moment variance tail cover packing stability contraction "
    "smooth convex spectral rank trace feature label signal noise drift mixing coupling "
    "threshold budget regret horizon reward policy value schedule decay momentum curvature "
    "lattice orbit cycle flow cut matching coloring walk spread density energy"
).split()
CATEGORIES = ("research-paper", "open-problem", "example", "corpus", "puzzle")
ORIGINS = ("literature-sourced", "ai-adapted", "ai-generated")
METHODS = ("algebra", "induction", "estimate", "counting", "convexity", "compactness")
AUTHORS = (
    "A. Ambainis",
    "B. Barak",
    "C. Chen",
    "D. Dubhashi",
    "E. Erdős",
    "F. Fan",
    "G. Gupta",
    "H. Hazan",
    "I. Ilyas",
    "J. Jordan",
    "K. Kearns",
    "L. Lovász",
    "M. Mohri",
    "N. Nisan",
)
VENUES = ("COLT", "NeurIPS", "ICML", "STOC", "FOCS", "JMLR", "Ann. Statist.", "SODA")
SENTENCES = (
    "All quantities are finite sums, so no measure theory is needed.",
    "The constant is not optimized; only its existence matters downstream.",
    "We follow the conventions of the source, up to the normalisation of the weights.",
    "The bound is stated for natural-number indices to keep the casts explicit.",
    "Junk values at zero are excluded by an explicit positivity hypothesis.",
    "This is the discrete analogue of the continuous estimate in the appendix.",
    "The proof is a direct computation once the sums are split at the midpoint.",
    "Monotonicity is proved first, then the estimate follows by induction.",
    "The statement is weaker than the source's, which also tracks the constant.",
    "Everything is real-valued; complex coefficients are not needed here.",
)
TACTIC_FINISH = (
    "positivity",
    "linarith",
    "nlinarith [sq_nonneg (x - 1), sq_nonneg (x + 1)]",
    "ring",
    "norm_num",
    "simp",
    "omega",
    "exact le_rfl",
    "gcongr",
    "field_simp",
    "ring_nf",
    "exact Nat.succ_le_of_lt h",
    "simp_all",
    "aesop",
    "decide",
    "exact zero_le _",
)
NUMERALS = ("0", "1", "2", "3", "4", "1 / 2", "2 ^ n", "n + 1", "(n : ℝ)", "x ^ 2")


def camel(words: list[str]) -> str:
    return words[0] + "".join(w.capitalize() for w in words[1:])


def pascal(words: list[str]) -> str:
    return "".join(w.capitalize() for w in words)


def snake(words: list[str]) -> str:
    return "_".join(words)


@dataclass
class Pool:
    """Declarations a file may mention: functions (ℕ → ℝ), structures and sorry-free lemmas."""

    funs: list[str] = field(default_factory=list)
    structs: list[str] = field(default_factory=list)
    lemmas: list[str] = field(default_factory=list)

    def extend(self, other: Pool) -> None:
        self.funs += other.funs
        self.structs += other.structs
        self.lemmas += other.lemmas


class LeanWriter:
    """Produces blocks of plausible Lean 4 text, tracking the names it declares."""

    def __init__(self, rng: random.Random, namer: Namer, visible: Pool) -> None:
        self.rng = rng
        self.namer = namer
        self.visible = visible  # from imports
        self.local = Pool()  # declared in this file
        self.lines: list[str] = []
        self.sorry_helpers = 0

    # ----------------------------------------------------------------- helpers
    def emit(self, text: str) -> None:
        self.lines.extend(text.rstrip("\n").split("\n") if text else [""])

    def count(self) -> int:
        return len(self.lines)

    def fun(self) -> str:
        funs = self.local.funs + self.visible.funs
        return self.rng.choice(funs) if funs else "Nat.succ"

    def lemma(self) -> str:
        lemmas = self.local.lemmas + self.visible.lemmas
        return self.rng.choice(lemmas) if lemmas else "le_refl"

    def words(self, n: int = 2) -> list[str]:
        return self.rng.sample(WORDS, n)

    def sentence(self) -> str:
        return self.rng.choice(SENTENCES)

    def doc(self, what: str, extra: bool | None = None) -> str:
        w = " ".join(self.words(2))
        text = f"/-- {what} {w} built from `{self.fun()}`."
        if extra if extra is not None else self.rng.random() < 0.4:
            text += f"\n{self.sentence()} -/"
        else:
            text += " -/"
        return text

    # ------------------------------------------------------------------ blocks
    def block_fun(self) -> None:
        name = self.namer.fun()
        other = self.fun()
        r = self.rng.random()
        if r < 0.35:
            body = (
                f"def {name} (n : ℕ) : ℝ :=\n"
                f"  ∑ i ∈ Finset.range (n + 1), ({other} i) ^ 2 / (i + 1)"
            )
        elif r < 0.6:
            body = (
                f"noncomputable def {name} (n : ℕ) : ℝ :=\n"
                f"  Real.exp (-(n : ℝ) ^ 2 / 2) * {other} n + {self.rng.choice(NUMERALS)}"
            )
        elif r < 0.8:
            k = self.rng.randint(1, 9)
            body = f"def {name} : ℕ → ℝ\n  | 0 => {k}\n  | n + 1 => 2 * {name} n + {other} n"
        else:
            body = f"def {name} (n : ℕ) : ℝ :=\n  if n = 0 then 0 else {other} (n - 1) / n"
        self.emit(self.doc("The") + "\n" + body + "\n")
        self.local.funs.append(name)
        if self.rng.random() < 0.7:
            self.emit("")
            self.block_simp(name)

    def block_simp(self, fun: str) -> None:
        name = self.namer.lemma(fun)
        if self.rng.random() < 0.5:
            self.emit(
                f"@[simp]\ntheorem {name} : {fun} 0 = {self.rng.randint(0, 9)} := by\n"
                f"  simp [{fun}]\n"
            )
        else:
            self.emit(
                f"@[simp] lemma {name} (n : ℕ) :\n"
                f"    {fun} (n + 1) = 2 * {fun} n + {self.fun()} n := by\n"
                f"  rw [{fun}]\n"
                f"  ring\n"
            )
        self.local.lemmas.append(name)

    def block_structure(self) -> None:
        name = self.namer.struct()
        fields = self.rng.sample(WORDS, 3)
        text = self.doc("A configuration recording the") + "\n" + f"structure {name} where\n"
        text += f"  /-- The number of {fields[0]} entries. -/\n  size : ℕ\n"
        text += f"  {fields[1]} : Fin size → ℝ\n"
        text += f"  {fields[2]}_nonneg : ∀ i, 0 ≤ {fields[1]} i\n"
        if self.rng.random() < 0.5:
            text += "  deriving Inhabited\n"
        self.emit(text)
        self.local.structs.append(name)
        if self.rng.random() < 0.4:
            self.emit("")
            self.emit(
                f"instance : Inhabited {name} :=\n  ⟨⟨0, fun i => i.elim0, fun i => i.elim0⟩⟩\n"
            )

    def tactic_lines(self, depth: int = 1, sorry: bool = False) -> list[str]:
        ind = "  " * depth
        lines: list[str] = []
        steps = self.rng.randint(2, 7)
        for k in range(steps):
            r = self.rng.random()
            fun, lem = self.fun(), self.lemma()
            if r < 0.18:
                lines.append(f"{ind}have h{k} : 0 ≤ {fun} n := by")
                finish = self.rng.choice(("positivity", f"exact {lem} n", f"simp [{fun}]"))
                lines.append(f"{ind}  {finish}")
            elif r < 0.3:
                lines.append(f"{ind}rw [{fun}, {lem}]")
            elif r < 0.4:
                lines.append(f"{ind}calc {fun} n ≤ {fun} (n + 1) := {lem} n")
                lines.append(f"{ind}  _ ≤ 2 * {fun} (n + 1) := by linarith [{lem} (n + 1)]")
            elif r < 0.5:
                lines.append(f"{ind}obtain ⟨c, hc, h⟩ := {lem} n")
            elif r < 0.6:
                lines.append(f"{ind}refine ⟨?_, ?_⟩")
                lines.append(f"{ind}· simp [{fun}]")
                lines.append(f"{ind}· nlinarith [{lem} n, sq_nonneg ({fun} n)]")
            elif r < 0.68:
                lines.append(f"{ind}induction n with")
                lines.append(f"{ind}| zero => simp [{fun}]")
                lines.append(f"{ind}| succ m ih => simp only [{fun}]; linarith [ih]")
            elif r < 0.76:
                lines.append(f"{ind}-- the {' '.join(self.words(2))} term is handled by `{lem}`")
                lines.append(f"{ind}have := {lem} n")
            elif r < 0.84:
                lines.append(
                    f"{ind}rcases Nat.even_or_odd n with ⟨m, rfl⟩ | ⟨m, rfl⟩ <;> simp [{fun}]"
                )
            elif r < 0.92:
                lines.append(f"{ind}gcongr")
                lines.append(f"{ind}exact ({lem} _).trans (le_of_eq rfl)")
            else:
                lines.append(f"{ind}apply le_trans ({lem} n)")
                lines.append(f"{ind}norm_num [{fun}]")
        lines.append(f"{ind}{'sorry' if sorry else self.rng.choice(TACTIC_FINISH)}")
        return lines

    def block_theorem(self, *, sorry: bool = False, keyword: str | None = None) -> None:
        name = self.namer.lemma()
        keyword = keyword or self.rng.choice(("theorem", "lemma", "theorem"))
        fun, other = self.fun(), self.fun()
        prefix = ""
        r = self.rng.random()
        if r < 0.1:
            prefix = "open Real in\n"
        elif r < 0.15:
            prefix = "set_option maxHeartbeats 400000 in\n"
        elif r < 0.22:
            keyword = "private " + keyword
        stmt = self.rng.choice(
            (
                f"(n : ℕ) : {fun} n ≤ {other} n + {fun} (n + 1)",
                f"(n : ℕ) (h : 0 < n) :\n    0 ≤ {fun} n ∧ {fun} n ≤ 2 ^ n * {other} n",
                f"(n : ℕ) : ∃ c : ℝ, 0 < c ∧ {fun} n ≤ c * ({other} n + 1)",
                f"(n : ℕ) : |{fun} n - {other} n| ≤ {fun} n + {other} n",
            )
        )
        lines = [self.doc("A bound on the", extra=self.rng.random() < 0.3)]
        lines.append(f"{prefix}{keyword} {name} {stmt} := by")
        lines += self.tactic_lines(sorry=sorry)
        self.emit("\n".join(lines) + "\n")
        if sorry:
            self.sorry_helpers += 1
        else:
            self.local.lemmas.append(name)

    def block_term_lemma(self) -> None:
        name = self.namer.lemma()
        fun, lem = self.fun(), self.lemma()
        self.emit(
            f"lemma {name} (n : ℕ) : {fun} n ≤ {fun} n + 0 :=\n"
            f"  (le_of_eq (add_zero _).symm).trans (by simpa using {lem} n |>.le)\n"
        )
        self.local.lemmas.append(name)

    def block_comment(self) -> None:
        w = self.words(3)
        r = self.rng.random()
        if r < 0.4:
            self.emit(
                f"/- Implementation note: the {w[0]} estimate avoids `Finset.sum_comm`.\n"
                f"   /- nested: an older version used `omega` on the {w[1]} indices -/\n"
                f"   and the {w[2]} case is left to the next milestone. -/\n"
            )
        elif r < 0.7:
            self.emit(
                f"-- TODO: sharpen the {w[0]} constant (see the {w[1]} remark).\n"
                f"-- {self.sentence()}\n"
            )
        else:
            self.emit(
                f"/-! ## {w[0].capitalize()} and {w[1]}\n\n{self.sentence()}\n"
                f"{self.sentence()} -/\n"
            )

    def block_section(self) -> None:
        title = pascal(self.words(1))
        name = self.namer.lemma()
        self.emit(
            f"section {title}\n\n"
            f"variable {{α : Type*}} [LinearOrderedField α]\n\n"
            f"/-- A scale-free form of the {' '.join(self.words(2))} step. -/\n"
            f"lemma {name} (a b : α) (h : a ≤ b) : a / 2 ≤ b / 2 := by\n"
            f"  linarith\n\n"
            f"end {title}\n"
        )
        self.local.lemmas.append(name)

    def block_example(self) -> None:
        fun = self.fun()
        self.emit(f"example : {fun} 0 = {fun} 0 := by\n  rfl\n")

    def block_misc(self) -> None:
        r = self.rng.random()
        if r < 0.4:
            self.emit(f"#check @{self.lemma()}\n")
        elif r < 0.7:
            self.emit(
                f"attribute [local simp] mul_comm in\n"
                f"theorem {self.namer.lemma()} (n : ℕ) : {self.fun()} n * 1 = "
                f"{self.fun()} n * 1 := by\n"
                f"  simp\n"
            )
        else:
            self.emit(
                f'/-- Printed in diagnostics as "{" ".join(self.words(2))}". -/\n'
                f'def {self.namer.fun()}Name : String := "{"-".join(self.words(2))}"\n'
            )

    def fill(self, target_lines: int, *, sorry_rate: float = 0.05, structures: bool = True) -> None:
        """Add random blocks until the file has about ``target_lines`` lines."""
        while self.count() < target_lines:
            self.emit("")
            r = self.rng.random()
            if r < 0.22:
                self.block_fun()
            elif r < 0.3 and structures:
                self.block_structure()
            elif r < 0.55:
                self.block_theorem(sorry=self.rng.random() < sorry_rate)
            elif r < 0.62:
                self.block_term_lemma()
            elif r < 0.72:
                self.block_comment()
            elif r < 0.8:
                self.block_section()
            elif r < 0.88:
                self.block_example()
            elif r < 0.93:
                self.block_misc()
            else:
                self.block_simp(self.fun())


class Namer:
    """Unique declaration names inside one namespace."""

    def __init__(self, rng: random.Random, prefix: str) -> None:
        self.rng = rng
        self.prefix = prefix
        self.n = 0

    def _next(self) -> int:
        self.n += 1
        return self.n

    def fun(self) -> str:
        return f"{camel(self.rng.sample(WORDS, 2))}{self.prefix.capitalize()}{self._next()}"

    def struct(self) -> str:
        return f"{pascal(self.rng.sample(WORDS, 2))}{self.prefix.capitalize()}{self._next()}"

    def lemma(self, base: str | None = None) -> str:
        stem = base if base else snake(self.rng.sample(WORDS, 2))
        suffix = self.rng.choice(("le", "nonneg", "pos", "succ", "mono", "bound", "eq", "zero"))
        return f"{stem}_{suffix}_{self.prefix}{self._next()}"


# --------------------------------------------------------------------- missions
@dataclass
class TargetSpec:
    id: str
    kind: str
    title: str
    statement: str | None = None  # short Lean name
    proof: str | None = None
    depends_on: list[str] = field(default_factory=list)
    sorry: bool = False


@dataclass
class MissionSpec:
    index: int
    id: str
    title: str
    module: str
    namespace: str
    targets: list[TargetSpec]
    common: list[int]
    aux: int = 0
    pin: str = "ok"  # ok | none | stale


def file_header(rng: random.Random, imports: list[str], title: str, what: str) -> str:
    text = "".join(f"import {m}\n" for m in imports)
    text += f"\n/-!\n# {title}: {what}\n\n{rng.choice(SENTENCES)}\n{rng.choice(SENTENCES)}\n-/\n"
    return text


def jitter(rng: random.Random, base: int) -> int:
    return max(20, base + rng.randint(-base // 6, base // 6))


def write(path: Path, text: str) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text, encoding="utf-8")
    return text.count("\n")


class TreeGenerator:
    def __init__(self, root: Path, args: argparse.Namespace) -> None:
        self.root = root
        self.args = args
        self.rng = random.Random(args.seed)
        self.files = 0
        self.lines = 0
        self.sorry_lines = 0
        self.common_pools: list[Pool] = []
        self.common_imports: list[list[int]] = []
        self.texts: dict[str, str] = {}  # module name -> text, for statement-closure pins
        self.imports: dict[str, list[str]] = {}

    def put(self, module: str, imports: list[str], text: str) -> None:
        path = self.root.joinpath(*module.split(".")).with_suffix(".lean")
        if not text.endswith("\n"):
            text += "\n"
        self.lines += write(path, text)
        self.files += 1
        self.sorry_lines += sum("sorry" in line for line in text.split("\n"))
        self.texts[module] = text
        self.imports[module] = [m for m in imports if m.startswith("Formal")]

    # ------------------------------------------------------------------ common
    def common(self, count: int) -> None:
        for j in range(count):
            rng = random.Random(self.rng.random())
            module = f"Formal.Common.Basic{j:02d}"
            imports = ["Mathlib"]
            deps = sorted(rng.sample(range(j), min(j, rng.randint(0, 2))))
            imports += [f"Formal.Common.Basic{d:02d}" for d in deps]
            visible = Pool()
            for d in deps:
                visible.extend(self.common_pools[d])
            writer = LeanWriter(rng, Namer(rng, f"c{j}"), visible)
            writer.emit(file_header(rng, imports, f"Shared toolkit {j}", "lemmas"))
            writer.emit("\nopen Finset BigOperators\n\nnamespace Formal.Common\n")
            writer.block_fun()
            writer.fill(jitter(rng, self.args.file_lines) - 2, sorry_rate=0.0)
            writer.emit("\nend Formal.Common")
            self.put(module, imports, "\n".join(writer.lines))
            self.common_pools.append(writer.local)
            self.common_imports.append(deps)

    # ---------------------------------------------------------------- missions
    def plan(self, index: int, n_common: int) -> MissionSpec:
        rng = self.rng
        words = rng.sample(WORDS, 2)
        mission_id = f"m{index:04d}-{words[0]}-{words[1]}"
        module = f"Formal.M{index:04d}"
        targets: list[TargetSpec] = []
        milestones = rng.randint(2, 4)
        open_mission = rng.random() < 0.55  # some milestone or the goal keeps a sorry
        used: set[str] = set()
        for m in range(milestones):
            tw = rng.sample(WORDS, 2)
            while "-".join(tw) in used:
                tw = rng.sample(WORDS, 2)
            used.add("-".join(tw))
            deps = sorted(rng.sample([t.id for t in targets], rng.randint(0, len(targets))))
            targets.append(
                TargetSpec(
                    id=f"{tw[0]}-{tw[1]}",
                    kind="milestone",
                    title=f"The {tw[0]} {tw[1]} estimate (step {m + 1})",
                    statement=pascal(tw) + "Holds",
                    proof=snake(tw) + "_holds",
                    depends_on=deps,
                    sorry=open_mission and rng.random() < 0.5,
                )
            )
        if rng.random() < 0.06:
            targets.append(
                TargetSpec(
                    id="upstream-lemma",
                    kind="external",
                    title="A lemma proved in an upstream library",
                )
            )
        goal_sorry = open_mission and (not any(t.sorry for t in targets) or rng.random() < 0.3)
        targets.append(
            TargetSpec(
                id="goal",
                kind="goal",
                title=f"Main theorem: {words[0]} {words[1]}",
                statement="Goal",
                proof="goal",
                depends_on=[t.id for t in targets if t.kind == "milestone"],
                sorry=goal_sorry,
            )
        )
        common = sorted(rng.sample(range(n_common), min(n_common, rng.randint(1, 2))))
        r = rng.random()
        pin = "ok" if r < 0.9 else ("none" if r < 0.95 else "stale")
        return MissionSpec(
            index,
            mission_id,
            f"Synthetic {words[0]} {words[1]} mission {index}",
            module,
            module,
            targets,
            common,
            pin=pin,
        )

    def common_closure(self, roots: list[int]) -> list[int]:
        seen: set[int] = set()
        stack = list(roots)
        while stack:
            j = stack.pop()
            if j not in seen:
                seen.add(j)
                stack.extend(self.common_imports[j])
        return sorted(seen)

    def mission_files(self, spec: MissionSpec) -> None:
        rng = random.Random(self.rng.random())
        ns = spec.namespace
        base = spec.module
        namer = Namer(rng, "")  # one namer per mission namespace: names stay unique
        common_mods = [f"Formal.Common.Basic{j:02d}" for j in spec.common]
        visible = Pool()
        for j in self.common_closure(spec.common):
            visible.extend(self.common_pools[j])

        # Defs
        defs_imports = ["Mathlib", *common_mods]
        w = LeanWriter(rng, namer, visible)
        w.emit(file_header(rng, defs_imports, spec.title, "the model"))
        w.emit(f"\nopen Finset BigOperators\nopen Formal.Common\n\nnamespace {ns}\n")
        if rng.random() < 0.3:
            w.emit("\nnoncomputable section")
            closing = f"\nend\n\nend {ns}"
        else:
            closing = f"\nend {ns}"
        for block in (w.block_fun, w.block_fun, w.block_structure):
            w.emit("")
            block()
        w.fill(jitter(rng, self.args.file_lines) - 3, sorry_rate=0.0)
        w.emit(closing)
        self.put(f"{base}.Defs", defs_imports, "\n".join(w.lines))
        defs_pool = Pool()
        defs_pool.extend(visible)
        defs_pool.extend(w.local)

        # Statements: one Prop per target, plus sorry-free helper definitions
        st_imports = [f"{base}.Defs"]
        w = LeanWriter(rng, namer, defs_pool)
        w.emit(file_header(rng, st_imports, spec.title, "statements"))
        w.emit(f"\nopen Finset\nopen Formal.Common\n\nnamespace {ns}\n")
        for t in spec.targets:
            if t.kind == "external":
                continue
            if t.kind == "goal":
                parts = [s.statement for s in spec.targets if s.kind == "milestone"]
                body = " ∧\n    ".join([*parts, f"∀ n : ℕ, 0 ≤ {w.fun()} n"])
                doc = (
                    f"/-- **Goal: {t.title}.** The conjunction of the milestones, and the\n"
                    f"nonnegativity that the source states separately.\n\n"
                    f"Source: {rng.choice(AUTHORS)} et al., Theorem {rng.randint(1, 9)}. -/"
                )
            else:
                f, g = w.fun(), w.fun()
                body = rng.choice(
                    (
                        f"∀ n : ℕ, {f} n ≤ {g} n + {f} (n + 1)",
                        f"∃ c : ℝ, 0 < c ∧ ∀ n : ℕ, {f} n ≤ c * ({g} n + 1)",
                        f"∀ n : ℕ, 0 < n → |{f} n - {g} n| ≤ 2 * {g} n",
                    )
                )
                doc = (
                    f"/-- **{t.title}.** {rng.choice(SENTENCES)}\n\n"
                    f"Source: {rng.choice(AUTHORS)}, Lemma {rng.randint(1, 20)}, "
                    f"{rng.choice(VENUES)}. -/"
                )
            w.emit("")
            w.emit(f"{doc}\ndef {t.statement} : Prop :=\n  {body}")
        w.fill(jitter(rng, self.args.file_lines) - 2, sorry_rate=0.0, structures=False)
        w.emit(f"\nend {ns}")
        self.put(f"{base}.Statements", st_imports, "\n".join(w.lines))
        st_pool = Pool()
        st_pool.extend(defs_pool)
        st_pool.extend(w.local)

        # Aux modules (sorry-free lemmas the proofs use; a few unfinished ones)
        aux_pool = Pool()
        for a in range(1, spec.aux + 1):
            imports = [f"{base}.Defs"] + ([f"{base}.Aux{a - 1}"] if a > 1 else [])
            v = Pool()
            v.extend(defs_pool)
            v.extend(aux_pool)
            w = LeanWriter(rng, namer, v)
            w.emit(file_header(rng, imports, spec.title, f"auxiliary lemmas, part {a}"))
            w.emit(f"\nopen Finset BigOperators\nopen Formal.Common\n\nnamespace {ns}\n")
            w.fill(jitter(rng, self.args.file_lines) - 2, sorry_rate=0.08)
            w.emit(f"\nend {ns}")
            self.put(f"{base}.Aux{a}", imports, "\n".join(w.lines))
            aux_pool.extend(w.local)

        # Proofs
        pr_imports = [f"{base}.Statements"] + ([f"{base}.Aux{spec.aux}"] if spec.aux else [])
        v = Pool()
        v.extend(st_pool)
        v.extend(aux_pool)
        w = LeanWriter(rng, namer, v)
        w.emit(file_header(rng, pr_imports, spec.title, "proofs"))
        w.emit(f"\nopen Finset BigOperators\nopen Formal.Common\n\nnamespace {ns}\n")
        # local helper lemmas first, so the proofs can use them
        w.fill(
            max(w.count() + 10, jitter(rng, self.args.file_lines) - 12 * len(spec.targets)),
            sorry_rate=0.05,
            structures=False,
        )
        done: list[str] = []
        for t in spec.targets:
            if t.kind == "external":
                continue
            w.emit("")
            w.emit(f"/-- The proof of `{t.statement}` ({t.kind} `{t.id}`). -/")
            if t.kind == "goal":
                proofs = [s.proof for s in spec.targets if s.kind == "milestone"]
                w.emit(f"theorem {t.proof} : {t.statement} := by")
                if t.sorry:
                    w.emit(
                        f"  refine ⟨{', '.join([*proofs, '?_'])}⟩\n"
                        "  -- the tail bound is open\n  sorry"
                    )
                else:
                    w.emit(f"  refine ⟨{', '.join([*proofs, '?_'])}⟩\n  intro n\n  positivity")
            else:
                w.emit(f"theorem {t.proof} : {t.statement} := by")
                lines = w.tactic_lines(sorry=t.sorry)
                uses = [
                    s for s in done if s in {d.replace("-", "_") + "_holds" for d in t.depends_on}
                ]
                if uses:
                    lines.insert(0, f"  have prev := {uses[0]}")
                lines.insert(0, "  intro n")
                w.emit("\n".join(lines))
                done.append(t.proof or "")
        w.emit(f"\nend {ns}")
        self.put(f"{base}.Proofs", pr_imports, "\n".join(w.lines))

        # root module
        parts = ["Defs", "Statements", "Proofs"] + [f"Aux{a}" for a in range(1, spec.aux + 1)]
        root_imports = [f"{base}.{p}" for p in parts]
        text = "".join(f"import {m}\n" for m in root_imports)
        text += f"\n/-! # Mission `{spec.id}`: {spec.title} -/\n"
        self.put(base, root_imports, text)

    def yaml(self, spec: MissionSpec, digest: str | None) -> str:
        rng = random.Random(spec.index * 7919 + self.args.seed)
        authors = ", ".join(rng.sample(AUTHORS, 2))
        lines = [
            f"id: {spec.id}",
            f'title: "{spec.title}"',
            f"category: {rng.choice(CATEGORIES)}",
            "summary: >",
            f"  {rng.choice(SENTENCES)} {rng.choice(SENTENCES)}",
            f"  {rng.choice(SENTENCES)}",
            "tags: [synthetic, benchmark]",
            "sources:",
            "  - key: main",
            f'    citation: "{authors}. A synthetic result {spec.index}. '
            f'{rng.choice(VENUES)} 2024."',
            f'    arxiv: "24{rng.randint(1, 12):02d}.{rng.randint(10000, 99999)}"',
            f'    locators: ["Theorem {rng.randint(1, 9)}", "§{rng.randint(1, 7)}", "Appendix A"]',
            "  - key: textbook",
            f'    citation: "{rng.choice(AUTHORS)}. Lectures on {rng.choice(WORDS)}s. 2019."',
            '    locators: ["Chapter 3"]',
            "lean:",
            f"  module: {spec.module}",
        ]
        if digest is not None and spec.pin != "none":
            pin = digest if spec.pin == "ok" else "sha256:" + "0" * 64
            lines += [
                f"  statement_pin: {pin}",
                "statement_history:",
                "  - revision: 1",
                "    date: 2025-01-15",
                "    reason: initial",
                f"    digest: {pin}",
            ]
        lines += [
            "conventions:",
            f'  - "{rng.choice(SENTENCES)}"',
            f'  - "{rng.choice(SENTENCES)}"',
            "facts:",
            f'  - id: F1\n    text: "{rng.choice(SENTENCES)}"\n    source: main\n    locator: "§2"',
            f'  - id: F2\n    text: "{rng.choice(SENTENCES)}"',
            "targets:",
        ]
        for t in spec.targets:
            lines += [
                f"  - id: {t.id}",
                f"    kind: {t.kind}",
                f'    title: "{t.title}"',
                "    informal: >",
                f"      {rng.choice(SENTENCES)}",
                f"      {rng.choice(SENTENCES)}",
            ]
            if t.kind == "external":
                lines += [
                    "    source: textbook",
                    "    external:",
                    "      repository: https://example.org/upstream.git",
                    f'      commit: "{rng.getrandbits(160):040x}"',
                    "      path: Upstream/Basic.lean",
                    "      name: Upstream.key_lemma",
                    "    provenance: {statement: literature-sourced, proof: external}",
                    "    status: external",
                ]
                continue
            lines += [
                "    source: main",
                f'    locator: "Lemma {rng.randint(1, 20)}"',
                f"    facts: [{rng.choice(('F1', 'F2', 'F1, F2'))}]",
                f"    method: {rng.choice(METHODS)}",
                f"    statement: {spec.namespace}.{t.statement}",
                f"    proof: {spec.namespace}.{t.proof}",
                f"    depends_on: [{', '.join(t.depends_on)}]",
                f"    provenance: {{statement: {rng.choice(ORIGINS)}, "
                f"proof: {rng.choice(ORIGINS)}}}",
                "    status: stated",
                "    evidence: source",
            ]
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------- pins
    def digests(self, specs: list[MissionSpec]) -> dict[str, str | None]:
        """Statement-closure digests, computed with the tool's own scanner and hash."""
        try:
            from missions.lean.scan import scan_source
            from missions.pins import closure_digest
        except ImportError:
            print(
                "generate_tree: `missions` not importable; missions are left unpinned",
                file=sys.stderr,
            )
            return {s.id: None for s in specs}
        scans: dict[str, SimpleNamespace] = {}

        def closure(start: str) -> list[str]:
            seen: set[str] = set()
            stack = [start]
            while stack:
                name = stack.pop()
                if name not in seen:
                    seen.add(name)
                    stack.extend(self.imports.get(name, []))
            return sorted(seen)

        out: dict[str, str | None] = {}
        for spec in specs:
            modules = closure(f"{spec.module}.Statements")
            for name in modules:
                if name not in scans:
                    scans[name] = SimpleNamespace(scan=scan_source(self.texts[name]))
            out[spec.id] = closure_digest(SimpleNamespace(modules=scans), modules)  # type: ignore[arg-type]
        return out

    # -------------------------------------------------------------------- run
    def run(self) -> dict[str, int]:
        args = self.args
        root = self.root
        root.mkdir(parents=True, exist_ok=True)
        write(root / "lean-toolchain", TOOLCHAIN)
        shutil.copyfile(REPO / "lakefile.lean", root / "lakefile.lean")
        (root / "missions").mkdir(exist_ok=True)

        n_common = max(1, min(40, args.missions // 25))
        specs = [self.plan(k, n_common) for k in range(1, args.missions + 1)]
        # Files: Formal.lean + common + 4 per mission (root, Defs, Statements, Proofs) + aux.
        # Lines: every file but the root modules and Formal.lean has about file_lines lines.
        fixed_files = 1 + n_common + 4 * len(specs)
        bulky = n_common + 3 * len(specs)
        need_files = max(0, args.files - fixed_files)
        need_lines = max(0, -(-(args.lines - bulky * args.file_lines) // args.file_lines))
        aux_total = max(need_files, need_lines) + len(specs) // 10  # a little headroom
        for k in range(aux_total):
            specs[(k * 7) % len(specs)].aux += 1

        self.common(n_common)
        for spec in specs:
            self.mission_files(spec)
        # top up if the random lengths fell short
        k = 0
        while self.files < args.files or self.lines < args.lines:
            spec = specs[k % len(specs)]
            spec.aux += 1
            self.extra_aux(spec)
            k += 1
        index = "".join(f"import {s.module}\n" for s in specs)
        self.lines += write(root / "Formal.lean", index)
        self.files += 1

        digests = self.digests(specs)
        for spec in specs:
            write(root / "missions" / f"{spec.id}.yaml", self.yaml(spec, digests[spec.id]))
        return {
            "missions": len(specs),
            "targets": sum(len(s.targets) for s in specs),
            "lean_files": self.files,
            "lean_lines": self.lines,
            "sorry_lines": self.sorry_lines,
        }

    def extra_aux(self, spec: MissionSpec) -> None:
        """One more helper module for ``spec`` (imported by its root module only)."""
        rng = random.Random(self.rng.random())
        module = f"{spec.module}.Extra{spec.aux}"
        imports = [f"{spec.module}.Defs"]
        w = LeanWriter(rng, Namer(rng, f"x{spec.aux}"), Pool())
        w.emit(file_header(rng, imports, spec.title, "extra lemmas"))
        w.emit(f"\nopen Finset\n\nnamespace {spec.namespace}.Extra\n")
        w.block_fun()
        w.fill(jitter(rng, self.args.file_lines) - 2, sorry_rate=0.08)
        w.emit(f"\nend {spec.namespace}.Extra")
        self.put(module, imports, "\n".join(w.lines))
        root_path = self.root.joinpath(*spec.module.split(".")).with_suffix(".lean")
        text = root_path.read_text(encoding="utf-8")
        write(root_path, f"import {module}\n" + text)
        self.lines += 1


def generate(
    root: Path,
    *,
    missions: int = 500,
    files: int = 2000,
    lines: int = 200_000,
    file_lines: int = 100,
    seed: int = DEFAULT_SEED,
) -> dict[str, int]:
    args = argparse.Namespace(
        missions=missions, files=files, lines=lines, file_lines=file_lines, seed=seed
    )
    return TreeGenerator(root, args).run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path, help="where to create the workspace")
    parser.add_argument("--missions", type=int, default=500, help="number of missions (500)")
    parser.add_argument("--files", type=int, default=2000, help="minimum Lean files (2000)")
    parser.add_argument("--lines", type=int, default=200_000, help="minimum Lean lines (200000)")
    parser.add_argument("--file-lines", type=int, default=100, help="lines per Lean file (~100)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--force", action="store_true", help="replace DIR if it exists")
    args = parser.parse_args(argv)
    if args.missions < 1:
        parser.error("--missions must be at least 1")
    root: Path = args.directory
    if root.exists() and any(root.iterdir()):
        if not args.force:
            parser.error(f"{root} exists and is not empty (use --force to replace it)")
        shutil.rmtree(root)
    stats = generate(
        root,
        missions=args.missions,
        files=args.files,
        lines=args.lines,
        file_lines=args.file_lines,
        seed=args.seed,
    )
    print(", ".join(f"{k} {v}" for k, v in stats.items()) + f": {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
