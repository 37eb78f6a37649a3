#!/usr/bin/env bash
# scripts/lib/time_to_quality.py: the baseline's clock is the speed-up
# column's reference epoch, so "per-epoch speed-up" and "speed-up to the same
# quality" agree when both reach the target at the same epoch; a results.csv
# without the reference falls back to the baseline's CPU time over the cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
csv() {  # csv REFERENCE_EPOCH_SECONDS (empty: no such column value)
  cat > "$work/results.csv" <<CSV
run,policy,nodes,workers_per_node,epoch_seconds,epoch_cpu_seconds,train_loss_per_epoch,reference_cores,reference_epoch_seconds,speedup_over_single,quality,quality_name,diverged
single,single,1,2,5;5,10;10,0.4;0.2,2.0,,,0.5,quality.test_mrr,false
sim-adaptive-n8,adaptive,8,4,1;1,,0.4;0.2,2.0,$1,4.0,0.49,quality.test_mrr,false
CSV
}
csv 4.0
/usr/bin/python3 "$root/scripts/lib/time_to_quality.py" "$work/results.csv" > "$work/out"
# Target 0.2, reached by both at their second epoch: 2 x 4 s against 2 x 1 s.
grep -qF "| sim-adaptive-n8 | 0.2 | 8 | 2 | **4.00x** | 4.00x |" "$work/out" ||
  { cat "$work/out"; fail "the baseline is not timed at the reference epoch"; }
csv ""
/usr/bin/python3 "$root/scripts/lib/time_to_quality.py" "$work/results.csv" > "$work/out"
# No reference: 10 s of CPU per epoch over 2 cores, 2 x 5 s against 2 x 1 s.
grep -qF "| sim-adaptive-n8 | 0.2 | 10 | 2 | **5.00x** |" "$work/out" ||
  { cat "$work/out"; fail "the fallback does not use the CPU time over the cores"; }
# A diverged baseline is no reference: one line saying so, exit 1, no table.
sed -i 's/^single,\(.*\),false$/single,\1,true/' "$work/results.csv"
grep -q '^single,.*,true$' "$work/results.csv" || fail "the test did not mark the baseline diverged"
rc=0
/usr/bin/python3 "$root/scripts/lib/time_to_quality.py" "$work/results.csv" > "$work/out" 2> "$work/err" || rc=$?
[[ $rc == 1 ]] || { cat "$work/out" "$work/err"; fail "a diverged baseline gave exit code $rc, not 1"; }
[[ $(wc -l < "$work/err") == 1 ]] && grep -qF "the baseline diverged" "$work/err" ||
  { cat "$work/err"; fail "a diverged baseline is not one line saying so"; }
! grep -q "x |" "$work/out" || { cat "$work/out"; fail "a speed-up against a diverged baseline"; }
echo "time_to_quality: the baseline's clock follows the speed reference"
