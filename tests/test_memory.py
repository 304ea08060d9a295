"""What a large run drops before it encodes its answer, to keep its peak memory down, must
not change any answer asked afterwards."""

from __future__ import annotations

import pytest


def test_an_analysis_that_released_its_walks_walks_again_to_the_same_answers() -> None:
    """``status`` drops the analysis' walks before it encodes the answer; whatever asks
    later (the dependency warnings, a target's reach) gets what it got before."""
    from conftest import REPO
    from missions.catalog import load_catalog
    from missions.gate import dependency_warnings
    from missions.lean.workspace import load_workspace
    from missions.status import analyze, targets_used

    analysis = analyze(load_catalog(REPO, use_cache=False), load_workspace(REPO))

    def answers() -> list[object]:
        found: list[object] = []
        for mission in analysis.missions:
            found.append(dependency_warnings(analysis, mission))
            for status in mission.targets:
                found.append(targets_used(analysis, mission, status))
                if status.proof_decl is not None:
                    reach = analysis.memo.reach(status.proof_decl[0])
                    found.append(reach.problems(status.proof_decl))
        return found

    before = answers()
    assert any(isinstance(x, list) and x for x in before)
    analysis.memo.release()
    assert analysis.memo._references is None and not analysis.memo._reach
    assert answers() == before


def test_a_reach_made_again_after_eviction_answers_as_a_kept_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The analysis keeps only the last few proof modules' reaches; one evicted and made
    again (every reach, when only one is kept) gives every target the same verdict,
    reasons, reach and dependencies."""
    from conftest import REPO
    from missions import status as status_module
    from missions.catalog import load_catalog
    from missions.lean.workspace import load_workspace
    from missions.status import analyze, targets_used

    def verdicts() -> list[object]:
        analysis = analyze(load_catalog(REPO, use_cache=False), load_workspace(REPO))
        return [
            (s.target.id, s.status, s.reasons, s.reached, targets_used(analysis, m, s))
            for m in analysis.missions
            for s in m.targets
        ]

    kept = verdicts()
    monkeypatch.setattr(status_module, "REACHES_KEPT", 1)
    assert verdicts() == kept
