#!/usr/bin/env bash
# Benchmark (not a test): does the simulator predict the TCP backend on this machine?
# Replaces experiments/fidelity/fidelity.sh (issue 16).
#
# A matrix of cells {zipf, kge, mf} x {2, 3 nodes} x {loopback, 1gbit/50us, 100mbit/200us},
# each node one process with 1 worker:
#   loopback   the nodes on 127.0.0.1 in this namespace (unshaped);
#   1gbit, 100mbit  the nodes in network namespaces joined by veth pairs to a bridge, every
#              veth end shaped with `tc tbf` to the rate in both directions (bucket: below),
#              and
#              --emulate-latency 50us / 200us on every received frame (this kernel has no netem).
# Every node's process is pinned to its own core with taskset where nodes <= cores, and
# shares all cores otherwise; the simulated hosts are the same: --host-cores 1 each, and at
# more nodes than cores --shared-cores CORES (every node computes on one machine of the
# cores, as the OS shares them) and --time-sliced (the worker cost and wake-up delay
# calibrate measured with cores + 1 processes).
# Per cell: the measured epoch time (median over --repeats TCP runs of rank 0's mean epoch)
# and the predicted one: `augur sim --compute hybrid --costs COSTS` with the costs
# `augur calibrate` measured first on this machine for that workload (loopback, 2
# processes), the star platform with the cell's link (loopback: the calibrated one) and the
# host model above. The shaped networks are calibrated too, before their cells: the
# latency `--emulate-latency` really adds (augur's own 1-key round trip with and without
# it, `augur bench-net`), the CPU the namespaces' path costs per message and per byte
# beyond loopback (scripts/lib/path_cost.py), and the CPU the emulation costs per message
# (a small zipf job with and without it; charged per wake-up: the frames that arrive with
# others share their timer's); the simulator's links and per-message costs for those cells
# include them. With zipf among the workloads, the path's CPU per byte that waits for
# its link is then fitted to augur's own traffic (a zipf job unlike the cells', run on
# loopback and across the path, and simulated both ways: queued_byte_fit below). Per
# cell the CPU per epoch of every node is set beside the simulator's (the CPU the model
# charged its hosts). Also the CPU pressure during the TCP runs (/proc/pressure/cpu "some":
# the share of time a runnable task waited for a core; other jobs on the machine raise it,
# the simulator knows nothing of them), and the host's speed: the workload's one-thread
# baseline timed after calibration and around each cell (kge and mf), with the cell
# simulated again at that relative speed (a diagnostic of the host's drift; the last
# line is not adjusted).
# Workloads: zipf (uniform, 20,000 keys of 64 floats, 1,500 batches of 64 keys per worker,
# one epoch of 0.15 s on 2 pinned nodes: at 150 batches, 20 ms, the epoch moved by 28%
# between runs and its start-up, which the simulator models only on average, weighed most);
# kge (the first 50,000 WordNet training triples, dim 50, 12 negatives, --sampling local,
# adaptive, 2 epochs); mf (20,000 x 2,000, 1M ratings, rank 32, adaptive, 2 epochs).
#
# Output: OUT/matrix.csv, OUT/summary.md (both printed), OUT/runs/ (every result.json and
# log); the cells of more than one epoch (kge, mf) again without their first epoch (its
# start-up costs are not modelled), then the last line: `fidelity: worst
# |predicted/measured - 1| = X over N cells (median Y)`.
# Goal: worst within 15%, median within 5%. Exit 0 even when the goal is missed (a benchmark).
#
# Usage (as root: namespaces and tc): scripts/bench-fidelity.sh [--out DIR] [--repeats N]
#          [--workloads zipf,kge,mf] [--nodes 2,3] [--networks loopback,1gbit,100mbit]
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh
# shellcheck source=scripts/lib/kge50k.sh
source scripts/lib/kge50k.sh
# shellcheck source=scripts/lib/netns.sh
source scripts/lib/netns.sh
# shellcheck source=scripts/lib/args.sh
source scripts/lib/args.sh

out=results/bench-fidelity
repeats=3
workloads=zipf,kge,mf
node_counts=2,3
networks=loopback,1gbit,100mbit
while [ $# -gt 0 ]; do
  case $1 in
    --out | --repeats | --workloads | --nodes | --networks) need_value "$1" $# ;;&
    --out) out=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --nodes) node_counts=$2; shift 2 ;;
    --networks) networks=$2; shift 2 ;;
    -h | --help) sed -n '2,38p' "$0"; exit 0 ;;
    *) echo "bench-fidelity.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $repeats in '' | *[!0-9]* | 0) echo "bench-fidelity.sh: --repeats needs a positive integer" >&2; exit 2 ;; esac
[ -n "$out" ] || usage_error "--out needs a directory"
list_items --workloads "$workloads" wls
list_items --nodes "$node_counts" ncs
list_items --networks "$networks" nets
for wl in "${wls[@]}"; do
  case $wl in zipf | kge | mf) ;; *) echo "bench-fidelity.sh: unknown workload '$wl' (zipf|kge|mf)" >&2; exit 2 ;; esac
done
for n in "${ncs[@]}"; do
  case $n in 2 | 3) ;; *) echo "bench-fidelity.sh: --nodes takes 2 and/or 3, not '$n'" >&2; exit 2 ;; esac
