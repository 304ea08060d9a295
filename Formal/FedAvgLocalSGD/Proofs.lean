import Formal.FedAvgLocalSGD.Statements

/-!
# FedAvg / local SGD with full participation: the proofs

One theorem per target of the mission `fedavg-local-sgd`. The type of each theorem is exactly the
corresponding statement constant of `Formal.FedAvgLocalSGD.Statements`. All proofs are open.
-/

namespace Formal.FedAvgLocalSGD

/-- Lemma 1 (Wang et al., Section 6.1.2, PDF p. 41; Appendix D, PDF pp. 86–88). Open. -/
theorem lemma_1 : Lemma1 := by
  sorry

/-- Lemma 2 (Wang et al., Section 6.1.2, PDF p. 41; Appendix D, PDF pp. 86–88). Open. -/
theorem lemma_2 : Lemma2 := by
  sorry

/-- Goal: Theorem 1, equation (15) (Wang et al., Section 6.1.2, PDF p. 41). Open. -/
theorem goal : Goal := by
  sorry

/-- Tuned step size, equations (16)–(17) (Wang et al., Section 6.1.2, PDF p. 41). Open. -/
theorem tuned_step_bound : TunedStepBound := by
  sorry

end Formal.FedAvgLocalSGD
