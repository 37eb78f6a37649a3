#!/usr/bin/env bash
# Scenario tests of `augur sim`. Usage: sim_cli_test.sh AUGUR CASE
#   verify       sum invariant (--verify) for 1, 3, 5 nodes (star), 6 (fat tree), 7 (dragonfly)
#   determinism  two runs, same seed and config: identical result.json except wall fields
#   nodes1024    1024 simulated nodes complete a tiny workload, verified
#   fail_node    --fail-node 3@100us exits 1 naming node 3 and the time, no hang
#   costs_trace  calibrate (one worker per core) -> --costs FILE (costs land in result.json); --trace writes a trace
#   host_cores   workers and protocol handling share --host-cores; --costs models this machine
#   first_epoch  a costs file's first-epoch start-up cost is charged in epoch 1 only
#   time_sliced  more nodes than the costs' cores (or --time-sliced) charge the time-sliced worker cost
#   wakeup_delay a costs file's wake-up delay lengthens a busy node's round trips, and its
#                time-sliced one every message of 3 nodes on 2 cores, deterministically
set -euo pipefail
augur=$1
case_name=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL ($case_name): $*" >&2; exit 1; }
# refused_field FIELD SIM_FLAGS...: augur sim with those flags must fail, naming FIELD.
refused_field() {
  local field=$1 rc
  shift
  set +e
  "$augur" sim "$@" --out "$work/bad" > /dev/null 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -ne 0 ]] && grep -q "$field" "$work/err" ||
    fail "a costs file with a bad $field was not refused by name: rc $rc, $(cat "$work/err")"
}
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }
tiny=(--workload zipf --keys 2000 --batch-size 16 --batches 4 --no-progress)

case "$case_name" in
verify)
  for spec in "1 star" "3 star" "5 star" "6 fat-tree" "7 dragonfly"; do
    set -- $spec
    "$augur" sim --nodes "$1" --workers 2 --platform "$2" --pattern mixed --verify --seed 3 \
      "${tiny[@]}" --out "$work/v$1" > "$work/log" || { cat "$work/log"; fail "nodes $1 $2 exited non-zero"; }
    [[ $(field "$work/v$1/result.json" "['verified']") == True ]] || fail "nodes $1 $2 not verified"
    [[ $(field "$work/v$1/result.json" "['backend']") == sim ]] || fail "backend is not sim"
  done
  ;;
determinism)
  for run in a b; do
    "$augur" sim --nodes 6 --workers 3 --pattern mixed --verify --seed 7 --epochs 2 \
      "${tiny[@]}" --out "$work/$run" > /dev/null
  done
  python3 - "$work/a/result.json" "$work/b/result.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for k in ("wall_seconds", "sim_messages_per_wall_second", "peak_memory_mib", "cpu_seconds",
          "sim_messages_per_cpu_second"):
    a.pop(k); b.pop(k)
if a != b:
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    sys.exit("results differ in: %s" % diff)
if not a["epoch_seconds"] or a["epoch_seconds"][0] <= 0:
    sys.exit("no simulated epoch time")
PY
  ;;
nodes1024)
  "$augur" sim --nodes 1024 --workers 1 --pattern partitioned --verify --seed 1 \
    --workload zipf --keys 8192 --batch-size 4 --batches 1 --no-progress --out "$work/big" > /dev/null \
    || fail "1024 nodes exited non-zero"
  [[ $(field "$work/big/result.json" "['verified']") == True ]] || fail "1024 nodes not verified"
  [[ $(field "$work/big/result.json" "['nodes']") == 1024 ]] || fail "node count not recorded"
  ;;
fail_node)
  set +e
  timeout 300 "$augur" sim --nodes 8 --workers 2 --fail-node 3@100us --seed 1 --workload zipf \
    --keys 2000 --batch-size 16 --batches 200 --no-progress --out "$work/f" > "$work/out" 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -eq 1 ]] || { cat "$work/err"; fail "exit code $rc, expected 1 (124 = hang)"; }
  grep -q "node 3 failed at simulated time 0.000100" "$work/err" || { cat "$work/err"; fail "report does not name node 3 and the time"; }
  [[ $(field "$work/f/result.json" "['failure']['node']") == 3 ]] || fail "failure not in result.json"
  ;;
