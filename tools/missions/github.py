"""GitHub Actions output: workflow-command annotations and the job summary.

A reviewer should see on the diff itself that a change breaks the gate, without opening an
artefact: the runner turns ``::error file=…,line=…::…`` lines on standard output into
annotations, and Markdown appended to the file ``$GITHUB_STEP_SUMMARY`` names into the run's
summary page. Both carry text from the workspace (declaration names, YAML values), so
everything is escaped as the runner's own toolkit escapes it: an unescaped newline would end
the command and let the rest of a hostile message be read as a new command.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from missions.errors import Problem
from missions.gate import GateResult
from missions.status import Violation

#: The runner's cap on one step's summary is 1 MiB; stay clear of it.
SUMMARY_BUDGET = 1_000_000


def escape_data(text: str) -> str:
    """A command's message: ``%``, CR and LF are the runner's delimiters."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (file, title): ``:`` and ``,`` also delimit."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    kind: str, message: str, *, file: str | None = None, line: int | None = None, title: str = ""
) -> str:
    """One workflow command, e.g. ``::error file=a.lean,line=3,title=lint::message``."""
    properties = []
    if file is not None:
        properties.append(f"file={escape_property(file)}")
        properties.append(f"line={line or 1}")
    if title:
        properties.append(f"title={escape_property(title)}")
    head = f"::{kind} {','.join(properties)}" if properties else f"::{kind}"
    return f"{head}::{escape_data(message)}"


def repository_path(file: str, root: Path, env: Mapping[str, str] | None = None) -> str:
    """``file`` (relative to the workspace root, or absolute) as the runner resolves
    annotation paths: relative to ``$GITHUB_WORKSPACE`` when the file lies inside it."""
    env = os.environ if env is None else env
    path = Path(file) if os.path.isabs(file) else root / file
    base = env.get("GITHUB_WORKSPACE")
    candidates = [Path(base)] if base else []
    candidates.append(root)
    for candidate in candidates:
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(candidate)).as_posix()
        except ValueError:
            continue
    return file


def _path_resolver(root: Path, env: Mapping[str, str] | None = None) -> Callable[[str], str]:
    """:func:`repository_path` remembered per file: thousands of findings name a few
    hundred files."""
    return functools.cache(lambda file: repository_path(file, root, env))


def _title(violation: Violation) -> str:
    where = "/".join(part for part in (violation.mission, violation.target) if part)
    return f"{violation.rule} ({where})" if where else violation.rule


def gate_annotations(
    gate: GateResult, root: Path, env: Mapping[str, str] | None = None
) -> list[str]:
    """One ``error`` per violation and one ``warning`` per warning, at its file and line."""
    lines = []
    path_of = _path_resolver(root, env)
    for kind, found in (("error", gate.violations), ("warning", gate.warnings)):
        for violation in found:
            file = violation.file
            lines.append(
                annotation(
                    kind,
                    violation.message,
                    file=path_of(file) if file is not None else None,
                    line=violation.line,
                    title=_title(violation),
                )
            )
    return lines


def problem_annotations(
    problems: Iterable[Problem], root: Path | None, env: Mapping[str, str] | None = None
) -> list[str]:
    """Bad input (exit 2) as errors at the faulty file, so a broken YAML shows on the diff."""
    lines = []
    for problem in problems:
        file = problem.path
        if root is not None and not file.startswith("--"):
            file = repository_path(file, root, env)
        lines.append(annotation("error", problem.message, file=file, line=problem.line))
    return lines


def _cell(text: str) -> str:
    """Table cell text: one line, no Markdown table or HTML syntax from the workspace."""
    for old, new in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("|", "\\|")):
        text = text.replace(old, new)
    return " ".join(text.split())


def gate_summary(gate: GateResult, headline: str, root: Path, budget: int = SUMMARY_BUDGET) -> str:
    """The job summary: the verdict, then every violation and warning in a table, cut (and
    said so) before the runner's size cap."""
    parts = [f"### missions check\n\n{_cell(headline)}\n"]
    rows = [("violation", v) for v in gate.violations] + [("warning", w) for w in gate.warnings]
    if rows:
        parts.append("\n| | Rule | Where | Message |\n|---|---|---|---|\n")
    used = sum(len(p.encode()) for p in parts)
    path_of = _path_resolver(root)
    for index, (kind, violation) in enumerate(rows):
        where = "-"
        if violation.file is not None:
            where = _cell(f"{path_of(violation.file)}:{violation.line or 1}")
        row = f"| {kind} | {_cell(_title(violation))} | {where} | {_cell(violation.message)} |\n"
        tail = f"\n… and {len(rows) - index} more (see the job log)\n"
        if used + len(row.encode()) + len(tail.encode()) > budget:
            parts.append(tail)
            break
        parts.append(row)
        used += len(row.encode())
    return "".join(parts)


def append_summary(text: str, env: Mapping[str, str] | None = None) -> Path | None:
    """Append to ``$GITHUB_STEP_SUMMARY`` when the runner set it; the file it names, or None.

    Raises OSError when the file cannot be written (the caller reports it as bad input)."""
    env = os.environ if env is None else env
    target = env.get("GITHUB_STEP_SUMMARY")
    if not target:
        return None
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(text)
    return Path(target)
