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
from typing import TYPE_CHECKING, Any

from missions.cache import WITNESS_RESULTS_FILE, cache_dir_for
from missions.inputs import Recording, consult, lookup, path_stamp

if TYPE_CHECKING:  # this module is also the start-up fast path's: no heavy import
    from missions.gate import GateResult
    from missions.status import Analysis, Violation

#: The stored answer of a plain ``check``.
CHECK_PURPOSE = "check"
#: The fields of a finding, in the order of ``check --json``.
FINDING_FIELDS = ("rule", "mission", "target", "file", "line", "message")


def _known_inputs(root: Path | str) -> list[str]:
    """Inputs outside the workspace tree known before the gate runs: the saved witness
    results (the witness column and staleness read them)."""
    return [os.path.join(cache_dir_for(str(root)), WITNESS_RESULTS_FILE)]


# ------------------------------------------------------------------------------ check


def check_answer(gate: GateResult, headline: str) -> dict[str, Any]:
    """What ``check`` prints, as plain data: its findings and its last line."""
    return {
        "violations": [finding_json(v) for v in gate.violations],
        "warnings": [finding_json(w) for w in gate.warnings],
        "headline": headline,
    }


def finding_json(violation: Violation) -> dict[str, Any]:
    """One finding as ``check --json`` and the reports write it."""
    return {name: getattr(violation, name) for name in FINDING_FIELDS}


def check_json(answer: dict[str, Any]) -> dict[str, Any]:
    """``check --json``."""
    return {"ok": not answer["violations"], **{k: answer[k] for k in ("violations", "warnings")}}


def check_lines(answer: dict[str, Any]) -> list[str]:
    """``check``'s lines before the headline: one per violation, then one per warning."""

    def where(finding: dict[str, Any]) -> str:
        return "-" if finding["file"] is None else f"{finding['file']}:{finding['line'] or 1}"

    lines = [f"{where(v)}: [{v['rule']}] {v['message']}" for v in answer["violations"]]
    lines += [f"{where(w)}: warning: [{w['rule']}] {w['message']}" for w in answer["warnings"]]
    return lines


def _well_formed(answer: Any) -> bool:
    if not isinstance(answer, dict) or not isinstance(answer.get("headline"), str):
        return False
    findings = [*answer.get("violations", [None]), *answer.get("warnings", [None])]
    return isinstance(answer.get("violations"), list) and all(
        isinstance(f, dict)
        and list(f) == list(FINDING_FIELDS)
        and isinstance(f["rule"], str)
        and isinstance(f["message"], str)
        and (f["file"] is None or isinstance(f["file"], str))
        and (f["line"] is None or type(f["line"]) is int)
        for f in findings
    )


def stored_check(root: Path | str) -> dict[str, Any] | None:
    """The last plain ``check``'s answer (:func:`check_answer`) if nothing changed since."""
    answer = lookup(root, CHECK_PURPOSE)
    return answer if _well_formed(answer) else None


def consult_check(root: Path | str) -> tuple[dict[str, Any] | None, Recording]:
    """:func:`stored_check`, and the recording a fresh answer is stored with (the same
    stamps of the tree: see :func:`missions.inputs.consult`)."""
    answer, recording = consult(root, CHECK_PURPOSE, _known_inputs(root))
    return (answer if _well_formed(answer) else None), recording


def gate_of(answer: dict[str, Any]) -> GateResult:
    """The findings of an answer as a gate result (for the formats that need one)."""
    from missions.gate import GateResult
    from missions.status import Violation

    def violation(f: dict[str, Any]) -> Violation:
        return Violation(**{name: f[name] for name in FINDING_FIELDS})

    return GateResult(
        violations=[violation(v) for v in answer["violations"]],
        warnings=[violation(w) for w in answer["warnings"]],
    )


def start_check(root: Path) -> Recording:
    """Take the key before the gate runs (:meth:`Recording.store` stores under it)."""
    return Recording(root, CHECK_PURPOSE, _known_inputs(root))


def _witness_inputs(analysis: Analysis) -> list[str]:
    """The witness modules the missions name (found only once the YAML is read)."""
    from missions.witness import linked_sources

    return linked_sources(mission.file.mission for mission in analysis.missions)