done
for net in "${nets[@]}"; do
  case $net in loopback | 1gbit | 100mbit) ;; *) echo "bench-fidelity.sh: unknown network '$net' (loopback|1gbit|100mbit)" >&2; exit 2 ;; esac
done
if [ "$(id -u)" -ne 0 ]; then
  echo "bench-fidelity.sh: needs root (network namespaces, tc, installing what is missing)" >&2
  exit 2
fi

install_deps
for tool in ip tc ping taskset; do
  command -v "$tool" >/dev/null || { echo "bench-fidelity.sh: '$tool' is missing after install_deps" >&2; exit 2; }
done
AUGUR_TARGETS=augur build build -DCMAKE_BUILD_TYPE=Release
augur=$AUGUR_ROOT/build/bin/augur
PY=/usr/bin/python3
cores=$(nproc)

# Data: the kge sample, built once into the cache (the same as scripts/bench-efficiency.sh).
cache=results/cache/bench-efficiency
if [[ " ${wls[*]} " == *" kge "* ]]; then kge50k_data "$augur" "$cache"; fi

declare -A job
job[zipf]="--workload zipf --pattern uniform --keys 20000 --dim 64 --batch-size 64 --batches 1500 --epochs 1 --seed 5 --policy classic"
job[kge]="--workload kge --data $AUGUR_ROOT/$cache/kge50k --dim 50 --negatives 12 --eval-triples 20 --sampling local --policy adaptive --epochs 2"
job[mf]="--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 --policy adaptive --epochs 2"
# The host-speed probe: the workload's one-thread baseline (`augur single`, core 0),
# timed after its calibration and before and after each of its cells. This host's
# speed drifts (the same job's epoch by 1.5x within minutes) while nothing else runs
# and no core is taken from it (core share 1.0): the probe's epoch at calibration over
# its epoch around the cell is the host's relative speed there, and the cell is
# simulated once more at that speed (--host-speed): a diagnostic that separates the
# model's error from the host's drift. The headline line stays the unadjusted one.
# zipf has no single-node baseline: no probe.
declare -A probe
probe[kge]="--workload kge --data $AUGUR_ROOT/$cache/kge50k --dim 50 --negatives 12 --epochs 3"
probe[mf]="--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 --epochs 8"
declare -A probe_ref

rm -rf "$out"
mkdir -p "$out/runs"
out=$(cd "$out" && pwd)

# probe_epoch WL: the median epoch (s) of the workload's probe run, or nothing without one.
probe_epoch() {
  [ -n "${probe[$1]:-}" ] || return 0
  local dir=$out/runs/probe-$1
  read -r -a pf <<<"${probe[$1]}"
  taskset -c 0 "$augur" single "${pf[@]}" --threads 1 --no-eval --seed 1 --out "$dir" \
    >"$dir.log" 2>&1 || { tail -3 "$dir.log" >&2; log "probe $1 failed"; exit 1; }
  $PY -c 'import json, statistics, sys
print("%.6f" % statistics.median(json.load(open(sys.argv[1]))["epoch_seconds"]))' "$dir/result.json"
}

