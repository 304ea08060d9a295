"""The CI gate: every rule that stops a change from weakening the mission library.

Rules and their ids (stable; used in JSON output):

``missing-declaration``  a statement or proof the YAML names is not in the sources
``statement-shape``      a statement is not a parameterless Prop-valued definition
``statement-closure``    a statement lies outside its mission's statement closure, or the
                         closure imports a proof module
``statement-pin``        the statement closure changed since it was pinned (or never was)
``forbidden-construct``  sorry, opaque or partial definitions, custom syntax or elaborators
                         in a statement closure; axioms, ``unsafe``, ``implemented_by``,
                         ``extern``, ``debug.*`` options, native computation or
                         environment-modifying commands anywhere
``proof-type``           a proof theorem's type is not exactly its statement constant
``status-drift``         the YAML status differs from the computed one, or claims kernel
                         evidence that no standing ``checked:`` record backs
``status-regression``    a target recorded ``proved`` lost that status and no entry of the
                         mission's ``regressions:`` records why (see :mod:`missions.ratchet`)
``placeholder``          text ``missions new`` left to fill in (``TODO``) is still there
``toolchain-pin``        ``lean-toolchain``, the Mathlib revision or unsafe Lake settings
``evidence-disagreement`` (with ``--lean``) the source scan said proved, the kernel does not
``kernel-fingerprint``   (with ``--lean``) what a statement means to the kernel moved while its
                         statement pin did not (recorded by ``sync --lean``)
``dependency-mismatch``  (with ``--lean``) ``depends_on`` is not the set of targets whose proofs
                         the proof uses; without ``--lean`` a warning from the source reach
``comparator``           (with ``--comparator DIR``) Comparator did not accept, for exactly
                         today's claims, every target a mission claims proved
``lint``                 an unaccepted finding of ``missions lint`` in a statement closure (a
                         trap such as an unguarded integral, ℕ subtraction or ``∃ x, P → Q``;
                         accept one with ``-- lint: allow RULE because REASON``)
``witness-stale``        the statement pin moved, or the witness sources changed, since the
                         mission's witnesses were reviewed and stamped (``missions witness
                         --stamp ID``, which refuses a claim that does not stand review)
``witness-missing``      (policy) a target links no witness module, or one that does not exist
``readme-row``           (policy) the README's missions table lacks a mission or names another
                         module (:mod:`missions.policy`; ``missions.yaml`` turns these on)

YAML problems (``schema``, ``duplicate-id``, ``dangling-ref``, ``dependency-cycle``) are
input errors: they are reported before the gate runs, with exit code 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from missions import gitinfo
from missions.kernel import compare_dependencies
from missions.lean.workspace import Module
from missions.lint import LintResult, lint_missions
from missions.pins import UNCOMMITTED, closure_paths, proof_closure_digest
from missions.placeholders import mission_placeholders
from missions.policy import policy_violations
from missions.ratchet import (
    IN_SOURCES,
    IN_WORKING_TREE,
    Ledger,
    Timeline,
    ledgers,
    status_timelines,
    target_ref,
)
from missions.render import plural
from missions.reviews import review_findings
from missions.settings import PolicySettings, load_settings
from missions.status import (
    Analysis,
    MissionStatus,
    TargetStatus,
    Violation,
    relative,
    statement_closure_violations,
    targets_used,
)
from missions.toolchain import mathlib_revision, pin_checks
from missions.witness import stale_reason

#: Every rule the gate can report, in report order (stable ids).
RULES = (
    "missing-declaration",
    "statement-shape",
    "statement-closure",
    "statement-pin",
    "forbidden-construct",
    "proof-type",
    "status-drift",
    "toolchain-pin",
    "evidence-disagreement",
    "kernel-fingerprint",
    "dependency-mismatch",
    "comparator",
    "status-regression",
    "placeholder",
    "lint",
    "witness-stale",
    "witness-missing",
    "readme-row",
    "review-missing",
    "review-stale",
)

#: Findings that are forbidden anywhere in the workspace.
EVERYWHERE = frozenset(
    {
        "axiom",
        "unsafe",
        "implemented_by",
        "extern",
        "csimp",
        "init",
        "builtin_init",
        "debug",
        "env",
        "native",
        "prelude",
        "open-private",
    }
)


@dataclass
class GateResult:
    violations: list[Violation] = field(default_factory=list)
    #: the lint run behind the ``lint`` rule (reports show accepted findings and reasons too)
    lint: LintResult | None = None
    #: findings that do not fail the gate (a rule's weaker, source-level form)
    warnings: list[Violation] = field(default_factory=list)
    #: the findings before they were merged (what the incremental ``check`` keeps)
    parts: GateParts | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return not self.violations


def _pin_violations(analysis: Analysis, mission: MissionStatus) -> list[Violation]:
    mission_file, pin = mission.file, mission.pin
    root = analysis.root
    yaml_path = relative(mission_file.path, root)
    line = mission_file.line("lean")
    if pin.problems:
        return [
            Violation(
                "statement-pin", f"statement closure unavailable: {p}", yaml_path, line, mission.id
            )
            for p in pin.problems
        ]
    if not pin.pinned:
        return [
            Violation(
                "statement-pin",
                "statements are not pinned; run `missions pin " + mission.id + "`",
                yaml_path,
                line,
                mission.id,
            )
        ]
    if pin.matches:
        return []
    paths = closure_paths(analysis.workspace, pin.modules)
    since = mission_file.mission.lean.pinned_at
    if since == UNCOMMITTED:
        since = None  # pinned on uncommitted files: no commit to compare with
    changed = gitinfo.changed_since(root, since, paths) if since else None
    named = changed if changed else paths
    files = ", ".join(relative(p, root) for p in named)
    commits = gitinfo.commits_touching(root, since, paths) if since else []
    history = "; ".join(f"{c.short} {c.summary} ({c.author})" for c in commits[:10])
    message = (
        f"statement closure changed since the pin {pin.recorded} "
        f"(now {pin.digest}); {'changed' if changed else 'closure'} files: {files}"
    )
    if changed == []:  # git vouches for every file: what moved is in the mission YAML
        message += (
            "; no closure file changed since the pin, so a target's `statement:` or "
            "`proof:` did (the pin covers which declarations the targets name)"
        )
    if commits and since:
        message += f"; commits since {since[:10]}: {history}"
    elif since:
        message += "; changes are not committed yet"
    revert = (
        f"revert those files (git checkout {since[:10]} -- <files>)"
        if changed and since
        else "revert the change to those files"
    )
    message += (
        f". If the change is intended, record it: missions pin {mission.id} --reason "
        f'"<why the statements changed>"; otherwise {revert}'
    )
    return [
        Violation(
            "statement-pin",
            message,
            yaml_path,
            mission_file.line("lean", "statement_pin"),
            mission.id,
        )
    ]


def _closure_violations(analysis: Analysis, mission: MissionStatus) -> list[Violation]:
    """Nothing unproved or unsafe in a statement closure; no proof inside it."""
    proof_names = {t.proof for t in mission.file.mission.targets if t.proof}
    return statement_closure_violations(
        analysis.workspace, mission.id, mission.pin.modules, proof_names
    )


def _status_words(status: str | None, evidence: str | None) -> str:
    """``stated (source evidence)``; absent values say so instead of printing None."""
    if status is None:
        return "no status recorded"
    return f"{status} ({evidence} evidence)" if evidence else status


def _drift(
    analysis: Analysis, mission: MissionStatus, lowered: set[str] | None = None
) -> list[Violation]:
    violations: list[Violation] = []
    yaml_path = relative(mission.file.path, analysis.root)
    for status in mission.targets:
        target = status.target
        stale = None
        if target.evidence == "kernel" and status.evidence == "source":
            stale = kernel_record_problem(analysis, status)
            if stale is None:
                continue
        if target.status != status.status or target.evidence != status.evidence:
            recorded = _status_words(target.status, target.evidence)
            computed = _status_words(status.status, status.evidence)
            advice = (
                "a loss of proved: see status-regression"
                if lowered and target.id in lowered
                else "run `missions sync`"
            )
            why = f" (the kernel record no longer stands: {stale})" if stale else ""
            violations.append(
                Violation(
                    "status-drift",
                    f"YAML says {recorded}, computed {computed}{why}; {advice}",
                    yaml_path,
                    mission.file.target_line(target.id, "status"),
                    mission.id,
                    target.id,
                )
            )
    return violations


def kernel_record_stands(analysis: Analysis, status: TargetStatus) -> bool:
    """Public name of :func:`_kernel_record_stands` (the ratchet and ``sync`` use it)."""
    return _kernel_record_stands(analysis, status)


def regression_ledgers(
    analysis: Analysis, mission: MissionStatus, timeline: Timeline | None = None
) -> list[Ledger]:
    """The ratchet's ledgers of ``mission`` with this gate's view of kernel records."""
    return ledgers(
        analysis, mission, lambda s: _kernel_record_stands(analysis, s), timeline=timeline
    )


def _regression_violations(
    analysis: Analysis, mission: MissionStatus, books: list[Ledger]
) -> list[Violation]:
    violations: list[Violation] = []
    yaml_path = relative(mission.file.path, analysis.root)
    for ledger in books:
        if not ledger.owed:
            continue
        status = ledger.status
        loss = ledger.owed[-1]
        target = status.target
        if loss.where == IN_SOURCES:
            why = f" ({status.reasons[0]})" if status.reasons else ""
            what = f"is recorded proved but the sources now give {loss.to}{why}"
            fix = "restore the proof, or record the loss"
        elif loss.where == IN_WORKING_TREE:
            what = f"is recorded proved in HEAD and {loss.to} in the working tree"
            fix = "record why"
        else:
            what = f"lost proved in commit {loss.where} (now {target.status or 'not recorded'})"
            fix = "record why"
        count = len(ledger.owed)
        more = f"; {count} losses of proved are unrecorded" if count > 1 else ""
        violations.append(
            Violation(
                "status-regression",
                f"{target.id} {what}{more}, with no regression recorded; {fix}: "
                f'missions sync --allow-regression {target_ref(mission, status)} --reason "..."',
                yaml_path,
                mission.file.target_line(target.id, "status"),
                mission.id,
                target.id,
            )
        )
    return violations


def _placeholder_violations(analysis: Analysis, mission: MissionStatus) -> list[Violation]:
    root = analysis.root
    return [
        Violation(
            "placeholder",
            f"TODO left by `missions new`, to replace with the mission's content: "
            f"{found.text[:60]}",
            relative(found.path, root),
            found.line,
            mission.id,
        )
        for found in mission_placeholders(analysis.workspace, mission.file)
    ]


def _kernel_record_stands(analysis: Analysis, status: TargetStatus) -> bool:
    """A recorded kernel verdict outranks today's source scan while it still stands."""
    target = status.target
    if target.evidence != "kernel" or status.evidence != "source":
        return False
    return kernel_record_problem(analysis, status) is None


