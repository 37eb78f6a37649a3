#!/usr/bin/python3
"""Plots of an `augur compare` results.csv (called by `augur compare`).

Usage: plot_compare.py RESULTS_CSV OUT_DIR
Writes OUT_DIR/speedup.png (speed-up over the single-node baseline vs nodes,
one line per policy) and OUT_DIR/quality_time.png (training loss per epoch
against cumulative time: every policy at its largest node count, and the
baseline as one node with a cluster node's cores at its measured CPU time). Uses only the standard library and Debian's python3-matplotlib.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def numbers(cell):
    return [float(x) for x in cell.split(";") if x != ""]


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: plot_compare.py RESULTS_CSV OUT_DIR\n")
        return 2
    path, out = argv[1], argv[2]
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.stderr.write(f"plot_compare.py: cannot read {path}: {e}\n")
        return 1
    if not rows:
        sys.stderr.write(f"plot_compare.py: {path} has no rows\n")
        return 1
    runs = [r for r in rows if r["policy"] != "single"]
    base = [r for r in rows if r["policy"] == "single"]
    policies = list(dict.fromkeys(r["policy"] for r in runs))
    title = f"{rows[0]['workload']} on {runs[0]['backend'] if runs else 'single'}"

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for p in policies:
        pts = sorted((int(r["nodes"]), float(r["speedup_over_single"])) for r in runs
                     if r["policy"] == p and r["speedup_over_single"] != "")
        ax.plot([n for n, _ in pts], [s for _, s in pts], marker="o", label=p)
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--", label="single node")
    ax.set_xlabel("nodes")
    ax.set_ylabel("speed-up over the single-node baseline")
    ax.set_title(f"Speed-up per policy ({title})")
    ax.set_xscale("log", base=2)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(f"{out}/speedup.png", dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    largest = max((int(r["nodes"]) for r in runs), default=1)
    cores = int(runs[0]["workers_per_node"]) if runs else 1
    for r in base + [r for r in runs if int(r["nodes"]) == largest]:
        times = numbers(r["epoch_seconds"])
        if r["policy"] == "single" and numbers(r.get("epoch_cpu_seconds", "")):
            # The baseline as the speed-up column counts it: one node with as
            # many cores as a cluster node has workers, at its measured cost.
            times = [c / cores for c in numbers(r["epoch_cpu_seconds"])]
        loss = numbers(r.get("train_loss_per_epoch", ""))
        if not times or len(loss) != len(times):
            continue
        t, cumulative = 0.0, []
        for s in times:
            t += s
            cumulative.append(t)
        label = (f"single node ({cores} cores)" if r["policy"] == "single"
                 else f"{r['policy']}, {largest} nodes")
        ax.plot(cumulative, loss, marker="o", label=label)
    ax.set_xlabel(f"time (s; simulated for sim runs; the baseline's CPU time over {cores} cores)")
    ax.set_ylabel("training loss per epoch")
    ax.set_title(f"Quality over time ({title})")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(f"{out}/quality_time.png", dpi=110)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