# --- calibration, once per workload, on loopback ---
for wl in "${wls[@]}"; do
  log "calibrate $wl"
  # shellcheck disable=SC2086  # the job flags are words
  read -r -a flags <<<"${job[$wl]}"
  cal=()
  for ((i = 0; i < ${#flags[@]}; i++)); do  # calibrate sets --workload and --epochs itself
    case ${flags[$i]} in --workload | --epochs) i=$((i + 1)) ;; *) cal+=("${flags[$i]}") ;; esac
  done
  "$augur" calibrate --workload "$wl" "${cal[@]}" --workers 1 --out "$out/costs-$wl.json" \
    --work-dir "$out/runs/calibrate-$wl" >"$out/runs/calibrate-$wl.log" 2>&1 ||
    { tail -5 "$out/runs/calibrate-$wl.log" >&2; log "calibrate $wl failed"; exit 1; }
  probe_ref[$wl]=$(probe_epoch "$wl")
done

# --- namespaces for the shaped networks: 3 nodes + a bridge (deleted on exit) ---
tag="augbf$$"
cleanup() { netns_star_delete "$tag" 3; }
trap cleanup EXIT
if [[ " ${nets[*]} " == *" 1gbit "* || " ${nets[*]} " == *" 100mbit "* ]]; then
  netns_star "$tag" 10.79.0 3 || { echo "bench-fidelity.sh: cannot create network namespaces" >&2; exit 1; }
fi
# tbf's bucket: tokens saved while a link sat idle let that many bytes through at memory
# speed later, which no NIC does. At 100mbit the bucket holds about one packet (2kb):
# with tbf's customary 64kb, 2 zipf nodes took 0.224 s per epoch against 0.299 s with
# 2kb (kge 2.33 s against 2.56 s). At 1gbit it stays 64kb (0.5 ms of the rate): with
# 2kb the shaper itself held 2 zipf nodes to 0.22 s per epoch, slower than at 100mbit.
shape() {  # shape RATE BURST: every veth end, both directions
  local i
  for i in 0 1 2; do
    ip netns exec "$tag-$i" tc qdisc replace dev v$i root tbf rate "$1" burst "$2" latency 100ms
    ip netns exec "$tag-br" tc qdisc replace dev b$i root tbf rate "$1" burst "$2" latency 100ms
  done
}
# The share of a core a busy thread gets now, one per core at once, pinned (mean over the
# cores): other jobs on the machine take the rest. 1.0 on an idle machine.
share() {
  local c
  for ((c = 0; c < cores; c++)); do
    taskset -c "$c" $PY -c '
import sys, time
w0, c0 = time.perf_counter(), time.process_time()
while time.perf_counter() - w0 < 0.5: pass
open(sys.argv[1], "w").write("%f\n" % ((time.process_time() - c0) / (time.perf_counter() - w0)))' \
      "$out/share-$c" &
  done
  wait
  cat "$out"/share-* | $PY -c 'import sys; v = [float(x) for x in sys.stdin]; print("%.3f" % min(1.0, sum(v) / len(v)))'
  rm -f "$out"/share-*
}
# median_gap SCALE: reads lines "LABEL VALUE" of two labels, "0" and another, 3 lines
# each; prints (median of the other's values - median of the 0 ones) x SCALE, at least 0.
median_gap() {
  $PY -c '
import statistics, sys
v = {}
for line in sys.stdin:
    label, x = line.split()
    v.setdefault(label, []).append(float(x))
assert len(v) == 2 and "0" in v and all(len(x) == 3 for x in v.values()), v
other = next(k for k in v if k != "0")
print("%.9e" % (max(0.0, statistics.median(v[other]) - statistics.median(v["0"])) * float(sys.argv[1])))' "$1"
}
# The emulated latency as augur's frames see it, in seconds: --emulate-latency holds a
# received frame in the I/O thread's timer queue, and handing it on costs a timer wake-up
# and a wake-up of the parked worker that an unemulated frame (read by the worker itself)
# does not pay. Measured as half the difference of augur's 1-key pull round trip
# (`augur bench-net --dim 1 --batch 1`) with and without the emulation, medians of 3
# alternating runs; the simulator's links get this, not the nominal value.
emulated_latency() {  # emulated_latency US
  local r
  for r in 1 2 3; do
    for l in 0 "$1"; do
      "$augur" bench-net --dim 1 --batch 1 --batches 1500 --warmup 100 --blocks 3 \
        --wire-security none --emulate-latency "${l}us" 2>/dev/null |
        sed -n "s/.*augur round trip: \([0-9.]*\) us.*/$l \1/p"
    done
  done | median_gap 0.5e-6  # half the round trip, us to s
}
# The CPU per message of SIZE bytes (sender and receiver together) on a TCP path, as
# "SIZE SECONDS" (scripts/lib/path_cost.py): the server in namespace $1 at address $2 on
# CPU 1, the client in namespace $3 on CPU 0 (namespaces empty: this one, on loopback).
path_cost() {  # path_cost SERVER_NS HOST CLIENT_NS SIZE ROUNDS
  local sns=() cns=() cpu_file pc_port=$((20000 + RANDOM % 4000))  # below the ephemeral ports
  [ -n "$1" ] && sns=(ip netns exec "$1")
  [ -n "$3" ] && cns=(ip netns exec "$3")
  cpu_file=$(mktemp -u "$out/path-cost.XXXXXX")
  "${sns[@]}" taskset -c $((cores > 1 ? 1 : 0)) $PY scripts/lib/path_cost.py serve "$2" "$pc_port" "$4" "$cpu_file" &
  local server=$!
  "${cns[@]}" taskset -c 0 $PY scripts/lib/path_cost.py client "$2" "$pc_port" "$4" "$5" "$cpu_file"
  wait "$server"
  rm -f "$cpu_file"
}
# The CPU per message the latency emulation adds (seconds): a small zipf job of 2 pinned
# processes on loopback with and without --emulate-latency US, CPU over messages sent
# (both processes, from result.json), medians of 3 alternating runs. Holding a frame
# costs a timer wake-up of the I/O thread and a hand-off to the parked worker that a
# frame read by the worker itself does not; a real link of that latency costs neither.
emulation_cpu() {  # emulation_cpu US
  local r l i dir pids eport=$((24000 + RANDOM % 3000))  # own ports (a subshell), not ephemeral
  for r in 1 2 3; do
    for l in 0 "$1"; do
      eport=$((eport + 1))
      dir=$out/runs/emulation-cpu/$l-$r
      mkdir -p "$dir"
      pids=()
      for i in 0 1; do
        taskset -c $((i % cores)) timeout 300 "$augur" run --workload zipf --pattern uniform \
          --keys 20000 --dim 8 --batch-size 16 --batches 1500 --epochs 1 --seed 5 --policy classic \
          --nodes 2 --workers 1 --rank "$i" --coordinator "127.0.0.1:$eport" \
          --secret-file "$out/secret" --emulate-latency "${l}us" --out "$dir" >"$dir/rank-$i.log" 2>&1 &
        pids+=($!)
      done
      for i in 0 1; do wait "${pids[$i]}" || { tail -3 "$dir/rank-$i.log" >&2; return 1; }; done
      $PY -c '
import json, sys
d, l = sys.argv[1], sys.argv[2]
r = [json.load(open(f"{d}/rank-{i}/result.json")) for i in (0, 1)]
print(l, sum(sum(x["epoch_process_cpu_seconds"]) for x in r) / sum(sum(x["epoch_messages_sent"]) for x in r))' "$dir" "$l"
    done
  done | median_gap 1
}
# The CPU a shaped path costs per byte that waits for its link, fitted to augur's own
# traffic: path_cost.py's ping-pong gives 7-13 ns/B at 100mbit, but 2 zipf or kge nodes
# paid 16-37 ns/B more CPU per byte sent than on loopback (2026-12-06 matrices; the
# receiver wakes for every few packets that trickle in). A zipf job other than the
# cells' (dim 48, 96 keys per batch, 600 batches) runs as 2 pinned processes on loopback
# and across the shaped path, medians of 3 alternating runs; the simulator runs it on
# both with the cells' costs, and with no CPU for queued bytes. The per-byte charge
# (seconds_per_queued_byte) is scaled so that the simulated path adds the CPU the real
# one added. Prints the fitted seconds per byte, or nothing when the simulated job
# queues no bytes on this link (then the ping-pong's figure stays).
# queued_byte_fit NET US COSTS: COSTS is the zipf costs file of this network.
# set_queued_byte SRC SECONDS DST: SRC's costs with seconds_per_queued_byte = SECONDS.
set_queued_byte() {
  $PY -c 'import json, sys
c = json.load(open(sys.argv[1]))
c["seconds_per_queued_byte"] = float(sys.argv[2])
json.dump(c, open(sys.argv[3], "w"), indent=2)' "$@"
}
traffic_job=(--workload zipf --pattern uniform --keys 50000 --dim 48 --batch-size 96 --batches 600
  --epochs 1 --seed 7 --policy classic)
queued_byte_fit() {
  local net=$1 us=$2 costs=$3 r where i dir pids tport=$((27000 + RANDOM % 2000))
  local base=$out/runs/traffic-fit-$net
  for r in 1 2 3; do
    for where in loopback "$net"; do
      tport=$((tport + 1))
      dir=$base/$where-$r
      mkdir -p "$dir"
      pids=()
      for i in 0 1; do
        if [ "$where" = loopback ]; then
          taskset -c $((i % cores)) timeout 300 "$augur" run "${traffic_job[@]}" --nodes 2 --workers 1 \
            --rank "$i" --coordinator "127.0.0.1:$tport" --secret-file "$out/secret" --out "$dir" \
            >"$dir/rank-$i.log" 2>&1 &
        else
          ip netns exec "$tag-$i" taskset -c $((i % cores)) timeout 300 "$augur" run "${traffic_job[@]}" \
            --nodes 2 --workers 1 --rank "$i" --coordinator "10.79.0.1:$tport" --secret-file "$out/secret" \
            --emulate-latency "${us}us" --out "$dir" >"$dir/rank-$i.log" 2>&1 &
        fi
        pids+=($!)
      done
      for i in 0 1; do wait "${pids[$i]}" || { tail -3 "$dir/rank-$i.log" >&2; return 1; }; done
    done
  done
  set_queued_byte "$costs" 0 "$base/costs-none.json"
  "$augur" sim "${traffic_job[@]}" --nodes 2 --workers 1 --compute hybrid --costs "$out/costs-zipf.json" \
    --host-cores 1 --no-progress --out "$base/sim-loopback" >"$base/sim.log" 2>&1 || return 1
  "$augur" sim "${traffic_job[@]}" --nodes 2 --workers 1 --compute hybrid --costs "$costs" \
    "${sim_net[@]}" --host-cores 1 --no-progress --out "$base/sim-path" >>"$base/sim.log" 2>&1 || return 1
  "$augur" sim "${traffic_job[@]}" --nodes 2 --workers 1 --compute hybrid --costs "$base/costs-none.json" \
    "${sim_net[@]}" --host-cores 1 --no-progress --out "$base/sim-none" >>"$base/sim.log" 2>&1 || return 1
  $PY - "$base" "$net" "$costs" <<'PY'
import json, os, statistics, sys
base, net, costs = sys.argv[1:4]
def cpu(d, ranks):  # CPU of the epoch, both nodes together
    return sum(sum(json.load(open(os.path.join(d, r, "result.json")))["epoch_process_cpu_seconds"])
               for r in ranks)
real = {w: statistics.median(cpu(os.path.join(base, f"{w}-{r}"), ("rank-0", "rank-1"))
                             for r in (1, 2, 3)) for w in ("loopback", net)}
sim = {k: cpu(base, (f"sim-{k}",)) for k in ("loopback", "path", "none")}
charged = sim["path"] - sim["none"]  # what the current per-byte figure charges
if charged > 0.01 * sim["none"]:
    per_byte = json.load(open(costs))["seconds_per_queued_byte"]
    wanted = (real[net] - real["loopback"]) - (sim["none"] - sim["loopback"])
    print("%.9e" % max(0.0, per_byte * wanted / charged))
PY
}
pressure() { sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu 2>/dev/null || echo 0; }

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$out/secret"
chmod 600 "$out/secret"
port=29800
printf 'workload,nodes,network,pinned,measured_epoch_s,measured_runs,predicted_epoch_s,ratio,cpu_pressure,tcp_bytes,sim_bytes,core_share,predicted_loaded_epoch_s,ratio_loaded,measured_later_s,predicted_later_s,ratio_later,probe_speed,predicted_probe_epoch_s,ratio_probe,measured_cpu_s,predicted_cpu_s,ratio_cpu\n' >"$out/matrix.csv"
for net in "${nets[@]}"; do
  case $net in
    loopback) rate="" lat_us=0 burst="" ;;
    1gbit) rate=1gbit lat_us=50 burst=64kb ;;
    100mbit) rate=100mbit lat_us=200 burst=2kb ;;
  esac
  sim_net=()
  if [ -n "$rate" ]; then
    emul_s=$(emulated_latency "$lat_us") || { log "could not measure the emulated latency"; exit 1; }
    log "$net: --emulate-latency ${lat_us}us is $($PY -c "print('%.0f' % ($emul_s * 1e6))") us as augur's frames see it"
    echo "$net ${lat_us} $emul_s" >>"$out/emulated_latency.txt"
    shape "$rate" "$burst"
    # What the shaped path (veth pairs, the bridge, tbf, 1500-byte frames) costs in CPU per
    # message and per byte beyond loopback, from 64 B and 256 KiB messages: the simulator's
    # costs for this network add the per-message part and charge the per-byte part to the
    # bytes that wait for a busy link (seconds_per_queued_byte, simulator/nic.h). Measured:
    # 16 KiB messages cost no more than on loopback, 64 KiB (the 1 Gbit bucket) 7x, 256 KiB
    # 20x: it is the throttled sender's wake-ups, not the bytes. (The real runs pay it: kge's
    # CPU per epoch was 40% higher on the 1 Gbit path than on loopback, same messages.)
    [ -n "${base_small:-}" ] || base_small=$(path_cost "" 127.0.0.1 "" 64 4000)
    [ -n "${base_large:-}" ] || base_large=$(path_cost "" 127.0.0.1 "" 262144 1000)
    net_small=$(path_cost "$tag-1" 10.79.0.2 "$tag-0" 64 4000)
    large_rounds=200
    [ "$net" = 100mbit ] && large_rounds=40  # 21 ms per 256 KiB each way at that rate
    net_large=$(path_cost "$tag-1" 10.79.0.2 "$tag-0" 262144 "$large_rounds")
    read -r extra_fixed extra_byte < <($PY scripts/lib/path_cost.py fit "$net_small" "$net_large" "$base_small" "$base_large")
    log "$net: the path costs $($PY -c "print('%.2f us + %.3f ns/B' % ($extra_fixed * 1e6, $extra_byte * 1e9))") per message more CPU than loopback"
    echo "$net $extra_fixed $extra_byte" >>"$out/path_cost.txt"
    emul_cpu=$(emulation_cpu "$lat_us") || { log "could not measure the emulation's CPU"; exit 1; }
    log "$net: --emulate-latency ${lat_us}us costs $($PY -c "print('%.1f' % ($emul_cpu * 1e6))") us of CPU per message"
    echo "$net $lat_us $emul_cpu" >>"$out/emulation_cpu.txt"
    for wl in "${wls[@]}"; do
      $PY - "$out/costs-$wl.json" "$out/costs-$wl-$net.json" "$extra_fixed" "$emul_cpu" \
        "$extra_byte" "$((${burst%kb} * 1024))" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
