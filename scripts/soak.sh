#!/usr/bin/env bash
# Soak test: for MINUTES minutes, 4 `augur run` processes x 2 worker
# threads (augur launch --local 4) train the zipf workload under relocation
# storms (policies relocate and adaptive on the hot and mixed patterns), a
# random rank is killed (SIGKILL) at a random time after a checkpoint, and the
# run resumes from the last checkpoint on 4 nodes and must pass --verify.
# Every second the resident memory (VmHWM, peak RSS) of every rank is sampled
# into runs/soak/rss.csv; at the end the first and last quarter of the
# samples are compared per rank (memory must not grow without bound).
#   scripts/soak.sh [MINUTES]
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

minutes=${1:-5}
if ! [[ "$minutes" =~ ^[0-9]+$ ]] || [ "$minutes" -lt 1 ]; then
  log "soak.sh: MINUTES must be a positive integer, got '$minutes'"
  exit 2
fi
install_deps
log "release build (build/)"
AUGUR_TARGETS=augur build build -DCMAKE_BUILD_TYPE=Release
AUGUR=$AUGUR_ROOT/build/bin/augur

OUT=runs/soak
rm -rf "$OUT"
mkdir -p "$OUT"
echo "seconds,round,phase,rank,vm_rss_kb,vm_hwm_kb" >"$OUT/rss.csv"
start=$(date +%s)
deadline=$((start + minutes * 60))
patterns=(hot mixed)
policies=(relocate adaptive)

# sample LAUNCH_PID ROUND PHASE: RSS of every rank until the launch ends.
sample() {
  local launch=$1 round=$2 phase=$3 pid rank
  while kill -0 "$launch" 2>/dev/null; do
    for pid in $(pgrep -P "$launch" || true); do
      rank=$({ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -o -- '--rank [0-9]*' | cut -d' ' -f2) || continue
      [ -n "$rank" ] || continue
      awk -v t=$(($(date +%s) - start)) -v r="$round" -v ph="$phase" -v k="$rank" \
        '/^VmRSS/ {rss=$2} /^VmHWM/ {hwm=$2} END {if (rss) print t "," r "," ph "," k "," rss "," hwm}' \
        "/proc/$pid/status" 2>/dev/null >>"$OUT/rss.csv" || true
    done
    sleep 1
  done
}

# wait_bounded LAUNCH_PID SECONDS: waits for the launch; past SECONDS (a hang)
# kills its ranks and itself and returns 1.
wait_bounded() {
  local launch=$1 limit=$2 t=0 pid
  while kill -0 "$launch" 2>/dev/null; do
    if [ "$t" -ge $((limit * 10)) ]; then
      log "  launch $launch still running after ${limit}s: a hang; killing its ranks"
      for pid in $(pgrep -P "$launch" || true); do kill -9 "$pid" 2>/dev/null || true; done
      kill "$launch" 2>/dev/null || true
      wait "$launch" 2>/dev/null || true
      return 1
    fi
    sleep 0.1
    t=$((t + 1))
  done
  wait "$launch"
}

round=0
failures=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  round=$((round + 1))
  pattern=${patterns[$((round % 2))]}
  policy=${policies[$(((round / 2) % 2))]}
  ck="$OUT/round-$round/ck"
  job="--workload zipf --pattern $pattern --policy $policy --keys 50000 --batches 40 \
    --workers 2 --verify --peer-timeout 5s --checkpoint-dir $ck --seed $round"
  log "round $round: $policy on $pattern; a random rank is killed after a random checkpoint"
  "$AUGUR" launch --local 4 --kill-after 20s -- $job --epochs 300 --out "$OUT/round-$round/a" \
    >"$OUT/round-$round.log" 2>&1 &
  launch=$!
  sample "$launch" "$round" train &
  sampler=$!
  kill_at=$((RANDOM % 20 + 1))  # after checkpoint 1..20 (about 1-20 s)
  for _ in $(seq 1200); do
    n=$(sed -n 's/^ckpt-//p' "$ck/LATEST" 2>/dev/null || true)
    [ -n "$n" ] && [ "$n" -ge "$kill_at" ] && break
    kill -0 "$launch" 2>/dev/null || break
    sleep 0.1
  done
  sleep "0.$((RANDOM % 10))"
  victim_rank=$((RANDOM % 4))
  victim=$(pgrep -P "$launch" -f -- "--rank $victim_rank " | head -1 || true)
  [ -n "$victim" ] && kill -9 "$victim"
  wait_bounded "$launch" 120 || true
  wait "$sampler" || true
  latest=$(cat "$ck/LATEST" 2>/dev/null || echo none)
  if [ "$latest" = none ]; then
    log "  round $round: no checkpoint was written"
    failures=$((failures + 1))
    continue
  fi
  epoch=${latest#ckpt-}
  "$AUGUR" launch --local 4 -- $job --epochs $((epoch + 2)) --resume "$ck" \
    --out "$OUT/round-$round/b" >>"$OUT/round-$round.log" 2>&1 &
  launch=$!
  sample "$launch" "$round" resume &
  sampler=$!
  if wait_bounded "$launch" 120; then
    log "  round $round: rank $victim_rank killed after $latest; resumed on 4 nodes: verified"
  else
    log "  round $round: the resumed run FAILED (see $OUT/round-$round.log)"
    failures=$((failures + 1))
  fi
  wait "$sampler" || true
  rm -rf "$ck"  # keep the disk flat too
done

# Flat memory: per rank, the peak RSS of the last quarter of the soak may
# exceed the first quarter's by at most 50% + 16 MB; per process (a rank of
# one round and phase), RSS at the end vs a quarter into its life likewise.
flat=0
/usr/bin/python3 - "$OUT/rss.csv" <<'PY' | tee "$OUT/summary.txt" || flat=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if not rows:
    print("no RSS samples"); sys.exit(1)
ok = True
def grew(a, b):
    return b > 1.5 * a + 16 * 1024
print("peak RSS (VmHWM) per rank, MB: first quarter of the soak -> last quarter")
end = max(int(r["seconds"]) for r in rows)
for rank in sorted({r["rank"] for r in rows}):
    mine = [r for r in rows if r["rank"] == rank]
    first = [int(r["vm_hwm_kb"]) for r in mine if int(r["seconds"]) <= end / 4]
    last = [int(r["vm_hwm_kb"]) for r in mine if int(r["seconds"]) >= 3 * end / 4]
    if first and last:
        bad = grew(max(first), max(last))
        ok = ok and not bad
        print("  rank %s: %.1f -> %.1f%s" % (rank, max(first) / 1024, max(last) / 1024,
                                            "  GREW" if bad else ""))
worst = (0.0, "")
for key in sorted({(r["round"], r["phase"], r["rank"]) for r in rows}):
    rss = [int(r["vm_rss_kb"]) for r in rows if (r["round"], r["phase"], r["rank"]) == key]
    if len(rss) < 8:
        continue
    a, b = rss[len(rss) // 4], rss[-1]
    if b / a > worst[0]:
        worst = (b / a, "round %s %s rank %s: %.1f -> %.1f MB" % (key + (a / 1024, b / 1024)))
    ok = ok and not grew(a, b)
print("largest growth within one process (RSS a quarter into its life -> at its end): " +
      (worst[1] or "no process lived 8 s"))
print("memory flat" if ok else "memory GREW")
sys.exit(0 if ok else 1)
PY
log "soak: $round rounds in $minutes min, $failures failed; RSS samples in $OUT/rss.csv"
[ "$failures" -eq 0 ] && [ "$flat" -eq 0 ]
