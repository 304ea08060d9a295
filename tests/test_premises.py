"""Reading a statement's hypotheses from its Lean tokens (what witnesses must check)."""

from __future__ import annotations

import textwrap

import pytest

from missions.lean.premises import PremiseError, statement_hypotheses


def hypotheses(body: str, name: str = "S", extra: str = "") -> list[str]:
    text = textwrap.dedent(
        f"""\
        import Mathlib
        /-! module doc -/
        namespace Demo
        {extra}
        /-- doc -/
        def {name} : Prop :=
        """
    )
    return statement_hypotheses(text + textwrap.indent(body, "  ") + "\nend Demo\n", name)


def test_arrows_binders_and_instance_binders() -> None:
    body = (
        "∀ (M : Type) [Fintype M] [inst : DecidableEq M] (K : ℕ), 1 ≤ K →\n"
        "  ∀ (f : M → Fin K) (x : M), f x = f x → 0 ≤ (K : ℝ)"
    )
    assert hypotheses(body) == [
        "[Fintype M]",
        "[inst : DecidableEq M]",
        "1 ≤ K",
        "f x = f x",
    ]


def test_binder_predicates_and_bounded_quantifiers() -> None:
    assert hypotheses("∀ V ∈ visibleSets, ∀ k < n, g V k = 0") == ["V ∈ visibleSets", "k < n"]


def test_conclusions_stop_the_walk() -> None:
    # ∃, ¬, ↔ and plain relations are conclusions: nothing after them is a hypothesis
    assert hypotheses("∀ x : ℝ, 0 < x → ∃ y, y < x ∧ (y > 0 → y < 1)") == ["0 < x"]
    assert hypotheses("∀ x : ℝ, ¬ (0 < x → x < 0)") == []
    assert hypotheses("∀ x : ℝ, (0 < x ↔ 0 < 2 * x)") == []
    assert hypotheses("(1 : ℝ) < 2") == []


def test_conjunctions_and_parentheses_are_descended() -> None:
    body = "∀ x : ℝ, 0 < x → (∀ y, y ≤ x → y < 1) ∧ (∀ z ∈ S, 0 ≤ z) ∧ x = x"
    assert hypotheses(body) == ["0 < x", "y ≤ x", "z ∈ S"]


def test_almost_everywhere_binders_are_descended() -> None:
    body = "∀ σ : ℝ, 0 < σ → ∀ᵐ v ∂(μ σ), ∀ η : ℝ → ℝ, IsFlow η v → 0 < η 1"
    assert hypotheses(body) == ["0 < σ", "IsFlow η v"]


def test_arrows_inside_big_operator_binders_are_not_premises() -> None:
    body = "∀ (n : ℕ), (0 < n) → ∫ ξ : Fin n → ℝ, g ξ ∂μ = 1"
    assert hypotheses(body) == ["(0 < n)"]


def test_arrows_inside_binder_types_and_parentheses_are_not_premises() -> None:
    body = "∀ (γ : ℝ → ℝ) (h : ℕ → ℕ), (∀ t, 0 ≤ t → γ t = 0) → γ 1 = 0"
    assert hypotheses(body) == ["(∀ t, 0 ≤ t → γ t = 0)"]


def test_multiline_hypotheses_are_collapsed_and_repeats_dropped() -> None:
    body = "∀ x : ℝ,\n    0 <\n      x → 0 < x → x = x"
    assert hypotheses(body) == ["0 < x"]


def test_a_conjunction_of_statements_expands_them_with_prefixes() -> None:
    extra = "def A : Prop := ∀ q : ℝ, 0 < q → q = q\ndef B : Prop := ∀ n : ℕ, 1 < n → n = n\n"
    assert hypotheses("A ∧ B", name="Goal", extra=extra) == ["A: 0 < q", "B: 1 < n"]


def test_comments_are_ignored() -> None:
    body = "∀ x : ℝ, -- a comment → with an arrow\n  /- and → another -/ 0 < x → x = x"
    assert hypotheses(body) == ["0 < x"]


def test_unknown_statement_is_an_error() -> None:
    with pytest.raises(PremiseError):
        statement_hypotheses("def T : Prop := True\n", "S")