path, emulation, per_byte, burst = (float(x) for x in sys.argv[3:7])
c = json.load(open(src))
# The path (veth, bridge, tbf) is crossed by every frame, coalesced or not.
# The emulation's cost is its timer's wake-up and the hand-off to the parked
# worker: every frame due by then is delivered in that one wake-up
# (TcpTransport::DeliverDelayed), so a message that arrives with others
# (coalesced) does not pay it again; the first of a parcel does, awake or not.
c["seconds_per_message"] += path + emulation
if c.get("seconds_per_coalesced_message", -1) >= 0:
    c["seconds_per_coalesced_message"] += path
if c.get("seconds_per_awake_message", -1) >= 0:
    c["seconds_per_awake_message"] += path + emulation
# Charged to the bytes beyond tbf's bucket that wait for the link (simulator/nic.h).
c["seconds_per_queued_byte"] = per_byte
c["queued_byte_burst"] = burst
json.dump(c, open(dst, "w"), indent=2)
PY
    done
    rtt_ms=$(ip netns exec "$tag-0" ping -q -c 50 -i 0.01 -s 56 10.79.0.2 | sed -n 's|.*= [0-9.]*/\([0-9.]*\)/.*|\1|p')
    [ -n "$rtt_ms" ] || { log "could not read the ping RTT"; exit 1; }
    # A star route crosses 2 links: each gets half of (the path's one-way + the emulated
    # latency as measured above).
    # The emulation's CPU per message (charged as CPU above) is part of the latency measured
    # through it; the links get the rest, so the critical path does not pay it twice.
    link_latency=$($PY -c "print('%.9fs' % ((float('$rtt_ms') * 1e-3 / 2 + max(0.0, $emul_s - $emul_cpu)) / 2))")
    bw=$($PY -c "r = '$rate'; print('%.0fbps' % (float(r[:-4]) * (1e9 if r.endswith('gbit') else 1e6)))")
    sim_net=(--link-bandwidth "$bw" --link-latency "$link_latency")
    if [ -f "$out/costs-zipf-$net.json" ]; then
      fitted=$(queued_byte_fit "$net" "$lat_us" "$out/costs-zipf-$net.json") ||
        { log "could not fit the path's CPU per queued byte"; exit 1; }
      if [ -n "$fitted" ]; then
        log "$net: augur's traffic pays $($PY -c "print('%.2f' % ($fitted * 1e9))") ns of CPU per queued byte (the ping-pong: $($PY -c "print('%.2f' % ($extra_byte * 1e9))"))"
        for wl in "${wls[@]}"; do
          set_queued_byte "$out/costs-$wl-$net.json" "$fitted" "$out/costs-$wl-$net.json"
        done
        echo "$net $extra_byte $fitted" >>"$out/queued_byte_fit.txt"
      else
        log "$net: the simulated traffic job queues no bytes on this link; the ping-pong's per-byte CPU stays"
        echo "$net $extra_byte -" >>"$out/queued_byte_fit.txt"
      fi
    fi
  fi
  for n in "${ncs[@]}"; do
    pinned=$([ "$n" -le "$cores" ] && echo yes || echo no)
    if [ "$pinned" = yes ]; then
      sliced=()
      host=(--host-cores 1)
    else
      sliced=(--time-sliced --shared-cores "$cores")
      host=(--host-cores 1 "${sliced[@]}")
    fi
    for wl in "${wls[@]}"; do
      cell=$wl-n$n-$net
      log "cell $cell: $repeats TCP runs (pinned: $pinned)"
      read -r -a flags <<<"${job[$wl]}"
      s0=$(share)
      q0=$(probe_epoch "$wl")
      p0=$(pressure)
      t0=$(date +%s.%N)
      for ((r = 1; r <= repeats; r++)); do
        port=$((port + 1))
        dir=$out/runs/$cell/tcp-$r
        mkdir -p "$dir"
        pids=()
        for ((i = 0; i < n; i++)); do
          wrap=()
          [ "$pinned" = yes ] && wrap=(taskset -c "$i")
          if [ -n "$rate" ]; then
            ns=(ip netns exec "$tag-$i")
            coord=10.79.0.1:$port
            emul=(--emulate-latency "${lat_us}us")
          else
            ns=()
            coord=127.0.0.1:$port
            emul=()
          fi
          "${ns[@]}" "${wrap[@]}" timeout 900 "$augur" run "${flags[@]}" --nodes "$n" --workers 1 \
            --rank "$i" --coordinator "$coord" --secret-file "$out/secret" "${emul[@]}" \
            --peer-timeout 120s --out "$dir" >"$dir/rank-$i.log" 2>&1 &
          pids+=($!)
        done
        for ((i = 0; i < n; i++)); do
          wait "${pids[$i]}" || { tail -5 "$dir"/rank-*.log >&2; log "$cell: TCP rank $i failed"; exit 1; }
        done
      done
      p1=$(pressure)
      t1=$(date +%s.%N)
      q1=$(probe_epoch "$wl")
      s1=$(share)
      log "cell $cell: simulator"
      costs=$out/costs-$wl.json
      [ -n "$rate" ] && costs=$out/costs-$wl-$net.json
      "$augur" sim "${flags[@]}" --nodes "$n" --workers 1 --compute hybrid --costs "$costs" \
        "${sim_net[@]}" "${host[@]}" --no-progress --out "$out/runs/$cell/sim" \
        >"$out/runs/$cell/sim.log" 2>&1 || { tail -5 "$out/runs/$cell/sim.log" >&2; log "$cell: sim failed"; exit 1; }
      # The same with the hosts slowed to the core share other jobs left (measured around the runs).
      speed=$($PY -c "print('%.6gGf' % (($s0 + $s1) / 2))")
      "$augur" sim "${flags[@]}" --nodes "$n" --workers 1 --compute hybrid --costs "$costs" \
        "${sim_net[@]}" --host-cores 1 --host-speed "$speed" "${sliced[@]}" --no-progress --out "$out/runs/$cell/sim-load" \
        >"$out/runs/$cell/sim-load.log" 2>&1 || { tail -5 "$out/runs/$cell/sim-load.log" >&2; log "$cell: sim failed"; exit 1; }
      # The same at the host speed the probe measured around the runs (no probe: 1).
      probe_speed=1
      if [ -n "$q0" ]; then
        probe_speed=$($PY -c "print('%.6g' % (${probe_ref[$wl]} / (($q0 + $q1) / 2)))")
      fi
      "$augur" sim "${flags[@]}" --nodes "$n" --workers 1 --compute hybrid --costs "$costs" \
        "${sim_net[@]}" "${host[@]}" --host-speed "${probe_speed}Gf" --no-progress --out "$out/runs/$cell/sim-probe" \
        >"$out/runs/$cell/sim-probe.log" 2>&1 || { tail -5 "$out/runs/$cell/sim-probe.log" >&2; log "$cell: sim failed"; exit 1; }
      $PY - "$out/runs/$cell" "$repeats" "$wl" "$n" "$net" "$pinned" "$p0" "$p1" "$t0" "$t1" "$cores" \
        "$s0" "$s1" "$probe_speed" "${q0:+1}" >>"$out/matrix.csv" <<'PY'
