"""What git knows about the workspace: HEAD, and which commits touched given files.

Everything degrades gracefully: outside a repository (or without a usable git) the answers
are empty, and callers say so instead of failing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
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


def run_git(cwd: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
    """``git args`` in ``cwd``: its output, or None if git is missing or fails."""
    import subprocess  # an edit's answer imports this module and runs no git

    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, input=stdin, capture_output=True, check=False, timeout=300
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def head_commit(root: Path) -> str | None:
    """HEAD's commit id; None outside a repository and in one without commits."""
    out = run_git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    return out.decode().strip() if out else None


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

    ``None`` when git cannot answer (no repository, unknown commit). One ``cat-file`` names
    the committed object of every path, compared with the object id of the file's bytes:
    a tree walk per path parses whole directories, seconds in a large workspace.
    """
    top_out = run_git(root, "rev-parse", "--show-toplevel")
    commit_out = run_git(root, "rev-parse", "--verify", "--quiet", f"{since}^{{commit}}")
    if top_out is None or commit_out is None:
        return None
    top = Path(top_out.decode().strip()).resolve()
    commit = commit_out.decode().strip()
    changed: list[Path] = []
    asked: list[tuple[Path, str]] = []
    for path in paths:
        try:
            rel = path.resolve().relative_to(top).as_posix()
        except ValueError:
            rel = "\n"  # outside the repository: in no commit
        if "\n" in rel:
            changed.append(path)  # no line of the batch protocol can name it
        else:
            asked.append((path, rel))
    if not asked:
        return changed
    request = "".join(f"{commit}:{rel}\n" for _, rel in asked).encode()
    answer = run_git(top, "cat-file", "--batch-check", stdin=request)
    lines = answer.decode("utf-8", "replace").splitlines() if answer is not None else []
    if len(lines) != len(asked):
        return None
    for (path, _), line in zip(asked, lines, strict=True):
        fields = line.split()
        if len(fields) != 3 or fields[1] != "blob":
            changed.append(path)  # not in the commit, or not a file there
            continue
        try:
            data = read_regular(str(path), MAX_LEAN_BYTES)[0]
        except OSError:
            changed.append(path)
            continue
        algorithm = hashlib.sha256 if len(fields[0]) == 64 else hashlib.sha1
        if algorithm(b"blob %d\0" % len(data) + data).hexdigest() != fields[0]:
            changed.append(path)
    differ = set(changed)
    return [path for path in paths if path in differ]


def origin_url(root: Path) -> str | None:
    """The ``origin`` remote's URL, if the repository has one."""
    repo = _repo(root)
    if repo is None:
        return None
    try:
        return str(repo.remotes.origin.url)
    except Exception:  # no remote named origin
        return None
