"""The ``missions`` command line: argument parsing and printing only.

Exit codes: 0 success, 1 the gate found violations, 2 bad input or usage (one
``path:line: message`` line per problem on stderr, never a traceback).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from missions import __version__, fastpath, gitinfo
from missions.catalog import Catalog, load_catalog
from missions.errors import InputError, Problem
from missions.export import dojo_records, export_dojo, export_json
from missions.gate import run_gate
from missions.html import write_dashboard
from missions.junit import junit_xml
from missions.kernel import AuditReport, apply_kernel, build_request, run_audit
from missions.lean.lake import Diagnostic, Job, group_diagnostics, lake_executable, stream_build
from missions.lean.premises import workspace_hypotheses
from missions.lean.workspace import load_workspace
from missions.pins import apply_pin, pin_state
from missions.render import status_table, status_text, summary_line
from missions.report import gate_json, report_json, report_markdown, status_json
from missions.roots import check_root, find_root
from missions.scaffold import plan, write
from missions.stamps import check_stampable, stamp_witnesses
from missions.status import Analysis, Violation, analyze
from missions.sync import sync_mission
from missions.toolchain import mathlib_revision, run_doctor
from missions.witness import (
    Claim,
    describe_entry,
    load_claims,
    load_results,
    result_json,
    run_claim,
    save_results,
    saved_summary,
    stale_reason,
    witness_passed,
)
from missions.witness import Context as WitnessContext
from missions.witness import Result as WitnessResult
from missions.yamlio import atomic_write_text, dump_document

app = typer.Typer(
    name="missions",
    help="Track, gate and report Lean 4 formalization missions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

out = Console(highlight=False, soft_wrap=False)
err = Console(stderr=True, highlight=False, soft_wrap=True)

RootOption = Annotated[
    Path | None,
    typer.Option(
        "--root",
        help="Workspace root (default: nearest ancestor with lakefile.lean and missions/).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
IdsArgument = Annotated[list[str] | None, typer.Argument(help="Mission ids (default: all).")]
LeanOption = Annotated[
    bool,
    typer.Option(
        "--lean", help="Ask the Lean audit (kernel evidence; needs lake and a built workspace)."
    ),
]
NoCacheOption = Annotated[
    bool, typer.Option("--no-cache", help="Rescan every Lean file, ignoring the scan cache.")
]


def _fail(problems: list[Problem]) -> NoReturn:
    for problem in problems:
        err.print(escape(str(problem)), markup=True)
    raise typer.Exit(2)


@contextmanager
def _input_errors() -> Iterator[None]:
    try:
        yield
    except InputError as exc:
        _fail(exc.problems)


def _root(root: Path | None) -> Path:
    return check_root(root) if root is not None else find_root(Path.cwd())


def _write_output(text: str, output: Path | None) -> None:
    """Print ``text``, or write it atomically to ``output`` (whose directory must exist)."""
    if output is None:
        sys.stdout.write(text)
        return
    with _input_errors():
        if not output.parent.is_dir():
            raise InputError.single(output, 1, "output directory does not exist")
        atomic_write_text(output, text)


def _progress() -> Progress:
    """A transient progress bar on stderr (so stdout stays clean for data)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def _analysis(root: Path | None, ids: list[str] | None, no_cache: bool = False) -> Analysis:
    resolved = _root(root)
    catalog = load_catalog(resolved, use_cache=not no_cache)
    catalog.select(ids or [])
    workspace = load_workspace(resolved, use_cache=not no_cache)
    return analyze(catalog, workspace, ids)


def _kernel(analysis: Analysis) -> tuple[AuditReport, list[Violation]]:
    """Run the audit once for the whole catalog and let the kernel decide every status."""
    report = run_audit(analysis.root, build_request(analysis))
    return report, apply_kernel(analysis, report)


@app.command()
def status(
    ids: IdsArgument = None,
    root: RootOption = None,
    as_json: JsonOption = False,
    no_cache: NoCacheOption = False,
    lean: LeanOption = False,
    why: Annotated[bool, typer.Option("--why", help="Show every reason, not the first.")] = False,
) -> None:
    """Missions and targets with their status and evidence."""
    with _input_errors():
        resolved = _root(root)
        key = fastpath.fingerprint(resolved, ids or [])
        analysis = _analysis(resolved, ids, no_cache)
        if lean:
            _kernel(analysis)
    data = status_json(
        analysis, evidence="kernel" if lean else "source", witnesses=load_results(str(resolved))
    )
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"
    if not no_cache and not lean:
        fastpath.store(resolved, key, text)
    if as_json:
        sys.stdout.write(text)
        return
    out.print(status_table(data, why=why))
    out.print(summary_line(data))


