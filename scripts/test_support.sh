# Sourced by the scripts' host tests (test_*.sh): a scratch folder `work` removed at exit, and
# check WHAT COMMAND..., which runs COMMAND and counts a failure in `failures` unless it succeeds.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
