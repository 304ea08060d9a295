import Lake
open Lake DSL

/-! The `missions` workspace: ML-theory missions formalized against a pinned Mathlib. -/

package «missions» where
  leanOptions := #[⟨`autoImplicit, false⟩, ⟨`relaxedAutoImplicit, false⟩]

require mathlib from git
  "https://github.com/leanprover-community/mathlib4.git" @ "c5ea00351c28e24afc9f0f84379aa41082b1188f"

@[default_target]
lean_lib Formal

/-- Kernel evidence for the catalog: `lake build audit`, then
`lake env .lake/build/bin/audit --request r.json --out o.json` (see docs/audit-format.md). -/
lean_exe audit where
  root := `Audit
