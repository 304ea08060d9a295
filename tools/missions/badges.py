"""Badges: shields.io endpoint JSON for the workspace and for each mission.

A project shows its progress where people look first, its README, with
``https://img.shields.io/endpoint?url=…/workspace.json``. The badge is computed from the same
analysis as ``status``; its message names the evidence tier of every proof it counts, so a
source-level "proved" is never shown as a kernel-checked one, and a gate that fails says so.
Schema: https://shields.io/badges/endpoint-badge (``schemaVersion`` 1, ``label``,
``message``, ``color``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from missions.gate import GateResult
from missions.status import Analysis, TargetStatus
from missions.stored import WORKSPACE_FILE
from missions.yamlio import atomic_write_text

#: Most trusted first: a message lists the tiers in this order.
TIERS = ("kernel", "source")
MISSIONS_DIR = "missions"


def badge_message(targets: Sequence[TargetStatus], gate_ok: bool) -> tuple[str, str]:
    """(message, colour) for these targets: ``5/46 proved · source``, ``3/4 proved · 2
    kernel, 1 source``; the targets proved elsewhere (external) named apart, as in ``5/46
    proved · source · 5 external`` (the counts of ``status``), a failing gate last."""
    external = sum(1 for t in targets if t.status == "external")
    tiers: Counter[str] = Counter(t.evidence or "source" for t in targets if t.status == "proved")
    proved = sum(tiers.values())
    message = f"{proved}/{len(targets)} proved"
    present = [tier for tier in TIERS if tiers[tier]]
    if len(present) == 1:
        message += f" · {present[0]}"
    elif present:
        message += " · " + ", ".join(f"{tiers[tier]} {tier}" for tier in present)
    if external:
        message += f" · {external} external"
    if not gate_ok:
        return message + " · gate failing", "red"
    if proved and proved + external == len(targets):
        return message, "brightgreen"
    return message, "yellow" if proved else "lightgrey"


def endpoint(label: str, targets: Sequence[TargetStatus], gate_ok: bool) -> dict[str, Any]:
    message, color = badge_message(targets, gate_ok)
    return {"schemaVersion": 1, "label": label, "message": message, "color": color}


def badges(analysis: Analysis, gate: GateResult) -> dict[str, dict[str, Any]]:
    """Every badge by its path under the output directory: the workspace's, then one per
    mission (its gate fails when a violation names it or names no mission)."""
    failing = {v.mission for v in gate.violations}
    everything: Iterable[TargetStatus] = (t for m in analysis.missions for t in m.targets)
    found = {WORKSPACE_FILE: endpoint("missions", list(everything), gate.ok)}
    for mission in analysis.missions:
        ok = mission.id not in failing and None not in failing
        found[f"{MISSIONS_DIR}/{mission.id}.json"] = endpoint(mission.id, mission.targets, ok)
    return found


def write_badges(analysis: Analysis, gate: GateResult, out_dir: Path) -> list[Path]:
    """Write every badge into ``out_dir`` (each file atomically); the files written."""
    written = []
    for name, data in badges(analysis, gate).items():
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(data, ensure_ascii=False) + "\n", durable=False)
        written.append(path)
    return written