import json, os, statistics, sys
cell, repeats, wl, n, net, pinned, p0, p1, t0, t1, cores, s0, s1, speed, probed = sys.argv[1:16]
def mean(xs): return sum(xs) / len(xs)
runs = [json.load(open(os.path.join(cell, f"tcp-{r}", "rank-0", "result.json")))
        for r in range(1, int(repeats) + 1)]
measured = [mean(r["epoch_seconds"]) for r in runs]
tcp_bytes = sum(json.load(open(os.path.join(cell, "tcp-1", f"rank-{i}", "result.json")))["bytes_sent"]
                for i in range(int(n)))
sim = json.load(open(os.path.join(cell, "sim", "result.json")))
loaded = json.load(open(os.path.join(cell, "sim-load", "result.json")))
pp = mean(json.load(open(os.path.join(cell, "sim-probe", "result.json")))["epoch_seconds"])
m, p, pl = statistics.median(measured), mean(sim["epoch_seconds"]), mean(loaded["epoch_seconds"])
# PSI "some" is per machine: stalled microseconds over the wall time of the TCP runs.
pressure = (int(p1) - int(p0)) / 1e6 / max(1e-9, float(t1) - float(t0))
# The epochs after the first (runs of more than one epoch): the first adds
# start-up costs (first touches, page faults) the simulator does not model.
later = ""
if len(sim["epoch_seconds"]) > 1:
    ml = statistics.median(mean(r["epoch_seconds"][1:]) for r in runs)
    pl1 = mean(sim["epoch_seconds"][1:])
    later = f"{ml:.6f},{pl1:.6f},{pl1 / ml:.4f}"
