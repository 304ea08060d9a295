"""Problems with user input, reported as ``path:line: message``.

Bad input must never surface as a traceback: every loader collects :class:`Problem`
records, and the CLI prints them one per line and exits with code 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple


class Problem(NamedTuple):
    """One thing wrong with an input file, located as precisely as we know."""

    path: str
    line: int
    message: str
    rule: str = "input"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class InputError(Exception):
    """Raised when input is unusable; carries every problem found, not just the first."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def single(cls, path: Path | str, line: int, message: str, rule: str = "input") -> InputError:
        return cls([Problem(str(path), line, message, rule)])