costs_trace)
  # --workers 3 is the job's; the runs measured have one worker per core of each process.
  "$augur" calibrate --workload zipf --keys 2000 --workers 3 --out "$work/costs.json" \
    --work-dir "$work/calibration" > /dev/null
  per_process=$(( $(nproc) / 2 )); (( per_process < 1 )) && per_process=1
  (( per_process > 3 )) && per_process=3
  for r in "$work"/calibration/launch-e*/result.json; do
    [[ $(field "$r" "['workers_per_node']") == "$per_process" ]] ||
      fail "calibration run $r has $(field "$r" "['workers_per_node']") workers, want $per_process"
  done
  field "$work/costs.json" "['worker_cost_source']" | grep -q -- "--workers $per_process\`" ||
    fail "worker_cost_source does not name the runs' workers"
  # The message cost comes from the two probe runs (1 worker each), at least the ping-pong's floor.
  for b in 64 16; do
    [[ $(field "$work/calibration/message-probe-b$b/result.json" "['config']['zipf']['batch_size']") == "$b" ]] ||
      fail "no message probe run at batch $b"
  done
  field "$work/costs.json" "['message_cost_source']" | grep -qE "zipf runs|ping-pong" ||
    fail "message_cost_source does not say how the message cost was measured"
  # The loopback latency: fitted by simulating the 2-node run's measured epochs (the
  # closest simulation's latency, at most the idle ping-pong's), or that ping-pong's.
  python3 - "$work/costs.json" "$work"/calibration/launch-e*/result.json <<'PY' ||
import glob, json, os, sys
last = max(sys.argv[2:], key=lambda p: int(p.split("launch-e")[1].split("/")[0]))
costs, run = json.load(open(sys.argv[1])), json.load(open(last))
source, latency = costs["loopback_latency_source"], costs["loopback_latency_seconds"]
if source.startswith("fitted"):
    fits = [json.load(open(p)) for p in glob.glob(os.path.dirname(sys.argv[1]) +
                                                  "/calibration/latency-fit-*/result.json")]
    assert fits, "no latency fit simulations"
    def mean_after_first(r):
        return sum(r["epoch_seconds"][1:]) / len(r["epoch_seconds"][1:])
    target = mean_after_first(run)
    gaps = [(abs(mean_after_first(f) - target), f["costs"]["loopback_latency_seconds"]) for f in fits]
    chosen = [g for g, l in gaps if abs(l - latency) < 1e-12]
    assert chosen and min(chosen) == min(g for g, _ in gaps), (latency, gaps)
    assert 0 <= latency < 1e-3, latency
else:
    assert source.startswith("a 64-byte ping-pong between idle cores"), source
    assert latency >= 0, latency
PY
    fail "costs.json's loopback latency is not the fit closest to the 2-node run's epochs"
  # The wake-up delay: measured from the 2-node run's timer sync rounds, then fitted by
  # simulating that run's first 3 epochs (the closest simulation's delay), or not measured.
  python3 - "$work/costs.json" "$work"/calibration/launch-e*/result.json <<'PY' ||
import glob, json, os, sys
# The run the costs come from: the one of the most epochs (calibrate lengthens it until
# its CPU is large against the noise).
last = max(sys.argv[2:], key=lambda p: int(p.split("launch-e")[1].split("/")[0]))
costs, run = json.load(open(sys.argv[1])), json.load(open(last))
source, delay = costs["wakeup_delay_source"], costs["wakeup_delay_seconds"]
# Measured from at least 20 answered rounds, at least 20 a second (rarer ones are large).
if run["sync_round_trips"] >= 20 and run["sync_round_trips"] >= 20 * run["total_seconds"]:
    mean = run["sync_round_trip_micros"] / run["sync_round_trips"] * 1e-6
    if source.startswith("fitted"):
        assert "the sync rounds gave" in source and 0 <= delay <= 1.6e-3, (source, delay)
        fits = [json.load(open(p)) for p in glob.glob(os.path.dirname(sys.argv[1]) +
                                                      "/calibration/wakeup-fit-*/result.json")]
        assert fits, "no wake-up fit simulations"
        n = len(fits[0]["epoch_seconds"])
        target = sum(run["epoch_seconds"][:n]) / n
        gaps = [(abs(sum(f["epoch_seconds"]) / n - target), f["costs"]["wakeup_delay_seconds"])
                for f in fits]
        chosen = [g for g, d in gaps if abs(d - delay) < 1e-12]
        assert chosen and min(chosen) == min(g for g, _ in gaps), (delay, gaps)
    else:  # the simulator could not run the job: the rounds' figure stays
        assert "round trip" in source and 0 <= delay <= mean / 2, (source, delay, mean)
else:
    assert source.startswith("not measured") and delay == 0, (source, delay)