else:
    later = ",,"
# CPU per epoch, every node together: the TCP ranks' process CPU (median over the runs
# of their mean epoch) against what the simulator charged its hosts.
def cpu_per_epoch(results):
    return mean([sum(r["epoch_process_cpu_seconds"][e] for r in results)
                 for e in range(len(results[0]["epoch_process_cpu_seconds"]))])
mc = statistics.median(
    cpu_per_epoch([json.load(open(os.path.join(cell, f"tcp-{r}", f"rank-{i}", "result.json")))
                   for i in range(int(n))])
    for r in range(1, int(repeats) + 1))
pc = cpu_per_epoch([sim])
print(f"{wl},{n},{net},{pinned},{m:.6f},{' '.join('%.4f' % x for x in measured)},{p:.6f},"
      f"{p / m:.4f},{pressure:.3f},{tcp_bytes},{sim['bytes_sent']},"
      f"{(float(s0) + float(s1)) / 2:.3f},{pl:.6f},{pl / m:.4f},{later},"
      + (f"{float(speed):.4f},{pp:.6f},{pp / m:.4f}" if probed else ",,")
      + f",{mc:.6f},{pc:.6f},{pc / mc:.4f}")
PY
    done
  done
done

$PY - "$out" "$cores" "$repeats" <<'PY' | tee "$out/summary.md"
import csv, os, statistics, subprocess, sys
out, cores, repeats = sys.argv[1:4]
rows = list(csv.DictReader(open(os.path.join(out, "matrix.csv"))))
def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
print("# Simulator fidelity: predicted vs measured epoch time\n")
print(f"- machine: {sh('uname -n')}, {cores} cores; commit {sh('git rev-parse --short HEAD')}; "
      f"date {sh('date -u +%Y-%m-%dT%H:%M:%SZ')}")
