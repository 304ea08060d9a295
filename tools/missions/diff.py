"""What a change does: targets proved or lost (by evidence tier), pins moved and why, lint
findings accepted, witnesses and reviews gone stale; between a base commit and the working
tree.

A reviewer should not have to open an artefact to learn that a pull request moved a pin or
lost a proof. The base is analysed from its own files (``git archive`` into a temporary
folder, nothing cached from it), the working tree as ``status`` sees it, and the two are
compared as :class:`Snapshot` s, so the comparison is plain data and tested as such. Evidence
tiers are never merged: ``proved (source)`` and ``proved (kernel)`` are different states.
"""

from __future__ import annotations

import io
import tarfile
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from missions import gitinfo
from missions.errors import InputError
from missions.lint import LintResult, lint_missions
from missions.load import analyse
from missions.reviews import review_findings
from missions.status import Analysis
from missions.witness import stale_reason, witness_targets

#: (status, evidence) of a target; evidence only for ``proved``.
State = tuple[str, str | None]


@dataclass(frozen=True)
class Pin:
    digest: str | None
    revisions: int
    reason: str | None  # the latest revision's


@dataclass
class Snapshot:
    """What the comparison reads of one side."""

    targets: dict[tuple[str, str], State] = field(default_factory=dict)
    titles: dict[tuple[str, str], str] = field(default_factory=dict)
    pins: dict[str, Pin] = field(default_factory=dict)
    #: accepted lint findings as (path, rule, message, reason), counted (lines move)
    accepted: Counter[tuple[str, str, str, str]] = field(default_factory=Counter)
    #: missions whose witnesses are stale, with why
    stale: dict[str, str] = field(default_factory=dict)
    #: missions whose latest faithfulness review no longer holds (read at another pin)
    stale_reviews: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TargetChange:
    mission: str
    target: str
    title: str
    before: State | None  # None: the target is new
    after: State | None  # None: the target is gone


@dataclass
class Diff:
    base: str
    proved: list[TargetChange] = field(default_factory=list)
    lost: list[TargetChange] = field(default_factory=list)
    changed: list[TargetChange] = field(default_factory=list)
    pins: list[tuple[str, Pin | None, Pin]] = field(default_factory=list)
    accepted: list[tuple[str, str, str, str]] = field(default_factory=list)
    stale: list[tuple[str, str]] = field(default_factory=list)
    stale_reviews: list[tuple[str, str]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.proved
            or self.lost
            or self.changed
            or self.pins
            or self.accepted
            or self.stale
            or self.stale_reviews
        )


def snapshot(analysis: Analysis, lint: LintResult, *, witness_sources: bool = True) -> Snapshot:
    """The comparison's view of an analysed side. ``witness_sources``: whether the witness
    modules on this machine are this side's (not for the base: they are the working tree's,
    so only its pin and stamp say whether it was stale)."""
    found = Snapshot()
    for mission in analysis.missions:
        info = mission.file.mission
        for status in mission.targets:
            key = (info.id, status.target.id)
            evidence = (status.evidence or "source") if status.status == "proved" else None
            found.targets[key] = (status.status, evidence)
            found.titles[key] = status.target.title
        history = info.statement_history
        reason = history[-1].reason if history else None
        found.pins[info.id] = Pin(info.lean.statement_pin, len(history), reason)
        if witness_sources:
            reason_now = stale_reason(info)
        else:  # the pin and stamp part of stale_reason
            pin, stamp = info.lean.statement_pin, info.lean.witness_stamp
            unstamped = witness_targets(info) and pin is not None and stamp != pin
            reason_now = "not stamped at the statement pin" if unstamped else None
        if reason_now is not None:
            found.stale[info.id] = reason_now
        rel = str(mission.file.path.relative_to(analysis.root))
        for advice in review_findings(mission.file, "warn", rel)[1]:
            if advice.rule == "review-stale":
                found.stale_reviews[info.id] = advice.message
    for finding in lint.findings:
        if finding.accepted:
            found.accepted[(finding.path, finding.rule, finding.message, finding.reason or "")] += 1
    return found