PY
    fail "costs.json's wake-up delay does not follow the calibration run's sync round trips and its fit"
  # The time-sliced worker cost: a run of cores + 1 processes of 1 worker each (up to 9).
  sliced=$(( $(nproc) + 1 ))
  if (( sliced <= 9 )); then
    r=$work/calibration/time-sliced-n$sliced/result.json
    [[ $(field "$r" "['nodes']") == "$sliced" && $(field "$r" "['workers_per_node']") == 1 ]] ||
      fail "no time-sliced run of $sliced processes x 1 worker"
    [[ $(field "$work/costs.json" "['time_sliced_processes']") == "$sliced" ]] &&
      python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['seconds_per_key_time_sliced'] > 0" \
        "$work/costs.json" || fail "costs.json has no time-sliced worker cost"
    # Its wake-up delay is fitted: of the fit's simulations (one per delay tried), the one
    # whose delay was chosen takes the closest to the real run's epochs after the first.
    python3 - "$work/costs.json" "$r" "$work"/calibration/time-sliced-fit-*/result.json <<'PY' ||
import json, sys
costs, real = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
fits = [json.load(open(p)) for p in sys.argv[3:]]
delay, source = costs["time_sliced_wakeup_delay_seconds"], costs["time_sliced_wakeup_delay_source"]
if source.startswith("not measured"):
    assert delay < 0, (delay, source)
    sys.exit(0)
assert source.startswith("fitted") and delay >= 0 and len(fits) >= 1, (delay, source)
def mean_after_first(r):
    return sum(r["epoch_seconds"][1:]) / len(r["epoch_seconds"][1:])
target = mean_after_first(real)
gaps = [(abs(mean_after_first(f) - target), f["costs"]["time_sliced_wakeup_delay_seconds"]) for f in fits]
chosen = [g for g, d in gaps if abs(d - delay) < 1e-12]
assert chosen and min(chosen) == min(g for g, _ in gaps), (delay, gaps)
assert all(f["config"]["sim"]["time_sliced"] for f in fits)
PY
      fail "the time-sliced wake-up delay is not the fit closest to the real run's waits"
  fi
  "$augur" sim --nodes 3 --workers 2 --seed 2 "${tiny[@]}" --costs "$work/costs.json" \
    --trace "$work/trace.paje" --out "$work/c" > /dev/null
  want=$(field "$work/costs.json" "['seconds_per_message']")
  got=$(field "$work/c/result.json" "['costs']['seconds_per_message']")
  [[ "$want" == "$got" ]] || fail "costs in result.json ($got) differ from the file ($want)"
  [[ -s "$work/trace.paje" ]] || fail "no trace written"
  set +e
  "$augur" sim --nodes 3 --costs "$work/missing.json" "${tiny[@]}" 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -eq 2 ]] && grep -q "missing.json" "$work/err" || fail "missing costs file: rc $rc"
  ;;
host_cores)
  # Workers share the host's cores: 2 workers of pure compute on 1 core take twice as long as on 3.
  cpu=(--workload zipf --keys 2000 --batch-size 16 --batches 40 --compute-per-key 1e-6 --no-progress)
  "$augur" sim --nodes 1 --workers 2 "${cpu[@]}" --host-cores 3 --out "$work/h3" > /dev/null
  "$augur" sim --nodes 1 --workers 2 "${cpu[@]}" --host-cores 1 --out "$work/h1" > /dev/null
  python3 - "$work/h3/result.json" "$work/h1/result.json" <<'PY' || fail "2 workers on 1 core are not 2x slower"
import json, sys
wide, narrow = (json.load(open(p)) for p in sys.argv[1:3])
assert wide["config"]["sim"]["host_cores"] == 3 and narrow["config"]["sim"]["host_cores"] == 1
ratio = narrow["epoch_seconds"][0] / wide["epoch_seconds"][0]
assert 1.9 < ratio < 2.1, ratio
PY
  # Protocol handling competes with the worker: replica sync rounds are handled while the
  # worker computes, so with costly messages one core per host is slower than two.
  cat > "$work/costs.json" <<'JSON'
{"workload": "zipf", "seconds_per_key": 2e-5, "seconds_per_message": 2e-5,
 "seconds_per_message_byte": 0, "cores": 2, "loopback_bandwidth_bytes_per_second": 1e9,
 "loopback_latency_seconds": 1e-5}
