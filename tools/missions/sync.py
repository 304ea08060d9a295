"""Write computed statuses back into mission YAML, keeping comments and key order."""

from __future__ import annotations

from ruamel.yaml.comments import CommentedMap

from missions.status import MissionStatus
from missions.yamlio import atomic_write_text, dump_document, set_key


def sync_mission(
    mission: MissionStatus, *, dry_run: bool = False, checked: dict[str, object] | None = None
) -> list[str]:
    """Update each target's ``status``/``evidence``; return the ids that changed.

    External targets carry no evidence, so their ``evidence`` key is removed. Kernel
    statuses also record what checked them (``checked``: Lean version, Mathlib revision,
    commit). A source scan that agrees with a recorded kernel status leaves it alone.
    """
    doc = mission.file.doc
    changed: list[str] = []
    for index, status in enumerate(mission.targets):
        node = doc["targets"][index]
        before = (node.get("status"), node.get("evidence"))
        after = (status.status, status.evidence)
        if before[0] == after[0] and before[1] == "kernel" and after[1] == "source":
            continue
        stamp = checked if status.evidence == "kernel" else None
        if before == after and (stamp is None or _same_check(node.get("checked"), stamp)):
            continue
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


def _same_check(recorded: object, stamp: dict[str, object]) -> bool:
    if not isinstance(recorded, dict):
        return False
    return all(str(recorded.get(k)) == str(v) for k, v in stamp.items() if k != "date")
