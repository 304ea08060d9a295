"""Project policies as gate rules: what the project requires of every mission.

A requirement enforced only by a test suite is a trap: ``missions check`` says ``gate: ok``
and CI goes red on a rule nobody could read. Each policy here is a rule of ``check`` with a
``path:line`` message and the fix, and ``missions.yaml`` (:mod:`missions.settings`) turns it
on or off:

``witness-missing``  (``policy.witnesses: required``) a target that is not
                     external links no witness module, or links one that does not exist.
                     Whether the witness holds and stands review is certified by its stamp
                     (``witness-stale``).
``readme-row``       (``policy.readme_table: FILE``) FILE's table of missions has no row
                     `` | `id` | … | `Module` | `` for a mission, names another module, or
                     lists a mission that does not exist.
"""

from __future__ import annotations

import importlib.util
import re

from missions.catalog import mission_paths
from missions.settings import PolicySettings
from missions.status import Analysis, Violation
from missions.witnesses import add_workspace

#: A row of the missions table: ``| `id` | anything | `Module` |``.
ROW = re.compile(r"^\| `(?P<id>[^`]+)` \| [^|]+ \| `(?P<module>[^`]+)` \|\s*$")


def module_exists(module: str) -> bool:
    """Whether ``import module`` would find it (without running it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def witness_violations(analysis: Analysis, policy: PolicySettings) -> list[Violation]:
    if policy.witnesses != "required":
        return []
    add_workspace(analysis.root)
    found: list[Violation] = []
    root = analysis.root
    for mission in analysis.missions:
        path = str(mission.file.path.relative_to(root))
        for status in mission.targets:
            target = status.target
            if target.kind == "external":
                continue
            line = mission.file.target_line(target.id)
            if target.witness is None:
                message = (
                    f"{target.id} links no witness: add `witness: missions.witnesses.<module>` "
                    "with a claim for it (README, Witnesses), or drop `policy: witnesses: "
                    "required` from missions.yaml"
                )
            elif not module_exists(target.witness):
                message = f"{target.id} links {target.witness}, which does not exist"
            else:
                continue
            found.append(Violation("witness-missing", message, path, line, mission.id, target.id))
    return found


def table_rows(text: str) -> dict[str, tuple[str, int]]:
    """``id -> (module, line)`` of every missions-table row in ``text``."""
    rows: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = ROW.match(line)
        if match:
            rows.setdefault(match["id"], (match["module"], number))
    return rows


def readme_violations(analysis: Analysis, policy: PolicySettings) -> list[Violation]:
    if policy.readme_table is None:
        return []
    readme = analysis.root / policy.readme_table
    name = policy.readme_table
    try:
        text = readme.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [Violation("readme-row", f"cannot read {name}: {exc}", name, 1)]
    rows = table_rows(text)
    last = max((line for _, line in rows.values()), default=1)
    found: list[Violation] = []
    ids = set()
    for mission in analysis.missions:
        info = mission.file.mission
        ids.add(info.id)
        row = rows.get(info.id)
        if row is None:
            found.append(
                Violation(
                    "readme-row",
                    f"no row for {info.id}: add | `{info.id}` | {info.title} | "
                    f"`{info.lean.module}` |",
                    name,
                    last,
                    info.id,
                )
            )
        elif row[0] != info.lean.module:
            found.append(
                Violation(
                    "readme-row",
                    f"the row of {info.id} names `{row[0]}`; its module is `{info.lean.module}`",
                    name,
                    row[1],
                    info.id,
                )
            )
    if len(analysis.missions) == len(list(mission_paths(analysis.root))):  # all of them
        for mission_id, (_, line) in rows.items():
            if mission_id not in ids:
                message = f"the row of {mission_id} names no mission; remove it"
                found.append(Violation("readme-row", message, name, line))
    return found


def policy_violations(analysis: Analysis, policy: PolicySettings) -> list[Violation]:
    return [*witness_violations(analysis, policy), *readme_violations(analysis, policy)]
