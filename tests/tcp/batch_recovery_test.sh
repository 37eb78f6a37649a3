#!/usr/bin/env bash
# Failure recovery of a batch workload: a 3-node TCP mf run
# checkpoints every epoch (whole rows: value and optimizer state); rank 2 is
# killed (SIGKILL) after the second checkpoint; the survivors stop naming it;
# the run resumes from the last checkpoint on 2 nodes (keys re-homed) and
# ends with a result that trained exactly the remaining epochs and improved
# on the checkpoint. Then `launch --restart-on-failure` recovers by itself.
source "$(dirname "$0")/lib.sh"

CK="$WORK/ck"
JOB="--workload mf --mf-rows 2000 --mf-cols 400 --mf-nnz 40000 --workers 2 --seed 5 \
  --policy adaptive --peer-timeout 5s --checkpoint-dir $CK --checkpoint-every 1"

# A long run, killed after its second checkpoint.
kill_after_second_checkpoint 60s 400 $JOB

# Resume on 2 nodes for two more epochs; compare with an evaluation of the
# checkpoint itself (resume, then 0 further epochs is not allowed, so a
# 1-epoch continuation serves as the reference point).
"$AUGUR" launch --local 2 -- $JOB --epochs $((epoch + 2)) --resume "$CK" --out "$WORK/b" \
  >"$WORK/b.log" 2>&1 || { cat "$WORK/b.log"; fail "the resumed run failed"; }
"$AUGUR" launch --local 2 -- $JOB --epochs $((epoch + 1)) --resume "$CK/$latest" \
  --out "$WORK/b1" >"$WORK/b1.log" 2>&1 || { cat "$WORK/b1.log"; fail "the 1-epoch resume failed"; }
expect_json "$WORK/b/result.json" nodes 2
python3 - "$WORK/b/result.json" "$WORK/b1/result.json" "$epoch" <<'PY' || fail "resumed run's result"
import json, sys
b, b1, epoch = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
assert b["resumed_after_epoch"] == epoch, b.get("resumed_after_epoch")
assert len(b["epoch_seconds"]) == 2 and len(b["train_loss_per_epoch"]) == 2, b["epoch_seconds"]
q, q1 = b["quality"]["test_rmse"], b1["quality"]["test_rmse"]
assert q < q1, f"2 more epochs: test RMSE {q}, 1 more: {q1}"
assert q < b["quality"]["test_rmse_of_mean"], q
print(f"test RMSE after {epoch}+1 epochs {q1:.4f}, {epoch}+2 epochs {q:.4f}")
PY
pass "resumed $latest of the 3-node run on 2 nodes: finished with a result"

# --restart-on-failure: rank 1 is killed; launch restarts every rank from the
# last checkpoint and the run completes. 60 epochs, so that the run is still
# going when the kill comes (6 epochs took 0.5 s of wall time here, and once
# ended before the kill: "no restart happened").
restart_after_kill 60s 60 $JOB
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["quality"]["test_rmse"] > 0' \
  "$WORK/d/result.json" || fail "no quality in the restarted run's result"
pass "launch --restart-on-failure: $(grep -m1 'restarting from' "$WORK/d.log"); finished"
