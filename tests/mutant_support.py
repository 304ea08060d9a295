"""A one-mission workspace in three files, for tests that pin down the verdict of a small
Lean construct (written for the mutation-testing tests, ``tests/test_mutants_*.py``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conftest import gate_json, invoke, status_json, target_of

HEADER = {
    "Defs": "import Mathlib\n\nnamespace Formal.Case\n\n",
    "Statements": "import Formal.Case.Defs\n\nnamespace Formal.Case\n\n",
    "Proofs": "import Formal.Case.Statements\n\nnamespace Formal.Case\n\n",
}


@dataclass
class Outcome:
    status: str
    reasons: list[str]
    violations: list[dict[str, Any]]
    root: Path

    def rules(self) -> set[str]:
        return {v["rule"] for v in self.violations}

    def says(self, text: str) -> bool:
        """Whether a reason or a violation message contains ``text``."""
        return any(text in r for r in self.reasons) or any(
            text in v["message"] for v in self.violations
        )


def case_files(
    defs: str = "def two : ℕ := 2\n",
    statements: str = "def Goal : Prop := two = 2\n",
    proofs: str = "theorem goal : Goal := rfl\n",
) -> dict[str, str]:
    """Defs, Statements and Proofs of mission ``case`` (each body inside ``Formal.Case``)."""
    files = {
        f"Formal/Case/{part}.lean": HEADER[part] + body + "\nend Formal.Case\n"
        for part, body in (("Defs", defs), ("Statements", statements), ("Proofs", proofs))
    }
    files["Formal/Case.lean"] = (
        "import Formal.Case.Defs\nimport Formal.Case.Statements\nimport Formal.Case.Proofs\n"
    )
    files["Formal.lean"] = "import Formal.Case\n"
    return files


def outcome(
    make_workspace: Callable[..., Path],
    files: dict[str, str],
    statement: str = "Goal",
    after_pin: dict[str, str] | None = None,
    pin: bool = True,
) -> Outcome:
    """Pin the statements as a user would, then the goal's status and the gate's findings
    (``statement``: the name of the goal's statement in ``Formal.Case``; ``after_pin``: files
    written after pinning, as an edit made since the pin)."""
    root = make_workspace(files, {"case": "Formal.Case"}, use_git=False)
    yaml = root / "missions" / "case.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace("Formal.Case.Goal", f"Formal.Case.{statement}"),
        encoding="utf-8",
    )
    if pin:
        result = invoke("pin", "--root", root)
        assert result.exit_code == 0, result.stderr
    for rel, text in (after_pin or {}).items():
        (root / rel).write_text(text, encoding="utf-8")
    target = target_of(status_json(root), "case", "goal")
    _, violations = gate_json(root)
    return Outcome(target["status"], list(target["reasons"]), violations, root)