@app.command()
def show(
    mission_id: Annotated[str, typer.Argument(metavar="ID", help="Mission id.")],
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """One mission: summary, sources, targets with informal and Lean statements."""
    with _input_errors():
        analysis = _analysis(root, [mission_id])
    gate = run_gate(analysis)
    data = report_json(analysis, gate, load_results(str(analysis.root)))["missions"][0]
    if as_json:
        _print_json(data)
        return
    mission = analysis.missions[0]
    info = mission.file.mission
    header = Text()
    header.append(f"{info.title}\n", style="bold")
    header.append(f"{info.id} · {info.category} · {mission.status} · module {info.lean.module}\n")
    pin = mission.pin
    pin_text = "not pinned" if not pin.pinned else ("ok" if pin.matches else "CHANGED since pin")
    header.append(f"statement pin: {pin_text}")
    if info.lean.pinned_at:
        header.append(f" (pinned at {info.lean.pinned_at[:12]})")
    out.print(Panel(header, expand=True))
    out.print(Text(info.summary.strip()), "")
    out.print(Text("Sources", style="bold"))
    for source in info.sources:
        ref = " ".join(
            f"{k}:{v}"
            for k, v in (("arXiv", source.arxiv), ("doi", source.doi), ("url", source.url))
            if v
        )
        out.print(Text(f"  [{source.key}] {source.citation} {ref}".rstrip()))
        for locator in source.locators:
            out.print(Text(f"      · {locator}"))
    if info.conventions:
        out.print(Text("Conventions", style="bold"))
        for convention in info.conventions:
            out.print(Text(f"  · {convention}"))
    if info.facts:
        out.print(Text("Facts", style="bold"))
        for fact in info.facts:
            out.print(Text(f"  [{fact.id}] {fact.text.strip()}"))
    out.print("")
    for status_entry, target_data in zip(mission.targets, data["targets"], strict=True):
        target = status_entry.target
        body = Text()
        body.append(target.informal.strip() + "\n")
        locator = " ".join(x for x in (target.source, target.locator) if x)
        if locator:
            body.append(f"\nsource: {locator}\n", style="dim")
        if target.depends_on:
            body.append(f"depends on: {', '.join(target.depends_on)}\n", style="dim")
        body.append(
            f"provenance: statement {target.provenance.statement}, "
            f"proof {target.provenance.proof}\n",
            style="dim",
        )
        if target_data.get("witness"):
            body.append(describe_entry(target_data["witness"]) + "\n", style="dim")
        if target_data.get("lean"):
            body.append("\n" + target_data["lean"].strip() + "\n", style="cyan")
        elif target.external is not None:
            ext = target.external
            body.append(f"\nexternal: {ext.repository} {ext.commit or ''} {ext.path or ''}\n")
        for reason in status_entry.reasons:
            body.append(f"\n• {reason}", style="yellow")
        title = Text.assemble(
            (f"{target.id} ", "bold"),
            f"({target.kind}) ",
            status_text(status_entry.status),
            f" · {status_entry.evidence or '-'} · {target.title}",
        )
        out.print(Panel(body, title=title, title_align="left", expand=True))


@app.command()
def validate(root: RootOption = None, as_json: JsonOption = False) -> None:
    """Check the mission YAML and its cross-references only."""
    with _input_errors():
        catalog: Catalog = load_catalog(_root(root))
    targets = sum(len(m.targets) for m in catalog.missions)
    if as_json:
        _print_json({"ok": True, "missions": len(catalog.missions), "targets": targets})
    else:
        out.print(f"{len(catalog.missions)} missions, {targets} targets: YAML valid")


@app.command()
def check(
    ids: IdsArgument = None,
    root: RootOption = None,
    as_json: JsonOption = False,
    no_cache: NoCacheOption = False,
    lean: LeanOption = False,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Also write JUnit XML to this file.")
    ] = None,
) -> None:
    """The gate: exit 1 if any rule is violated."""
    extra: list[Violation] = []
    try:
        analysis = _analysis(root, ids, no_cache)
        if lean:
            _, extra = _kernel(analysis)
    except InputError as exc:
        if as_json:
            _print_json(
                {
                    "ok": False,
                    "violations": [
                        {
                            "rule": p.rule,
                            "mission": None,
                            "target": None,
                            "file": p.path,
                            "line": p.line,
                            "message": p.message,
                        }
                        for p in exc.problems
                    ],
                }
            )
            raise typer.Exit(2) from None
        _fail(exc.problems)
    gate = run_gate(analysis, extra)
    if junit is not None:
        _write_output(junit_xml(analysis, gate), junit)
    if as_json:
        _print_json(gate_json(gate))
    else:
        for violation in gate.violations:
            out.print(
                Text(f"{violation.location()}: [{violation.rule}] {violation.message}"),
                soft_wrap=True,
            )
        summary = analysis.summary()
        verdict = "ok" if gate.ok else f"{len(gate.violations)} violation(s)"
        out.print(
            f"gate: {verdict} — {summary['missions']} missions, {summary['proved']} of "
            f"{summary['targets']} targets proved ({'kernel' if lean else 'source'} evidence)"
        )
    if not gate.ok:
        raise typer.Exit(1)