JSON
  msg=(--workload zipf --keys 2000 --batch-size 16 --batches 40 --policy replicate-all --workers 1 --no-progress)
  "$augur" sim --nodes 2 "${msg[@]}" --costs "$work/costs.json" --out "$work/m1" > /dev/null
  "$augur" sim --nodes 2 "${msg[@]}" --costs "$work/costs.json" --host-cores 2 --out "$work/m2" > /dev/null
  python3 - "$work/m1/result.json" "$work/m2/result.json" <<'PY' ||
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
sim = one["config"]["sim"]
assert sim["host_cores"] == 1, sim  # the costs' 2 cores split between 2 nodes
assert abs(sim["link_latency_seconds"] - 5e-6) < 1e-12, sim  # half the one-way loopback latency
assert sim["link_bandwidth_bytes_per_second"] == 1e9, sim
assert one["config"]["zipf"]["compute_seconds_per_key"] == 2e-5
assert one["epoch_seconds"][0] > 1.02 * two["epoch_seconds"][0], (one["epoch_seconds"], two["epoch_seconds"])
PY
    fail "--costs did not model this machine, or handling did not compete with the workers"
  # --shared-cores: the nodes compute on one machine's cores. 3 nodes of mostly compute on 2
  # shared cores take about 1.5x as long as each on a core of its own, never longer than
  # each on a third of the machine (a waiting node's share goes to the others), and on 3
  # shared cores exactly as long as on their own.
  cpu3=(--workload zipf --keys 2000 --batch-size 16 --batches 60 --compute-per-key 2e-5
    --policy classic --workers 1 --nodes 3 --link-latency 1us --no-progress)
  "$augur" sim "${cpu3[@]}" --host-cores 1 --host-speed 0.666667Gf --out "$work/fixed" > /dev/null
  "$augur" sim "${cpu3[@]}" --host-cores 1 --shared-cores 2 --out "$work/shared2" > /dev/null
  "$augur" sim "${cpu3[@]}" --host-cores 1 --shared-cores 3 --out "$work/shared3" > /dev/null
  "$augur" sim "${cpu3[@]}" --host-cores 1 --out "$work/own" > /dev/null
  python3 - "$work" <<'PY' || fail "--shared-cores did not share one machine's cores"
import json, sys
r = {n: json.load(open(f"{sys.argv[1]}/{n}/result.json")) for n in ("fixed", "shared2", "shared3", "own")}
e = {n: x["epoch_seconds"][0] for n, x in r.items()}
assert r["shared2"]["config"]["sim"]["shared_cores"] == 2, r["shared2"]["config"]["sim"]
assert "one machine of 2 cores" in r["shared2"]["platform"]["description"], r["shared2"]["platform"]
assert 1.4 < e["shared2"] / e["own"] < 1.6, e
assert e["shared2"] <= e["fixed"], e
assert e["shared3"] == e["own"], e
PY
  set +e
  "$augur" sim --nodes 2 "${tiny[@]}" --shared-cores 2 --platform fat-tree 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -eq 2 ]] && grep -q -- "--shared-cores" "$work/err" || fail "--shared-cores on a fat tree: rc $rc"
  set +e
  "$augur" sim --nodes 2 "${tiny[@]}" --host-cores 5000 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -eq 2 ]] && grep -q -- "--host-cores" "$work/err" || fail "--host-cores 5000: rc $rc"
  ;;
time_sliced)
  # A costs file of a 2-core machine whose workers cost twice as much time-sliced.
  cat > "$work/costs.json" <<'JSON'
{"workload": "zipf", "seconds_per_key": 1e-6, "seconds_per_key_time_sliced": 2e-6,
 "time_sliced_processes": 3, "seconds_per_message": 1e-6, "seconds_per_message_byte": 0,
 "cores": 2, "loopback_bandwidth_bytes_per_second": 1e9, "loopback_latency_seconds": 1e-5}
JSON
  run() {  # run NAME FLAGS...: the compute per key charged, and whether time-sliced
    local name=$1
    shift
    "$augur" sim "${tiny[@]}" --workers 1 --costs "$work/costs.json" "$@" --out "$work/$name" > /dev/null
    python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["config"]
print(c["zipf"]["compute_seconds_per_key"], c["sim"]["time_sliced"])' "$work/$name/result.json"
  }
  [[ $(run n2 --nodes 2) == "1e-06 False" ]] || fail "2 nodes on 2 cores were charged the time-sliced cost"
  [[ $(run n3 --nodes 3) == "2e-06 True" ]] || fail "3 nodes on 2 cores were not charged the time-sliced cost"
  # ... and they share the machine's 2 cores at full speed.
  python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["config"]["sim"]
