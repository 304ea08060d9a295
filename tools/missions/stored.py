"""Answers of whole-workspace commands, kept under the key of everything they may read
(:mod:`missions.inputs`).

At 2,000 missions the gate and the dashboard cost seconds of analysis on every run, although
most runs follow no change at all (a second look, a pre-commit hook, a script). So:

* a plain ``check`` (no ids, no kernel evidence, no JUnit file) stores its findings and
  headline, and the next plain ``check`` on an unchanged workspace prints them again, in any
  format;
* ``report --format html|badges -o DIR`` stores what it wrote; the next run on an unchanged
  workspace, with every file it wrote still as it wrote it, leaves them. A ``DIR`` inside the
  workspace is part of the workspace: writing it changes what the next run reads, so such a
  run is never stored.

Any change to a file of the workspace, to git, to the witness results or a witness module,
or to the tool itself computes afresh; so do ``--no-cache`` and every other option.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from missions.cache import cache_dir_for
from missions.gate import GateResult
from missions.inputs import Recording, file_stamp, lookup
from missions.report import violation_json
from missions.status import Analysis, Violation
from missions.witness import RESULTS_FILE, witness_sources

#: The stored answer of a plain ``check``.
PURPOSE = "check"


def _known_inputs(root: Path) -> list[str]:
    """Inputs outside the workspace tree known before the gate runs: the saved witness
    results (the witness column and staleness read them)."""
    return [os.path.join(cache_dir_for(str(root)), RESULTS_FILE)]


def _violation(data: dict[str, Any]) -> Violation:
    return Violation(
        rule=data["rule"],
        message=data["message"],
        file=data["file"],
        line=data["line"],
        mission=data["mission"],
        target=data["target"],
    )


def stored_check(root: Path) -> tuple[GateResult, str] | None:
    """The findings and headline of the last plain ``check`` if nothing changed since."""
    answer = lookup(root, PURPOSE)
    try:
        gate = GateResult(
            violations=[_violation(v) for v in answer["violations"]],
            warnings=[_violation(w) for w in answer["warnings"]],
        )
        headline = answer["headline"]
    except (TypeError, KeyError):
        return None  # none stored, or not in this form
    return (gate, headline) if isinstance(headline, str) else None


def start_check(root: Path) -> Recording:
    """Take the key before the gate runs (:meth:`keep` stores under it)."""
    return Recording(root, PURPOSE, _known_inputs(root))


def _witness_inputs(analysis: Analysis) -> list[str]:
    """The witness modules the missions name (found only once the YAML is read)."""
    return sorted(
        {path for mission in analysis.missions for path in witness_sources(mission.file.mission)}
    )


def keep_check(recording: Recording, analysis: Analysis, gate: GateResult, headline: str) -> bool:
    """Store the gate's answer, with the witness modules its missions name as inputs."""
    answer = {
        "violations": [violation_json(v) for v in gate.violations],
        "warnings": [violation_json(w) for w in gate.warnings],
        "headline": headline,
    }
    return recording.store(answer, _witness_inputs(analysis))


def _site_purpose(fmt: str, output: Path) -> str:
    return f"report-{fmt}\0{os.path.realpath(output)}"


def stored_site(root: Path, fmt: str, output: Path) -> int | None:
    """How many files the last ``report --format FMT -o OUTPUT`` wrote, if nothing it read
    changed since and every one of them is still as written; else None."""
    answer = lookup(root, _site_purpose(fmt, output))
    try:
        files: dict[str, str] = answer["files"]
        intact = all(file_stamp(path) == stamp for path, stamp in files.items())
    except (TypeError, KeyError, AttributeError):
        return None
    return len(files) if intact else None


def start_site(root: Path, fmt: str, output: Path) -> Recording:
    return Recording(root, _site_purpose(fmt, output), _known_inputs(root))


def keep_site(recording: Recording, analysis: Analysis, written: Iterable[Path]) -> bool:
    """Store what a dashboard or badge run wrote (each file as written)."""
    files = {str(path.resolve()): file_stamp(str(path.resolve())) for path in written}
    return recording.store({"files": files}, _witness_inputs(analysis))