@app.command()
def pin(
    ids: IdsArgument = None,
    root: RootOption = None,
    reason: Annotated[
        str | None, typer.Option("--reason", help="Why the statements changed (needed on re-pin).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Recompute statement pins and record them with the commit and a history entry."""
    with _input_errors():
        resolved = _root(root)
        catalog = load_catalog(resolved)
        chosen = catalog.select(ids or [])
        workspace = load_workspace(resolved)
        commit = gitinfo.head_commit(resolved)
        today = dt.date.today()
        changed = []
        problems: list[Problem] = []
        for mission_file in chosen:
            state = pin_state(workspace, mission_file.mission)
            try:
                if apply_pin(mission_file, state, commit=commit, reason=reason, today=today):
                    changed.append((mission_file, state))
            except InputError as exc:
                problems.extend(exc.problems)
        if problems:
            raise InputError(problems)
        for mission_file, _ in changed:
            atomic_write_text(mission_file.path, dump_document(mission_file.doc))
    if as_json:
        _print_json(
            {
                "pinned": [
                    {"id": m.mission.id, "digest": s.digest, "commit": commit} for m, s in changed
                ]
            }
        )
        return
    if not changed:
        out.print("all selected pins are current")
    for mission_file, state in changed:
        out.print(f"pinned {mission_file.mission.id}: {state.digest} at {commit or 'no commit'}")


@app.command()
def sync(
    ids: IdsArgument = None,
    root: RootOption = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show, do not write.")] = False,
    lean: LeanOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write computed statuses into the mission YAML (with --lean: kernel statuses and what
    checked them)."""
    with _input_errors():
        analysis = _analysis(root, ids)
        stamp: dict[str, object] | None = None
        if lean:
            audit, _ = _kernel(analysis)
            stamp = {
                "lean": audit.lean_version,
                "mathlib": mathlib_revision(analysis.root),
                "commit": gitinfo.head_commit(analysis.root),
                "date": dt.date.today(),
            }
        changes = {m.id: sync_mission(m, dry_run=dry_run, checked=stamp) for m in analysis.missions}
    if as_json:
        _print_json({"changed": {k: v for k, v in changes.items() if v}, "dry_run": dry_run})
        return
    touched = {k: v for k, v in changes.items() if v}
    if not touched:
        out.print("statuses are in sync")
    for mission_id, targets in touched.items():
        verb = "would update" if dry_run else "updated"
        out.print(f"{verb} {mission_id}: {', '.join(targets)}")


@app.command()
def report(
    ids: IdsArgument = None,
    root: RootOption = None,
    fmt: Annotated[str, typer.Option("--format", help="md, json or html.")] = "md",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write to a file (html: into this directory)."),
    ] = None,
) -> None:
    """A report for a pull request (md), a dashboard's data (json) or a static site (html)."""
    if fmt not in ("md", "json", "html"):
        _fail([Problem("--format", 1, f"unknown format {fmt!r}; use md, json or html")])
    if fmt == "html" and output is None:
        _fail([Problem("--output", 1, "--format html writes a directory: give -o DIR")])
    with _input_errors():
        analysis = _analysis(root, ids)
    gate = run_gate(analysis)
    if fmt == "html":
        assert output is not None
        with _input_errors():
            if output.exists() and not output.is_dir():
                raise InputError.single(output, 1, "output exists and is not a directory")
            if not output.exists() and not output.parent.is_dir():
                raise InputError.single(output, 1, "parent of the output directory does not exist")
            try:
                written = write_dashboard(analysis, gate, output)
            except OSError as exc:
                raise InputError.single(output, 1, f"cannot write the dashboard: {exc}") from None
        err.print(f"wrote {len(written)} files to {escape(str(output))} (open index.html)")
        return
    if fmt == "json":
        data = report_json(analysis, gate, load_results(str(analysis.root)))
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        text = report_markdown(analysis, gate)
    _write_output(text, output)


@app.command()
def build(ids: IdsArgument = None, root: RootOption = None) -> None:
    """Run `lake build` for the missions' modules with progress; group diagnostics by mission."""
    with _input_errors():
        resolved = _root(root)
        catalog = load_catalog(resolved)
        chosen = catalog.select(ids or [])
        if lake_executable() is None:
            raise InputError.single(
                resolved / "lakefile.lean", 1, "lake is not on PATH (see `missions doctor`)"
            )
    modules = [m.mission.lean.module for m in chosen]
    owners = {m.mission.lean.module: m.mission.id for m in chosen}

    def mission_of(path: str) -> str | None:
        module = path.removesuffix(".lean").replace("/", ".")
        for prefix, mission_id in owners.items():
            if module == prefix or module.startswith(prefix + "."):
                return mission_id
        return None

    with _progress() as progress:
        task = progress.add_task("lake build", total=None)

        def on_event(event: Job | Diagnostic | str) -> None:
            if isinstance(event, Job):
                progress.update(
                    task, total=event.total, completed=event.done, description=event.caption
                )

        log = stream_build(resolved, modules, on_event)
    grouped = group_diagnostics(log.diagnostics, mission_of)
    for mission_id, files in sorted(grouped.items()):
        out.print(Text(mission_id, style="bold"))
        for path, diagnostics in sorted(files.items()):
            out.print(Text(f"  {path}"))
            for d in diagnostics:
                style = {"error": "red", "warning": "yellow"}.get(d.level, "")
                first = (d.message.splitlines() or [""])[0]
                out.print(Text(f"    {d.line}:{d.column + 1} {d.level}: {first}", style=style))
    table = Table(title="Build summary", title_justify="left")
    for column in ("mission", "errors", "warnings", "sorry warnings"):
        table.add_column(column)
    for mission_id in [m.mission.id for m in chosen]:
        diagnostics = [d for f in grouped.get(mission_id, {}).values() for d in f]
        table.add_row(
            mission_id,
            str(sum(d.level == "error" for d in diagnostics)),
            str(sum(d.level == "warning" for d in diagnostics)),
            str(sum(d.is_sorry for d in diagnostics)),
        )
    out.print(table)
    for message in log.errors:
        out.print(Text(f"lake: {message}", style="red"))
    out.print("build " + ("succeeded" if log.ok else f"FAILED (lake exit code {log.returncode})"))
    if not log.ok:
        raise typer.Exit(1)


@app.command()
def export(
    ids: IdsArgument = None,
    root: RootOption = None,
    fmt: Annotated[str, typer.Option("--format", help="json or dojo.")] = "json",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to a file.")] = None,
) -> None:
    """Open targets as prover tasks (repository, commit, file, full name)."""
    if fmt not in ("json", "dojo"):
        _fail([Problem("--format", 1, f"unknown format {fmt!r}; use json or dojo")])
    with _input_errors():
        analysis = _analysis(root, ids)
        data: Any = export_json(analysis)
        if fmt == "dojo":
            data = {"format": "lean_dojo.Theorem", "theorems": dojo_records(export_dojo(analysis))}
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    _write_output(text, output)


@app.command()
def witness(
    ids: IdsArgument = None,
    root: RootOption = None,
    budget: Annotated[
        str, typer.Option("--budget", help="quick (seconds) or full (minutes).")
    ] = "quick",
    as_json: JsonOption = False,
    no_sensitivity: Annotated[
        bool,
        typer.Option(
            "--no-sensitivity", help="Skip measuring how small a change of each constant is caught."
        ),
    ] = False,
    stamp: Annotated[
        str | None,
        typer.Option(
            "--stamp",
            metavar="ID",
            help="After reviewing mission ID's witnesses against its statements: run them and, "
            "if they pass, record its statement pin as the one they were checked against.",
        ),
    ] = None,
) -> None:
    """Run the numerical witnesses of every target's claim; exit 1 if a claim fails or a
    non-vacuity instance violates a hypothesis."""
    if budget not in ("quick", "full"):
        _fail([Problem("--budget", 1, f"unknown budget {budget!r}; use quick or full")])
    if stamp is not None and ids and ids != [stamp]:
        _fail([Problem("--stamp", 1, "--stamp ID runs that mission only; drop the other ids")])
    with _input_errors():
        resolved = _root(root)
        catalog = load_catalog(resolved)
        chosen = catalog.select([stamp] if stamp is not None else ids or [])
        plan = witness_plan(chosen)
        if stamp is not None:
            check_stampable(resolved, chosen[0])
    hypotheses = lean_hypotheses(resolved, plan)
    context = WitnessContext(budget=budget)  # type: ignore[arg-type]
    results: list[tuple[str, WitnessResult]] = []
    with _progress() as progress:
        task = progress.add_task("witnesses", total=len(plan))
        for mission_id, claim, statement in plan:
            progress.update(task, description=f"{mission_id}/{claim.target}")
            results.append(
                (
                    mission_id,
                    run_claim(
                        claim,
                        context,
                        hypotheses.get(statement) if statement else None,
                        measure=not no_sensitivity,
                    ),
                )
            )
            progress.advance(task)
    save_results(str(resolved), {f"{m}/{r.target}": saved_summary(r, budget) for m, r in results})
    stale = {m.mission.id: stale_reason(m.mission) for m in chosen}
    failed = [(m, r) for m, r in results if not witness_passed(r)]
    if as_json:
        _print_json(
            {
                "ok": not failed,
                "budget": budget,
                "results": [
                    {
                        "mission": m,
                        **result_json(r),
                        "stale": stale[m] is not None,
                        "stale_reason": stale[m],
                    }
                    for m, r in results
                ],
            }
        )
    else:
        out.print(witness_table(results, stale, budget))
        for mission_id, result in failed:
            for line in witness_failure_lines(mission_id, result):
                out.print(Text(line, style="red"))
        for mission_id, reason in stale.items():
            if reason is not None:
                out.print(
                    Text(
                        f"{mission_id}: witnesses stale: {reason}; review them against the "
                        f"statements, then run `missions witness --stamp {mission_id}`",
                        style="yellow",
                    )
                )
    if failed:
        raise typer.Exit(1)
    if stamp is not None:
        with _input_errors():
            digest = stamp_witnesses(chosen[0])
        out.print(f"stamped {stamp}: witnesses reviewed against {digest}")


def witness_plan(chosen: list[Any]) -> list[tuple[str, Claim, str | None]]:
    """(mission id, claim, statement name) for every linked target; bad links are input
    errors pointing at the YAML line."""
    plan: list[tuple[str, Claim, str | None]] = []
    problems: list[Problem] = []
    for mission_file in chosen:
        for target in mission_file.mission.targets:
            if target.witness is None:
                continue
            try:
                claims = load_claims(target.witness)
            except InputError as exc:
                problems.extend(
                    Problem(
                        str(mission_file.path),
                        mission_file.target_line(target.id, "witness"),
                        p.message,
                    )
                    for p in exc.problems
                )
                continue
            if target.id not in claims:
                problems.append(
                    Problem(
                        str(mission_file.path),
                        mission_file.target_line(target.id, "witness"),
                        f"{target.witness} has no claim for target {target.id!r}",
                    )
                )
                continue
            plan.append((mission_file.mission.id, claims[target.id], target.statement))
    if problems:
        raise InputError(problems)
    return plan


def lean_hypotheses(
    root: Path, plan: list[tuple[str, Claim, str | None]]
) -> dict[str, list[str] | None]:
    """The hypotheses of each planned statement, read from the Lean sources (missing when the
    workspace cannot be scanned: non-vacuity then stays unknown rather than unchecked)."""
    try:
        workspace = load_workspace(root)
    except InputError:
        return {}
    return {s: workspace_hypotheses(workspace, s) for _, _, s in plan if s is not None}


def witness_table(
    results: list[tuple[str, WitnessResult]], stale: dict[str, str | None], budget: str
) -> Table:
    table = Table(title=f"Witnesses ({budget} budget)", title_justify="left")
    for column in ("mission", "target", "result", "non-vacuous", "checks", "seconds"):
        table.add_column(column, overflow="fold")
    for mission_id, result in results:
        nonvacuous = result.nonvacuity.nonvacuous if result.nonvacuity else "unknown"
        table.add_row(
            mission_id,
            result.target,
            Text("stale", "yellow")
            if result.ok and stale.get(mission_id)
            else Text("pass", "green")
            if result.ok
            else Text("ERROR" if result.error else "FAIL", "red"),
            Text(("yes" if nonvacuous else "NO") if isinstance(nonvacuous, bool) else "?"),
            str(result.checks),
            f"{result.seconds:.2f}",
        )
    return table


def witness_failure_lines(mission_id: str, result: WitnessResult) -> list[str]:
    lines = [
        f"{mission_id}/{result.target}: {f.label}: {f.lhs:.6g} {f.relation} {f.rhs:.6g} fails "
        f"by {f.excess:.3g}"
        for f in result.failures[:5]
    ]
    if result.error:
        lines.append(f"{mission_id}/{result.target}: error: {result.error}")
    nv = result.nonvacuity
    if nv is not None and (nv.nonvacuous is False or nv.error):
        lines.append(f"{mission_id}/{result.target}: not shown non-vacuous: {nv.reason}")
        if nv.error:
            lines.append(f"{mission_id}/{result.target}: {nv.error}")
    return lines


@app.command()
def new(
    mission_id: Annotated[str, typer.Argument(metavar="ID", help="Kebab-case mission id.")],
    root: RootOption = None,
    module: Annotated[
        str | None, typer.Option("--module", help="Lean root module (default Formal.<CamelId>).")
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="Mission title.")] = None,
) -> None:
    """Scaffold a mission: YAML plus Defs/Statements/Proofs and the root import."""
    with _input_errors():
        resolved = _root(root)
        scaffold = plan(resolved, mission_id, module, title)
        written = write(resolved, scaffold)
    for path in written:
        out.print(f"created {path.relative_to(resolved)}")
    out.print(f"next: write the statements, then `missions pin {mission_id}` and `missions check`")


@app.command()
def doctor(root: RootOption = None, as_json: JsonOption = False) -> None:
    """Toolchain and pin checks: what is installed, what is pinned, what is missing."""
    with _input_errors():
        resolved = _root(root)
    report_data = run_doctor(resolved)
    if as_json:
        _print_json(
            {
                "ok": report_data.ok,
                "pins": [vars(c) for c in report_data.pins],
                "manifest": report_data.manifest_present,
                "tools": [vars(t) for t in report_data.tools],
                "advice": report_data.advice,
            }
        )
    else:
        table = Table(title="Pins", title_justify="left")
        for column in ("file", "ok", "detail"):
            table.add_column(column)
        for check_result in report_data.pins:
            table.add_row(
                f"{check_result.file}:{check_result.line}",
                Text("yes", "green") if check_result.ok else Text("NO", "red"),
                check_result.message,
            )
        if not report_data.manifest_present:
            table.add_row("lake-manifest.json", "-", "absent (Lake writes it on first resolve)")
        out.print(table)
        tools = Table(title="Tools", title_justify="left")
        for column in ("tool", "found", "version"):
            tools.add_column(column)
        for tool in report_data.tools:
            tools.add_row(tool.name, tool.path or Text("not found", "yellow"), tool.version or "-")
        out.print(tools)
        for line in report_data.advice:
            out.print(Text(f"→ {line}"))
    if not report_data.ok:
        raise typer.Exit(1)


def version_callback(value: bool) -> None:
    if value:
        out.print(f"missions {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=version_callback, is_eager=True, help="Show version."),
    ] = False,
) -> None:
    """Track, gate and report Lean 4 formalization missions."""


def main() -> None:
    """Console entry point; turns unexpected failures into one line instead of a traceback."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
    except Exception as exc:  # a bug, not bad input: keep it to one line unless asked
        if os.environ.get("MISSIONS_DEBUG"):
            raise
        err.print(
            f"missions: internal error: {type(exc).__name__}: {exc} (MISSIONS_DEBUG=1 for details)"
        )
        sys.exit(2)
