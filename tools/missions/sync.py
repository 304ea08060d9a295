"""Write computed statuses back into mission YAML, keeping comments and key order."""

from __future__ import annotations

from missions.status import MissionStatus
from missions.yamlio import atomic_write_text, dump_document, set_key


def sync_mission(mission: MissionStatus, *, dry_run: bool = False) -> list[str]:
    """Update each target's ``status``/``evidence``; return the ids that changed.

    External targets carry no evidence, so their ``evidence`` key is removed.
    """
    doc = mission.file.doc
    changed: list[str] = []
    for index, status in enumerate(mission.targets):
        node = doc["targets"][index]
        before = (node.get("status"), node.get("evidence"))
        after = (status.status, status.evidence)
        if before == after:
            continue
        changed.append(status.target.id)
        set_key(node, "status", status.status)
        if status.evidence is None:
            node.pop("evidence", None)
        else:
            set_key(node, "evidence", status.evidence, after="status")
    if changed and not dry_run:
        atomic_write_text(mission.file.path, dump_document(doc))
    return changed
