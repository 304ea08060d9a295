import Formal.SGDBottou.Defs
import Formal.SGDBottou.Statements
import Formal.SGDBottou.Proofs

/-!
# Mission `sgd-bottou`

Root module of the mission formalizing seed 04: the core convergence theory of stochastic
gradient methods in Section 4 of Bottou, Curtis and Nocedal, "Optimization Methods for
Large-Scale Machine Learning" (arXiv:1606.04838v3). The goal is Theorem 4.10 (nonconvex objective,
diminishing stepsizes); the milestones are Lemma 4.4 and Theorems 4.6, 4.7 and 4.8.

* `Formal.SGDBottou.Defs`: the model (Assumptions 4.1 and 4.3, Algorithm 4.1 as an instance of
  the shared `Formal.Common.StochasticRun`).
* `Formal.SGDBottou.Statements`: one Prop-valued definition per target.
* `Formal.SGDBottou.Proofs`: one theorem per target.
-/
