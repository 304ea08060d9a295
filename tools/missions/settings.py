"""Project settings: ``missions.yaml`` at the workspace root.

What a project requires of its missions is configuration the gate reads, not a convention the
test suite enforces: a user can read what is demanded and change it in one place. A workspace
without the file gets the defaults below. The file is read like a mission file (one
``path:line: message`` per problem, unknown keys rejected), so a typo never silently weakens a
requirement.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from missions import SETTINGS_FILE
from missions.errors import InputError, Problem
from missions.verdicts import CHECKERS, Checker
from missions.yamlio import line_of, load_document


class KernelSettings(BaseModel):
    """What kernel evidence must include before a target is kernel ``proved``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Checkers whose "passed" kernel ``proved`` needs. The audit is always needed (it is what
    #: compares a proof's type with its statement); a checker that ran and failed blocks
    #: ``proved`` whether it is listed or not.
    require: tuple[Checker, ...] = ("audit",)

    @field_validator("require")
    @classmethod
    def _audit_first(cls, value: tuple[Checker, ...]) -> tuple[Checker, ...]:
        if len(set(value)) != len(value):
            raise ValueError("a checker is listed twice")
        return tuple(c for c in CHECKERS if c in value or c == "audit")


class PolicySettings(BaseModel):
    """What every mission must have (gate rules of :mod:`missions.policy`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: ``required``: every target that is not external links a witness module. Off unless a
    #: project asks: witnesses are Python transcriptions of the statements, a choice.
    witnesses: Literal["required", "optional"] = "optional"
    #: A file (relative to the root) whose table must have a row per mission; None: no table.
    readme_table: str | None = None
    #: Faithfulness reviews (``missions review``): a missing or stale one is a warning
    #: (``warn``), fails the gate (``required``) or is not checked (``off``).
    reviews: Literal["off", "warn", "required"] = "warn"


class AutomationMethod(BaseModel):
    """One phase or tool of how the formalization was produced (formalization.yaml's
    ``automation.methods`` entry): a fact about the project the sources cannot show."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Literal["manual", "copilot", "agent", "autonomous", "other"]
    models: tuple[str, ...] = ()
    framework: str | None = None
    tool_setup: str | None = None
    prompting_notes: str | None = None


class FormalizationSettings(BaseModel):
    """What ``export --format formalization`` cannot compute: who, under which licence, how
    the work was produced and reviewed. Left out, authors come from git and the rest says
    that it was not recorded, never a guess."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: who did the formalization (default: the authors of the mission's files in git)
    authors: tuple[str, ...] = ()
    maintainers: tuple[str, ...] = ()
    #: an SPDX identifier; ``NOASSERTION`` (SPDX's "not stated") until the project names one
    license: str = Field(default="NOASSERTION", min_length=1)
    automation: tuple[AutomationMethod, ...] = ()
    review: str = Field(default="unchecked", min_length=1)
    reviewers: tuple[str, ...] = ()


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kernel: KernelSettings = Field(default_factory=KernelSettings)
    policy: PolicySettings = Field(default_factory=PolicySettings)
    formalization: FormalizationSettings = Field(default_factory=FormalizationSettings)


def settings_path(root: Path) -> Path:
    return root / SETTINGS_FILE


def load_settings(root: Path) -> Settings:
    """The project's settings, or the defaults when ``missions.yaml`` does not exist."""
    path = settings_path(root)
    if not path.exists():
        return Settings()
    doc = load_document(path)
    try:
        return Settings.model_validate(doc)
    except ValidationError as exc:
        raise InputError(
            Problem(
                str(path),
                line_of(doc, tuple(error["loc"])),
                f"{'.'.join(str(p) for p in error['loc']) or 'settings'}: {error['msg']}",
                "settings",
            )
            for error in exc.errors()
        ) from None
