#!/usr/bin/env bash
# Fidelity check of the simulator (issue 4, item 10): the same small zipf
# workload on the TCP backend across 3 network namespaces and in `augur sim`
# with the matching platform; prints measured vs predicted epoch time and
# their ratio (goal: within 25%).
#
#   experiments/fidelity/fidelity.sh [BUILD_DIR]      (needs root; installs iproute2, iputils-ping)
#
# Real side: namespaces <tag>-0..2 (10.78.0.1-3/24) joined by veth pairs to a
# bridge in <tag>-br; every veth end shaped with `tc ... tbf` to RATE in both
# directions (this kernel has no netem); latency = the veth path's own (ping)
# plus --emulate-latency LAT on every received frame. Only the namespaces this
# script creates are touched; they are deleted on exit (trap).
# Simulated side: --platform star (one link per host, 2 links per route),
# --link-bandwidth RATE, --link-latency (ping one-way + LAT) / 2, CM02, and the
# compute costs measured by `augur calibrate` on this machine (--costs).
# Environment overrides: RATE (default 100mbit), LAT (default 200us), NODES_WORKERS
# (default 2), WORKLOAD_ARGS, REPEATS (TCP runs, median; default 3), TOLERANCE
# (default 0.25), NIC_LANES (sim --nic-lanes values; the first is judged;
# default "1 2"), KEEP_DIR (copy the work directory there).
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
[[ "$build" == /* ]] || build="$AUGUR_ROOT/$build"
augur="$build/bin/augur"
[[ -x "$augur" ]] || { echo "fidelity: $augur not found (build the augur target first)" >&2; exit 2; }
if [[ $(id -u) -ne 0 ]]; then
  echo "fidelity: needs root for network namespaces (ip, tc) and to install missing tools" >&2
  exit 2
fi
# The tools this script calls (ip and tc from iproute2, ping from iputils-ping,
# python3) are in scripts/lib/deps.sh's AUGUR_PACKAGES: install what is missing.
# shellcheck source=scripts/lib/deps.sh
source "$AUGUR_ROOT/scripts/lib/deps.sh"
install_deps
for tool in ip tc ping; do
  command -v "$tool" > /dev/null || { echo "fidelity: '$tool' is missing after install_deps" >&2; exit 2; }
done
PY=/usr/bin/python3
rate=${RATE:-100mbit}
lat=${LAT:-200us}
workers=${NODES_WORKERS:-2}
tolerance=${TOLERANCE:-0.25}
repeats=${REPEATS:-3}
read -ra sim_lanes <<< "${NIC_LANES:-1 2}"
# Small and network-bound: 64-float values (256 B per key), 150 batches of 64 keys per worker.
read -ra workload <<< "${WORKLOAD_ARGS:---workload zipf --pattern uniform --keys 20000 --dim 64 --batch-size 64 --batches 150 --epochs 1 --seed 5}"

work=$(mktemp -d /tmp/augur-fidelity.XXXXXX)
tag="augfid$$"
cleanup() {
  local n
  for n in br 0 1 2; do ip netns del "$tag-$n" 2> /dev/null || true; done
  if [[ -n "${KEEP_DIR:-}" ]]; then cp -r "$work" "$KEEP_DIR"; fi
  rm -rf "$work"
}
trap cleanup EXIT

# --- namespaces: 3 nodes + a bridge ---
ip netns add "$tag-br"
ip -n "$tag-br" link add br0 type bridge
ip -n "$tag-br" link set br0 up
ip -n "$tag-br" link set lo up
for i in 0 1 2; do
  ip netns add "$tag-$i"
  ip link add v$i netns "$tag-$i" type veth peer name b$i netns "$tag-br"
  ip -n "$tag-br" link set b$i master br0
  ip -n "$tag-br" link set b$i up
  ip -n "$tag-$i" addr add 10.78.0.$((i + 1))/24 dev v$i
  ip -n "$tag-$i" link set v$i up
  ip -n "$tag-$i" link set lo up
  # Node -> bridge and bridge -> node, each RATE (a star link per host, both directions).
  ip netns exec "$tag-$i" tc qdisc add dev v$i root tbf rate "$rate" burst 32kb latency 100ms
  ip netns exec "$tag-br" tc qdisc add dev b$i root tbf rate "$rate" burst 32kb latency 100ms
done

# --- the path's own latency: one-way = half the ping RTT (small packets) ---
ping_out=$(ip netns exec "$tag-0" ping -q -c 50 -i 0.01 -s 56 10.78.0.2)
rtt_ms=$(sed -n 's|.*= [0-9.]*/\([0-9.]*\)/.*|\1|p' <<< "$ping_out")
[[ -n "$rtt_ms" ]] || { echo "fidelity: could not read ping RTT: $ping_out" >&2; exit 1; }

# --- compute costs of this machine ---
# The workload flags calibrate understands, taken from the run's flags.
mapfile -t calib_args < <(printf '%s\n' "${workload[@]}" | $PY -c '
import sys
a = sys.stdin.read().split()
keep = {"--keys", "--dim", "--batch-size", "--pattern", "--seed"}
print("\n".join(x for i, x in enumerate(a) if x in keep or (i > 0 and a[i-1] in keep)))')
"$augur" calibrate --workload zipf "${calib_args[@]}" --out "$work/costs.json" > "$work/calibrate.log"

# --- real runs: TCP backend across the namespaces, REPEATS times (median) ---
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
for r in $(seq 1 "$repeats"); do
  pids=()
  for i in 0 1 2; do
    ip netns exec "$tag-$i" timeout 600 "$augur" run "${workload[@]}" --nodes 3 --workers "$workers" \
      --rank $i --coordinator 10.78.0.1:$((29600 + r)) --secret-file "$work/secret" \
      --emulate-latency "$lat" --peer-timeout 120s --out "$work/tcp$r" > "$work/tcp$r-$i.log" 2>&1 &
    pids+=($!)
  done
  for i in 0 1 2; do
    wait "${pids[$i]}" || { cat "$work/tcp$r"-*.log >&2; echo "fidelity: TCP node $i failed" >&2; exit 1; }
  done
done

# --- simulated run: matching star platform ---
link_latency=$($PY -c "
rtt = float('$rtt_ms') * 1e-3
lat = '$lat'
units = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}
num = lat.rstrip('nums')
emul = float(num) * units[lat[len(num):] or 's']
print('%.9fs' % ((rtt / 2 + emul) / 2))")
sim_bw=$($PY -c "
r = '$rate'.lower()
for suffix, mult in (('gbit', 1e9), ('mbit', 1e6), ('kbit', 1e3), ('bit', 1.0)):
    if r.endswith(suffix):
        print('%.0fbps' % (float(r[:-len(suffix)]) * mult)); break")
# The first lane count is the judged one (default: the simulator's default, 1).
for lanes in "${sim_lanes[@]}"; do
  "$augur" sim "${workload[@]}" --nodes 3 --workers "$workers" --platform star \
    --link-bandwidth "$sim_bw" --link-latency "$link_latency" --network-model CM02 \
    --nic-lanes "$lanes" --costs "$work/costs.json" --no-progress --out "$work/sim-$lanes" \
    > "$work/sim-$lanes.log"
done

$PY - "$work" "$rtt_ms" "$rate" "$lat" "$link_latency" "$tolerance" "$repeats" "${sim_lanes[@]}" <<'PY'
import json, sys, os, statistics
work, rtt_ms, rate, lat, link_latency, tol, repeats = sys.argv[1:8]
lanes = sys.argv[8:]
tol = float(tol)
runs = [[json.load(open(os.path.join(work, "tcp%d" % r, "rank-%d" % i, "result.json")))
         for i in range(3)] for r in range(1, int(repeats) + 1)]
# Rank 0 reports the run's epoch times (the other ranks' lists are empty).
epochs = [run[0]["epoch_seconds"][0] for run in runs]
tcp = runs[0]
sims = [json.load(open(os.path.join(work, "sim-" + k, "result.json"))) for k in lanes]
sim = sims[0]
costs = json.load(open(os.path.join(work, "costs.json")))
measured = statistics.median(epochs)
predicted = sim["epoch_seconds"][0]
ratio = predicted / measured
print("fidelity: 3 nodes x %d workers, tbf %s per direction, ping RTT %.3f ms, --emulate-latency %s"
      % (tcp[0]["workers_per_node"], rate, float(rtt_ms), lat))
print("  sim platform: star, link latency %s (x2 per route), CM02; costs: %.1f ns/key, %.1f ns + %.3f ns/B per message"
      % (link_latency, 1e9 * costs["seconds_per_key"], 1e9 * costs["seconds_per_message"],
         1e9 * costs["seconds_per_message_byte"]))
print("  frames: TCP %d, sim %d; bytes: TCP %d, sim %d (sim parcels: %d)"
      % (sum(r.get("messages_sent", 0) for r in tcp), sim.get("simulated_messages", 0),
         sum(r.get("bytes_sent", 0) for r in tcp), sim.get("simulated_bytes", 0),
         sim.get("simulated_comms", 0)))
print("  measured epoch (TCP, rank 0):        %.4f s   (median of %d runs: %s)"
      % (measured, len(epochs), " ".join("%.4f" % e for e in epochs)))
for k, r in zip(lanes, sims):
    print("  predicted epoch (sim, --nic-lanes %s): %.4f s   ratio %.3f   (simulated in %.2f s wall)"
          % (k, r["epoch_seconds"][0], r["epoch_seconds"][0] / measured, r["wall_seconds"]))
ok = abs(ratio - 1) <= tol
print("  ratio predicted/measured (--nic-lanes %s): %.3f  (goal: within %.0f%%: %s)"
      % (lanes[0], ratio, 100 * tol, "yes" if ok else "NO"))
sys.exit(0 if ok else 3)
PY
