import Formal.Scaffold.Defs
import Formal.Scaffold.Statements
import Formal.Scaffold.Proofs

/-!
# Mission `scaffold`

Root module of the mission formalizing seed 05, "SCAFFOLD: Convergence with Client Sampling":
finite-round convergence bounds for SCAFFOLD with Option II control updates and uniform client
sampling (Karimireddy et al., ICML 2020, arXiv:1910.06378v4, Appendix E), for strongly convex,
convex and nonconvex client objectives. The goal is the conjunction of the convex and nonconvex
statements; GradientGrowth and PerturbedStrongConvexity are supporting milestones.

* `Formal.Scaffold.Defs`: the model (`Problem`, `Run` as an instance of the shared
  `Formal.Common.StochasticRun`, the tick layout, the constants of Lemma 15).
* `Formal.Scaffold.Statements`: one Prop-valued definition per target.
* `Formal.Scaffold.Proofs`: one theorem per target.
-/
