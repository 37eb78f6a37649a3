#!/usr/bin/env bash
# Failure recovery (issue 7): a 3-node TCP cluster (augur launch --local)
# checkpoints every epoch; one rank is killed (SIGKILL) mid-run; the survivors
# stop naming it; the run resumes from the last complete checkpoint on 2 nodes
# and passes --verify (every push before the checkpoint and after the resume
# applied exactly once). Then `launch --restart-on-failure` recovers by itself.
source "$(dirname "$0")/lib.sh"

CK="$WORK/ck"
JOB="--workload zipf --pattern mixed --keys 20000 --batches 30 --workers 2 --verify \
  --policy adaptive --peer-timeout 5s --checkpoint-dir $CK --checkpoint-every 1"

# A long run: 200 epochs would take minutes; it is killed after its second checkpoint.
"$AUGUR" launch --local 3 --kill-after 20s -- $JOB --epochs 200 --out "$WORK/a" \
  >"$WORK/a.log" 2>&1 &
launch=$!
CLEANUP_CMDS+=("kill $launch 2>/dev/null")
for _ in $(seq 600); do
  grep -qx "ckpt-[2-9]" "$CK/LATEST" 2>/dev/null && break
  kill -0 "$launch" 2>/dev/null || { cat "$WORK/a.log"; fail "the run ended before its second checkpoint"; }
  sleep 0.1
done
grep -qx "ckpt-[2-9]" "$CK/LATEST" || { cat "$WORK/a.log"; fail "no second checkpoint within 60s"; }
victim=$(pgrep -P "$launch" -f -- "--rank 2 " | head -1)
[ -n "$victim" ] || { cat "$WORK/a.log"; fail "rank 2's process not found"; }
kill -9 "$victim"
set +e
wait "$launch"
code=$?
set -e
[ "$code" != 0 ] || fail "launch succeeded although rank 2 was killed"
grep -q "lost rank 2" "$WORK/a.log" || { cat "$WORK/a.log"; fail "no survivor named rank 2"; }
latest=$(cat "$CK/LATEST")
epoch=${latest#ckpt-}
pass "rank 2 killed after $latest; survivors stopped: $(grep -m1 'lost rank 2' "$WORK/a.log")"

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
rm -rf "$CK"
"$AUGUR" launch --local 3 --restart-on-failure 2 --kill-after 20s -- $JOB --epochs 8 \
  --out "$WORK/d" >"$WORK/d.log" 2>&1 &
launch=$!
CLEANUP_CMDS+=("kill $launch 2>/dev/null")
for _ in $(seq 600); do
  grep -qx "ckpt-[1-9]" "$CK/LATEST" 2>/dev/null && break
  sleep 0.1
done
victim=$(pgrep -P "$launch" -f -- "--rank 1 " | head -1)
[ -n "$victim" ] || { cat "$WORK/d.log"; fail "rank 1's process not found"; }
kill -9 "$victim"
wait "$launch" || { cat "$WORK/d.log"; fail "launch --restart-on-failure did not recover"; }
grep -q "restarting from" "$WORK/d.log" || { cat "$WORK/d.log"; fail "no restart happened"; }
expect_json "$WORK/d/result.json" verified true
pass "launch --restart-on-failure: $(grep -m1 'restarting from' "$WORK/d.log"); verified"