print(f"- load average at the end: {sh('cat /proc/loadavg')}")
print(f"- measured: median over {repeats} TCP runs of rank 0's mean epoch time; predicted: "
      "`augur sim --compute hybrid` with the costs `augur calibrate` measured here")
# The shaped networks' calibration, one line per network and measurement.
notes = {
    "emulated_latency.txt": lambda net, nominal, x: (
        f"- {net}: `--emulate-latency {nominal}us` measured at {float(x) * 1e6:.0f} us one way "
        "as augur's frames see it (timer and hand-off wake-ups); the simulated links have it, "
        "less the emulation's CPU below"),
    "path_cost.txt": lambda net, fixed, per_byte: (
        f"- {net}: the namespaces' path (veth, bridge, tbf) costs {float(fixed) * 1e6:.2f} us "
        f"+ {float(per_byte) * 1e9:.3f} ns/B of CPU per message beyond loopback "
        "(scripts/lib/path_cost.py); the simulator's costs for its cells add the first per "
        "message and charge the second per byte that waits for a busy link"),
    "queued_byte_fit.txt": lambda net, pingpong, fitted: (
        f"- {net}: a byte waiting for the link costs "
        + (f"{float(fitted) * 1e9:.2f} ns of CPU, fitted to a zipf job's CPU across the path "
           f"against loopback (the ping-pong gave {float(pingpong) * 1e9:.2f})" if fitted != "-"
           else f"{float(pingpong) * 1e9:.2f} ns of CPU (the ping-pong; the simulated traffic "
                "job queued no bytes on this link, so nothing to fit)")),
    "emulation_cpu.txt": lambda net, nominal, x: (
        f"- {net}: `--emulate-latency {nominal}us` costs {float(x) * 1e6:.1f} us of CPU per "
        "message (its timer and hand-off wake-ups; a zipf job with and without it), added to "
        "the simulator's cost of a message that wakes its node, not to one that arrives with "
        "others (one timer wake-up delivers every frame due by then)"),
}
for name, note in notes.items():
    path = os.path.join(out, name)
    if os.path.exists(path):
        for line in open(path):
            print(note(*line.split()))
