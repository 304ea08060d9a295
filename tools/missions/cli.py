"""The ``missions`` command line: argument parsing and printing only.

Exit codes: 0 success, 1 the gate found violations, 2 bad input or usage (one
``path:line: message`` line per problem on stderr, never a traceback).
"""

from __future__ import annotations

import datetime as dt
import functools
import gc
import inspect
import json
import os
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text
from typer.core import TyperCommand

from missions import IS_THE_COMMAND, __version__, answers, gitinfo, incremental
from missions.cache import witness_inputs
from missions.catalog import Catalog, load_catalog
from missions.checks import KernelEvidence, apply_kernel, load_evidence
from missions.comparator import CHALLENGE_DIR, comparator_violations, write_export
from missions.errors import InputError, Problem
from missions.frontier import frontier, frontier_json
from missions.gate import gate_headline, run_gate
from missions.github import append_summary, gate_annotations, gate_summary, problem_annotations
from missions.heap import outlive, release_free_memory
from missions.junit import junit_xml
from missions.kernel import (
    AuditReport,
    build_request,
    fingerprints_by_target,
    kernel_checks,
    run_audit,
)
from missions.lean.lake import Diagnostic, Job, group_diagnostics, lake_executable, stream_build
from missions.lean.workspace import (
    WorkspaceLoading,
    load_import_closure,
    load_workspace,
    start_loading,
)
from missions.lint import Finding as LintFinding
from missions.lint import lint_missions
from missions.load import analyse, analyse_and_lint
from missions.pins import (
    UNCOMMITTED,
    apply_pin,
    is_blank,
    needs_recording,
    pin_commit,
    pin_state,
)
from missions.plain import plain_text
from missions.progress import progress_lines, weekly_progress
from missions.recheck import recheck, remember_gate
from missions.redraw import redraw, remember_site
from missions.render import (
    advice_lines,
    frontier_lines,
    plural,
    print_status,
    show_lines,
    wrap_words,
)
from missions.report import report_json, report_markdown, status_json
from missions.reviews import closure_listing, record_review
from missions.roots import check_root, find_root
from missions.settings import load_settings, settings_path
from missions.stamps import check_stampable, stamp_witnesses
from missions.status import Analysis, Violation, analyze
from missions.stored import (
    CHECK_PURPOSE,
    check_answer,
    check_json,
    check_lines,
    gate_of,
    handed,
    keep_check,
    keep_site,
    site_hint,
    site_purpose,
    site_up_to_date,
    start_check,
    start_site,
    stored_check,
    stored_site,
)
from missions.sync import (
    kernel_closures,
    kernel_stands,
    plan_regressions,
    resolve_targets,
    sync_mission,
)
from missions.toolchain import mathlib_revision, run_doctor
from missions.witness import (
    Claim,
    linked_sources,
    load_claims,
    load_results,
    result_json,
    review_claim,
    run_claim,
    save_results,
    saved_summary,
    stale_reason,
    witness_passed,
)
from missions.witness import Context as WitnessContext
from missions.witness import Result as WitnessResult
from missions.writelock import workspace_lock
from missions.yamlio import atomic_write_text, dump_document