def _proved(state: State | None) -> bool:
    return state is not None and state[0] == "proved"


def compare(base: Snapshot, head: Snapshot, label: str) -> Diff:
    """Every difference a reviewer should see, base first, in catalogue order."""
    diff = Diff(label)
    for key in [*head.targets, *(k for k in base.targets if k not in head.targets)]:
        before, after = base.targets.get(key), head.targets.get(key)
        if before == after:
            continue
        title = head.titles.get(key) or base.titles.get(key, "")
        change = TargetChange(key[0], key[1], title, before, after)
        if _proved(after) and not _proved(before):
            diff.proved.append(change)
        elif _proved(before) and not _proved(after):
            diff.lost.append(change)
        else:
            diff.changed.append(change)  # a new or gone target, another state, another tier
    for mission, pin in head.pins.items():
        old = base.pins.get(mission)
        if pin.digest is not None and (old is None or old.digest != pin.digest):
            diff.pins.append((mission, old, pin))
    diff.accepted = sorted((head.accepted - base.accepted).elements())
    diff.stale = sorted((m, r) for m, r in head.stale.items() if m not in base.stale)
    diff.stale_reviews = sorted(
        (m, r) for m, r in head.stale_reviews.items() if m not in base.stale_reviews
    )
    return diff


# --------------------------------------------------------------------- the two sides
@contextmanager
def checkout(root: Path, rev: str) -> Iterator[Path]:
    """The workspace as it is in commit ``rev``, in a temporary folder (the workspace root's
    place in the repository kept), removed afterwards."""
    top_out = gitinfo.run_git(root, "rev-parse", "--show-toplevel")
    commit_out = gitinfo.run_git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if top_out is None:
        raise InputError.single(root, 1, "not in a git repository: nothing to compare with")
    if commit_out is None:
        raise InputError.single("BASE", 1, f"unknown revision {rev!r} (git rev-parse)")
    top = Path(top_out.decode().strip()).resolve()
    prefix = root.resolve().relative_to(top).as_posix()
    commit = commit_out.decode().strip()
    args = ["archive", "--format=tar", commit]
    if prefix != ".":
        args += ["--", prefix]
    data = gitinfo.run_git(top, *args)
    with tempfile.TemporaryDirectory(prefix="missions-base-") as folder:
        base = Path(folder)
        if data is not None:  # None: the root is not in that commit at all
            _extract(data, base)
        target = base / prefix if prefix != "." else base
        target.mkdir(parents=True, exist_ok=True)
        yield target


def _extract(data: bytes, into: Path) -> None:
    """Regular files and folders only, each inside ``into``: an archive is input too."""
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        for member in archive:
            name = PurePosixPath(member.name)
            if name.is_absolute() or ".." in name.parts:
                continue
            path = into.joinpath(*name.parts)
            if member.isdir():
                path.mkdir(parents=True, exist_ok=True)
            elif member.isfile():
                source = archive.extractfile(member)
                if source is not None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(source.read())


def analyse_side(root: Path, *, use_cache: bool) -> tuple[Analysis, LintResult]:
    """One side's analysis and lint."""
    analysis = analyse(root, use_cache=use_cache)
    lint = lint_missions(
        root,
        analysis.workspace,
        [m.file.mission for m in analysis.missions],
        use_cache=use_cache,
    )
    return analysis, lint


def diff_against(root: Path, rev: str) -> Diff:
    """The working tree at ``root`` compared with commit ``rev``."""
    head = snapshot(*analyse_side(root, use_cache=True))
    with checkout(root, rev) as base_root:
        if not (base_root / "missions").is_dir():
            return compare(Snapshot(), head, rev)  # the workspace is new in this change
        try:
            base = snapshot(*analyse_side(base_root, use_cache=False), witness_sources=False)
        except InputError as exc:  # name the base's files as `REV:path`, not the temp copy
            raise InputError(
                problem._replace(path=_in_revision(problem.path, base_root, rev))
                for problem in exc.problems
            ) from None
    return compare(base, head, rev)


