#!/usr/bin/env bash
# The benchmark scripts and demo.sh refuse bad input at once, with one line
# on stderr and exit code 2, before they install, build or delete anything
# (demo.sh is run with --check-settings only: it stops after its checks).
# Each command runs under a timeout, so a check that let bad input through
# fails here instead of running the benchmark to its end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_refused() {  # expect_refused PATTERN COMMAND...
  local pattern=$1 rc=0
  shift
  timeout 60 "$@" > "$work/out" 2> "$work/err" < /dev/null || rc=$?
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
# A value missing at the end, or an empty list, is refused (it once started the whole run).
for opt in --out --repeats --threads --workloads; do
  expect_refused "^bench-efficiency.sh: $opt needs a value" "$root/scripts/bench-efficiency.sh" "$opt"
done
for opt in --out --repeats --workloads --nodes --networks; do
  expect_refused "^bench-fidelity.sh: $opt needs a value" "$root/scripts/bench-fidelity.sh" "$opt"
done
for list in "" "," "kge," ",kge" "kge,,mf"; do
  expect_refused "--workloads needs a comma-separated list without empty items" \
    "$root/scripts/bench-efficiency.sh" --workloads "$list"
  expect_refused "--workloads needs a comma-separated list without empty items" \
    "$root/scripts/bench-fidelity.sh" --workloads "$list"
done
expect_refused "--workloads names 'kge' twice" "$root/scripts/bench-efficiency.sh" --workloads kge,kge
expect_refused "--nodes needs a comma-separated list" "$root/scripts/bench-fidelity.sh" --nodes ""
# QUALITY_CELLS: a glob is a name (not the repository's files), and "," or blanks are not "all".
expect_refused "QUALITY_CELLS names no cell '\*'" env QUALITY_CELLS='*' "$root/scripts/bench-quality.sh" "$work/q"
for cells in "," " " ""; do
  expect_refused "QUALITY_CELLS names no cell \(unset it" \
    env QUALITY_CELLS="$cells" "$root/scripts/bench-quality.sh" "$work/q"
done
expect_refused "QUALITY_KGE_EPOCHS must be a positive integer, not 'abc'" \
  env QUALITY_CELLS=mf-r32 QUALITY_KGE_EPOCHS=abc "$root/scripts/bench-quality.sh" "$work/q"
expect_refused "QUALITY_MF_EPOCHS must be a positive integer, not '0'" \
  env QUALITY_MF_EPOCHS=0 "$root/scripts/bench-quality.sh" "$work/q"
[ ! -e "$work/q" ] || fail "bench-quality.sh made its output folder before refusing"
expect_refused "the second argument is --full or --, not 'full'" "$root/scripts/bench-sim.sh" build full
expect_refused "no augur binary at $work/nobuild/bin/augur" "$root/scripts/bench-sim.sh" "$work/nobuild"

# demo.sh checks every DEMO_* value before it installs, builds or deletes results/demo.
demo=("$root/scripts/demo.sh" --check-settings)
"${demo[@]}" > /dev/null 2>&1 || fail "demo.sh --check-settings refused the defaults"
env DEMO_TRAIN=0 DEMO_NODES=1,8 DEMO_SYNC_PERIOD=500us "${demo[@]}" > /dev/null 2>&1 ||
  fail "demo.sh --check-settings refused valid settings"
for bad in abc -5 1e3 007; do
  expect_refused "^demo.sh: DEMO_TRAIN \(0: all\) must be a positive integer, not '$bad'" env DEMO_TRAIN="$bad" "${demo[@]}"
done
expect_refused "DEMO_EPOCHS must be a positive integer, not '0'" env DEMO_EPOCHS=0 "${demo[@]}"
expect_refused "DEMO_DIM must be a positive integer, not '3.5'" env DEMO_DIM=3.5 "${demo[@]}"
expect_refused "DEMO_EVAL_TRIPLES must be a positive integer" env DEMO_EVAL_TRIPLES=-1 "${demo[@]}"
expect_refused "DEMO_POLICIES: unknown item 'bogus'" env DEMO_POLICIES=classic,bogus "${demo[@]}"
expect_refused "DEMO_POLICIES needs a comma-separated list" env DEMO_POLICIES=classic, "${demo[@]}"
expect_refused "DEMO_NODES item must be a positive integer, not 'x'" env DEMO_NODES=8,x "${demo[@]}"
expect_refused "DEMO_NODES needs a comma-separated list" env DEMO_NODES=8,,2 "${demo[@]}"
expect_refused "DEMO_PARTITION must be" env DEMO_PARTITION=metis "${demo[@]}"
expect_refused "DEMO_SAMPLING must be" env DEMO_SAMPLING=exact "${demo[@]}"
expect_refused "DEMO_SYNC_PERIOD must be a duration with a unit" env DEMO_SYNC_PERIOD=5 "${demo[@]}"
expect_refused "unknown argument '--bogus'" env "$root/scripts/demo.sh" --bogus
echo "bench scripts and demo.sh: bad input refused"
