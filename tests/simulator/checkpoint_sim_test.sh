#!/usr/bin/env bash
# Checkpoints in the simulator: an 8-node simulated run checkpoints
# every epoch; its epoch-1 checkpoint resumes on 5 simulated nodes and on the
# loopback runtime (3 nodes), both passing --verify. Usage: checkpoint_sim_test.sh AUGUR
set -euo pipefail
augur=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL (checkpoint_sim): $*" >&2; exit 1; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }
job=(--workload zipf --keys 4000 --batch-size 16 --batches 6 --pattern mixed --policy adaptive
  --workers 2 --verify --seed 4)

"$augur" sim --nodes 8 "${job[@]}" --no-progress --epochs 2 --checkpoint-dir "$work/ck" \
  --out "$work/a" >"$work/log" 2>&1 || { cat "$work/log"; fail "the checkpointed run failed"; }
[[ $(cat "$work/ck/LATEST") == ckpt-2 ]] || fail "LATEST is not ckpt-2"
[[ $(field "$work/ck/ckpt-1/manifest.json" "['nodes']") == 8 ]] || fail "manifest nodes != 8"
"$augur" sim --nodes 5 "${job[@]}" --no-progress --epochs 3 --resume "$work/ck/ckpt-1" \
  --out "$work/b" >"$work/log" 2>&1 || { cat "$work/log"; fail "resume on 5 simulated nodes failed"; }
[[ $(field "$work/b/result.json" "['verified']") == True ]] || fail "resume on 5 nodes not verified"
"$augur" loopback --nodes 3 "${job[@]}" --epochs 3 --resume "$work/ck/ckpt-1" \
  --out "$work/c" >"$work/log" 2>&1 || { cat "$work/log"; fail "resume on loopback failed"; }
[[ $(field "$work/c/result.json" "['verified']") == True ]] || fail "resume on loopback not verified"
echo "ok: sim checkpoint of 8 nodes resumed on 5 simulated and 3 loopback nodes, verified"