def kernel_record_problem(analysis: Analysis, status: TargetStatus) -> str | None:
    """Why the target's recorded kernel verdict no longer stands; None while it does.

    A kernel verdict covers the files the kernel checked, against the Mathlib it ran with. It
    stands while the proof's import closure still has the digest ``sync --lean`` recorded
    (``checked.closure``; for a record that names only a commit, while git finds no file of
    the closure changed since it) and Mathlib is that revision. Agreeing with today's source
    scan is not enough: the kernel may never have seen today's proof, and a hand-written
    ``evidence: kernel`` would otherwise pass.
    """
    checked = status.target.checked
    if checked is None:
        return "no `checked:` record says what checked it (only `missions sync --lean` writes one)"
    if status.proof_decl is None:
        return "the proof is not in the sources"
    root, workspace = analysis.root, analysis.workspace
    current = mathlib_revision(root)
    if checked.mathlib is not None and checked.mathlib != current:
        return (
            f"it was checked against Mathlib {checked.mathlib[:12]}; the workspace now has "
            f"{current[:12]}"
        )
    module = status.proof_decl[0].name
    if checked.closure is not None:
        if proof_closure_digest(workspace, module) != checked.closure:
            return "the proof's import closure changed since the kernel checked it"
        return None
    if checked.commit is None:
        return "the record names neither the closure digest nor the commit the kernel checked"
    changed = gitinfo.changed_since(
        root, checked.commit, closure_paths(workspace, workspace.closure(module))
    )
    if changed is None:
        return (
            f"git cannot find commit {checked.commit[:12]} here (a shallow clone? fetch the "
            "full history)"
        )
    if changed:
        files = ", ".join(relative(p, root) for p in changed[:3])
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        return f"{files}{more} changed since commit {checked.commit[:12]}, which the kernel checked"
    return None


