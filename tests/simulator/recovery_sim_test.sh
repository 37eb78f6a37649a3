#!/usr/bin/env bash
# Recovery in the simulator: a 6-node simulated zipf run
# checkpoints every 2 epochs; node 2 is turned off (--fail-node) shortly
# before the epoch-4 checkpoint is committed; the driver restarts the simulated cluster
# from ckpt-2, finishes, passes --verify, and reports the lost work (epoch 3
# and all or most of epoch 4) and the recomputed work. The same for mf (a batch
# workload, whole rows restored), whose test RMSE matches the uninterrupted run's.
# Usage: recovery_sim_test.sh AUGUR
set -euo pipefail
augur=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL (recovery_sim): $*" >&2; exit 1; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }

# run NAME ARGS...: a reference run (no failure) learns when ckpt-4 is taken,
# then the same run fails just before it and recovers.
run() {
  local name=$1
  shift
  "$augur" sim "$@" --no-progress --epochs 5 --checkpoint-dir "$work/$name-ref" \
    --checkpoint-every 2 --out "$work/$name-ref-out" >"$work/log" 2>&1 ||
    { cat "$work/log"; fail "$name: the reference run failed"; }
  local t2 t4 at
  t2=$(field "$work/$name-ref/ckpt-2/manifest.json" "['taken_at_seconds']")
  t4=$(field "$work/$name-ref/ckpt-4/manifest.json" "['taken_at_seconds']")
  at=$(python3 -c "import sys; a,b=map(float,sys.argv[1:]); print(f'{b - 0.2*(b-a)/2:.9f}')" "$t2" "$t4")
  timeout 300 "$augur" sim "$@" --no-progress --epochs 5 --checkpoint-dir "$work/$name-ck" \
    --checkpoint-every 2 --fail-node "2@${at}s" --out "$work/$name" >"$work/log" 2>&1 ||
    { cat "$work/log"; fail "$name: the run with --fail-node 2@${at}s did not recover"; }
  grep -q "restarting from .*ckpt-2" "$work/log" || { cat "$work/log"; fail "$name: not restarted from ckpt-2"; }
  python3 - "$work/$name/result.json" "$at" "$t2" <<'PY' || fail "$name: recovery report"
import json, sys
r = json.load(open(sys.argv[1]))
at, t2 = float(sys.argv[2]), float(sys.argv[3])
rec = r["recovery"]
assert rec["failed_node"] == 2 and abs(rec["failed_at_seconds"] - at) < 1e-9, rec
assert rec["checkpoint_epoch"] == 2 and abs(rec["checkpoint_taken_at_seconds"] - t2) < 1e-9, rec
assert abs(rec["lost_simulated_seconds"] - (at - t2)) < 1e-9, rec
# Epochs 3 and 4 are done by then or epoch 4 is under way: 1 or 2 whole epochs lost.
lost = rec["epochs_done_before_failure"] - 2
assert lost in (1, 2) and rec["lost_whole_epochs"] == lost, rec
assert rec["recomputed_whole_epochs"] == lost and rec["recomputed_simulated_seconds"] > 0, rec
assert rec["total_simulated_seconds"] > at, rec
assert r["resumed_after_epoch"] == 2 if "resumed_after_epoch" in r else True
assert len(r["epoch_seconds"]) == 3, r["epoch_seconds"]
print(f"lost {rec['lost_simulated_seconds']:.6f} s ({lost} whole epochs), "
      f"recomputed {rec['recomputed_simulated_seconds']:.6f} s")
PY
}

run zipf --nodes 6 --workers 2 --workload zipf --keys 4000 --batch-size 16 --batches 6 \
  --pattern mixed --policy adaptive --verify --seed 4
[[ $(field "$work/zipf/result.json" "['verified']") == True ]] || fail "zipf: recovered run not verified"
echo "ok: zipf, node 2 failed before ckpt-4: recovered from ckpt-2, verified"

run mf --nodes 4 --workers 2 --workload mf --mf-rows 400 --mf-cols 200 --mf-nnz 8000 \
  --policy adaptive --seed 5
python3 - "$work/mf/result.json" "$work/mf-ref-out/result.json" <<'PY' || fail "mf: recovered quality"
import json, sys
q, ref = (json.load(open(p))["quality"]["test_rmse"] for p in sys.argv[1:])
assert abs(q - ref) <= 0.02 * ref, f"test RMSE recovered {q}, uninterrupted {ref}"
print(f"mf test RMSE recovered {q:.5f}, uninterrupted {ref:.5f}")
PY
echo "ok: mf, node 2 failed before ckpt-4: recovered from ckpt-2, uninterrupted quality"
