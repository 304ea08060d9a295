import Mathlib

/-!
# Gaussian initialization laws

Definitions shared by missions whose networks start from independent Gaussian parameters.
Every law here is a finite product measure (`MeasureTheory.Measure.pi`) of the real Gaussian
`ProbabilityTheory.gaussianReal 0 v`, whose variance `v` is an `ℝ≥0`. A variance of `0` gives the
Dirac mass at `0`, as `gaussianReal 0 0 = dirac 0` in Mathlib.

* `iidGaussian ι v`: the coordinates of a parameter vector `ι → ℝ` (with `ι` finite) are
  independent and each has law `N(0, v)`.
* `stdGaussianInit ι`: the case `v = 1`, that is, every parameter is `N(0, 1)`.
* `fanInVariance v n`: the fan-in scaled variance `v / n`.
* `gaussianWeightLaw m n v`: the law of an `m × n` weight matrix, stored destination first and
  then source (`Fin m × Fin n → ℝ`), with independent `N(0, v / n)` entries (`n` is the fan-in).
* `gaussianBiasLaw n v`: the law of a bias vector in `Fin n → ℝ` with independent `N(0, v)`
  entries.

This file holds definitions only.
-/

open MeasureTheory ProbabilityTheory
open scoped NNReal

namespace Formal.Common

noncomputable section

/-- The law of a finite family of independent centered real Gaussians of common variance `v`:
the product measure `⊗_{i : ι} N(0, v)` on `ι → ℝ`. -/
def iidGaussian (ι : Type*) [Fintype ι] (v : ℝ≥0) : Measure (ι → ℝ) :=
  Measure.pi fun _ : ι => gaussianReal 0 v

/-- Standard Gaussian initialization of a finite family of real parameters: every coordinate is
independent with law `N(0, 1)`. -/
def stdGaussianInit (ι : Type*) [Fintype ι] : Measure (ι → ℝ) :=
  iidGaussian ι 1

/-- The fan-in scaled variance `v / n` (for instance `σ² / fan_in`). With `n = 0` this is `0`,
by the convention `x / 0 = 0` in `ℝ≥0`. -/
def fanInVariance (v : ℝ≥0) (n : ℕ) : ℝ≥0 :=
  -- lint: allow junk-div because fan-in n = 0 gives variance 0 by the documented convention; no
  --   statement of the workspace uses fanInVariance
  v / (n : ℝ≥0)

/-- The law of a weight matrix with `fanOut` rows (destination neurons) and `fanIn` columns
(source neurons), stored as `Fin fanOut × Fin fanIn → ℝ`: its entries are independent with law
`N(0, v / fanIn)`. -/
def gaussianWeightLaw (fanOut fanIn : ℕ) (v : ℝ≥0) : Measure (Fin fanOut × Fin fanIn → ℝ) :=
  iidGaussian (Fin fanOut × Fin fanIn) (fanInVariance v fanIn)

/-- The law of a bias vector of length `n` whose entries are independent with law `N(0, v)`. -/
def gaussianBiasLaw (n : ℕ) (v : ℝ≥0) : Measure (Fin n → ℝ) :=
  iidGaussian (Fin n) v

end

end Formal.Common
