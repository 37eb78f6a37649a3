#!/usr/bin/env bash
# Alternating A/B of two augur binaries on kge, 2 processes x 1 worker, against
# the 2-thread baseline (2026-12-07-kge-held-rows.md). Per round: the baseline
# (build/bin/augur single --threads 2), then A, then B; each line prints the
# median epoch time of epochs 2.. (s) and, for the 2-process runs, both
# processes' CPU over those epochs (s).
# Usage (from the repository root, after scripts/bench-efficiency.sh built the
# data): docs/measurements/2026-12-07-kge-held-rows/kge_two_processes.sh ROUNDS BIN_A BIN_B
set -euo pipefail
rounds=$1 a=$2 b=$3
data=results/cache/bench-efficiency/kge50k
job="--workload kge --data $data --dim 50 --negatives 12 --epochs 3 --eval-triples 20"
out=$(mktemp -d)
summary() {
  /usr/bin/python3 - "$1/result.json" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
cpu = d.get("epoch_process_cpu_seconds")
print(statistics.median(d["epoch_seconds"][1:]), sum(cpu[1:]) if cpu else "")
PY
}
for r in $(seq "$rounds"); do
  # shellcheck disable=SC2086  # the job flags are words
  build/bin/augur single $job --threads 2 --out "$out/single" >/dev/null
  echo "r$r baseline $(summary "$out/single")"
  for bin in "$a" "$b"; do
    # shellcheck disable=SC2086
    "$bin" launch --local 2 -- $job --sampling local --workers 1 --policy adaptive \
      --out "$out/run" >/dev/null
    echo "r$r $bin $(summary "$out/run")"
  done
done
rm -rf "$out"
