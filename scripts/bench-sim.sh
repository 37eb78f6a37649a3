#!/usr/bin/env bash
# Benchmark of the SimGrid backend (issue 4; not a test): simulated messages per
# wall-second and peak memory (VmHWM, in result.json) with the zipf workload and
# the classic policy (the most messages), at 64 and 1024 nodes.
#   scripts/bench-sim.sh [BUILD_DIR] [--full]     (BUILD_DIR default build; results in results/bench-sim)
# --full adds the issue's large case: 1024 nodes x 4 workers, 1M accesses in
# total over the 1M-key zipf workload (~4M messages; minutes: see simulator/README.md).
# Extra arguments after --full (or after BUILD_DIR as "--") go to every run, e.g. --nic-lanes 2.
# The cost of the CPU contention model (--host-cores, issue 16): each case marked "+c" runs
# again with hosts of 1 core and message handling costs (a fixed costs file written here:
# 2 us + 0.1 ns/B per message, 50 ns per key), so workers, protocol handling and sync
# rounds compete for the core; compare its msg/cpu-s with the line above it.
# BENCH_OLD=DIR/bin/augur also runs every case with that binary (e.g. a build of an older
# commit), side by side ("-old" lines; without --host-cores, which it may not know).
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
full=${2:-}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
[[ "$build" == /* ]] || build="$AUGUR_ROOT/$build"
augur="$build/bin/augur"
# shellcheck source=scripts/lib/args.sh
source "$AUGUR_ROOT/scripts/lib/args.sh"
case $full in '' | --full | --) ;; *) usage_error "the second argument is --full or --, not '$full'" ;; esac
[ -x "$augur" ] || usage_error "no augur binary at $augur (build first; the first argument is the build directory)"
out=${BENCH_OUT:-$AUGUR_ROOT/results/bench-sim}
mkdir -p "$out"

costs=$out/contention-costs.json
cat > "$costs" <<'JSON'
{"workload": "zipf", "seconds_per_key": 5e-08, "seconds_per_message": 2e-06,
 "seconds_per_message_byte": 1e-10, "machine": "fixed (scripts/bench-sim.sh)"}
JSON

run() {
  local name=$1; shift
  one "$augur" "$name" "$@"
  if [[ -n ${BENCH_OLD:-} ]]; then  # it may predate --host-cores: its hosts have workers + 1
    local args=() a skip=0
    for a in "$@"; do
      if ((skip)); then skip=0; continue; fi
      if [[ $a == --host-cores ]]; then skip=1; continue; fi
      args+=("$a")
    done
    one "$BENCH_OLD" "$name-old" "${args[@]}"
  fi
}

one() {
  local bin=$1 name=$2; shift 2
  "$bin" sim --workload zipf --policy classic --seed 1 --no-progress --out "$out/$name" "$@" \
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
run n64-w4-uniform+c --nodes 64   --workers 4 --pattern uniform --keys 100000 --batch-size 64 --batches 2 \
  --costs "$costs" --host-cores 1
run n1024-w1-uniform --nodes 1024 --workers 1 --pattern uniform --keys 100000 --batch-size 16 --batches 1
run n1024-w4-uniform --nodes 1024 --workers 4 --pattern uniform --keys 1000000 --batch-size 64 --batches 1
run n1024-w4-uniform+c --nodes 1024 --workers 4 --pattern uniform --keys 1000000 --batch-size 64 --batches 1 \
  --costs "$costs" --host-cores 1
if [[ "$full" == "--full" ]]; then
  run n1024-w4-1M    --nodes 1024 --workers 4 --pattern uniform --keys 1000000 --batch-size 64 --batches 4
  run n1024-w4-1M+c  --nodes 1024 --workers 4 --pattern uniform --keys 1000000 --batch-size 64 --batches 4 \
    --costs "$costs" --host-cores 1
fi