assert s["shared_cores"] == 2 and s["host_speed_flops"] == 1e9, s' "$work/n3/result.json" ||
    fail "3 nodes on 2 cores do not share the machine's cores"
  [[ $(run n3c --nodes 3 --host-cores 1) == "1e-06 False" ]] || fail "--host-cores alone made it time-sliced"
  [[ $(run n2p --nodes 2 --preset ethernet-10g --time-sliced) == "2e-06 True" ]] ||
    fail "--time-sliced was not charged"
  [[ $(run n3k --nodes 3 --compute-per-key 5e-6) == "5e-06 True" ]] || fail "--compute-per-key did not win"
  # The file's time-sliced cost lands in result.json with the rest.
  python3 - "$work/n2p/result.json" <<'PY' || fail "time-sliced run not recorded"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["costs"]["seconds_per_key_time_sliced"] == 2e-6, r["costs"]
PY
  # No time-sliced cost in the file: --time-sliced is an error that says so; by default nothing changes.
  python3 - "$work/costs.json" "$work/old.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
for k in ("seconds_per_key_time_sliced", "time_sliced_processes"):
    del c[k]
json.dump(c, open(sys.argv[2], "w"))
PY
  set +e
  "$augur" sim "${tiny[@]}" --nodes 2 --costs "$work/old.json" --time-sliced --out "$work/x" 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -eq 2 ]] && grep -q "no time-sliced worker cost" "$work/err" || { cat "$work/err"; fail "--time-sliced without the cost: rc $rc"; }
  "$augur" sim "${tiny[@]}" --nodes 3 --costs "$work/old.json" --out "$work/o3" > /dev/null
  [[ $(field "$work/o3/result.json" "['config']['zipf']['compute_seconds_per_key']") == 1e-06 ]] ||
    fail "an old costs file did not keep its worker cost"
  set +e
  "$augur" sim "${tiny[@]}" --nodes 2 --time-sliced --out "$work/y" 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -eq 2 ]] && grep -q -- "--time-sliced needs --costs" "$work/err" || fail "--time-sliced without --costs: rc $rc"
  ;;
first_epoch)
  # A costs file's start-up cost lengthens the first epoch only, by about its samples x
  # the extra per sample over the workers (one core each); without it the epochs are alike.
  for extra in 0 4e-6; do
    cat > "$work/costs-$extra.json" <<JSON
{"workload": "mf", "seconds_per_key": -1, "seconds_per_sample": 1e-6,
 "first_epoch_extra_seconds_per_sample": $extra, "seconds_per_message": 0,
 "seconds_per_message_byte": 0}
JSON
    "$augur" sim --workload mf --mf-rows 400 --mf-cols 100 --mf-nnz 20000 --dim 8 --epochs 3 \
      --nodes 2 --workers 2 --policy classic --partition random --seed 3 --no-progress \
      --costs "$work/costs-$extra.json" --out "$work/fe-$extra" > /dev/null
  done
  python3 - "$work/fe-0/result.json" "$work/fe-4e-6/result.json" <<'PY' ||
import json, sys
plain, extra = (json.load(open(p)) for p in sys.argv[1:3])
e0, e1 = plain["epoch_seconds"], extra["epoch_seconds"]
assert extra["costs"]["first_epoch_extra_seconds_per_sample"] == 4e-6, extra["costs"]
assert extra["config"]["first_epoch_extra_seconds_per_sample"] == 4e-6, extra["config"]
per_worker = extra["samples"] / extra["epochs"] / 4  # 2 nodes x 2 workers
want = per_worker * 4e-6
assert abs((e1[0] - e0[0]) - want) < 0.1 * want, (e0, e1, want)
assert all(abs(a - b) < 0.02 * want for a, b in zip(e0[1:], e1[1:])), (e0, e1)
PY
    fail "the first epoch's start-up cost was not charged once, per sample"
  # zipf: per key access.
  cat > "$work/costs-zipf.json" <<'JSON'
{"workload": "zipf", "seconds_per_key": 1e-6, "first_epoch_extra_seconds_per_sample": 4e-6,
 "seconds_per_message": 0, "seconds_per_message_byte": 0}
JSON
  "$augur" sim --workload zipf --keys 2000 --batch-size 16 --batches 50 --epochs 2 --nodes 2 \
    --workers 1 --policy classic --no-progress --costs "$work/costs-zipf.json" --out "$work/fz" > /dev/null
  python3 - "$work/fz/result.json" <<'PY' || fail "zipf's first epoch was not charged its start-up cost per key"
