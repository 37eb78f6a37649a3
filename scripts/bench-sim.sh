#!/usr/bin/env bash
# Benchmark of the SimGrid backend (issue 4; not a test): simulated messages per
# wall-second and peak memory (VmHWM, in result.json) with the zipf workload and
# the classic policy (the most messages), at 64 and 1024 nodes.
#   scripts/bench-sim.sh [BUILD_DIR] [--full]     (BUILD_DIR default build; results in results/bench-sim)
# --full adds the issue's large case: 1024 nodes x 4 workers, 1M accesses in
# total over the 1M-key zipf workload (~4M messages; minutes: see simulator/README.md).
# Extra arguments after --full (or after BUILD_DIR as "--") go to every run, e.g. --nic-lanes 2.
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
full=${2:-}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
[[ "$build" == /* ]] || build="$AUGUR_ROOT/$build"
augur="$build/bin/augur"
out=${BENCH_OUT:-$AUGUR_ROOT/results/bench-sim}
mkdir -p "$out"

run() {
  local name=$1; shift
  "$augur" sim --workload zipf --policy classic --seed 1 --no-progress --out "$out/$name" "$@" \
    ${extra[@]+"${extra[@]}"} > /dev/null
  python3 - "$out/$name/result.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("%-18s nodes %4d x %d  messages %8d (in %8d comms)  wall %7.1f s  cpu %7.1f s  %7.0f msg/wall-s  %7.0f msg/cpu-s  peak %6.1f MiB  simulated %.6f s"
      % (sys.argv[2], r["nodes"], r["workers_per_node"], r["simulated_messages"],
         r.get("simulated_comms", 0), r["wall_seconds"], r["cpu_seconds"],
         r["sim_messages_per_wall_second"], r["sim_messages_per_cpu_second"],
         r["peak_memory_mib"], r["total_seconds"]))
PY
}

run n64-w4-uniform   --nodes 64   --workers 4 --pattern uniform --keys 100000 --batch-size 64 --batches 2
run n64-w4-mixed     --nodes 64   --workers 4 --pattern mixed   --keys 100000 --batch-size 64 --batches 2
run n64-w4-uniform10 --nodes 64   --workers 4 --pattern uniform --keys 100000 --batch-size 64 --batches 10
run n1024-w1-uniform --nodes 1024 --workers 1 --pattern uniform --keys 100000 --batch-size 16 --batches 1
run n1024-w4-uniform --nodes 1024 --workers 4 --pattern uniform --keys 1000000 --batch-size 64 --batches 1
if [[ "$full" == "--full" ]]; then
  run n1024-w4-1M    --nodes 1024 --workers 4 --pattern uniform --keys 1000000 --batch-size 64 --batches 4
fi