def standing_status(analysis: Analysis, status: TargetStatus) -> str:
    """The status the gate accepts today: a recorded kernel verdict where it still stands,
    else the computed one."""
    if _kernel_record_stands(analysis, status) and status.target.status is not None:
        return status.target.status
    return status.status


def _linted(analysis: Analysis, lint: Callable[[], LintResult] | None) -> LintResult:
    if lint is not None:
        return lint()
    return lint_missions(
        analysis.root,
        analysis.workspace,
        [m.file.mission for m in analysis.missions],
        catalog=analysis.catalog,
    )


def _lint_violations(linted: LintResult) -> list[Violation]:
    """Unaccepted lint findings of the statement closures, one violation per mission."""
    return [
        Violation("lint", f"{f.rule}: {f.message}", f.path, f.line, mission)
        for f in linted.failing
        for mission in f.missions or (None,)
    ]


def _witness_stale(analysis: Analysis, mission: MissionStatus) -> list[Violation]:
    """Witnesses transcribe the statements; once the pin moves they must be reviewed again."""
    reason = stale_reason(mission.file.mission)
    if reason is None:
        return []
    mission_file = mission.file
    key = "witness_stamp" if mission_file.mission.lean.witness_stamp else "statement_pin"
    return [
        Violation(
            "witness-stale",
            f"{reason}; review the witnesses against the statements and run "
            f"`missions witness --stamp {mission.id}`",
            relative(mission_file.path, analysis.root),
            mission_file.line("lean", key),
            mission.id,
        )
    ]