import json, sys
r = json.load(open(sys.argv[1]))
e = r["epoch_seconds"]
assert r["config"]["zipf"]["first_epoch_extra_seconds_per_key"] == 4e-6, r["config"]["zipf"]
want = 50 * 16 * 4e-6  # one worker's key accesses in an epoch
assert abs((e[0] - e[1]) - want) < 0.1 * want, (e, want)
PY
  # A costs file with a negative queued-byte cost is refused, naming the field and the file.
  cat > "$work/costs-bad.json" <<'JSON'
{"workload": "mf", "seconds_per_key": -1, "seconds_per_message": 0,
 "seconds_per_message_byte": 0, "seconds_per_queued_byte": -1e-9}
JSON
  set +e
  "$augur" sim --workload mf --mf-rows 400 --mf-cols 100 --mf-nnz 20000 --dim 8 --nodes 2 \
    --costs "$work/costs-bad.json" --no-progress --out "$work/bad" > /dev/null 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -ne 0 ]] && grep -q "seconds_per_queued_byte" "$work/err" && grep -q "costs-bad.json" "$work/err" ||
    fail "a negative seconds_per_queued_byte: rc $rc, $(cat "$work/err")"
  ;;
coalesced)
  # A parcel's frames after the first are charged seconds_per_coalesced_message (one
  # wake-up for the parcel): mf relocates its rows in bursts, so with a large cost per
  # message and none per coalesced one its protocol work, and its epochs, shrink; a file
  # without the field charges every frame alike; 1 s or more is refused by name.
  cat > "$work/costs.json" <<'JSON'
{"workload": "mf", "seconds_per_key": -1, "seconds_per_sample": 1e-6, "seconds_per_message": 2e-4,
 "seconds_per_message_byte": 0, "cores": 2, "loopback_bandwidth_bytes_per_second": 1e9,
 "loopback_latency_seconds": 1e-5}
JSON
  python3 -c 'import json, sys
c = json.load(open(sys.argv[1])); c["seconds_per_coalesced_message"] = 0
json.dump(c, open(sys.argv[2], "w"))' "$work/costs.json" "$work/costs-c.json"
  burst=(--workload mf --mf-rows 2000 --mf-cols 200 --mf-nnz 20000 --dim 8 --epochs 2
    --policy adaptive --workers 1 --nodes 2 --seed 4 --no-progress)
  "$augur" sim "${burst[@]}" --costs "$work/costs.json" --out "$work/full" > /dev/null
  "$augur" sim "${burst[@]}" --costs "$work/costs-c.json" --out "$work/c1" > /dev/null
  "$augur" sim "${burst[@]}" --costs "$work/costs-c.json" --out "$work/c2" > /dev/null
  "$augur" sim "${burst[@]}" --costs "$work/costs-c.json" --no-eval --out "$work/c3" > /dev/null
  python3 - "$work" <<'PY' || fail "coalesced messages are not charged as the costs file says"
import json, sys
r = {n: json.load(open(f"{sys.argv[1]}/{n}/result.json")) for n in ("full", "c1", "c2", "c3")}
# --no-eval (calibrate's fits): the same epochs, no quality.
assert "quality" in r["c1"] and "quality" not in r["c3"], (r["c1"].keys(), r["c3"].keys())
assert r["c3"]["config"]["evaluate"] is False and r["c3"]["epoch_seconds"] == r["c1"]["epoch_seconds"]
assert r["full"]["costs"]["seconds_per_coalesced_message"] == -1, r["full"]["costs"]
assert r["c1"]["costs"]["seconds_per_coalesced_message"] == 0, r["c1"]["costs"]
assert r["c1"]["epoch_seconds"] == r["c2"]["epoch_seconds"], "not deterministic"
full, coalesced = sum(r["full"]["epoch_seconds"]), sum(r["c1"]["epoch_seconds"])
assert r["c1"]["messages_sent"] > 100, r["c1"]["messages_sent"]
# Each frame read with others saves 0.2 ms of handling: at least a few of them.
assert coalesced < full - 1e-3, (coalesced, full)
PY
  python3 -c 'import json, sys
c = json.load(open(sys.argv[1])); c["seconds_per_coalesced_message"] = 1
json.dump(c, open(sys.argv[2], "w"))' "$work/costs.json" "$work/costs-bad.json"
  refused_field seconds_per_coalesced_message "${burst[@]}" --costs "$work/costs-bad.json"
  ;;
