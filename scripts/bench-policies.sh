#!/usr/bin/env bash
# Benchmark (not a test): every policy on every zipf access pattern in the
# simulator, 8 nodes x 4 workers, 1 epoch, fixed seed; prints the simulated
# epoch time per policy and pattern, the speed-up of adaptive over classic,
# and adaptive's late-access share (intent signalled ahead, key still remote)
# beside its no-notice share (intent for the current clock only: no time to act).
# Usage: scripts/bench-policies.sh [OUT_DIR] [extra sim flags]
# The key space defaults to 10,000 keys, so a key is reused about 10 times per
# epoch (3,200 accesses per worker x 32 workers): like WordNet entities, each in
# about 6 training triples per epoch. With the workload's default 100,000 keys
# nearly every access is a key's first touch, which no training run looks like;
# pass --keys 100000 to see that case.
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
out=${1:-results/bench-policies}
shift || true
augur=build/bin/augur
[ -x "$augur" ] || { echo "build first: scripts/test.sh or scripts/demo.sh" >&2; exit 1; }
policies=(classic replicate-all relocate nups adaptive)
patterns=(uniform hot partitioned mixed)
keys=(--keys 10000)
for a in "$@"; do [ "$a" = --keys ] && keys=(); done
mkdir -p "$out"
for pat in "${patterns[@]}"; do
  for pol in "${policies[@]}"; do
    "$augur" sim --nodes 8 --workers 4 --workload zipf --pattern "$pat" --policy "$pol" \
      --epochs 1 --seed 3 --verify --no-progress --out "$out/$pat-$pol" "${keys[@]}" "$@" >/dev/null
  done
done
python3 - "$out" "${patterns[@]}" -- "${policies[@]}" <<'PY'
import json, sys
out = sys.argv[1]; args = sys.argv[2:]; split = args.index('--')
patterns, policies = args[:split], args[split + 1:]
res = {(pa, po): json.load(open(f"{out}/{pa}-{po}/result.json")) for pa in patterns for po in policies}
keys = res[(patterns[0], policies[0])]["config"]["zipf"]["keys"]
print(f"simulated epoch seconds (8 nodes x 4 workers, zipf, {keys} keys, seed 3); * = best")
print(f"{'pattern':<12}" + "".join(f"{p:>15}" for p in policies) + f"{'adaptive/best':>15}{'classic/adapt':>15}{'late%':>8}{'no-notice%':>11}")
for pa in patterns:
    t = {po: res[(pa, po)]["epoch_seconds"][0] for po in policies}
    best = min(t.values())
    row = "".join(f"{t[po]:>14.6f}{'*' if t[po] == best else ' '}" for po in policies)
    a = res[(pa, "adaptive")]
    ok = all(res[(pa, po)].get("verified") for po in policies)
    print(f"{pa:<12}{row}{t['adaptive'] / best:>15.3f}{t['classic'] / t['adaptive']:>15.2f}"
          f"{100 * a.get('late_access_ratio', 0):>8.2f}"
          f"{100 * a.get('unannounced_access_ratio', 0):>11.2f}" + ("" if ok else "  NOT VERIFIED"))
print("late%: adaptive's remote accesses to keys whose intent was signalled ahead;")
print("no-notice%: those under an intent signalled for the very clock of the access (clock 0)")
PY
