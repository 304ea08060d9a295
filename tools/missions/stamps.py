"""Witness stamps: which statement pin a mission's witnesses were last reviewed against.

A witness is a hand transcription of the Lean statements into Python. When a statement changes
(and is re-pinned with a reason) the witness may keep checking the old claim, so the mission
YAML records, next to ``lean.statement_pin``, the pin its witnesses were reviewed against
(``lean.witness_stamp``). Keeping the stamp beside the pin means a pull request that moves the
pin shows in the same hunk whether the witnesses were stamped again; the gate fails with
``witness-stale`` until they are.

``missions witness --stamp ID`` is the only writer, and it refuses unless the statements are
pinned at their current closure and the mission's witnesses pass.
"""

from __future__ import annotations

from pathlib import Path

from missions.catalog import MissionFile
from missions.errors import InputError
from missions.lean.workspace import load_workspace
from missions.pins import pin_state
from missions.witness import source_digest, witness_targets
from missions.yamlio import atomic_write_text, dump_document, set_key


def check_stampable(root: Path, mission_file: MissionFile) -> None:
    """Raise unless the mission has witnesses and its pin is the current statement closure."""
    mission = mission_file.mission
    line = mission_file.line("lean")
    if not witness_targets(mission):
        raise InputError.single(mission_file.path, line, f"{mission.id} links no witness")
    if mission.lean.statement_pin is None:
        raise InputError.single(
            mission_file.path,
            line,
            f"{mission.id} is not pinned; run `missions pin {mission.id}` before stamping",
        )
    state = pin_state(load_workspace(root), mission)
    if not state.matches:
        raise InputError.single(
            mission_file.path,
            mission_file.line("lean", "statement_pin"),
            f"the statements of {mission.id} changed since they were pinned; re-pin them "
            "(`missions pin --reason ...`) before stamping the witnesses",
        )


def stamp_witnesses(mission_file: MissionFile) -> str:
    """Write the mission's statement pin as its witness stamp, and the digest of the witness
    sources reviewed, (atomically, layout kept)."""
    digest = mission_file.mission.lean.statement_pin
    assert digest is not None
    sources = source_digest(mission_file.mission)
    if sources is None:
        raise InputError.single(
            mission_file.path, mission_file.line("lean"), "a witness module it links is missing"
        )
    lean = mission_file.doc["lean"]
    after = "pinned_at" if "pinned_at" in lean else "statement_pin"
    set_key(lean, "witness_stamp", digest, after=after)
    set_key(lean, "witness_source", sources, after="witness_stamp")
    atomic_write_text(mission_file.path, dump_document(mission_file.doc))
    return digest
