"""What git knows about the workspace: HEAD, and which commits touched given files.

Everything degrades gracefully: outside a repository (or without a usable git) the answers
are empty, and callers say so instead of failing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from missions.roots import MAX_LEAN_BYTES, read_regular


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    date: dt.datetime
    author: str
    summary: str

    @property
    def short(self) -> str:
        return self.sha[:10]


def _repo(root: Path):  # type: ignore[no-untyped-def]
    try:
        import git

        return git.Repo(root, search_parent_directories=True)
    except Exception:  # gitpython raises several unrelated types for "no repository"
        return None


def head_commit(root: Path) -> str | None:
    repo = _repo(root)
    if repo is None:
        return None
    try:
        return str(repo.head.commit.hexsha)
    except Exception:  # an empty repository has no HEAD commit
        return None


def commits_touching(root: Path, since: str | None, paths: Sequence[Path]) -> list[CommitInfo]:
    """Commits after ``since`` (exclusive; all history when None) that changed ``paths``."""
    repo = _repo(root)
    if repo is None or not paths:
        return []
    rel = [str(p.resolve().relative_to(Path(repo.working_tree_dir).resolve())) for p in paths]
    rev = f"{since}..HEAD" if since else "HEAD"
    try:
        commits = list(repo.iter_commits(rev, paths=rel))
    except Exception:
        return []
    return [
        CommitInfo(
            sha=str(c.hexsha),
            date=c.committed_datetime,
            author=str(c.author.name),
            summary=str(c.summary),
        )
        for c in commits
    ]


def changed_since(root: Path, since: str, paths: Sequence[Path]) -> list[Path] | None:
    """Which of ``paths`` differ between commit ``since`` and the working tree.

    ``None`` when git cannot answer (no repository, unknown commit).
    """
    repo = _repo(root)
    if repo is None:
        return None
    top = Path(repo.working_tree_dir).resolve()
    try:
        commit = repo.commit(since)
    except Exception:
        return None
    changed: list[Path] = []
    for path in paths:
        rel = str(path.resolve().relative_to(top))
        try:
            blob = commit.tree / rel
            old = blob.data_stream.read()
        except KeyError:
            changed.append(path)
            continue
        try:
            if read_regular(str(path), MAX_LEAN_BYTES)[0] != old:
                changed.append(path)
        except OSError:
            changed.append(path)
    return changed


def origin_url(root: Path) -> str | None:
    """The ``origin`` remote's URL, if the repository has one."""
    repo = _repo(root)
    if repo is None:
        return None
    try:
        return str(repo.remotes.origin.url)
    except Exception:  # no remote named origin
        return None
