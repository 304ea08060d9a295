import Formal.FedAvgLocalSGD.Defs
import Formal.FedAvgLocalSGD.Statements
import Formal.FedAvgLocalSGD.Proofs

/-!
# Mission `fedavg-local-sgd`

Root module of the mission formalizing seed 06: the convex convergence theorem of local SGD /
FedAvg with full participation and uniform weights in Wang et al., "A Field Guide to Federated
Optimization" (arXiv:2107.06917v1, Section 6.1). The goal is Theorem 1, equation (15); the
milestones are Lemma 1 (perturbed iterate analysis), Lemma 2 (bounded client drift) and the
tuned-step consequence, equations (16)–(17).

* `Formal.FedAvgLocalSGD.Defs`: the model (client assumptions, `Run` as an instance of the shared
  `Formal.Common.StochasticRun`, local states and the shadow sequence).
* `Formal.FedAvgLocalSGD.Statements`: one Prop-valued definition per target.
* `Formal.FedAvgLocalSGD.Proofs`: one theorem per target.
-/