def dependency_warnings(analysis: Analysis, mission: MissionStatus) -> list[Violation]:
    """``dependency-mismatch`` as the source scan sees it: warnings, never failures.

    The source reach over-approximates what a proof uses. A declared dependency the proof of a
    target proved from source cannot reach is therefore certainly unused; a target's proof it
    may reach without declaring is only possibly used. ``check --lean`` decides both exactly.
    """
    info = mission.file.mission
    external = [t.id for t in info.targets if t.kind == "external"]
    yaml_path = relative(mission.file.path, analysis.root)
    found: list[Violation] = []
    for status in mission.targets:
        target = status.target
        used = targets_used(analysis, mission, status)
        if used is None:
            continue
        result = compare_dependencies(target.depends_on, used, external)
        problems = []
        if status.status == "proved" and result.declared_unused:
            problems.append(
                f"declared but unreachable from {target.proof}: "
                + ", ".join(result.declared_unused)
            )
        if result.used_undeclared:
            problems.append(
                f"{target.proof} may use the proof of {', '.join(result.used_undeclared)}, "
                "which depends_on does not declare"
            )
        if problems:
            found.append(
                Violation(
                    "dependency-mismatch",
                    "; ".join(problems) + " (source reach; `check --lean` decides)",
                    yaml_path,
                    mission.file.target_line(target.id, "depends_on"),
                    mission.id,
                    target.id,
                )
            )
    return found


@dataclass
class MissionFindings:
    """What the gate found about one mission, in the order it found it."""

    violations: list[Violation] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)


@dataclass
class GateParts:
    """The gate's findings before they are merged, in the order :func:`run_gate` finds them.

    The incremental ``check`` (:mod:`missions.recheck`) keeps these and replaces only the
    parts an edit can change; :meth:`result` merges them the same way whichever parts were
    recomputed, so the answer is the one the whole gate gives.
    """

    #: ``extra`` findings and the toolchain pins
    head: list[Violation] = field(default_factory=list)
    #: forbidden constructs, per module in the workspace's order
    modules: dict[str, list[Violation]] = field(default_factory=dict)
    #: per mission in the catalogue's order
    missions: list[MissionFindings] = field(default_factory=list)
    lint: list[Violation] = field(default_factory=list)
    #: the project policies
    policy: list[Violation] = field(default_factory=list)

    def result(self, lint: LintResult | None = None) -> GateResult:
        found = [*self.head]
        for violations in self.modules.values():
            found += violations
        warnings: list[Violation] = []
        for mission in self.missions:
            found += mission.violations
            warnings += mission.warnings
        found += self.lint
        found += self.policy
        unique = list(dict.fromkeys(found))
        ordered = sorted(
            unique, key=lambda v: (v.mission or "", v.rule, v.file or "", v.line or 0, v.message)
        )
        return GateResult(violations=ordered, lint=lint, warnings=warnings, parts=self)


