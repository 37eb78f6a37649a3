#!/usr/bin/env bash
# Benchmark (not a test): what a real Augur node costs against the efficient
# single-node program, on real data at this machine's size (issue 15).
#
# In one run, in alternating order (the order of the configurations rotates
# every repeat, so a change in machine load hits all of them alike), per
# workload (kge: the first 50,000 WordNet training triples, dim 50,
# 12 negatives, --sampling local; wv: the WordNet gloss corpus; mf: 20,000 x
# 2,000 with 1M ratings, rank 32):
#   single       the Hogwild baseline, `augur single --threads T`
#   single1      the same with one thread: T x its throughput is the linear
#                reference, which does not depend on what the T threads' shared
#                rows cost (on this VM the T-thread mf baseline is bimodal)
#   tcp1-POLICY  Augur, 1 node x T workers over TCP (`augur launch --local 1`), every policy
#   tcp2-adaptive Augur, 2 processes x T/2 workers on the same cores
# Then, once per workload and configuration, the same run under `perf record`
# to say where each sample's time goes (the model's maths, the store, intent
# and sampling bookkeeping, the protocol, the runtime), with the time the
# workers spent parked from result.json. Then the micro-benchmarks against
# their references: augur-bench's LocalPull/LocalPush at dim 100 against
# memcpy of the same rows (random interleaving; the push also against an
# in-place add into them, what Hogwild's update does), and `augur bench-net`
# against a raw socket ping-pong (without frame protection, then with auth).
#
# Output: OUT/summary.md (and printed): the machine, the commit, per workload
# the median epoch throughput of each configuration and its ratio to the
# baseline, the goals (>= 0.9 one node, >= 0.8 two processes, LocalPull
# >= 0.8, LocalPush >= 0.7, bench-net >= 0.7) and, where one is missed, the
# cost that remains. OUT/runs/ keeps every result.json.
#
# Usage: scripts/bench-efficiency.sh [--out DIR] [--repeats N] [--threads T]
#          [--workloads kge,wv,mf] [--no-profile] [--no-micro]
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh
# shellcheck source=scripts/lib/kge50k.sh
source scripts/lib/kge50k.sh
# shellcheck source=scripts/lib/args.sh
source scripts/lib/args.sh

out=results/bench-efficiency
repeats=3
threads=2
workloads=kge,wv,mf
profile=1
micro=1
while [ $# -gt 0 ]; do
  case $1 in
    --out | --repeats | --threads | --workloads) need_value "$1" $# ;;&
    --out) out=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --no-profile) profile=0; shift ;;
    --no-micro) micro=0; shift ;;
    -h | --help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "bench-efficiency.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $repeats in '' | *[!0-9]* | 0) echo "bench-efficiency.sh: --repeats needs a positive integer" >&2; exit 2 ;; esac
case $threads in '' | *[!0-9]* | 0 | 1) echo "bench-efficiency.sh: --threads needs an integer >= 2" >&2; exit 2 ;; esac

[ -n "$out" ] || usage_error "--out needs a directory"
list_items --workloads "$workloads" wls
for wl in "${wls[@]}"; do
  case $wl in kge | wv | mf) ;; *) echo "bench-efficiency.sh: unknown workload '$wl' (kge|wv|mf)" >&2; exit 2 ;; esac
done

AUGUR_PACKAGES+=(linux-perf)
install_deps
AUGUR_TARGETS="augur augur-bench" build build -DCMAKE_BUILD_TYPE=Release
augur=build/bin/augur

# Data: built once into the cache, reused by later runs.
cache=results/cache/bench-efficiency
kge50k_data "$augur" "$cache"
if [ ! -f "$cache/text/corpus.txt" ]; then
  log "data: WordNet gloss corpus"
  "$augur" data text --out "$cache/text" >/dev/null
fi

declare -A job
job[kge]="--workload kge --data $cache/kge50k --dim 50 --negatives 12 --epochs 3 --eval-triples 20"
job[wv]="--workload wv --data $cache/text --epochs 2"
job[mf]="--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 --epochs 4"
# Flags only the parameter server takes (augur single refuses them).
declare -A cluster
cluster[kge]="--sampling local"
policies=(classic replicate-all relocate nups adaptive)
half=$((threads / 2))

