#!/usr/bin/env bash
# The benchmark scripts refuse bad input at once, with one line on stderr
# and exit code 2, before they install or build anything.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_refused() {  # expect_refused PATTERN COMMAND...
  local pattern=$1 rc=0
  shift
  "$@" > "$work/out" 2> "$work/err" || rc=$?
  [ "$rc" -eq 2 ] || { cat "$work/err" >&2; fail "$* exited $rc, expected 2"; }
  [ "$(wc -l < "$work/err")" -eq 1 ] || { cat "$work/err" >&2; fail "$*: not one stderr line"; }
  grep -qE -- "$pattern" "$work/err" || { cat "$work/err" >&2; fail "$*: stderr lacks '$pattern'"; }
}
expect_refused "QUALITY_CELLS names no cell 'kge-bogus'" \
  env QUALITY_CELLS="mf-r32,kge-bogus" "$root/scripts/bench-quality.sh" "$work/q"
expect_refused "QUALITY_CELLS names no cell 'mf'" \
  env QUALITY_CELLS="mf" "$root/scripts/bench-quality.sh" "$work/q"
[ ! -e "$work/q" ] || fail "bench-quality.sh made its output folder before refusing"
expect_refused "unknown workload 'bogus'" "$root/scripts/bench-efficiency.sh" --workloads kge,bogus
expect_refused "--repeats needs a positive integer" "$root/scripts/bench-efficiency.sh" --repeats 0
expect_refused "unknown option '--bogus'" "$root/scripts/bench-efficiency.sh" --bogus
echo "bench scripts: bad input refused"
