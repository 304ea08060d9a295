"""The bundled missions: target counts, dependency graphs, and what the scanner finds.

Each entry records what a reviewer checked by hand: how many targets the mission has, which
depends on which, and the status each target must have from the source scan. A change to a
mission that alters any of these must update this table on purpose.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from missions.catalog import load_catalog
from missions.lean.workspace import load_workspace
from missions.status import Analysis, analyze

EXPECTED: dict[str, dict[str, tuple[str, list[str]]]] = {
    # target id: (status from the source scan, depends_on)
    "mae-normalized-pixel": {
        "normalized-targets-agree": ("proved", []),
        "masked-loss-zero": ("proved", ["normalized-targets-agree"]),
        "no-separating-classifier": ("proved", []),
        "goal": ("proved", ["masked-loss-zero", "no-separating-classifier"]),
    },
    "alethean-checksum": {
        "goal": ("proved", []),
        "corpus-sphere-packing-bound": ("external", []),
        "corpus-vc-dimension-bound": ("external", []),
        "corpus-central-l-values-second-moment": ("external", []),
        "corpus-tropical-arrow-impossibility": ("external", []),
        "corpus-sums-of-three-cubes-obstruction": ("external", []),
    },
    "clockrope-rfr": {
        "unbiasedness": ("stated", []),
        "periodic-herglotz": ("stated", []),
        "goal": ("stated", ["unbiasedness"]),
    },
    "fedavg-local-sgd": {
        "lemma-1": ("stated", []),
        "lemma-2": ("stated", []),
        "goal": ("stated", ["lemma-1", "lemma-2"]),
        "tuned-step-bound": ("stated", ["goal"]),
    },
    "lp-ft": {
        "flow-well-posed": ("stated", []),
        "features-orthogonal-unchanged": ("stated", []),
        "balancedness-invariant": ("stated", []),
        "ood-risk-identity": ("stated", []),
        "gaussian-head-misaligned": ("stated", []),
        "lp-recovery": ("stated", ["flow-well-posed"]),
        "lp-init-stationary": ("stated", ["flow-well-posed"]),
        "goal": (
            "stated",
            [
                "flow-well-posed",
                "features-orthogonal-unchanged",
                "balancedness-invariant",
                "ood-risk-identity",
                "gaussian-head-misaligned",
                "lp-recovery",
                "lp-init-stationary",
            ],
        ),
    },
    "ntk-init": {
        "covariance-validity": ("stated", []),
        "gaussian-output-limit": ("stated", ["covariance-validity"]),
        "goal": ("stated", ["covariance-validity", "gaussian-output-limit"]),
    },
    "scaffold": {
        "gradient-growth": ("stated", []),
        "perturbed-strong-convexity": ("stated", []),
        "convex-finite-round-convergence": (
            "stated",
            ["gradient-growth", "perturbed-strong-convexity"],
        ),
        "nonconvex-finite-round-convergence": ("stated", []),
        "goal": (
            "stated",
            ["convex-finite-round-convergence", "nonconvex-finite-round-convergence"],
        ),
    },
    "sgd-bottou": {
        "lemma-4-4": ("stated", []),
        "theorem-4-6": ("stated", ["lemma-4-4"]),
        "theorem-4-7": ("stated", ["lemma-4-4"]),
        "theorem-4-8": ("stated", ["lemma-4-4"]),
        "goal": ("stated", ["lemma-4-4"]),
    },
    "sharp-minima": {
        "scaling-invariance": ("stated", []),
        "derivative-transformation": ("stated", ["scaling-invariance"]),
        "goal": ("stated", ["scaling-invariance", "derivative-transformation"]),
    },
    "tennis-best-of": {
        "part-a": ("stated", []),
        "part-b": ("stated", []),
        "part-c": ("stated", []),
        "part-d": ("stated", []),
        "goal": ("stated", ["part-a", "part-b", "part-c", "part-d"]),
    },
}


@pytest.fixture(scope="module")
def analysis() -> Analysis:
    return analyze(load_catalog(REPO, use_cache=False), load_workspace(REPO, use_cache=False))


def test_every_bundled_mission_is_covered(analysis: Analysis) -> None:
    assert sorted(m.id for m in analysis.missions) == sorted(EXPECTED)


@pytest.mark.parametrize("mission_id", sorted(EXPECTED))
def test_mission_targets_graph_and_statuses(analysis: Analysis, mission_id: str) -> None:
    mission = next(m for m in analysis.missions if m.id == mission_id)
    expected = EXPECTED[mission_id]
    assert [t.target.id for t in mission.targets] == list(expected)
    assert [t.target.kind for t in mission.targets].count("goal") == 1
    for status in mission.targets:
        want_status, want_deps = expected[status.target.id]
        assert status.target.depends_on == want_deps
        assert status.status == want_status, (status.target.id, status.reasons)
        assert status.evidence == (None if want_status == "external" else "source")
        assert status.target.status == want_status  # the YAML is synced
    assert mission.pin.matches, "statements changed since the pin"


@pytest.mark.parametrize("mission_id", sorted(EXPECTED))
def test_named_declarations_are_where_they_belong(analysis: Analysis, mission_id: str) -> None:
    mission = next(m for m in analysis.missions if m.id == mission_id)
    closure = set(mission.pin.modules)
    for status in mission.targets:
        if status.target.kind == "external":
            assert status.target.external is not None and status.target.statement is None
            continue
        assert status.statement_decl is not None, status.target.statement
        module, decl = status.statement_decl
        assert module.name in closure
        assert decl.kind == "def" and decl.type_name == "Prop" and not decl.has_binders
        assert status.proof_decl is not None, status.target.proof
        proof_module, proof = status.proof_decl
        assert proof_module.name not in closure
        assert proof.is_theorem and not proof.has_binders
        assert proof.type_name == decl.name.rsplit(".", 1)[-1]


def test_goal_proofs_use_their_milestones_by_name() -> None:
    text = (REPO / "Formal/MAE/Proofs.lean").read_text(encoding="utf-8")
    goal = text[text.index("theorem goal") :]
    assert "masked_loss_zero" in goal and "no_separating_classifier" in goal


def test_root_module_imports_every_mission() -> None:
    imports = (REPO / "Formal.lean").read_text(encoding="utf-8").split()
    for path in sorted((REPO / "missions").glob("*.yaml")):
        module = load_catalog(REPO, use_cache=False).get(path.stem).mission.lean.module
        assert module in imports, module
        assert Path(REPO, *module.split(".")).with_suffix(".lean").is_file()


def test_tennis_counterexample_is_a_documented_fact() -> None:
    mission = load_catalog(REPO, use_cache=False).get("tennis-best-of").mission
    texts = " ".join(f.text for f in mission.facts)
    assert "0.5832" in texts and "0.5761" in texts


def test_stochastic_missions_share_one_run_model() -> None:
    for module in ("SGDBottou", "Scaffold", "FedAvgLocalSGD"):
        defs = (REPO / "Formal" / module / "Defs.lean").read_text(encoding="utf-8")
        assert "import Formal.Common.Stochastic" in defs, module
        assert "StochasticRun" in defs, module
