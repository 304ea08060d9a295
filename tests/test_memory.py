"""What a large run drops before it encodes its answer, to keep its peak memory down, must
not change any answer asked afterwards."""

from __future__ import annotations


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
