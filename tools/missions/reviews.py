"""Faithfulness reviews bound to the statement pin.

Most mis-formalizations are caught by a second reader, and a review must not outlive the
statement it judged. ``missions review ID`` prints the mission's statement closure as Lean
reads it, without comments or doc strings (they carry the informal text the reader is to
check the formal one against independently), followed by the findings of earlier reviews,
dismissed ones with why, so no reader starts from nothing. A verdict (``pass``, ``block``,
``discuss``) is recorded in the mission YAML with the statement pin it read; once the pin
moves the review is stale, exactly as witness stamps are.

What the gate does with them is the project's choice (``policy.reviews``): a missing or
stale review is a warning (``warn``, the default), a violation (``required``) or nothing
(``off``). A ``block`` or ``discuss`` verdict is prose, so it is always only a warning: only
deterministic evidence (a witness counterexample, a lint, a Lean disproof) fails the gate
on its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from missions.catalog import MissionFile, Review
from missions.errors import InputError
from missions.lean.lexer import DOC, MODDOC, LexError, lex
from missions.status import Analysis, MissionStatus, Violation
from missions.yamlio import atomic_write_text, dump_document, set_key

VERDICTS = ("pass", "block", "discuss")


def formal_text(source: str) -> str:
    """``source`` as Lean reads it, without comments and doc strings: the tokens in order,
    line breaks and indentation kept, every comment gone. Raises :class:`LexError` for text
    Lean cannot read to its end."""
    lexed = lex(source)
    if lexed.error is not None:  # its tokens stop where Lean stops reading: never a part
        raise lexed.error
    tokens = [t for t in lexed.tokens if t[0] not in (DOC, MODDOC)]
    parts: list[str] = []
    previous_end = 0
    for _, text, offset in tokens:
        gap = source[previous_end:offset]
        if parts:
            if "\n" in gap:
                segments = gap.split("\n")
                # a blank line of the source stays; a line that held only a comment goes
                blank = any(not line.strip() for line in segments[1:-1])
                tail = segments[-1]
                parts.append(("\n\n" if blank else "\n") + (tail if not tail.strip() else ""))
            else:
                parts.append(" " if gap else "")
        parts.append(text)
        previous_end = offset + len(text)
    return "".join(parts).strip() + "\n" if parts else ""


def closure_listing(analysis: Analysis, mission: MissionStatus) -> str:
    """The statement closure, module by module in import order, for an independent reader:
    the statements to judge are named, their informal text is not shown."""
    workspace = analysis.workspace
    info = mission.file.mission
    if mission.pin.digest is None:
        head = (
            f"-- Statement closure of {info.id}: it cannot be pinned (a module it needs is "
            f"missing or cannot be read; `missions status {info.id} --why` says which), so "
            "what follows may be incomplete and no review can be recorded."
        )
    else:
        head = f"-- Statement closure of {info.id}, at {mission.pin.digest}."
    lines = [
        head,
        "-- Comments and doc strings removed: compare what is stated with the source yourself.",
        "-- Statements to judge: "
        + ", ".join(f"{t.id} = {t.statement}" for t in info.targets if t.statement),
        "",
    ]
    for name in mission.pin.modules:
        module = workspace.modules.get(name)
        if module is None:
            continue
        lines.append(f"-- module {name} ({module.rel(analysis.root)})")
        try:
            lines.append(formal_text(module.path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, LexError) as exc:  # a fault the gate reports
            why = exc.message if isinstance(exc, LexError) else str(exc)
            lines.append(f"-- (not shown: the file cannot be read as Lean: {why})\n")
    earlier = [(r, f) for r in info.reviews for f in r.findings]
    if earlier:
        lines.append("-- Findings of earlier reviews (read them; a dismissed one says why):")
        for review, finding in earlier:
            why = f" (dismissed: {finding.why})" if finding.status == "dismissed" else ""
            lines.append(f"--   {review.date} {review.reviewer}: {finding.text}{why}")
    return "\n".join(lines) + "\n"


def review_findings(
    mission_file: MissionFile, policy: str, yaml_path: str
) -> tuple[list[Violation], list[Violation]]:
    """(violations, warnings) about the mission's latest review under ``policy``."""
    mission = mission_file.mission
    if policy == "off" or mission.lean.statement_pin is None:
        return [], []
    pin = mission.lean.statement_pin
    latest = mission.reviews[-1] if mission.reviews else None
    problems: list[Violation] = []
    advice: list[Violation] = []
    if latest is None:
        problems.append(
            Violation(
                "review-missing",
                f"no faithfulness review of {mission.id}'s statements is recorded; have an "
                f"independent reader read `missions review {mission.id}` and record the verdict",
                yaml_path,
                mission_file.line("lean", "statement_pin"),
                mission.id,
            )
        )
    elif latest.pin != pin:
        index = len(mission.reviews) - 1
        problems.append(
            Violation(
                "review-stale",
                f"the latest review read the statements at {latest.pin[:19]}…; they are pinned "
                f"at {pin[:19]}… now: review them again (`missions review {mission.id}`)",
                yaml_path,
                mission_file.line("reviews", index, "pin"),
                mission.id,
            )
        )
    elif latest.verdict != "pass":
        index = len(mission.reviews) - 1
        notes = f": {latest.notes}" if latest.notes else ""
        advice.append(
            Violation(
                "review-verdict",
                f"{latest.reviewer} recorded {latest.verdict!r} on {latest.date}{notes} "
                "(prose: advisory, never a gate failure on its own)",
                yaml_path,
                mission_file.line("reviews", index, "verdict"),
                mission.id,
            )
        )
    if policy == "required":
        return problems, advice
    return [], problems + advice