print()
print("| workload | nodes | network | pinned | measured (s) | runs (s) | predicted (s) | "
      "predicted/measured | CPU pressure | core share | predicted at that share (s) | ratio | "
      "bytes tcp/sim |")
print("|---|---:|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    print(f"| {r['workload']} | {r['nodes']} | {r['network']} | {r['pinned']} | "
          f"{float(r['measured_epoch_s']):.4f} | {r['measured_runs']} | "
          f"{float(r['predicted_epoch_s']):.4f} | {float(r['ratio']):.3f} | "
          f"{100 * float(r['cpu_pressure']):.0f}% | {float(r['core_share']):.2f} | "
          f"{float(r['predicted_loaded_epoch_s']):.4f} | {float(r['ratio_loaded']):.3f} | "
          f"{int(r['tcp_bytes']) / max(1, int(r['sim_bytes'])):.2f} |")
errors = [abs(float(r["ratio"]) - 1) for r in rows]
loaded = [abs(float(r["ratio_loaded"]) - 1) for r in rows]
print("\nCPU pressure: the share of the TCP runs' wall time in which some runnable task on this "
      "machine waited for a core (/proc/pressure/cpu). Core share: the CPU share a busy thread "
      "pinned to each core got just before and after the TCP runs (1.0 on an idle machine); "
      "other jobs take the rest. The simulator knows nothing of other jobs: `predicted` models "
      "an otherwise idle machine, `predicted at that share` the same hosts slowed to the "
      "measured core share (--host-speed), a first-order model of the others' load.\n")
def cell_table(cells, header, cols):
    # A markdown table of the cells: workload, nodes, network, then `cols`
    # (csv column, format) under `header`'s titles.
    print("| workload | nodes | network | " + " | ".join(header) + " |")
    print("|---|---:|---|" + "---:|" * len(header))
    for r in cells:
        print(f"| {r['workload']} | {r['nodes']} | {r['network']} | "
              + " | ".join(format(float(r[c]), f) for c, f in cols) + " |")
multi = [r for r in rows if r["ratio_later"]]
if multi:
    cell_table(multi, ["measured after epoch 1 (s)", "predicted after epoch 1 (s)",
                       "predicted/measured"],
               [("measured_later_s", ".4f"), ("predicted_later_s", ".4f"), ("ratio_later", ".3f")])
    later = [abs(float(r["ratio_later"]) - 1) for r in multi]
    print("\nAfter epoch 1: the same runs without their first epoch, whose start-up costs (first "
          "touches of the rows, page faults) the simulator does not model (cells of more than one "
          "epoch).\n")
    print(f"after epoch 1: worst |predicted/measured - 1| = {max(later):.3f} over {len(later)} "
          f"cells (median {statistics.median(later):.3f})")
cell_table(rows, ["measured CPU (s)", "predicted CPU (s)", "predicted/measured"],
           [("measured_cpu_s", ".3f"), ("predicted_cpu_s", ".3f"), ("ratio_cpu", ".3f")])
cpu = [abs(float(r["ratio_cpu"]) - 1) for r in rows]
print("\nCPU: per epoch, every node together: the TCP ranks' process CPU (getrusage, every "
      "thread; median over the runs) against what the simulator charged the nodes' hosts "
      "(workers, message handling, timers, bytes waiting for a link). A cell whose epoch and "
      "CPU ratios move together is off in the CPU model; one whose epoch ratio moves alone, "
      "in waiting or the network.\n")
print(f"CPU: worst |predicted/measured - 1| = {max(cpu):.3f} over {len(cpu)} cells "
      f"(median {statistics.median(cpu):.3f})\n")
probed = [r for r in rows if r["ratio_probe"]]
if probed:
    print()
    cell_table(probed, ["host speed (probe)", "measured (s)", "predicted at that speed (s)",
                        "predicted/measured"],
               [("probe_speed", ".2f"), ("measured_epoch_s", ".4f"),
                ("predicted_probe_epoch_s", ".4f"), ("ratio_probe", ".3f")])
    print("\nHost speed: the workload's one-thread baseline (`augur single --threads 1`, core 0) "
          "timed after calibration, over the same timed before and after the cell's TCP runs "
          "(below 1: the host ran slower than when it was calibrated). `predicted at that speed` "
          "simulates the cell on hosts of that speed (--host-speed): what the model predicts "
          "once the host's drift is taken out. A diagnostic; the fidelity line below is not "
          "adjusted. zipf has no probe.\n")
    drift = [abs(float(r["ratio_probe"]) - 1) for r in probed]
    print(f"at the probed host speed: worst |predicted/measured - 1| = {max(drift):.3f} over "
          f"{len(drift)} cells (median {statistics.median(drift):.3f})")
print(f"at the measured core share: worst |predicted/measured - 1| = {max(loaded):.3f} "
      f"(median {statistics.median(loaded):.3f})")
print(f"fidelity: worst |predicted/measured - 1| = {max(errors):.3f} over {len(errors)} cells "
      f"(median {statistics.median(errors):.3f})")
PY