def module_violations(root: Path, module: Module) -> list[Violation]:
    """The constructs forbidden anywhere in the workspace that ``module`` holds."""
    rel = module.rel(root)
    return [
        Violation("forbidden-construct", finding.message, rel, finding.line)
        for finding in module.scan.findings
        if finding.code in EVERYWHERE
    ]


def mission_findings(
    analysis: Analysis,
    mission: MissionStatus,
    timeline: Timeline,
    policy: PolicySettings,
    *,
    kernel_dependencies: bool = False,
) -> MissionFindings:
    """Every per-mission rule over one analysed mission (``timeline``: its file's history)."""
    found = MissionFindings()
    add = found.violations.extend
    rel = relative(mission.file.path, analysis.root)
    violations, advice = review_findings(mission.file, policy.reviews, rel)
    add(violations)
    found.warnings.extend(advice)
    add(_pin_violations(analysis, mission))
    add(_closure_violations(analysis, mission))
    for status in mission.targets:
        add(status.violations)
    books = regression_ledgers(analysis, mission, timeline)
    add(_regression_violations(analysis, mission, books))
    lowered = {b.status.target.id for b in books if b.lowered_now and b.owed}
    add(_drift(analysis, mission, lowered))
    add(_placeholder_violations(analysis, mission))
    add(_witness_stale(analysis, mission))
    if not kernel_dependencies:
        found.warnings.extend(dependency_warnings(analysis, mission))
    return found


def run_gate(
    analysis: Analysis,
    extra: Iterable[Violation] = (),
    *,
    kernel_dependencies: bool = False,
    lint: Callable[[], LintResult] | None = None,
) -> GateResult:
    """Every rule over the analysis, plus ``extra`` findings (e.g. from the kernel audit).

    ``kernel_dependencies`` says the kernel already compared ``depends_on`` with what the
    proofs use (``extra`` holds its findings), so the source-level warnings are left out.
    ``lint`` gives the lint of the analysed missions, if it was started before (see
    :func:`missions.load.analyse_and_lint`); else the gate lints them.
    """
    parts = GateParts(head=list(extra))
    for check in pin_checks(analysis.root):
        if not check.ok:
            parts.head.append(Violation("toolchain-pin", check.message, check.file, check.line))
    for name, module in analysis.workspace.modules.items():
        parts.modules[name] = module_violations(analysis.root, module)
    timelines = status_timelines(analysis.root, [m.file.path for m in analysis.missions])
    policy = load_settings(analysis.root).policy
    for mission in analysis.missions:
        parts.missions.append(
            mission_findings(
                analysis,
                mission,
                timelines[mission.file.path],
                policy,
                kernel_dependencies=kernel_dependencies,
            )
        )
    linted = _linted(analysis, lint)
    parts.lint = _lint_violations(linted)
    parts.policy = policy_violations(analysis, policy)
    analysis.memo.keep()  # the dependency warnings walked too
    return parts.result(linted)


def gate_headline(summary: dict[str, int], gate: GateResult, lean: bool) -> str:
    """The gate's last line: the verdict and the tally (``summary``: :meth:`Analysis.summary`'s
    counts), with its evidence tier named."""
    verdict = "ok" if gate.ok else plural(len(gate.violations), "violation")
    if gate.warnings:
        verdict += f", {plural(len(gate.warnings), 'warning')}"
    return (
        f"gate: {verdict} — {plural(summary['missions'], 'mission')}, {summary['proved']} "
        f"of {plural(summary['targets'], 'target')} proved "
        f"({'kernel' if lean else 'source'} evidence)"
    )