def record_review(
    mission_file: MissionFile,
    current_pin: str,
    *,
    verdict: str,
    reviewer: str,
    notes: str | None = None,
    findings: Sequence[str] = (),
    dismissed: Sequence[tuple[str, str]] = (),
    today: dt.date | None = None,
) -> Review:
    """Append a review at the current pin to the mission YAML (atomically, layout kept).

    Refused unless the statements are pinned at ``current_pin`` (the closure now): a review
    of statements nobody pinned binds to nothing."""
    mission = mission_file.mission
    path = mission_file.path
    if verdict not in VERDICTS:
        raise InputError.single("--verdict", 1, f"a verdict is one of {', '.join(VERDICTS)}")
    if not reviewer.strip():
        raise InputError.single("--reviewer", 1, "a review names its reviewer")
    if mission.lean.statement_pin is None or mission.lean.statement_pin != current_pin:
        raise InputError.single(
            path,
            mission_file.line("lean"),
            f"the statements of {mission.id} are not pinned at their current closure; pin "
            f"them (`missions pin {mission.id} --reason ...`) before recording a review",
        )
    entry = CommentedMap()
    entry["verdict"] = verdict
    entry["reviewer"] = reviewer.strip()
    entry["date"] = today or dt.date.today()
    entry["pin"] = current_pin
    if notes:
        entry["notes"] = notes.strip()
    items = CommentedSeq()
    for text in findings:
        item = CommentedMap()
        item["text"], item["status"] = text.strip(), "open"
        items.append(item)
    for text, why in dismissed:
        item = CommentedMap()
        item["text"], item["status"], item["why"] = text.strip(), "dismissed", why.strip()
        items.append(item)
    if items:
        entry["findings"] = items
    review = Review.model_validate(dict(entry) | {"findings": [dict(i) for i in items]})
    doc = mission_file.doc
    entries = doc.get("reviews")
    if entries is None:
        entries = CommentedSeq()
        after = next((k for k in ("regressions", "statement_history") if k in doc), "lean")
        set_key(doc, "reviews", entries, after=after)
    entries.append(entry)
    atomic_write_text(path, dump_document(doc))
    return review
