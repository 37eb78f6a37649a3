#!/usr/bin/env bash
# Messages larger than --max-frame-bytes are split by keys: with
# the smallest limit (1024 bytes), sync rounds, refreshes, grants and pulls
# of a zipf run over real TCP need many frames each, and the run still
# verifies every key's exact sum (adaptive: hand-overs and pulls split, its
# rounds are small).
source "$(dirname "$0")/lib.sh"

for policy in replicate-all adaptive; do
  timeout 120 "$AUGUR" launch --local 2 -- $SMALL --policy "$policy" --max-frame-bytes 1024 \
    --out "$WORK/$policy" >"$WORK/$policy.log" 2>&1 ||
    { tail -20 "$WORK/$policy.log"; fail "zipf with $policy and 1 KiB frames did not finish"; }
  r="$WORK/$policy/result.json"
  expect_json "$r" verified true
  python3 - "$r" "$policy" <<'PY' || fail "$policy: no sync round larger than a frame"
import json, sys
r = json.load(open(sys.argv[1]))
per_round = (r["replica_syncs"] + r["replica_polls"]) / max(1, r["sync_rounds"])
if sys.argv[2] == "replicate-all":  # every touched key replicated: big rounds
    assert per_round * 12 > 1024, f"{per_round:.0f} keys per round fit one frame"  # id + slot
assert r["bytes_sent"] / r["messages_sent"] <= 1024, "frames above the limit"
print(f"{per_round:.0f} keys per sync round, {r['messages_sent']} frames")
PY
  pass "zipf over TCP with $policy and --max-frame-bytes 1024: split, verified"
done