app = typer.Typer(
    name="missions",
    help="Track, gate and report Lean 4 formalization missions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

#: Messages are never broken by the console (``soft_wrap``): piped, every line stays whole
#: and greppable; on a terminal, the terminal wraps a long line. Tables are laid out to the
#: terminal's width (``soft_wrap=False`` where they are printed).
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class _Command(TyperCommand):
    """Help that names arguments by their metavar (``[IDS]...``, ``ID``), not by type.

    Every option that takes a value declares its metavar too (``--root PATH``,
    ``--format [md|json|html]``), so no internal type name reaches the help. Text wraps at
    spaces only: ``--allow-regression`` or ``kebab-case`` are never split at their hyphen.
    """

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                pieces.append(_argument_name(param))
        return pieces

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        text = inspect.cleandoc(self.help or "").partition("\f")[0]
        if not text:
            return
        formatter.write_paragraph()
        with formatter.indentation():
            indent = " " * formatter.current_indent
            width = max(formatter.width - formatter.current_indent, 20)
            for index, paragraph in enumerate(p for p in text.split("\n\n") if p.strip()):
                if index:
                    formatter.write("\n")
                for line in _wrap(paragraph, width):
                    formatter.write(f"{indent}{line}\n")

    def format_options(self, ctx: Any, formatter: Any) -> None:
        params = self.get_params(ctx)
        arguments = [
            (_argument_name(p), getattr(p, "help", None) or "")
            for p in params
            if p.param_type_name == "argument"
        ]
        options = [
            record
            for p in params
            if p.param_type_name == "option" and (record := p.get_help_record(ctx)) is not None
        ]
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    _write_definitions(formatter, rows)


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(
        " ".join(text.split()), width, break_on_hyphens=False, break_long_words=False
    ) or [""]


def _write_definitions(formatter: Any, rows: list[tuple[str, str]]) -> None:
    """Two columns like click's, wrapped at spaces only."""
    indent = " " * formatter.current_indent
    first = min(max(len(name) for name, _ in rows), 30)
    width = max(formatter.width - formatter.current_indent - first - 2, 20)
    pad = " " * (formatter.current_indent + first + 2)
    for name, text in rows:
        lines = _wrap(text, width)
        if len(name) <= first:
            formatter.write(f"{indent}{name.ljust(first)}  {lines[0]}".rstrip() + "\n")
        else:
            formatter.write(f"{indent}{name}\n{pad}{lines[0]}".rstrip() + "\n")
        for line in lines[1:]:
            formatter.write(f"{pad}{line}\n")


def _argument_name(param: Any) -> str:
    if param.metavar:
        return str(param.metavar)
    name = str(param.name).upper() + ("..." if param.nargs != 1 else "")
    return name if param.required else f"[{name}]"


def command(
    short_help: str, name: str | None = None, *, cyclic_gc: bool = False
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``app.command`` with the help format above and a one-line summary for the index.

    A command runs without Python's cycle collector unless ``cyclic_gc``: loading and
    analysing a workspace allocates millions of objects and no garbage cycles, so the
    collector only scans them again and again (a third of a cold ``status``), and a command
    ends before uncollected cycles could matter. Commands that run user code (witnesses) or
    a long build keep it.
    """

    def register(function: Callable[..., None]) -> Callable[..., None]:
        if not cyclic_gc:
            function = _without_cyclic_gc(function)
        return app.command(name, cls=_Command, short_help=short_help)(function)

    return register


def _without_cyclic_gc(function: Callable[..., None]) -> Callable[..., None]:
    """The command without the collector, which it gets back only where a program imported
    the library: the command itself leaves right after (:func:`missions.fastpath.leave`),
    and turned back on, the collector first walked everything a large run still held
    (0.2 s at 2,000 missions)."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> None:
        collecting = gc.isenabled()
        gc.disable()
        try:
            function(*args, **kwargs)
        finally:
            if collecting and not IS_THE_COMMAND:
                gc.enable()

    return run


def _choices(values: tuple[str, ...]) -> str:
    return "[" + "|".join(values) + "]"


RootOption = Annotated[
    Path | None,
    typer.Option(
        "--root",
        metavar="PATH",
        help="Workspace root (default: nearest ancestor with lakefile.lean and missions/).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON (the stable contract).")]
IdsArgument = Annotated[
    list[str] | None,
    typer.Argument(metavar="[IDS]...", help="Mission ids (default: all).", show_default=False),
]
LeanOption = Annotated[
    bool,
    typer.Option(
        "--lean", help="Ask the Lean audit (kernel evidence; needs lake and a built workspace)."
    ),
]
ChecksOption = Annotated[
    Path | None,
    typer.Option(
        "--checks",
        metavar="DIR",
        help="With --lean: what leanchecker, nanoda and Comparator left (the workflow's "
        "kernel-checks/); a checker with no result here is 'not run'.",
    ),
]
NoCacheOption = Annotated[
    bool,
    typer.Option(
        "--no-cache", help="Compute afresh: rescan every Lean file, use no stored answer."
    ),
]


def _fail(problems: list[Problem]) -> NoReturn:
    for problem in problems:
        err.print(escape(str(problem)), markup=True)
    raise typer.Exit(2)


def _usage(option: str, message: str) -> NoReturn:
    """A wrong option value: one ``--option:1: message`` line (the option is the input)."""
    _fail([Problem(option, 1, message)])


def _warn(message: str) -> None:
    err.print(Text(f"warning: {message}", style="yellow"))


@contextmanager
def _input_errors() -> Iterator[None]:
    """Bad input, and a file system that refuses (read-only, full, a directory in the way),
    end the command with one located line and exit 2."""
    try:
        yield
    except InputError as exc:
        _fail(exc.problems)
    except OSError as exc:
        where = exc.filename if exc.filename is not None else Path.cwd()
        _fail([Problem(str(where), 1, (exc.strerror or str(exc)).lower(), "output")])


@contextmanager
def _cannot_write(output: Path, what: str) -> Iterator[None]:
    """A site's folder that refuses a write: one line naming the folder."""
    try:
        yield
    except OSError as exc:
        raise InputError.single(output, 1, f"cannot write the {what}: {exc}") from None


def _root(root: Path | None) -> Path:
    return check_root(root) if root is not None else find_root(Path.cwd())


def _located_root(root: Path | None) -> Path | None:
    """The workspace root, or None where there is none (that is then the problem reported)."""
    try:
        return _root(root)
    except InputError:
        return None


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


def _write_plain(lines: list[str]) -> None:
    """Unstyled whole lines in one write, control codes stripped as rich strips them: rich
    lays out every line it prints, seconds for the thousands a large workspace reports."""
    if lines:
        out.file.write(plain_text(lines))


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def _analysis(root: Path | None, ids: list[str] | None, no_cache: bool = False) -> Analysis:
    return _outliving(analyse(_root(root), ids, use_cache=not no_cache))


def _outliving(analysis: Analysis) -> Analysis:
    """A one-shot command's analysis, left unfreed when the process ends
    (:func:`missions.heap.outlive`)."""
    outlive(analysis)
    return analysis


def _kernel(analysis: Analysis, evidence: KernelEvidence) -> tuple[AuditReport, list[Violation]]:
    """Run the audit once for the whole catalog and let the kernel, with every other
    checker's results, decide every status."""
    report = run_audit(analysis.root, build_request(analysis))
    violations = apply_kernel(analysis, report, evidence)
    return report, violations + kernel_checks(analysis, report, mathlib_revision(analysis.root))


def _evidence(
    root: Path, lean: bool, checks: Path | None, comparator: Path | None = None
) -> KernelEvidence:
    """The project's requirements and the checkers' results (read before anything runs, so a
    bad record is reported before the audit's long build)."""
    if checks is not None and not lean:
        _usage("--checks", "--checks DIR goes with --lean: checkers' results are kernel evidence")
    return load_evidence(root, checks, comparator)


@command("Missions and targets: status, evidence, why not proved.")
def status(
    ids: IdsArgument = None,
    root: RootOption = None,
    as_json: JsonOption = False,
    no_cache: NoCacheOption = False,
    lean: LeanOption = False,
    checks: ChecksOption = None,
    why: Annotated[
        bool, typer.Option("--why", help="Show every reason (default: the first per target).")
    ] = False,
    progress: Annotated[
        bool,
        typer.Option(
            "--progress",
            help="Also the weekly series from git history: targets by recorded status and "
            "evidence tier, pin moves, lint allow comments.",
        ),
    ] = False,
) -> None:
    """Missions and targets with their status and evidence.

    A summary line, then per mission its targets (status, evidence, witness) and, indented
    below, why each open target is not proved. Lines fit the terminal; piped output is
    never wrapped.
    """
    with _input_errors():
        resolved = _root(root)
        listed = witness_inputs(str(resolved))
        # the stats the answer is keyed by are the ones the scan started from
        with start_loading(resolved, use_cache=not no_cache) as loading:
            key, content_inputs = _answer_keys(resolved, listed, loading)
            inputs = incremental.global_inputs(str(resolved))
            evidence = _evidence(resolved, lean, checks)
            analysis, lint = analyse_and_lint(
                resolved, ids, use_cache=not no_cache, loading=loading
            )
            _outliving(analysis)
        content_key = _content_key(content_inputs, loading.digests())
        if lean:
            _kernel(analysis, evidence)
        # nothing walks again: the walks are let go before the lint's parts are merged, the
        # top of a large run's memory
        analysis.memo.release()
        release_free_memory()
        linted = lint()
        release_free_memory()  # what merging the lint's parts freed
        data = status_json(
            analysis,
            evidence="kernel" if lean else "source",
            witnesses=load_results(str(resolved)),
            lint=linted,
        )
    # each mission encoded once: the answer is assembled from these texts, and the
    # incremental path keeps them to patch the next answer
    entries = data["missions"]
    texts = []
    for index, entry in enumerate(entries):
        texts.append(incremental.mission_text(entry))
        if as_json:  # nothing prints the entry again: only its statuses are read (remember)
            entries[index] = incremental.statuses_of(entry)
    fields = {k: v for k, v in data.items() if k != "missions"}
    if key is not None and not no_cache and not lean and not ids:
        # the witness column read the linked witness modules: the keys stamp them too
        linked = linked_sources(m.file.mission for m in analysis.missions)
        stamped = listed
        with _input_errors():
            if not set(linked) <= set(listed):
                key, content_key, stamped = answers.rekey(resolved, key, listed, linked)
                added = sorted(set(stamped) - set(listed))
                inputs = {**inputs, **incremental.global_inputs(str(resolved), added)}
        if key is not None:
            # the one stored answer is the whole workspace's: `status ID` is answered from it
            answers.store(resolved, key, incremental.assembled(fields, texts), content_key)
            incremental.remember(analysis, data, inputs, texts, linted)
    if progress:  # beyond the stored answer: it depends on history, not only on files
        with _input_errors():
            paths = {m.id: m.file.path for m in analysis.missions}
            data["progress"] = fields["progress"] = weekly_progress(resolved, paths)
    if as_json:
        for piece in incremental.assembled(fields, texts):  # never the whole answer at once
            sys.stdout.write(piece)
        return
    print_status(out, data, why=why)
    if progress:
        _write_plain(progress_lines(data["progress"]))


def _answer_keys(
    root: Path, witnesses: list[str], loading: WorkspaceLoading
) -> tuple[str | None, list[str] | None]:
    """The key :func:`missions.answers.store` files a whole-workspace answer under and the
    inputs of its content key, taken before the run reads them (a file changed during it
    then counts as changed next time; the Lean files' stats as ``loading`` took them before
    reading, perhaps before this command started: :func:`missions.fastpath.prefetch`; the
    ``witnesses`` sources stamped); None for an unreadable input, which the command itself
    reports."""
    try:
        return (
            answers.fingerprint(root, [], loading.stats, witnesses, loading.taken_ns),
            answers.content_inputs(root, witnesses),
        )
    except OSError:
        return None, None


def _content_key(inputs: list[str] | None, digests: list[tuple[str, str]]) -> str | None:
    """The content key of the bytes the scan read; none if a Lean file could not be read
    (a later run hashes such a file differently: it would never be found)."""
    if inputs is None or any(not digest for _, digest in digests):
        return None
    return answers.content_key(inputs, digests)


def _lint_line(finding: LintFinding) -> Text:
    """``path:line: rule: message``, with the reason of an accepted finding after it."""
    if finding.accepted:
        line = Text(finding.text())
        line.append(f" (accepted: {finding.reason})", style="dim")
        return line
    return Text(finding.text(), style="yellow" if finding.level == "warning" else "red")


@command("Lint the statement closures for traps (junk values, ∃ … → …).", name="lint")
def lint_command(
    ids: IdsArgument = None,
    root: RootOption = None,
    as_json: JsonOption = False,
    accepted: Annotated[
        bool, typer.Option("--accepted", help="Also list the accepted findings, with why.")
    ] = False,
) -> None:
    """Source-level lints of the statement closures: traps that make a statement junk.

    Lists what needs attention (unaccepted findings, then warnings; --accepted adds the rest)
    and ends with the counts. Exit 1 on unaccepted findings; accept one with
    `-- lint: allow RULE because REASON` on its line or the line above."""
    with _input_errors():
        resolved = _root(root)
        catalog = load_catalog(resolved)
        chosen = catalog.select(ids or [])
        workspace = load_workspace(resolved)
    result = lint_missions(
        resolved, workspace, [m.mission for m in chosen], catalog=catalog.missions
    )
    if as_json:
        _print_json(
            {
                "ok": not result.failing,
                "findings": [f.to_json() for f in result.findings],
                "counts": result.counts(),
            }
        )
    else:
        width = out.width if out.is_terminal else None
        shown = [f for f in result.findings if not f.accepted and f.level != "warning"]
        shown += [f for f in result.findings if not f.accepted and f.level == "warning"]
        if accepted:
            shown += [f for f in result.findings if f.accepted]
        for finding in shown:
            line = _lint_line(finding)
            style = line.style if isinstance(line.style, str) else ""
            for piece in wrap_words("", line.plain, 4, width):
                out.print(Text(piece, style=style or ("dim" if finding.accepted else "")))
        counts = result.counts()
        hidden = "" if accepted or not counts["accepted"] else " (--accepted lists them)"
        out.print(
            f"lint: {counts['unaccepted']} unaccepted, {counts['accepted']} accepted{hidden}, "
            f"{plural(counts['warnings'], 'warning')} in {plural(len(chosen), 'mission')}",
            soft_wrap=True,
        )
    if result.failing:
        raise typer.Exit(1)


@command("One mission: sources, targets, informal and Lean statements.")
def show(
    mission_id: Annotated[str, typer.Argument(metavar="ID", help="Mission id.")],
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """One mission: summary, sources, conventions, targets with informal and Lean statements.

    Prose wraps at spaces on a terminal; Lean code is printed as written, its indentation
    intact (a line wider than the terminal is left to the terminal, never re-flowed).
    """
    with _input_errors():
        analysis = _analysis(root, [mission_id])
        gate = run_gate(analysis)
        data = report_json(analysis, gate, load_results(str(analysis.root)))["missions"][0]
    if as_json:
        _print_json(data)
        return
    width = out.width if out.is_terminal else None
    out.print(Text("\n").join(show_lines(data, width=width)), soft_wrap=True)
    if gate.lint is not None:
        findings = gate.lint.for_mission(mission_id)
        if findings:
            out.print(Text("Lint findings", style="bold"))
            for finding in findings:
                out.print(Text("  ").append_text(_lint_line(finding)), soft_wrap=True)


@command("Check the mission YAML and its cross-references only.")
def validate(root: RootOption = None, as_json: JsonOption = False) -> None:
    """Check the mission YAML and its cross-references only."""
    with _input_errors():
        catalog: Catalog = load_catalog(_root(root))
    targets = sum(len(m.targets) for m in catalog.missions)
    if as_json:
        _print_json({"ok": True, "missions": len(catalog.missions), "targets": targets})
    else:
        out.print(
            f"{plural(len(catalog.missions), 'mission')}, {plural(targets, 'target')}: YAML valid"
        )


CHECK_FORMATS = ("text", "json", "github")


@command("The gate: exit 1 if any rule is violated.")
def check(
    ids: IdsArgument = None,
    root: RootOption = None,
    as_json: JsonOption = False,
    no_cache: NoCacheOption = False,
    lean: LeanOption = False,
    checks: ChecksOption = None,
    junit: Annotated[
        Path | None,
        typer.Option("--junit", metavar="FILE", help="Also write JUnit XML to this file."),
    ] = None,
    comparator: Annotated[
        Path | None,
        typer.Option(
            "--comparator",
            metavar="DIR",
            help="Comparator results (export directory after the runs); with --lean, also "
            "part of every target's verdict.",
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            metavar=_choices(CHECK_FORMATS),
            help="text: one line per finding; json: as --json; github: workflow-command "
            "annotations, and the job summary when $GITHUB_STEP_SUMMARY is set.",
        ),
    ] = "text",
) -> None:
    """The gate: exit 1 if any rule is violated, 2 on bad input."""
    if fmt not in CHECK_FORMATS:
        _usage("--format", f"unknown format {fmt!r}; choose one of {', '.join(CHECK_FORMATS)}")
    if as_json and fmt not in ("text", "json"):
        _usage("--json", f"--json and --format {fmt} ask for two outputs; give one")
    as_json = as_json or fmt == "json"
    github = fmt == "github"
    extra: list[Violation] = []
    results = None
    # only a plain run is stored: every option changes what the gate reads
    plain = not (ids or no_cache or lean or checks or comparator or junit)
    try:
        top = _root(root)
        evidence = _evidence(top, lean, checks, comparator)
        # the start-up fast path found no answer: its stamps are the key taken before
        recording = handed(top, CHECK_PURPOSE) if plain else None
        answer = stored_check(top) if plain and recording is None else None
        if answer is None and plain:
            if recording is None:
                recording = start_check(top)
            # after an edit: only the missions it can change are gated again (recheck)
            answer = recheck(top, recording)
        if answer is None:
            analysis, lint = analyse_and_lint(top, ids, use_cache=not no_cache)
            _outliving(analysis)
            if lean:
                _, extra = _kernel(analysis, evidence)
            results = evidence.comparator
            if results is not None:
                extra = [*extra, *comparator_violations(analysis, results)]
            # reads YAML lines for messages: input errors too
            gate = run_gate(analysis, extra, kernel_dependencies=lean, lint=lint)
            answer = check_answer(gate, gate_headline(analysis.summary(), gate, lean))
            if recording is not None and keep_check(recording, analysis, answer):
                remember_gate(recording, analysis, gate)
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
        if github:
            _write_plain(problem_annotations(exc.problems, _located_root(root)))
        _fail(exc.problems)
    if junit is not None:
        _write_output(junit_xml(analysis, gate, results), junit)
    headline = answer["headline"]
    if as_json:
        _print_json(check_json(answer))
    elif github:
        gate = gate_of(answer)
        _write_plain([*gate_annotations(gate, top), headline])
        with _input_errors():
            try:
                append_summary(gate_summary(gate, headline, top))
            except OSError as exc:
                target = os.environ.get("GITHUB_STEP_SUMMARY", "")
                raise InputError.single(target, 1, f"cannot write the job summary: {exc}") from None
    else:
        _write_plain(check_lines(answer))
        out.print(headline)
    if answer["violations"]:
        raise typer.Exit(1)


ReasonOption = Annotated[
    str | None,
    typer.Option("--reason", metavar="TEXT", help="Why the statements changed (needed on re-pin)."),
]


@command("Recompute statement pins; record the commit and a revision.")
def pin(
    ids: IdsArgument = None,
    root: RootOption = None,
    reason: ReasonOption = None,
    as_json: JsonOption = False,
) -> None:
    """Recompute statement pins and record them with the commit and a history entry.

    The commit recorded (pinned_at) is HEAD only if it holds every file of the statement
    closure as it is; otherwise the pin says `uncommitted` (with a warning), and running
    `pin` again after committing records the commit.
    """
    warnings: list[str] = []
    with _input_errors():
        resolved = _root(root)
        with workspace_lock(resolved):  # the YAML is read only once the lock is held
            # cached entries are checked against each file's size, mtime and ctime now, under
            # the lock; what is written is each chosen file's round-trip text, read here too
            # only the chosen missions' files and their statement closures are read
            catalog = load_catalog(resolved, only=ids)
            chosen = catalog.select(ids or [])
            workspace = load_import_closure(
                resolved, [m.mission.lean.statements_module for m in chosen]
            )
            today = dt.date.today()
            plans = []
            for mission_file in chosen:
                state = pin_state(workspace, mission_file.mission)
                commit: str | None = None
                dirty: list[Path] = []
                if state.digest is not None:
                    commit, dirty = pin_commit(resolved, workspace, state)
                plans.append((mission_file, state, commit, dirty))
            if is_blank(reason) and plans:
                recording = [m for m, st, c, _ in plans if needs_recording(m, st, c)]
                raise InputError(
                    Problem(
                        str(m.path),
                        m.line("lean"),
                        "--reason is blank; say why the statements changed (it is kept in "
                        "statement_history)",
                    )
                    for m in (recording or [plans[0][0]])
                )
            changed = []
            problems: list[Problem] = []
            for mission_file, state, commit, dirty in plans:
                try:
                    if apply_pin(mission_file, state, commit=commit, reason=reason, today=today):
                        changed.append((mission_file, state, commit))
                        if commit == UNCOMMITTED:
                            warnings.append(_uncommitted_warning(resolved, mission_file, dirty))
                except InputError as exc:
                    problems.extend(exc.problems)
            if problems:
                raise InputError(problems)
            for mission_file, _, _ in changed:
                atomic_write_text(mission_file.path, dump_document(mission_file.doc))
    for warning in warnings:
        _warn(warning)
    if as_json:
        _print_json(
            {
                "pinned": [
                    {"id": m.mission.id, "digest": s.digest, "commit": c} for m, s, c in changed
                ]
            }
        )
        return
    if not changed:
        out.print("all selected pins are current")
    for mission_file, state, commit in changed:
        at = "uncommitted files" if commit == UNCOMMITTED else f"commit {commit}"
        out.print(Text(f"pinned {mission_file.mission.id}: {state.digest} at {at}"))


def _uncommitted_warning(root: Path, mission_file: Any, dirty: list[Path]) -> str:
    names = ", ".join(str(_relative(p, root)) for p in dirty[:5])
    more = f" and {len(dirty) - 5} more" if len(dirty) > 5 else ""
    return (
        f"{mission_file.mission.id}: no commit holds the pinned files as they are "
        f"({names}{more}); recorded pinned_at: {UNCOMMITTED}. Commit them and run "
        f"`missions pin {mission_file.mission.id}` again to record the commit."
    )


def _relative(path: Path, root: Path) -> Path:
    try:
        return path.relative_to(root)
    except ValueError:
        return path


@command("Write computed statuses into the mission YAML.")
def sync(
    ids: IdsArgument = None,
    root: RootOption = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show, do not write.")] = False,
    lean: LeanOption = False,
    checks: ChecksOption = None,
    allow_regression: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-regression",
            metavar="MISSION/TARGET",
            help="Let this target lose its recorded `proved` (repeatable; needs --reason).",
            show_default=False,
        ),
    ] = None,
    reason: Annotated[
        str | None,
        typer.Option(
            "--reason", metavar="TEXT", help="Why the targets are no longer proved (recorded)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Write computed statuses into the mission YAML (with --lean: kernel statuses and what
    checked them).

    A target recorded `proved` is never lowered silently: name it with --allow-regression
    and say why with --reason, and the loss is kept in the mission's `regressions:` list.
    Otherwise nothing is written and every such target is named.
    """
    if reason is not None and not allow_regression:
        _usage("--reason", "--reason goes with --allow-regression MISSION/TARGET")
    with _input_errors():
        resolved = _root(root)
        evidence = _evidence(resolved, lean, checks)
        with workspace_lock(resolved):  # the YAML is read only once the lock is held
            catalog = load_catalog(resolved)  # validated by stat under the lock, as in pin
            catalog.select(ids or [])
            analysis = analyze(catalog, load_workspace(resolved), ids)
            stamp: dict[str, object] | None = None
            audit: AuditReport | None = None
            if lean:
                audit, _ = _kernel(analysis, evidence)
                stamp = {
                    "lean": audit.lean_version,
                    "mathlib": mathlib_revision(analysis.root),
                    "commit": gitinfo.head_commit(analysis.root),
                    "date": dt.date.today(),
                }
            allowed, problems = resolve_targets(analysis.missions, allow_regression or [])
            if problems:
                raise InputError(problems)
            regressions = plan_regressions(analysis, allowed, reason=reason)
            if regressions.problems:
                raise InputError(regressions.problems)
            commit = gitinfo.head_commit(analysis.root)
            stands = kernel_stands(analysis)
            changes = {
                m.id: sync_mission(
                    m,
                    dry_run=dry_run,
                    checked=stamp,
                    fingerprints=(
                        fingerprints_by_target(m, audit, mathlib_revision(analysis.root))
                        if audit is not None
                        else None
                    ),
                    stands=stands,
                    closure_of=kernel_closures(analysis),
                    regressions=regressions.record.get(m.id, []),
                    reason=reason,
                    today=dt.date.today(),
                    commit=commit,
                )
                for m in analysis.missions
            }
    recorded = {k: [loss.target for loss in v] for k, v in regressions.record.items()}
    if as_json:
        _print_json(
            {
                "changed": {k: v for k, v in changes.items() if v},
                "regressions": recorded,
                "dry_run": dry_run,
            }
        )
        return
    touched = {k: v for k, v in changes.items() if v}
    if not touched:
        out.print("statuses are in sync")
    for mission_id, targets in touched.items():
        verb = "would update" if dry_run else "updated"
        out.print(Text(f"{verb} {mission_id}: {', '.join(targets)}"))
    for mission_id, targets in recorded.items():
        verb = "would record" if dry_run else "recorded"
        out.print(Text(f"{verb} a regression of {', '.join(f'{mission_id}/{t}' for t in targets)}"))


REPORT_FORMATS = ("md", "json", "html", "badges")
#: Where a published badge file is read from (the published directory's URL goes at the end).
EXPORT_FORMATS = ("json", "dojo", "comparator", "blueprint", "formalization")
BUDGETS = ("quick", "full")


@command("A pull-request report (md), dashboard data (json) or site (html).")
def report(
    ids: IdsArgument = None,
    root: RootOption = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            metavar=_choices(REPORT_FORMATS),
            help="md: pull-request comment; json: data; html: static dashboard (needs -o DIR); "
            "badges: shields.io endpoint JSON, the workspace's and one per mission (-o DIR).",
        ),
    ] = "md",
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            help="Write to this file (html: into this directory).",
        ),
    ] = None,
    lean: LeanOption = False,
    checks: ChecksOption = None,
) -> None:
    """A report for a pull request (md), a dashboard's data (json) or a static site (html)."""
    if fmt not in REPORT_FORMATS:
        _usage("--format", f"unknown format {fmt!r}; choose one of {', '.join(REPORT_FORMATS)}")
    if fmt in ("html", "badges") and output is None:
        _usage("--output", f"--format {fmt} writes a directory: give -o DIR")
    site = fmt in ("html", "badges")
    hint = site_hint(fmt)
    # a site without ids or kernel evidence is stored: every option changes what it reads
    plain = site and not (ids or lean or checks)
    with _input_errors():
        top = _root(root)
        evidence = _evidence(top, lean, checks)
        if site:
            assert output is not None
            if output.exists() and not output.is_dir():
                raise InputError.single(output, 1, "output exists and is not a directory")
            if not output.exists() and not output.parent.is_dir():
                raise InputError.single(output, 1, "parent of the output directory does not exist")
        what = "dashboard" if fmt == "html" else "badges"
        written = None
        if plain and output is not None:
            taken = handed(top, site_purpose(fmt, output))  # see `check`
            if taken is None:
                unchanged = stored_site(top, fmt, output)
                if unchanged is not None:
                    err.print(escape(site_up_to_date(str(output), fmt, unchanged)))
                    return
            recording = taken or start_site(top, fmt, output)
            if fmt == "html":  # after an edit: only what it can change is made again
                with _cannot_write(output, what):
                    written = redraw(top, recording, output)
        if written is None:
            analysis, lint = analyse_and_lint(top, ids)
            _outliving(analysis)
            extra = _kernel(analysis, evidence)[1] if lean else []
            gate = run_gate(analysis, extra, kernel_dependencies=lean, lint=lint)
    if site and written is None:
        assert output is not None
        with _input_errors(), _cannot_write(output, what):
            if fmt == "html":
                from missions.html import dashboard_site, write_site

                built = dashboard_site(analysis, gate)
                written = write_site(built, output)
                assert written is not None  # a whole site renders every page
                if plain and keep_site(recording, analysis, written):
                    remember_site(recording, analysis, gate, built, output)
            else:
                from missions.badges import write_badges

                written = write_badges(analysis, gate, output)
                if plain:
                    keep_site(recording, analysis, written)
    if site:
        assert written is not None and output is not None
        files = plural(len(written), "file")
        err.print(f"wrote {files} to {escape(str(output))} ({escape(hint)})")
        return
    with _input_errors():
        if fmt == "json":
            data = report_json(analysis, gate, load_results(str(analysis.root)))
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        else:
            text = report_markdown(analysis, gate)
    _write_output(text, output)


@command("What a change does against a base commit: proofs won and lost, pins moved.")
def diff(
    base: Annotated[str, typer.Argument(metavar="BASE", help="The commit to compare with.")],
    root: RootOption = None,
    as_json: JsonOption = False,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write to this file."),
    ] = None,
) -> None:
    """Targets proved or lost (by evidence tier), pins moved with their reasons, lint
    findings accepted and witnesses gone stale, between BASE and the working tree: Markdown
    for a pull-request comment, or --json."""
    with _input_errors():
        from missions.diff import diff_against, diff_json, diff_markdown

        found = diff_against(_root(root), base)
    if as_json:
        _write_output(json.dumps(diff_json(found), indent=2, ensure_ascii=False) + "\n", output)
    else:
        _write_output(diff_markdown(found), output)


@command("Print a mission's statements for a faithfulness review; record the verdict.")
def review(
    mission_id: Annotated[str, typer.Argument(metavar="ID", help="Mission id.")],
    root: RootOption = None,
    verdict: Annotated[
        str | None,
        typer.Option("--verdict", metavar="[pass|block|discuss]", help="Record this verdict."),
    ] = None,
    reviewer: Annotated[
        str | None, typer.Option("--reviewer", metavar="NAME", help="Who read the statements.")
    ] = None,
    notes: Annotated[str | None, typer.Option("--notes", metavar="TEXT")] = None,
    finding: Annotated[
        list[str] | None,
        typer.Option("--finding", metavar="TEXT", help="An open finding (repeatable)."),
    ] = None,
    dismiss: Annotated[
        list[str] | None,
        typer.Option("--dismiss", metavar="TEXT", help="A dismissed finding; --because says why."),
    ] = None,
    because: Annotated[
        list[str] | None,
        typer.Option("--because", metavar="TEXT", help="Why, for each --dismiss in order."),
    ] = None,
) -> None:
    """Without --verdict: the statement closure as Lean reads it, without comments or doc
    strings (compare it with the source yourself), then earlier reviews' findings. With
    --verdict and --reviewer: record the review in the mission YAML at the current pin; a
    moved pin makes it stale."""
    dismissed = list(dismiss or [])
    reasons = list(because or [])
    if len(dismissed) != len(reasons):
        _usage("--because", "give one --because for each --dismiss, in order")
    if verdict is None and (reviewer or notes or finding or dismissed):
        _usage(
            "--verdict",
            "--reviewer, --notes, --finding and --dismiss record a review: give --verdict",
        )
    if verdict is not None and not reviewer:
        _usage("--reviewer", "a recorded review names its reviewer")
    with _input_errors():
        resolved = _root(root)
        if verdict is None:
            analysis = analyse(resolved, [mission_id])
            sys.stdout.write(closure_listing(analysis, analysis.missions[0]))
            return
        with workspace_lock(resolved):  # the YAML is read only once the lock is held
            analysis = analyse(resolved, [mission_id])
            [mission] = analysis.missions
            assert reviewer is not None
            recorded = record_review(
                mission.file,
                mission.pin.digest or "",
                verdict=verdict,
                reviewer=reviewer,
                notes=notes,
                findings=finding or [],
                dismissed=list(zip(dismissed, reasons, strict=True)),
            )
    err.print(
        f"recorded {recorded.verdict!r} by {escape(recorded.reviewer)} at {recorded.pin[:19]}…"
    )


@command("Serve read-only answers with receipts to agents over MCP (stdio).", cyclic_gc=True)
def mcp(root: RootOption = None) -> None:
    """An MCP server on stdin/stdout with the tools status, show, next, check, lint, witness
    and explain; every answer carries a receipt (commit or "uncommitted", pins, closure
    digests, toolchain, evidence tier). Needs the mcp extra: pip install -e '.[mcp]'."""
    with _input_errors():
        resolved = _root(root)
    try:
        import mcp.server.mcpserver  # noqa: F401 (the SDK is an optional extra)
    except ImportError:
        _fail([Problem("mcp", 1, "the MCP SDK is not installed: pip install -e '.[mcp]'")])
    from missions.mcp_server import serve

    serve(resolved)


@command("Targets to work on now: open, with every dependency proved.", name="next")
def next_(ids: IdsArgument = None, root: RootOption = None, as_json: JsonOption = False) -> None:
    """The frontier: open targets whose dependencies are all proved (or external)."""
    with _input_errors():
        analysis = _analysis(root, ids)
    items = frontier(analysis)
    if as_json:
        _print_json(frontier_json(analysis, items))
        return
    if not items:
        out.print("nothing on the frontier: every open target waits on an unproved dependency")
        return
    width = out.width if out.is_terminal else None
    lines = frontier_lines(frontier_json(analysis, items), width=width)
    out.print(Text("\n").join(lines), soft_wrap=True)
    out.print(f"{plural(len(items), 'target')} on the frontier")


@command("`lake build` the missions' modules; diagnostics by mission.", cyclic_gc=True)
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
    out.print(table, soft_wrap=False)
    for message in log.errors:
        out.print(Text(f"lake: {message}", style="red"))
    out.print("build " + ("succeeded" if log.ok else f"FAILED (lake exit code {log.returncode})"))
    if not log.ok:
        raise typer.Exit(1)


@command("Open targets as prover tasks (json or LeanDojo).")
def export(
    ids: IdsArgument = None,
    root: RootOption = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            metavar=_choices(EXPORT_FORMATS),
            help="json: task list; dojo: LeanDojo theorem records; comparator: Comparator "
            "challenges and configs for the targets claimed proved; blueprint: leanblueprint "
            "LaTeX with computed \\leanok and \\uses (-o DIR); formalization: a registry "
            "formalization.yaml (v0.4) per mission (-o DIR).",
        ),
    ] = "json",
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            help="Write to a file (comparator: into this directory).",
        ),
    ] = None,
) -> None:
    """Open targets as prover tasks, or Comparator challenges for the targets claimed proved."""
    if fmt not in EXPORT_FORMATS:
        _usage("--format", f"unknown format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    if fmt in ("comparator", "blueprint", "formalization") and output is None:
        _usage("--output", f"--format {fmt} writes a directory: give -o DIR")
    with _input_errors():
        analysis = _analysis(root, ids)
        if fmt in ("comparator", "blueprint", "formalization"):
            assert output is not None
            if output.exists() and not output.is_dir():
                raise InputError.single(output, 1, "output exists and is not a directory")
            if not output.exists() and not output.parent.is_dir():
                raise InputError.single(output, 1, "parent of the output directory does not exist")
        if fmt == "formalization":
            assert output is not None
            settings = load_settings(analysis.root)
            try:
                from missions.formalization import write_records

                written = write_records(analysis, settings.formalization, output)
            except ValueError as exc:
                raise InputError.single(
                    settings_path(analysis.root),
                    1,
                    f"cannot export a valid formalization.yaml: {exc} (set formalization: "
                    "authors, license, … in missions.yaml)",
                ) from None
            err.print(f"wrote {plural(len(written), 'file')} to {escape(str(output))}")
            return
        if fmt == "blueprint":
            assert output is not None
            from missions.blueprint import INDEX_FILE as BLUEPRINT_INDEX
            from missions.blueprint import write_blueprint

            written = write_blueprint(analysis, output)
            index = f"{output.resolve().name}/{BLUEPRINT_INDEX.removesuffix('.tex')}"
            err.print(
                f"wrote {plural(len(written), 'file')} to {escape(str(output))} "
                f"(add \\input{{{escape(index)}}} to the blueprint's content.tex)"
            )
            return
        if fmt == "comparator":
            assert output is not None
            written = write_export(analysis, output)
            expected = (analysis.root / CHALLENGE_DIR).resolve()
            if output.resolve() != expected:
                err.print(
                    f"note: lakefile.lean builds the Challenge library from {expected}; "
                    "Comparator finds these challenges only there"
                )
            err.print(f"wrote {len(written)} files to {escape(str(output))}")
            return
        from missions.export import dojo_records, export_dojo, export_json

        data: Any = export_json(analysis)
        if fmt == "dojo":
            data = {"format": "lean_dojo.Theorem", "theorems": dojo_records(export_dojo(analysis))}
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    _write_output(text, output)


@command("Run the numerical witnesses of the targets' claims.", cyclic_gc=True)
def witness(
    ids: IdsArgument = None,
    root: RootOption = None,
    budget: Annotated[
        str,
        typer.Option(
            "--budget", metavar=_choices(BUDGETS), help="quick (seconds) or full (minutes)."
        ),
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
    if budget not in BUDGETS:
        _usage("--budget", f"unknown budget {budget!r}; choose one of {', '.join(BUDGETS)}")
    if stamp is not None and ids and ids != [stamp]:
        _usage("--stamp", "--stamp ID runs that mission only; drop the other ids")
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
        unlinked = [
            f"{f.mission.id}/{target.id}"
            for f in chosen
            for target in f.mission.targets
            if target.kind != "external" and target.witness is None
        ]
        width = out.width if out.is_terminal else None
        for row in witness_lines(results, stale, width):
            out.print(row, soft_wrap=True)
        for mission_id, result in failed:
            for line in witness_failure_lines(mission_id, result):
                out.print(Text(line, style="red"))
        for mission_id, reason in stale.items():
            if reason is not None and stamp is None:  # stamping is what makes them fresh
                out.print(
                    Text(
                        f"{mission_id}: witnesses stale: {reason}; review them against the "
                        f"statements, then run `missions witness --stamp {mission_id}`",
                        style="yellow",
                    ),
                    soft_wrap=True,
                )
        for row in witness_tally(results, unlinked, budget, width):
            out.print(row, soft_wrap=True)
    if failed:
        raise typer.Exit(1)
    if stamp is not None:
        # a stamp certifies the whole review, not only that the claims hold
        refused = [
            (mission_id, claim.target, problem)
            for mission_id, claim, statement in plan
            for problem in review_claim(
                claim, hypotheses.get(statement) if statement else None, context
            )
        ]
        for mission_id, target, problem in refused:
            out.print(Text(f"{mission_id}/{target}: {problem}", style="red"), soft_wrap=True)
        if refused:
            out.print(f"not stamped: {plural(len(refused), 'review problem')}")
            raise typer.Exit(1)
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
    from missions.lean.premises import workspace_hypotheses

    return {s: workspace_hypotheses(workspace, s) for _, _, s in plan if s is not None}


def witness_lines(
    results: list[tuple[str, WitnessResult]], stale: dict[str, str | None], width: int | None
) -> list[Text]:
    """One line per claim: ``mission/target`` whole (never cut), verdict, non-vacuity."""
    names = [f"{m}/{r.target}" for m, r in results]
    room = max((len(n) for n in names), default=0)
    if width is not None:
        room = min(room, max(20, width - 40))
    lines: list[Text] = []
    for name, (mission_id, result) in zip(names, results, strict=True):
        nonvacuous = result.nonvacuity.nonvacuous if result.nonvacuity else "unknown"
        line = Text(name.ljust(room) + "  ")
        if not result.ok:
            line.append("ERROR" if result.error else "FAIL", style="bold red")
        elif stale.get(mission_id):
            line.append("stale", style="yellow")
        else:
            line.append("pass", style="green")
        if nonvacuous is True:
            line.append("  non-vacuous")
        elif nonvacuous is False:
            line.append("  VACUOUS", style="bold red")
        else:
            line.append("  non-vacuity unknown", style="dim")
        line.append(f"  {plural(result.checks, 'check')}  {result.seconds:.2f} s", style="dim")
        lines.append(line)
    return lines


def witness_tally(
    results: list[tuple[str, WitnessResult]], unlinked: list[str], budget: str, width: int | None
) -> list[Text]:
    """The last lines: how many claims pass, and which targets have no witness at all."""
    passed = sum(1 for _, r in results if r.ok)
    tally = f"{passed} of {plural(len(results), 'claim')} pass ({budget} budget)"
    if unlinked:
        tally += f"; {plural(len(unlinked), 'target')} {'has' if len(unlinked) == 1 else 'have'}"
        tally += f" no witness: {', '.join(unlinked)}"
    return [Text(piece, style="bold") for piece in wrap_words("", tally, 2, width)]


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


@command("Scaffold a mission: YAML, Defs/Statements/Proofs, root import.")
def new(
    mission_id: Annotated[
        str, typer.Argument(metavar="ID", help="Mission id: kebab-case, at most 64 characters.")
    ],
    root: RootOption = None,
    module: Annotated[
        str | None,
        typer.Option(
            "--module", metavar="MODULE", help="Lean root module (default Formal.<CamelId>)."
        ),
    ] = None,
    title: Annotated[
        str | None, typer.Option("--title", metavar="TEXT", help="Mission title.")
    ] = None,
) -> None:
    """Scaffold a mission: YAML plus Defs/Statements/Proofs and the root import.

    Every text to write is marked TODO; `missions check` fails until none is left.
    """
    from missions.scaffold import next_steps, plan, write

    with _input_errors():
        resolved = _root(root)
        policy = load_settings(resolved).policy
        with workspace_lock(resolved):
            scaffold = plan(resolved, mission_id, module, title, policy)
            written = write(resolved, scaffold)
    for path in written:
        out.print(Text(f"created {path.relative_to(resolved)}"), soft_wrap=True)
    if scaffold.readme_row is not None:
        out.print(Text(f"added a row to {policy.readme_table}"), soft_wrap=True)
    for line in next_steps(scaffold, policy):
        out.print(Text(line), soft_wrap=True)


@command("Toolchain and pin checks: installed, pinned, missing.")
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
            table.add_row("lake-manifest.json", "-", "absent (restore the committed manifest)")
        out.print(table, soft_wrap=False)
        tools = Table(title="Tools", title_justify="left")
        for column in ("tool", "found", "version"):
            tools.add_column(column)
        for tool in report_data.tools:
            tools.add_row(tool.name, tool.path or Text("not found", "yellow"), tool.version or "-")
        out.print(tools, soft_wrap=False)
        width = out.width if out.is_terminal else None
        for line in advice_lines(report_data.advice, width=width):
            out.print(line, soft_wrap=True)
    if not report_data.ok:
        raise typer.Exit(1)


def version_callback(value: bool) -> None:
    if value:
        from missions.lean.native import scanner_kind

        out.print(f"missions {__version__} (scanner: {scanner_kind()})")
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
