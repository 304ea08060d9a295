import Lake
open Lake DSL

/-! The `missions` workspace: ML-theory missions formalized against a pinned Mathlib.

The package is named after its library (`Formal`) because lean-action's `nanoda` step exports
the module named by the `package` line, and `leanchecker` without arguments checks the module
named by the manifest's package name (see docs/kernel-tiers.md). -/

package Formal where
  leanOptions := #[⟨`autoImplicit, false⟩, ⟨`relaxedAutoImplicit, false⟩]

require mathlib from git
  "https://github.com/leanprover-community/mathlib4.git" @ "c5ea00351c28e24afc9f0f84379aa41082b1188f"

@[default_target]
lean_lib Formal

/-- Kernel evidence for the catalog: `lake build audit`, then
`lake env .lake/build/bin/audit --request r.json --out o.json` (see docs/audit-format.md). -/
lean_exe audit where
  root := `Audit

/-- Comparator challenges: one module per mission, generated (never committed) by
`missions export --format comparator -o comparator` (see docs/comparator.md). Not a default
target: only Comparator builds it, inside its sandbox. -/
lean_lib Challenge where
  srcDir := "comparator"