def keep_check(recording: Recording, analysis: Analysis, answer: dict[str, Any]) -> bool:
    """Store the gate's answer, with the witness modules its missions name as inputs."""
    return recording.store(answer, _witness_inputs(analysis))


# -------------------------------------------------------------------- hand-off

#: A recording the start-up fast path took and found no answer under, for the full command
#: that runs next in the same process (:func:`hand_over`, :func:`handed`).
_handed: list[Recording] = []


def hand_over(recording: Recording) -> None:
    """Leave ``recording`` to the full command the fast path falls back to: its stamps of
    the tree serve as the key taken before (a second stamp at 2,000 missions costs 0.1 s)."""
    _handed[:] = [recording]


def handed_over() -> bool:
    """Whether a recording waits for the full command (its stamps precede every read)."""
    return bool(_handed)


def handed(root: Path | str, purpose: str) -> Recording | None:
    """The recording :func:`hand_over` left for ``purpose`` at ``root``, once: whatever asks
    first takes the slot, so nothing later in a long-lived process reuses it. A recording
    taken early stays sound: :meth:`Recording.store` keeps nothing if any stamp moved since,
    and counts more files as racy the earlier it was taken."""
    if not _handed:
        return None
    recording = _handed.pop()
    if recording.top != os.path.realpath(root) or recording.purpose != purpose:
        return None
    return recording


# ----------------------------------------------------------------------- sites


def site_purpose(fmt: str, output: Path) -> str:
    """The purpose a plain ``report --format FMT -o OUTPUT`` is stored under."""
    return f"report-{fmt}\0{os.path.realpath(output)}"


#: The badge file the workspace's shields.io endpoint reads, and how to point shields.io at it.
WORKSPACE_FILE = "workspace.json"
BADGE_URL = "https://img.shields.io/endpoint?url=<published URL of DIR>/"


def site_hint(fmt: str) -> str:
    """What to do with a site once it is written."""
    return "open index.html" if fmt == "html" else f"badge URL: {BADGE_URL}{WORKSPACE_FILE}"


def site_up_to_date(output: str, fmt: str, count: int) -> str:
    """The line that says a site needs no writing (the full command's and the start-up
    path's)."""
    files = f"{count} file" if count == 1 else f"{count} files"
    return (
        f"{output} is up to date: nothing changed since its {files} were written ({site_hint(fmt)})"
    )


def stored_site(root: Path, fmt: str, output: Path) -> int | None:
    """How many files the last ``report --format FMT -o OUTPUT`` wrote, if nothing it read
    changed since and every one of them is still as written; else None."""
    return _intact(lookup(root, site_purpose(fmt, output)))


def consult_site(root: Path, fmt: str, output: Path) -> tuple[int | None, Recording]:
    """:func:`stored_site`, and the recording a fresh site is stored with."""
    answer, recording = consult(root, site_purpose(fmt, output), _known_inputs(root))
    return _intact(answer), recording


def _intact(answer: Any) -> int | None:
    try:
        files: dict[str, str] = answer["files"]
        intact = all(path_stamp(path) == stamp for path, stamp in files.items())
    except (TypeError, KeyError, AttributeError):
        return None
    return len(files) if intact else None


def start_site(root: Path, fmt: str, output: Path) -> Recording:
    return Recording(root, site_purpose(fmt, output), _known_inputs(root))


def keep_site(recording: Recording, analysis: Analysis, written: Iterable[Path]) -> bool:
    """Store what a dashboard or badge run wrote (each file as written)."""
    return recording.store(site_answer(written), _witness_inputs(analysis))


def site_answer(written: Iterable[Path]) -> dict[str, Any]:
    """The stored answer of a site: each file written, by its real path, as written."""
    folders: dict[Path, str] = {}  # a site's files share a folder: each is resolved once
    files = {}
    for path in written:
        folder = folders.get(path.parent)
        if folder is None:
            folder = folders[path.parent] = str(path.parent.resolve())
        real = os.path.join(folder, path.name)
        files[real] = path_stamp(real)
    return {"files": files}
