#!/usr/bin/env bash
# Every policy over real TCP on a batch workload, across an epoch boundary.
# Regression: intents activated by a worker while the protocol thread was
# still sending a hand-over let the worker's localize request overtake it;
# the home bounced the request back and the pull waited forever (fixed by
# the node-wide send queue, core/protocol/node.h). Each run must finish well
# inside its timeout, train every rating of every epoch, and lower the loss.
source "$(dirname "$0")/lib.sh"

MF="--workload mf --mf-rows 4000 --mf-cols 800 --mf-nnz 100000 --epochs 3 --workers 2 --seed 5"
expected=""
for policy in classic relocate nups adaptive replicate-all; do
  timeout 120 "$AUGUR" launch --local 2 -- $MF --policy "$policy" --out "$WORK/$policy" \
    >"$WORK/$policy.log" 2>&1 || { tail -20 "$WORK/$policy.log"; fail "mf with $policy did not finish"; }
  r="$WORK/$policy/result.json"
  expect_json "$r" policy "\"$policy\""
  samples=$(json_get "$r" samples)
  [ -n "$expected" ] || expected=$samples
  [ "$samples" = "$expected" ] || fail "$policy trained $samples ratings, classic $expected"
  python3 - "$r" "$policy" <<'PY' || fail "$policy: training did not progress"
import json, sys
r = json.load(open(sys.argv[1]))
loss = r["train_loss_per_epoch"]
assert len(loss) == 3 and loss[2] < loss[0], f"loss per epoch {loss}"
if sys.argv[2] in ("relocate", "nups", "adaptive"):
    assert r["relocations"] + r["replicas_created"] > 0, "no relocation or replica"
# Several nodes: ratings whose rows are held here are stepped in place
# (Worker::StepHeldPair), and most accesses are local after the first epoch.
assert "in place" in r["row_access"], r["row_access"]
assert r["local_accesses"] > 0, "no local access"
PY
  pass "mf over TCP with $policy: 3 epochs, $samples ratings, loss fell"
done
