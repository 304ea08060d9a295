"""Write computed statuses back into mission YAML, keeping comments and key order."""

from __future__ import annotations

import json

from ruamel.yaml.comments import CommentedMap

from missions.status import MissionStatus
from missions.yamlio import atomic_write_text, dump_document, set_key


def sync_mission(
    mission: MissionStatus,
    *,
    dry_run: bool = False,
    checked: dict[str, object] | None = None,
    fingerprints: dict[str, dict[str, object]] | None = None,
) -> list[str]:
    """Update each target's ``status``/``evidence``; return the ids that changed.

    External targets carry no evidence, so their ``evidence`` key is removed. Kernel
    statuses also record what checked them (``checked``: Lean version, Mathlib revision,
    commit) and, given ``fingerprints`` (by target id), what each statement meant to the
    kernel. A source scan that agrees with a recorded kernel status leaves it alone; it never
    touches recorded fingerprints.
    """
    doc = mission.file.doc
    changed: list[str] = []
    for index, status in enumerate(mission.targets):
        node = doc["targets"][index]
        recorded = (fingerprints or {}).get(status.target.id)
        if recorded is not None and not _same_fingerprints(node.get("fingerprints"), recorded):
            mapping = CommentedMap()
            for key, value in recorded.items():
                mapping[key] = value
            set_key(node, "fingerprints", mapping)
            if status.target.id not in changed:
                changed.append(status.target.id)
        before = (node.get("status"), node.get("evidence"))
        after = (status.status, status.evidence)
        if before[0] == after[0] and before[1] == "kernel" and after[1] == "source":
            continue
        stamp = checked if status.evidence == "kernel" else None
        if before == after and (stamp is None or _same_check(node.get("checked"), stamp)):
            continue
        if status.target.id not in changed:
            changed.append(status.target.id)
        set_key(node, "status", status.status)
        if status.evidence is None:
            node.pop("evidence", None)
        else:
            set_key(node, "evidence", status.evidence, after="status")
        if stamp is not None:
            mapping = CommentedMap()
            for key, value in stamp.items():
                mapping[key] = value
            set_key(node, "checked", mapping, after="evidence")
        else:
            node.pop("checked", None)
    if changed and not dry_run:
        atomic_write_text(mission.file.path, dump_document(doc))
    return changed


def _same_fingerprints(recorded: object, fresh: dict[str, object]) -> bool:
    """Whether the YAML already holds exactly these fingerprints (key order aside)."""
    return json.dumps(recorded, sort_keys=True, default=str) == json.dumps(
        fresh, sort_keys=True, default=str
    )


def _same_check(recorded: object, stamp: dict[str, object]) -> bool:
    if not isinstance(recorded, dict):
        return False
    return all(str(recorded.get(k)) == str(v) for k, v in stamp.items() if k != "date")