# run WORKLOAD CONFIG DIR [perf]: one configuration into DIR/result.json.
run() {
  local wl=$1 cfg=$2 dir=$3 perf=${4:-}
  local wrap=()
  [ -n "$perf" ] && wrap=(perf record -q -F 1999 -g -o "$dir/perf.data" --)
  rm -rf "$dir"
  mkdir -p "$dir"
  # shellcheck disable=SC2086  # the job flags are words
  case $cfg in
    single) "${wrap[@]}" "$augur" single ${job[$wl]} --threads "$threads" --out "$dir" ;;
    single1) "${wrap[@]}" "$augur" single ${job[$wl]} --threads 1 --out "$dir" ;;
    tcp1-*) "${wrap[@]}" "$augur" launch --local 1 -- ${job[$wl]} ${cluster[$wl]:-} --workers "$threads" \
      --policy "${cfg#tcp1-}" --out "$dir" ;;
    tcp2-*) "${wrap[@]}" "$augur" launch --local 2 -- ${job[$wl]} ${cluster[$wl]:-} --workers "$half" \
      --policy "${cfg#tcp2-}" --out "$dir" ;;
  esac >"$dir/log.txt" 2>&1 || { tail -5 "$dir/log.txt" >&2; log "$wl $cfg failed"; exit 1; }
}

configs=(single single1)
for p in "${policies[@]}"; do configs+=("tcp1-$p"); done
configs+=(tcp2-adaptive)
mkdir -p "$out"
# Nothing from an earlier invocation reaches this one's report: its runs,
# profiles and micro-benchmarks are measured now or left out.
for wl in "${wls[@]}"; do rm -rf "${out:?}/runs/$wl"; done
rm -f "$out/core_bench.json" "$out/bench_net.txt" "$out/bench_net_auth.txt"
for ((r = 1; r <= repeats; r++)); do
  for wl in "${wls[@]}"; do
    n=${#configs[@]}
    for ((i = 0; i < n; i++)); do
      cfg=${configs[$(((i + r - 1) % n))]}
      log "repeat $r/$repeats: $wl $cfg"
      run "$wl" "$cfg" "$out/runs/$wl/$cfg/rep-$r"
    done
  done
done

if [ "$profile" = 1 ]; then
  if perf record -q -o /dev/null -- true 2>/dev/null; then
    for wl in "${wls[@]}"; do
      for cfg in single tcp1-adaptive tcp2-adaptive; do
        log "profile: $wl $cfg (perf record, not timed)"
        run "$wl" "$cfg" "$out/runs/$wl/$cfg/profile" perf
        perf report -i "$out/runs/$wl/$cfg/profile/perf.data" --no-children --sort symbol \
          --percent-limit 0.05 --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' \
          >"$out/runs/$wl/$cfg/profile/symbols.txt" || true
        rm -f "$out/runs/$wl/$cfg/profile/perf.data"
      done
    done
  else
    log "perf cannot record here: no breakdown of where the time goes"
  fi
fi

if [ "$micro" = 1 ]; then
  log "micro-benchmarks: augur-bench LocalPull/LocalPush/Memcpy/RowAdd at dim 100 (interleaved)"
  build/bin/augur-bench --benchmark_filter='BM_(LocalPull|LocalPush|Memcpy|RowAdd)/100$' \
    --benchmark_repetitions=7 --benchmark_enable_random_interleaving=true \
    --benchmark_format=json >"$out/core_bench.json" 2>/dev/null
  # The protocol's own cost with no frame protection (the goal), then with
  # the default protection (auth: AES-GCM tags, README "Security").
  log "micro-benchmarks: augur bench-net against a raw ping-pong (--wire-security none, then auth)"
  "$augur" bench-net --wire-security none >"$out/bench_net.txt" 2>&1
  "$augur" bench-net --wire-security auth >"$out/bench_net_auth.txt" 2>&1
fi

{
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo -dirty)"
  echo "date: $(date -u +%FT%TZ)"
  echo "beside it: $(uptime | sed 's/.*load average/load average/') at the end"
} >"$out/machine.txt"
/usr/bin/python3 experiments/bench/efficiency_report.py "$out" --threads "$threads" \
  --workloads "$workloads" | tee "$out/summary.md"
