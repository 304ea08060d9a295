#!/usr/bin/env bash
# Run one kernel checker over a module prefix and record what it said, for `missions check
# --lean --checks DIR` (format missions-check/1, docs/kernel-tiers.md). The record names the
# commit it ran on, so a record from another commit never counts. Exits with the checker's
# code: the step shows red, the gate decides what it means per target.
# Usage: record-check.sh DIR CHECKER MODULE TOOL -- COMMAND...
set -uo pipefail

dir="$1" checker="$2" module="$3" tool="$4"
shift 4
if [ "${1:-}" != "--" ]; then
  echo "record-check.sh: expected -- before the command" >&2
  exit 2
fi
shift
mkdir -p "$dir"
log="$dir/$checker.log"

"$@" 2>&1 | tee "$log"
code="${PIPESTATUS[0]}"

jq -n \
  --arg checker "$checker" \
  --arg module "$module" \
  --arg tool "$tool" \
  --arg commit "$(git rev-parse HEAD)" \
  --arg command "$*" \
  --argjson code "$code" \
  '{format: "missions-check/1", checker: $checker, modules: [$module], tool: $tool,
    workspace_commit: $commit, command: $command, exit_code: $code}' \
  > "$dir/$checker.json"
exit "$code"
