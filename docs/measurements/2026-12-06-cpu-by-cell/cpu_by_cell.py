#!/usr/bin/python3
"""CPU per epoch by fidelity cell: the TCP runs' against the simulator's.

Reads a scripts/bench-fidelity.sh output directory (OUT/runs/<cell>/tcp-*/rank-*/
result.json, OUT/runs/<cell>/sim/result.json and the costs files it names),
simulates every cell again with the given augur binary (which must report
epoch_process_cpu_seconds for simulated runs: 5cbd91f or later) and prints,
per cell, the measured and predicted epoch and CPU per epoch (every node
together), then per shaped cell the CPU it added over the same workload's
loopback cell, per byte sent, real and simulated.

Options change the shaped cells' costs before simulating them again (what was
tried offline on 2026-12-06, docs/measurements/2026-12-06-cpu-by-cell.md):
  --queued-byte-scale X   seconds_per_queued_byte x X
  --message-byte-extra S  seconds_per_message_byte + S, seconds_per_queued_byte 0
  --wakeup-scale X        wakeup_delay_seconds (and the time-sliced one) x X

Usage: cpu_by_cell.py OUT [--augur BIN] [options above]
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CACHE = os.path.join(ROOT, "results", "cache", "bench-efficiency")
JOB = {  # scripts/bench-fidelity.sh's cells
    "zipf": "--workload zipf --pattern uniform --keys 20000 --dim 64 --batch-size 64 "
            "--batches 1500 --epochs 1 --seed 5 --policy classic",
    "kge": f"--workload kge --data {CACHE}/kge50k --dim 50 --negatives 12 --eval-triples 20 "
           "--sampling local --policy adaptive --epochs 2",
    "mf": "--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 "
          "--policy adaptive --epochs 2",
}


def measured(out, cell):
    """Median over the TCP runs of (rank 0's mean epoch, CPU/bytes per epoch of all ranks)."""
    epochs, cpu, sent = [], [], []
    for run in sorted(glob.glob(os.path.join(out, "runs", cell, "tcp-*"))):
        ranks = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(run, "rank-*", "result.json")))]
        n = len(ranks[0]["epoch_process_cpu_seconds"])
        epochs.append(statistics.mean(ranks[0]["epoch_seconds"]))
        cpu.append(sum(sum(r["epoch_process_cpu_seconds"]) for r in ranks) / n)
        sent.append(sum(sum(r["epoch_bytes_sent"]) for r in ranks) / n)
    return statistics.median(epochs), statistics.median(cpu), statistics.median(sent)


def simulate(augur, out, cell, args, work):
    wl, nodes, net = cell.split("-")
    sim = json.load(open(os.path.join(out, "runs", cell, "sim", "result.json")))["config"]["sim"]
    costs = json.load(open(sim["costs_file"]))
    if net != "loopback":
        costs["seconds_per_queued_byte"] *= args.queued_byte_scale
        if args.message_byte_extra:
            costs["seconds_per_message_byte"] += args.message_byte_extra
            costs["seconds_per_queued_byte"] = 0.0
        costs["wakeup_delay_seconds"] *= args.wakeup_scale
        if costs.get("time_sliced_wakeup_delay_seconds", -1) > 0:
            costs["time_sliced_wakeup_delay_seconds"] *= args.wakeup_scale
    costs_file = os.path.join(work, "costs.json")
    json.dump(costs, open(costs_file, "w"))
    result = os.path.join(work, cell)
    cmd = [augur, "sim"] + JOB[wl].split() + [
        "--nodes", nodes[1:], "--workers", "1", "--compute", "hybrid", "--costs", costs_file,
        "--host-cores", "1", "--no-progress", "--out", result]
    if net != "loopback":
        cmd += ["--link-bandwidth", "%dbps" % (sim["link_bandwidth_bytes_per_second"] * 8),
                "--link-latency", "%.9fs" % sim["link_latency_seconds"]]
    if sim.get("time_sliced"):
        cmd += ["--time-sliced", "--shared-cores", str(sim["shared_cores"])]
    subprocess.run(cmd, check=True, capture_output=True)
    r = json.load(open(os.path.join(result, "result.json")))
    return (statistics.mean(r["epoch_seconds"]), statistics.mean(r["epoch_process_cpu_seconds"]),
            statistics.mean(r["epoch_bytes_sent"]))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out")
    p.add_argument("--augur", default=os.path.join(ROOT, "build", "bin", "augur"))
    p.add_argument("--queued-byte-scale", type=float, default=1.0)
    p.add_argument("--message-byte-extra", type=float, default=0.0)
    p.add_argument("--wakeup-scale", type=float, default=1.0)
    args = p.parse_args()
    cells = sorted(os.path.basename(d) for d in glob.glob(os.path.join(args.out, "runs", "*-n*-*"))
                   if os.path.exists(os.path.join(d, "sim", "result.json")))
    rows = {}
    with tempfile.TemporaryDirectory() as work:
        print("| cell | measured epoch (s) | predicted | ratio | measured CPU (s) | predicted | ratio |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for cell in cells:
            m, s = measured(args.out, cell), simulate(args.augur, args.out, cell, args, work)
            rows[cell] = (m, s)
            print(f"| {cell} | {m[0]:.4f} | {s[0]:.4f} | {s[0] / m[0]:.3f} | {m[1]:.3f} | "
                  f"{s[1]:.3f} | {s[1] / m[1]:.3f} |")
    print("\n| shaped cell | MB sent per epoch | CPU added over loopback, real | simulated |")
    print("|---|---:|---:|---:|")
    for cell, (m, s) in rows.items():
        wl, nodes, net = cell.split("-")
        base = rows.get(f"{wl}-{nodes}-loopback")
        if net == "loopback" or base is None:
            continue
        real, sim = m[1] - base[0][1], s[1] - base[1][1]
        print(f"| {cell} | {m[2] / 1e6:.1f} | {real:.3f} s ({real / m[2] * 1e9:.1f} ns/B) | "
              f"{sim:.3f} s ({sim / s[2] * 1e9:.1f} ns/B) |")


if __name__ == "__main__":
    main()