def _in_revision(path: str, base_root: Path, rev: str) -> str:
    try:
        return f"{rev}:{Path(path).relative_to(base_root).as_posix()}"
    except ValueError:
        return path


# --------------------------------------------------------------------------- output
def state_words(state: State | None) -> str:
    if state is None:
        return "absent"
    status, evidence = state
    return f"{status} ({evidence})" if evidence else status


def _short(digest: str | None) -> str:
    return "none" if digest is None else digest.removeprefix("sha256:")[:12]


def _code(text: str) -> str:
    """Inline code that workspace text cannot break out of."""
    text = " ".join(text.split()).replace("`", "'")
    return f"`{text}`"


def _plain(text: str) -> str:
    text = " ".join(text.split())
    for old, new in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
        text = text.replace(old, new)
    return text


def diff_markdown(diff: Diff) -> str:
    """A pull-request comment: headline, then one list per kind of change."""
    lines = [f"### missions: what this change does (against {_code(diff.base)})", ""]
    if diff.empty:
        lines.append("No target changed status, no pin moved, nothing was accepted.")
        return "\n".join(lines) + "\n"

    def section(title: str, items: list[str]) -> None:
        if items:
            lines.extend([f"**{title}** ({len(items)})", "", *items, ""])

    def target(change: TargetChange) -> str:
        return (
            f"- {_code(change.mission + '/' + change.target)} {_plain(change.title)}: "
            f"{state_words(change.before)} → **{state_words(change.after)}**"
        )

    section("Proved", [target(c) for c in diff.proved])
    section("Lost", [target(c) for c in diff.lost])
    section("Other status changes", [target(c) for c in diff.changed])
    section(
        "Pins moved",
        [
            f"- {_code(mission)} {_short(old.digest if old else None)} → {_short(new.digest)}"
            + (
                f": {_plain(new.reason)}"
                if new.reason and (not old or new.revisions > old.revisions)
                else ""
            )
            for mission, old, new in diff.pins
        ],
    )
    section(
        "Lint findings accepted",
        [
            f"- {_code(path)} {rule}: {_plain(message)} (because: {_plain(reason) or 'no reason'})"
            for path, rule, message, reason in diff.accepted
        ],
    )
    section("Witnesses gone stale", [f"- {_code(m)}: {_plain(r)}" for m, r in diff.stale])
    section("Reviews gone stale", [f"- {_code(m)}: {_plain(r)}" for m, r in diff.stale_reviews])
    return "\n".join(lines)


def diff_json(diff: Diff) -> dict[str, Any]:
    def target(change: TargetChange) -> dict[str, Any]:
        def side(state: State | None) -> dict[str, Any] | None:
            return None if state is None else {"status": state[0], "evidence": state[1]}

        return {
            "mission": change.mission,
            "target": change.target,
            "title": change.title,
            "before": side(change.before),
            "after": side(change.after),
        }

    def pin(value: Pin | None) -> dict[str, Any] | None:
        if value is None:
            return None
        return {"digest": value.digest, "revisions": value.revisions, "reason": value.reason}

    return {
        "base": diff.base,
        "proved": [target(c) for c in diff.proved],
        "lost": [target(c) for c in diff.lost],
        "changed": [target(c) for c in diff.changed],
        "pins": [{"mission": m, "before": pin(o), "after": pin(n)} for m, o, n in diff.pins],
        "accepted": [
            {"path": p, "rule": r, "message": m, "reason": why} for p, r, m, why in diff.accepted
        ],
        "stale": [{"mission": m, "reason": r} for m, r in diff.stale],
        "stale_reviews": [{"mission": m, "reason": r} for m, r in diff.stale_reviews],
    }
