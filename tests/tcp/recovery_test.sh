#!/usr/bin/env bash
# Failure recovery: a 3-node TCP cluster (augur launch --local)
# checkpoints every epoch; one rank is killed (SIGKILL) mid-run; the survivors
# stop naming it; the run resumes from the last complete checkpoint on 2 nodes
# and passes --verify (every push before the checkpoint and after the resume
# applied exactly once). Then `launch --restart-on-failure` recovers by itself.
source "$(dirname "$0")/lib.sh"

CK="$WORK/ck"
JOB="--workload zipf --pattern mixed --keys 20000 --batches 30 --workers 2 --verify \
  --policy adaptive --peer-timeout 5s --checkpoint-dir $CK --checkpoint-every 1"

# A long run: 200 epochs would take minutes; it is killed after its second checkpoint.
kill_after_second_checkpoint 20s 200 $JOB

# Resume the last complete checkpoint on 2 nodes, two more epochs.
"$AUGUR" launch --local 2 -- $JOB --epochs $((epoch + 2)) --resume "$CK" --out "$WORK/b" \
  >"$WORK/b.log" 2>&1 || { cat "$WORK/b.log"; fail "the resumed run failed"; }
expect_json "$WORK/b/result.json" verified true
expect_json "$WORK/b/result.json" nodes 2
pass "resumed $latest of the 3-node run on 2 nodes: verified"

# A corrupted checkpoint is refused by every rank, naming the file.
cp -r "$CK/$latest" "$WORK/bad"
printf '\x01' | dd of="$WORK/bad/node-1.rows" bs=1 seek=30 conv=notrunc status=none
set +e
"$AUGUR" launch --local 2 -- $JOB --epochs $((epoch + 2)) --resume "$WORK/bad" \
  --out "$WORK/c" >"$WORK/c.log" 2>&1
code=$?
set -e
[ "$code" != 0 ] || fail "a corrupted checkpoint was accepted"
grep -q "bad/node-1.rows: checksum" "$WORK/c.log" || { cat "$WORK/c.log"; fail "refusal does not name the file"; }
pass "corrupted checkpoint refused: $(grep -m1 -o 'checkpoint file.*' "$WORK/c.log")"

# --restart-on-failure: rank 1 is killed; launch restarts every rank from the
# last checkpoint and the run completes verified.
restart_after_kill 20s 8 $JOB
expect_json "$WORK/d/result.json" verified true
pass "launch --restart-on-failure: $(grep -m1 'restarting from' "$WORK/d.log"); verified"

# A checkpoint that cannot be written: the run fails with one line naming the
# error and publishes nothing; no rank hangs, and the failing node shuts down
# through its normal path (its peers then see it gone). (A --checkpoint-dir
# that cannot be created is refused before training: here the directory is
# fine, but a directory stands where LATEST is written.)
mkdir -p "$WORK/blocker/ck/LATEST.part/x"
set +e
timeout 120 "$AUGUR" launch --local 2 -- --workload zipf --pattern mixed --keys 20000 --batches 30 \
  --workers 2 --policy adaptive --peer-timeout 5s --epochs 3 \
  --checkpoint-dir "$WORK/blocker/ck" --checkpoint-every 1 --out "$WORK/e" >"$WORK/e.log" 2>&1
code=$?
set -e
[ "$code" != 0 ] && [ "$code" != 124 ] || { cat "$WORK/e.log"; fail "an unwritable checkpoint gave exit code $code"; }
grep -q "checkpoint failed: .*blocker" "$WORK/e.log" || { cat "$WORK/e.log"; fail "no line names the checkpoint failure"; }
[ ! -e "$WORK/blocker/ck/LATEST" ] || fail "a checkpoint was published"
pass "unwritable checkpoint: $(grep -m1 -o 'checkpoint failed: .*' "$WORK/e.log")"