awake)
  # A parcel already waiting when the protocol actor finishes the previous one is
  # charged seconds_per_awake_message for its first frame (no wake-up): with a large
  # cost per message, mf's bursts of relocations queue at the protocol actor, so with
  # an awake cost of 0 its epochs shrink; parcels that found it asleep still pay the
  # full cost (not as cheap as no message cost at all); the same run twice is
  # identical; a file without the field charges as before; 1 s or more is refused.
  cat > "$work/costs.json" <<'JSON'
{"workload": "mf", "seconds_per_key": -1, "seconds_per_sample": 1e-6, "seconds_per_message": 2e-4,
 "seconds_per_message_byte": 0, "seconds_per_coalesced_message": 0, "cores": 2,
 "loopback_bandwidth_bytes_per_second": 1e9, "loopback_latency_seconds": 1e-5}
JSON
  python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
json.dump(dict(c, seconds_per_awake_message=0), open(sys.argv[2], "w"))
json.dump(dict(c, seconds_per_message=0), open(sys.argv[3], "w"))
json.dump(dict(c, seconds_per_awake_message=1), open(sys.argv[4], "w"))' \
    "$work/costs.json" "$work/costs-awake.json" "$work/costs-free.json" "$work/costs-bad.json"
  burst=(--workload mf --mf-rows 2000 --mf-cols 200 --mf-nnz 20000 --dim 8 --epochs 2
    --policy adaptive --workers 1 --nodes 2 --seed 4 --no-progress --no-eval)
  for run in full:costs awake:costs-awake awake2:costs-awake free:costs-free; do
    "$augur" sim "${burst[@]}" --costs "$work/${run#*:}.json" --out "$work/${run%%:*}" > /dev/null
  done
  python3 - "$work" <<'PY' || fail "awake messages are not charged as the costs file says"
import json, sys
r = {n: json.load(open(f"{sys.argv[1]}/{n}/result.json")) for n in ("full", "awake", "awake2", "free")}
assert r["full"]["costs"]["seconds_per_awake_message"] == -1, r["full"]["costs"]
assert r["awake"]["costs"]["seconds_per_awake_message"] == 0, r["awake"]["costs"]
assert r["awake"]["epoch_seconds"] == r["awake2"]["epoch_seconds"], "not deterministic"
full, awake, free = (sum(r[n]["epoch_seconds"]) for n in ("full", "awake", "free"))
assert r["awake"]["messages_sent"] > 100, r["awake"]["messages_sent"]
# Each parcel that found the actor busy saves 0.2 ms; the ones that woke it still pay it.
assert awake < full - 1e-3, (awake, full)
assert awake > free + 1e-3, (awake, free)
PY
  refused_field seconds_per_awake_message "${burst[@]}" --costs "$work/costs-bad.json"
  ;;
wakeup_delay)
  # A costs file's wake-up delay: a node whose worker computes on its only core handles
  # what arrives that much later on average (sync round trips grow by up to twice it), the
  # draws are deterministic, and a node with a core to spare, or --wakeup-delay 0, has none.
  cat > "$work/costs.json" <<'JSON'
{"workload": "zipf", "seconds_per_key": 1e-4, "seconds_per_message": 1e-6,
 "seconds_per_message_byte": 0, "cores": 2, "loopback_bandwidth_bytes_per_second": 1e9,
 "loopback_latency_seconds": 1e-5, "wakeup_delay_seconds": 5e-4}
JSON
  wake=(--workload zipf --keys 2000 --batch-size 16 --batches 200 --policy replicate-all
    --workers 1 --nodes 2 --seed 4 --no-progress --costs "$work/costs.json")
  "$augur" sim "${wake[@]}" --out "$work/w1" > /dev/null
  "$augur" sim "${wake[@]}" --out "$work/w2" > /dev/null
  "$augur" sim "${wake[@]}" --wakeup-delay 0 --out "$work/w0" > /dev/null
  "$augur" sim "${wake[@]}" --host-cores 2 --out "$work/wc" > /dev/null
  python3 - "$work" <<'PY' || fail "the wake-up delay is not charged as the costs file says"
import json, sys
r = {n: json.load(open(f"{sys.argv[1]}/{n}/result.json")) for n in ("w1", "w2", "w0", "wc")}
def round_trip(x):
    assert x["sync_round_trips"] > 10, x["sync_round_trips"]
    return x["sync_round_trip_micros"] / x["sync_round_trips"] * 1e-6
