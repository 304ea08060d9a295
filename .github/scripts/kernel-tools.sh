#!/usr/bin/env bash
# Build the kernel tier's tools at the commits the workflow pins, and tell later steps where
# they are (through $GITHUB_ENV). Usage: kernel-tools.sh DIR TOOL... where TOOL is one of
# landrun, comparator, lean4export, nanoda. docs/kernel-tiers.md says why each pin and flag.
set -euo pipefail

dir="$1"
shift
mkdir -p "$dir"

# Clone REPOSITORY into DIR/NAME at COMMIT (a full commit, never a branch or tag).
checkout() {
  local name="$1" repository="$2" commit="$3"
  git clone --quiet "$repository" "$dir/$name"
  git -C "$dir/$name" -c advice.detachedHead=false checkout --quiet --detach "$commit"
}

# Comparator and the lean4export its lake-manifest.json pins (built by Lake, from that manifest).
comparator_checkout() {
  if [ ! -d "$dir/comparator" ]; then
    checkout comparator https://github.com/leanprover/comparator "$COMPARATOR_COMMIT"
    test "$(git -C "$dir/comparator" rev-parse "v4.30.0^{commit}")" = "$COMPARATOR_COMMIT"
  fi
}

for tool in "$@"; do
  case "$tool" in
    landrun)
      checkout landrun https://github.com/Zouuup/landrun "$LANDRUN_COMMIT"
      (cd "$dir/landrun" && go build -o landrun cmd/landrun/main.go)
      echo "COMPARATOR_LANDRUN=$dir/landrun/landrun" >> "$GITHUB_ENV"
      ;;
    comparator)
      comparator_checkout
      (cd "$dir/comparator" && lake build comparator)
      echo "COMPARATOR=$dir/comparator/.lake/build/bin/comparator" >> "$GITHUB_ENV"
      ;;
    lean4export)
      comparator_checkout
      (cd "$dir/comparator" && lake build lean4export)
      export_dir="$dir/comparator/.lake/packages/lean4export"
      test "$(git -C "$export_dir" rev-parse HEAD)" = "$LEAN4EXPORT_COMMIT"
      echo "COMPARATOR_LEAN4EXPORT=$export_dir/.lake/build/bin/lean4export" >> "$GITHUB_ENV"
      ;;
    nanoda)
      checkout nanoda https://github.com/ammkrn/nanoda_lib "$NANODA_COMMIT"
      (cd "$dir/nanoda" && cargo build --release --locked)
      echo "COMPARATOR_NANODA=$dir/nanoda/target/release/nanoda_bin" >> "$GITHUB_ENV"
      ;;
    *)
      echo "kernel-tools.sh: unknown tool $tool" >&2
      exit 2
      ;;
  esac
done
