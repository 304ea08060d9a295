"""A target's verdict record: one :class:`Check` per checker, ``not run`` unless one ran.

Kept free of the heavy modules (pydantic, the catalog) so that the incremental ``status``
writes the same record as a full run without importing them; :mod:`missions.checks` fills the
kernel checkers in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from missions.status import TargetStatus

Verdict = Literal["passed", "failed", "not run"]
Checker = Literal["source", "audit", "leanchecker", "comparator", "nanoda"]
#: Every checker a verdict record names, in the order they are shown.
CHECKERS: tuple[Checker, ...] = ("source", "audit", "leanchecker", "comparator", "nanoda")


@dataclass(frozen=True)
class Check:
    verdict: Verdict
    detail: str

    def json(self) -> dict[str, str]:
        return {"verdict": self.verdict, "detail": self.detail}


def source_verdict(status: str, reasons: list[str]) -> Check:
    """The source scan's verdict, from a status and reasons the scan (not the kernel) gave."""
    if status == "proved":
        return Check("passed", "no sorry, forbidden construct or fault reachable")
    return Check("failed", reasons[0] if reasons else status)


def source_check(status: TargetStatus) -> Check:
    return source_verdict(status.status, status.reasons)


def not_asked(checker: str) -> str:
    if checker == "audit":
        return "kernel evidence not asked for (--lean)"
    return f"no {checker} results given (--checks DIR)"


def target_checks(status: TargetStatus) -> dict[str, dict[str, str]]:
    """The ``checks`` object of ``status --json``: one entry per checker, always all of them."""
    if status.target.kind == "external":
        return {c: Check("not run", "external target").json() for c in CHECKERS}
    known = status.checks if status.checks is not None else {"source": source_check(status)}
    return {
        c: (known[c] if c in known else Check("not run", not_asked(c))).json() for c in CHECKERS
    }
