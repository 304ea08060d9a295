"""Placeholders left by ``missions new``: a mission is a draft until none is left.

The scaffold marks every text people must write with ``TODO`` (see
:data:`missions.lean.vocabulary.PLACEHOLDER`). A mission whose YAML values, or the docstrings of its
statements module, still hold the marker is a draft: the gate fails (rule
``placeholder``) and no view calls it complete. Ordinary comments are free: a ``# TODO``
note in the YAML or a ``-- TODO`` in Lean is a work note, not a placeholder.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from missions.catalog import MissionFile
from missions.lean.vocabulary import PLACEHOLDER
from missions.lean.workspace import Workspace

_MARKER = re.compile(rf"\b{PLACEHOLDER}\b")


@dataclass(frozen=True)
class Placeholder:
    """One line that still holds the marker; ``text`` is that line, stripped."""

    path: Path
    line: int
    text: str


def yaml_placeholders(mission_file: MissionFile) -> list[Placeholder]:
    """Lines of the mission YAML whose values hold the marker (comment lines are skipped).

    The validated model decides whether any value holds it (cheap, no re-parse); only then
    is the file read for line numbers.
    """
    try:
        raw = mission_file.path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raw = None
    if raw is not None and (PLACEHOLDER not in raw or not _MARKER.search(raw)):
        return []  # no marker anywhere in the file, so none in a value
    values = json.dumps(mission_file.mission.model_dump(mode="json"), ensure_ascii=False)
    if not _MARKER.search(values):
        return []
    try:
        text = mission_file.path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return [Placeholder(mission_file.path, 1, PLACEHOLDER)]
    found = [
        Placeholder(mission_file.path, number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if _MARKER.search(line) and not line.lstrip().startswith("#")
    ]
    return found or [Placeholder(mission_file.path, 1, PLACEHOLDER)]


def lean_placeholders(workspace: Workspace, mission_file: MissionFile) -> list[Placeholder]:
    """Docstring lines holding the marker in the mission's statements module.

    That is where ``missions new`` leaves its Lean placeholder (the Goal's docstring), and
    what the statement pin covers; one file a mission keeps this cheap on every ``status``.
    """
    module = workspace.modules.get(mission_file.mission.lean.statements_module)
    if module is None:
        return []
    return [Placeholder(module.path, line, text) for line, text in module.scan.placeholders]


def mission_placeholders(workspace: Workspace, mission_file: MissionFile) -> list[Placeholder]:
    return yaml_placeholders(mission_file) + lean_placeholders(workspace, mission_file)
