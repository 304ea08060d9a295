#!/usr/bin/env bash
# nanoda over the whole environment of one module (Mathlib included): the export is piped,
# never written. A replay, not an axiom gate: `sorryAx` is permitted because open targets are
# `sorry` by design (the audit and Comparator judge axioms per target). The configuration is
# lean-action v1.6.0's default (scripts/run_nanoda.sh, nanoda-allow-sorry: true), read from
# stdin instead of a file; its keys are nanoda_lib's `Config` (src/util.rs). Needs COMPARATOR_LEAN4EXPORT and COMPARATOR_NANODA (kernel-tools.sh).
# Usage: nanoda-replay.sh MODULE
set -euo pipefail

module="$1"
config="$(mktemp)"
cat > "$config" <<JSON
{
  "use_stdin": true,
  "permitted_axioms": ["propext", "Classical.choice", "Quot.sound", "Lean.trustCompiler", "sorryAx"],
  "unpermitted_axiom_hard_error": false,
  "nat_extension": true,
  "string_extension": true,
  "print_success_message": true
}
JSON
lake env "$COMPARATOR_LEAN4EXPORT" "$module" | "$COMPARATOR_NANODA" "$config"