assert r["w1"]["costs"]["wakeup_delay_seconds"] == 5e-4, r["w1"]["costs"]
assert r["w0"]["costs"]["wakeup_delay_seconds"] == 0, r["w0"]["costs"]
assert r["w1"]["epoch_seconds"] == r["w2"]["epoch_seconds"], "not deterministic"
assert r["w1"]["sync_round_trip_micros"] == r["w2"]["sync_round_trip_micros"], "not deterministic"
delayed, free, spare = round_trip(r["w1"]), round_trip(r["w0"]), round_trip(r["wc"])
# Up to two waits of mean 0.5 ms per round trip (none while the worker waits itself).
assert 0.2e-3 < delayed - free < 1.5e-3, (delayed, free)
assert spare < free + 1e-4, (spare, free)  # a core to spare: no wait
assert r["w1"]["epoch_seconds"][0] > r["w0"]["epoch_seconds"][0], "waits cost no time"
PY
  set +e
  "$augur" sim "${wake[@]}" --wakeup-delay 2s --out "$work/bad" > /dev/null 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -eq 2 ]] && grep -q -- "--wakeup-delay" "$work/err" || fail "--wakeup-delay 2s: rc $rc"
  # Time-sliced (3 nodes on 2 cores): every message waits, busy host or not, a draw of the
  # time-sliced mean; a classic job (no sync rounds) then waits about two draws more per
  # remote pull (request and answer), deterministically.
  python3 - "$work/costs.json" "$work/costs-ts.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.update(seconds_per_key=1e-6, seconds_per_key_time_sliced=1e-6, time_sliced_processes=3,
         time_sliced_wakeup_delay_seconds=2e-4)
json.dump(c, open(sys.argv[2], "w"))
PY
  sliced=(--workload zipf --keys 2000 --batch-size 16 --batches 100 --policy classic
    --workers 1 --nodes 3 --seed 4 --lookahead 0 --no-progress --costs "$work/costs-ts.json")
  "$augur" sim "${sliced[@]}" --out "$work/t1" > /dev/null
  "$augur" sim "${sliced[@]}" --out "$work/t2" > /dev/null
  "$augur" sim "${sliced[@]}" --wakeup-delay 0 --out "$work/t0" > /dev/null
  python3 - "$work" <<'PY' || fail "the time-sliced wake-up delay is not charged as the costs file says"
import json, sys
r = {n: json.load(open(f"{sys.argv[1]}/{n}/result.json")) for n in ("t1", "t2", "t0")}
assert r["t1"]["config"]["sim"]["time_sliced"], r["t1"]["config"]["sim"]
assert r["t1"]["costs"]["time_sliced_wakeup_delay_seconds"] == 2e-4, r["t1"]["costs"]
assert r["t0"]["costs"]["time_sliced_wakeup_delay_seconds"] == 0, r["t0"]["costs"]
assert r["t0"]["costs"]["wakeup_delay_seconds"] == 5e-4, "--wakeup-delay set the other delay"
assert r["t1"]["epoch_seconds"] == r["t2"]["epoch_seconds"], "not deterministic"
# Per batch a worker pulls from both other nodes at once: the slower of two
# request+answer pairs, each of two draws of mean 0.2 ms.
batches = 100 * 3
extra = (r["t1"]["wait_seconds"] - r["t0"]["wait_seconds"]) / batches
assert 0.3e-3 < extra < 1.0e-3, extra
PY
  sed 's/5e-4/-1/' "$work/costs.json" > "$work/costs-bad.json"
  set +e
  "$augur" sim "${tiny[@]}" --nodes 2 --costs "$work/costs-bad.json" --out "$work/bad" > /dev/null 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -ne 0 ]] && grep -q "wakeup_delay_seconds" "$work/err" && grep -q "costs-bad.json" "$work/err" ||
    fail "a negative wake-up delay was not refused by name: rc $rc"
  python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
c["time_sliced_wakeup_delay_seconds"] = 2
json.dump(c, open(sys.argv[2], "w"))' "$work/costs-ts.json" "$work/costs-bad.json"
  set +e
  "$augur" sim "${tiny[@]}" --nodes 2 --costs "$work/costs-bad.json" --out "$work/bad" > /dev/null 2> "$work/err"
  rc=$?
  set -e
  [[ $rc -ne 0 ]] && grep -q "time_sliced_wakeup_delay_seconds" "$work/err" ||
    fail "a time-sliced wake-up delay of 2 s was not refused by name: rc $rc"
  ;;
*) fail "unknown case" ;;
esac
echo "ok: $case_name"
