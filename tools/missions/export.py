"""Open targets as prover tasks: plain JSON, or LeanDojo ``Theorem`` records.

A prover needs, per open target, the repository and commit to check out, the file holding
the proof theorem and its full name. ``--format json`` writes exactly that; ``--format dojo``
builds the same records with LeanDojo's own ``LeanGitRepo``/``Theorem`` classes (the optional
``dojo`` extra), so they can be passed to LeanDojo's ``Dojo`` unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from missions import gitinfo
from missions.errors import InputError
from missions.status import Analysis


@dataclass(frozen=True)
class OpenTarget:
    mission: str
    target: str
    statement: str
    full_name: str
    file_path: str


def open_targets(analysis: Analysis) -> list[OpenTarget]:
    """Targets whose proof theorem exists but is not proved (external ones excluded)."""
    found: list[OpenTarget] = []
    for mission in analysis.missions:
        for status in mission.targets:
            if status.status != "stated" or status.proof_decl is None:
                continue
            module, decl = status.proof_decl
            assert status.target.statement is not None
            found.append(
                OpenTarget(
                    mission=mission.id,
                    target=status.target.id,
                    statement=status.target.statement,
                    full_name=decl.name,
                    file_path=module.rel(analysis.root),
                )
            )
    return found


def repository_of(analysis: Analysis) -> tuple[str, str]:
    """(repository URL or local path, commit) for the records."""
    commit = gitinfo.head_commit(analysis.root)
    if commit is None:
        raise InputError.single(
            analysis.root, 1, "export needs a git repository with a commit (records pin one)"
        )
    return gitinfo.origin_url(analysis.root) or str(analysis.root), commit


def export_json(analysis: Analysis) -> dict[str, Any]:
    repository, commit = repository_of(analysis)
    return {
        "repository": repository,
        "commit": commit,
        "theorems": [
            {
                "mission": t.mission,
                "target": t.target,
                "statement": t.statement,
                "full_name": t.full_name,
                "file_path": t.file_path,
            }
            for t in open_targets(analysis)
        ],
    }


def export_dojo(analysis: Analysis) -> list[Any]:
    """LeanDojo ``Theorem`` objects for every open target (needs the ``dojo`` extra)."""
    try:
        from lean_dojo import LeanGitRepo, Theorem
    except ImportError:
        raise InputError.single(
            "--format", 1, "dojo export needs LeanDojo: pip install 'missions[dojo]'"
        ) from None
    repository, commit = repository_of(analysis)
    repo = LeanGitRepo(repository, commit)
    return [Theorem(repo, t.file_path, t.full_name) for t in open_targets(analysis)]


def dojo_records(theorems: list[Any]) -> list[dict[str, str]]:
    """What LeanDojo needs to reconstruct each ``Theorem``: url, commit, file, full name."""
    return [
        {
            "url": str(t.repo.url),
            "commit": str(t.repo.commit),
            "file_path": str(t.file_path),
            "full_name": str(t.full_name),
        }
        for t in theorems
    ]
