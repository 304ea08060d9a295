"""The catalog and the scanned workspace, loaded together, and their analysis.

Every command that reports on missions starts here; so do the ones that are not commands
(the MCP server, the base side of ``missions diff``). The YAML is parsed while the worker
processes scan the Lean files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from missions.catalog import Catalog, load_catalog
from missions.lean.workspace import Workspace, WorkspaceLoading, start_loading
from missions.lint import LintResult, lint_in_background
from missions.status import Analysis, analyze
from missions.walks import WalkStore


def load(
    root: Path,
    ids: Sequence[str] | None = None,
    *,
    use_cache: bool = True,
    loading: WorkspaceLoading | None = None,
) -> tuple[Catalog, Workspace]:
    """The catalog (``ids`` chosen: an unknown one is bad input) and the workspace
    (``loading``: one the caller started, whose stats it needed first)."""
    with loading or start_loading(root, use_cache=use_cache) as loading:
        catalog = load_catalog(root, use_cache=use_cache)
        catalog.select(list(ids or []))
        workspace = loading.result()
    return catalog, workspace


def analyse(root: Path, ids: Sequence[str] | None = None, *, use_cache: bool = True) -> Analysis:
    """Every chosen mission's targets analysed (all of them without ``ids``)."""
    catalog, workspace = load(root, ids, use_cache=use_cache)
    return analyze(catalog, workspace, list(ids) if ids else None, _walks(root, use_cache))


def analyse_and_lint(
    root: Path,
    ids: Sequence[str] | None = None,
    *,
    use_cache: bool = True,
    loading: WorkspaceLoading | None = None,
) -> tuple[Analysis, Callable[[], LintResult]]:
    """:func:`analyse`, with the lint of the same missions running in the background while
    it does (the two are independent); the second item waits for the lint."""
    catalog, workspace = load(root, ids, use_cache=use_cache, loading=loading)
    chosen = [m.mission for m in catalog.select(ids or [])]
    lint = lint_in_background(root, workspace, chosen, catalog.missions)
    analysis = analyze(catalog, workspace, list(ids) if ids else None, _walks(root, use_cache))
    return analysis, lint


def _walks(root: Path, use_cache: bool) -> WalkStore | None:
    """The walks earlier runs kept (:mod:`missions.walks`); none when caches are off."""
    return WalkStore.open(root) if use_cache else None
