"""Running Lake and reading what it prints.

``lake build`` has no machine-readable output, so this module parses its documented text
format (Lake 4.30): job lines ``✔ [12/345] Built Formal.MAE.Defs (1.3s)``, diagnostics
``error: Formal/MAE/Proofs.lean:12:4: message`` (line 1-based, column 0-based; messages may
continue on following lines) and the trailers ``Build completed successfully (N jobs).`` or
``Some required targets logged failures:`` / ``error: build failed``. The parser never
fails on lines it does not know: they are kept as plain output.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
JOB = re.compile(
    r"^(?P<icon>[✔⚠✖ℹ]) \[(?P<done>\d+)/(?P<total>\d+)\](?P<optional> \(Optional\))? "
    r"(?P<verb>Ran|Running|Replayed|Replaying|Fetched|Fetching|Built|Building|Revisited"
    r"|Revisiting) (?P<caption>.+?)(?: \((?P<time>[\d.]+m?s)\))?$"
)
DIAGNOSTIC = re.compile(
    r"^(?P<level>error|warning|info|trace): (?:\./)*(?P<path>[^:\n]+?\.lean):(?P<line>\d+):"
    r"(?P<col>\d+): (?P<message>.*)$"
)
LAKE_ERROR = re.compile(r"^error: (?P<message>.*)$")
SUCCESS = re.compile(r"^Build completed successfully(?: \((?P<jobs>\d+) jobs?\))?\.?$")
FAILURE_HEADER = re.compile(r"^Some required (?:targets|builds) logged failures:$")
FAILED_JOB = re.compile(r"^- (?P<caption>.+)$")
SORRY_WARNING = re.compile(r"declaration uses [`']sorry[`']")
FAILED_VERBS = frozenset({"Running", "Replaying", "Fetching", "Building", "Revisiting"})


@dataclass
class Job:
    """One Lake job line."""

    icon: str
    done: int
    total: int
    verb: str
    caption: str
    optional: bool = False
    time: str | None = None

    @property
    def failed(self) -> bool:
        return self.verb in FAILED_VERBS


@dataclass
class Diagnostic:
    level: str
    path: str
    line: int
    column: int
    message: str

    @property
    def is_sorry(self) -> bool:
        return self.level == "warning" and bool(SORRY_WARNING.search(self.message))


@dataclass
class BuildLog:
    """Everything one ``lake build`` printed, parsed."""

    jobs: list[Job] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # Lake's own `error:` lines
    failed_jobs: list[str] = field(default_factory=list)
    succeeded: bool | None = None  # None: no trailer seen (interrupted?)
    job_count: int | None = None
    other: list[str] = field(default_factory=list)
    returncode: int | None = None

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.succeeded is not False


Event = Job | Diagnostic | str


class LakeOutputParser:
    """Incremental parser: feed lines as Lake prints them, read events and the log."""

    def __init__(self) -> None:
        self.log = BuildLog()
        self._current: Diagnostic | None = None
        self._in_failures = False

    def feed(self, raw: str) -> list[Event]:
        events: list[Event] = []
        # with ANSI on, Lake redraws a status line with `\r`; keep the last frame
        for line in ANSI.sub("", raw).rstrip("\n").split("\r")[-1:]:
            event = self._line(line.rstrip())
            if event is not None:
                events.append(event)
        return events

    def _line(self, line: str) -> Event | None:
        log = self.log
        if not line:
            self._current = None
            return None
        if match := JOB.match(line):
            self._current = None
            self._in_failures = False
            job = Job(
                icon=match["icon"],
                done=int(match["done"]),
                total=int(match["total"]),
                verb=match["verb"],
                caption=match["caption"],
                optional=bool(match["optional"]),
                time=match["time"],
            )
            log.jobs.append(job)
            return job
        if match := DIAGNOSTIC.match(line):
            diagnostic = Diagnostic(
                level=match["level"],
                path=match["path"],
                line=int(match["line"]),
                column=int(match["col"]),
                message=match["message"],
            )
            log.diagnostics.append(diagnostic)
            self._current = diagnostic
            return diagnostic
        if match := SUCCESS.match(line):
            log.succeeded = True
            log.job_count = int(match["jobs"]) if match["jobs"] else None
            self._current = None
            return line
        if FAILURE_HEADER.match(line):
            log.succeeded = False
            self._in_failures = True
            self._current = None
            return line
        if self._in_failures and (match := FAILED_JOB.match(line)):
            log.failed_jobs.append(match["caption"])
            return line
        if match := LAKE_ERROR.match(line):
            log.errors.append(match["message"])
            if match["message"] == "build failed":
                log.succeeded = False
            self._current = None
            return line
        if self._current is not None:
            self._current.message += "\n" + line
            return None
        log.other.append(line)
        return line


def parse_lake_output(lines: Iterable[str]) -> BuildLog:
    parser = LakeOutputParser()
    for line in lines:
        parser.feed(line)
    return parser.log


def lake_executable() -> str | None:
    return shutil.which("lake")


def build_targets(modules: Sequence[str]) -> list[str]:
    """Lake target arguments for modules (``+Mod`` selects a module explicitly)."""
    return [f"+{m}" for m in modules]


def run_lake(
    root: Path,
    args: Sequence[str],
    on_line: Callable[[str], None] | None = None,
    lake: str | None = None,
) -> tuple[int, list[str]]:
    """Run ``lake ARGS`` in ``root`` streaming merged stdout/stderr; Ctrl-C stops Lake cleanly.

    Lake runs in its own process group so an interrupt reaches Lake and every ``lean`` it
    started; it gets a moment to stop before being killed.
    """
    executable = lake or lake_executable()
    if executable is None:
        raise FileNotFoundError("lake")
    process = subprocess.Popen(
        [executable, *args],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="replace",
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if on_line is not None:
                on_line(line)
        return process.wait(), lines
    except KeyboardInterrupt:
        _stop(process)
        raise


def _stop(process: subprocess.Popen[str]) -> None:
    for sig, wait in ((signal.SIGINT, 5.0), (signal.SIGTERM, 5.0), (signal.SIGKILL, None)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def stream_build(
    root: Path,
    modules: Sequence[str],
    on_event: Callable[[Event], None] | None = None,
    lake: str | None = None,
) -> BuildLog:
    """``lake build --no-ansi`` for the modules, parsed as it runs."""
    parser = LakeOutputParser()

    def on_line(line: str) -> None:
        for event in parser.feed(line):
            if on_event is not None:
                on_event(event)

    code, _ = run_lake(root, ["build", "--no-ansi", *build_targets(modules)], on_line, lake)
    parser.log.returncode = code
    return parser.log


def group_diagnostics(
    diagnostics: Iterable[Diagnostic], module_of: Callable[[str], str | None]
) -> dict[str, dict[str, list[Diagnostic]]]:
    """Diagnostics grouped by mission (via ``module_of(path)``) and then by file."""
    grouped: dict[str, dict[str, list[Diagnostic]]] = {}
    for diagnostic in diagnostics:
        owner = module_of(diagnostic.path) or "(other)"
        grouped.setdefault(owner, {}).setdefault(diagnostic.path, []).append(diagnostic)
    return grouped
