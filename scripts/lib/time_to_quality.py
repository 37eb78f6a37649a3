#!/usr/bin/python3
"""Speed-up to the same quality, from an `augur compare` results.csv.

Usage: time_to_quality.py RESULTS_CSV   (prints a markdown section)
Quality over time is the training loss at the end of each epoch against the
cumulative epoch time: simulated seconds for sim runs; for the baseline the
speed-up column's reference epoch of the run (reference_epoch_seconds: one node
with a cluster node's compute at the baseline's measured time per sample, the
faster of its threads and its one-thread run), or, in a results.csv without
it, its measured CPU time per epoch over the run's reference_cores. For every
run at the
largest node count, the target is the worse of its and the baseline's final
training loss (a loss both reach); the time each takes to reach it is
interpolated linearly between epoch ends (from the first epoch's end, where
the first loss is known). Speed-up to the same quality = the baseline's time
/ the run's. A diverged baseline is no reference: one line, exit code 1.
Standard library only.
"""
import csv
import sys


def numbers(cell):
    return [float(x) for x in (cell or "").split(";") if x not in ("", "null")]


def fmt(cell):
    try:
        return f"{float(cell):.4g}"
    except ValueError:
        return cell or "–"


def time_to(times, losses, target):
    t, prev_t, prev_l = 0.0, None, None
    for dt, loss in zip(times, losses):
        t += dt
        if loss <= target:
            if prev_l is None or prev_l == loss:
                return t
            return prev_t + (t - prev_t) * (prev_l - target) / (prev_l - loss)
        prev_t, prev_l = t, loss
    return None


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: time_to_quality.py RESULTS_CSV\n")
        return 2
    rows = list(csv.DictReader(open(argv[1], newline="")))
    base = next((r for r in rows if r["policy"] == "single"), None)
    runs = [r for r in rows if r["policy"] != "single"]
    if base is None or not runs:
        sys.stderr.write(f"time_to_quality.py: {argv[1]} lacks the baseline or a cluster run\n")
        return 1
    if base.get("diverged") == "true" or base.get("baseline_diverged") == "true":
        # A diverged baseline is no reference (augur compare says so and exits 1).
        sys.stderr.write(f"time_to_quality.py: {argv[1]}: the baseline diverged, so there is no "
                         f"speed-up to the same quality against it\n")
        return 1
    largest = max(int(r["nodes"]) for r in runs)

    def reference_cores(r):
        return float(r.get("reference_cores") or r["workers_per_node"])

    base_loss = numbers(base["train_loss_per_epoch"])

    def base_times(r):
        reference = numbers(r.get("reference_epoch_seconds"))
        if reference:
            return reference * len(base_loss)
        return [c / reference_cores(r) for c in numbers(base.get("epoch_cpu_seconds"))] or \
            numbers(base["epoch_seconds"])
    cores = reference_cores(next(r for r in runs if int(r["nodes"]) == largest))
    print("\n## Speed-up to the same quality\n")
    print(f"Quality over time is the training loss at each epoch's end. The baseline's clock is "
          f"the speed-up column's reference epoch (one node with a cluster node's compute, "
          f"{cores:g} cores, at the baseline's measured time per sample); the cluster runs' "
          f"clock is simulated time, "
          f"an upper bound until the simulator's fidelity is calibrated (issue 16). Target: the "
          f"worse of the run's and the baseline's final training loss, which both reach; the time "
          f"to it is interpolated between epoch ends. `{base['quality_name']}` is the held-out "
          f"quality after the last epoch.\n")
    print(f"| run | target loss | baseline reaches it (s) | run reaches it (s) | "
          f"speed-up to the same quality | per-epoch speed-up | {base['quality_name']} "
          f"(baseline {fmt(base['quality'])}) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        if int(r["nodes"]) != largest:
            continue
        times, loss = numbers(r["epoch_seconds"]), numbers(r["train_loss_per_epoch"])
        if r.get("diverged") == "true" or not loss or not base_loss:
            print(f"| {r['run']} | – | – | – | diverged | – | {fmt(r['quality'])} |")
            continue
        target = max(loss[-1], base_loss[-1])
        tb = time_to(base_times(r), base_loss, target)
        tr = time_to(times, loss, target)
        s = f"{tb / tr:.2f}x" if tb and tr else "–"
        per_epoch = r["speedup_over_single"]
        per_epoch = f"{float(per_epoch):.2f}x" if per_epoch else "–"
        print(f"| {r['run']} | {target:.4g} | {tb:.3g} | {tr:.3g} | **{s}** | {per_epoch} | "
              f"{fmt(r['quality'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
