#!/usr/bin/env python3
"""Summary of scripts/bench-efficiency.sh: throughput ratios, goals, where the time goes.

Reads OUT/runs/WORKLOAD/CONFIG/rep-N/result.json (timed runs), the optional
OUT/runs/WORKLOAD/CONFIG/profile/{symbols.txt,result.json} (perf profiles),
OUT/core_bench.json (augur-bench) and OUT/bench_net.txt (augur bench-net);
prints Markdown. Throughput of a run: its samples per epoch over its median
epoch time (the first epoch, which also creates the keys, counts like the
others); a configuration's figure is the median over its repeats.
Usage: efficiency_report.py OUT [--threads T] [--workloads kge,wv,mf]
"""
import argparse
import json
import os
import re
import statistics
import sys

GOAL_ONE_NODE = 0.9
GOAL_TWO_PROCESSES = 0.8
GOAL_PULL = 0.8
GOAL_PUSH = 0.7
GOAL_NET = 0.7

# perf symbol -> category, first match wins. "outside" is setup and
# evaluation (data generation, partitioning, ranking), not epoch time.
CATEGORIES = [
    ("outside", r"GenerateMf|Factor|__cos|__sin|KgeEvaluator|Evaluate|AccessLocality|FindHotKeys|"
                r"SplitWork|Partition|Load|Read|Parse|Tokeni|Corpus|InitRow|json|basic_string|"
                r"_Hashtable<std::__cxx11::basic_string|_dl_|do_lookup|(?<!ParamStore::)Allocate|Graph"),
    ("maths", r"Eigen::|ComplEx|Sgns|MfGradients|TrainRating|AddExampleGradients|Logistic|"
              r"log1pf|expf|__ieee754|sqrt|TrainSentence|TrainBatch|TrainDirect|RunKgeSingle|"
              r"RunMfSingle|RunWvSingle|ApplyUpdateVectorized"),
    ("intent+sampling", r"IntentTable|RecordIntent|RecordClock|ActOnIntents|ActionTiming|"
                        r"WorkerSampler|Signal|IntentKeys|NegativeDistribution|MakeNodeOptions|"
                        r"AliasSampler|NegativeKey|DrawNegatives|KeptPositions|Rng"),
    ("store", r"ParamStore|FlatKeyMap|RowArena|BatchRows|BatchIndex|ResolveDirect|ApplyDirect|"
              r"Worker::Access|Worker::Pull|Worker::Push|PullTable|memmove|memcpy|memset|SpinLock"),
    ("protocol", r"Node::|Relocation::|Replication::|Routing::|EngineContext|OperationTable|"
                 r"Encode|Decode|codec|tcp::|asio|Outbox|Message|TcpRuntime|Parker|"
                 r"epoll|send|recv|futex|pthread_cond"),
    ("kernel", r"^\[k\]"),
]


def load(path):
    with open(path) as f:
        return json.load(f)


def throughput(result):
    epochs = result["epoch_seconds"]
    per_epoch = result["samples"] / max(1, len(epochs))
    return per_epoch / statistics.median(epochs)


def runs_of(out, wl, cfg):
    base = os.path.join(out, "runs", wl, cfg)
    if not os.path.isdir(base):
        return []
    res = []
    for rep in sorted(os.listdir(base)):
        p = os.path.join(base, rep, "result.json")
        if rep.startswith("rep-") and os.path.exists(p):
            res.append(load(p))
    return res


def breakdown(out, wl, cfg):
    """CPU nanoseconds per sample by category, from the perf profile, or None."""
    d = os.path.join(out, "runs", wl, cfg, "profile")
    sym_path, res_path = os.path.join(d, "symbols.txt"), os.path.join(d, "result.json")
    if not (os.path.exists(sym_path) and os.path.exists(res_path)):
        return None
    shares = {name: 0.0 for name, _ in CATEGORIES}
    shares["other"] = 0.0
    for line in open(sym_path):
        m = re.match(r"\s*([0-9.]+)%\s+(\[[.k]\])\s+(.*)", line)
        if not m:
            continue
        pct, kind, sym = float(m.group(1)), m.group(2), m.group(3).strip()
        label = "[k] " + sym if kind == "[k]" else sym
        for name, pattern in CATEGORIES:
            if re.search(pattern, label):
                shares[name] += pct
                break
        else:
            shares["other"] += pct
    inside = sum(v for k, v in shares.items() if k != "outside")
    if inside <= 0:
        return None
    r = load(res_path)
    workers = r.get("workers_per_node", 1) * r.get("nodes", 1)
    if r.get("backend") == "single":
        workers = r.get("config", {}).get("workers", workers)
    epochs = r["epoch_seconds"]
    cpu_ns = sum(epochs) * workers * 1e9 / max(1, r["samples"])  # workers' time per sample
    parked = (r.get("wait_seconds", 0) + r.get("barrier_seconds", 0)) * 1e9 / max(1, r["samples"])
    busy = max(0.0, cpu_ns - parked)
    cost = {k: busy * v / inside for k, v in shares.items() if k != "outside"}
    cost["parked"] = parked
    return cost


def micro(out):
    lines = []
    p = os.path.join(out, "core_bench.json")
    if os.path.exists(p):
        medians = {}
        for b in load(p).get("benchmarks", []):
            if b.get("aggregate_name") == "median":
                medians[b["run_name"]] = b["bytes_per_second"]
        mem = medians.get("BM_Memcpy/100")
        for name, goal in (("BM_LocalPull/100", GOAL_PULL), ("BM_LocalPush/100", GOAL_PUSH)):
            if mem and name in medians:
                ratio = medians[name] / mem
                verdict = "met" if ratio >= goal else "MISSED"
                lines.append(f"| {name} / BM_Memcpy/100 | {ratio:.2f} | >= {goal} | {verdict} |")
        # The push's physical reference besides the goal's: an in-place add
        # into the same random rows reads and dirties them, as a push does.
        add = medians.get("BM_RowAdd/100")
        if add and "BM_LocalPush/100" in medians:
            lines.append(f"| BM_LocalPush/100 / BM_RowAdd/100 (in-place add, Hogwild's update) | "
                         f"{medians['BM_LocalPush/100'] / add:.2f} |  |  |")
        # What the push's goal asks of the memory system: an in-place add
        # with no store around it (the store's own row kernel), against the
        # same gather. The push prefetches its rows and this loop does not,
        # so a push can come close to it, not far above it.
        if add and mem:
            lines.append(f"| BM_RowAdd/100 / BM_Memcpy/100 (a push's ceiling: no lookup, "
                         f"no lock) | {add / mem:.2f} |  |  |")
    for name, label, goal in (("bench_net.txt", "--wire-security none", GOAL_NET),
                              ("bench_net_auth.txt", "--wire-security auth (default)", None)):
        p = os.path.join(out, name)
        if not os.path.exists(p):
            continue
        m = re.search(r"ratio \(augur / raw\): ([0-9.]+)", open(p).read())
        if m:
            ratio = float(m.group(1))
            verdict = "" if goal is None else ("met" if ratio >= goal else "MISSED")
            lines.append(f"| augur bench-net {label} / raw ping-pong | {ratio:.2f} | "
                         f"{'' if goal is None else '>= ' + str(goal)} | {verdict} |")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workloads", default="kge,wv,mf")
    a = ap.parse_args()
    print("# Efficiency: Augur against the single-node Hogwild baseline\n")
    mp = os.path.join(a.out, "machine.txt")
    if os.path.exists(mp):
        for line in open(mp):
            print(f"- {line.strip()}")
    print(f"- T = {a.threads} threads / workers; throughput = samples per epoch over the median "
          "epoch time of a run, median over the repeats (alternating order)\n")
    missed = []
    for wl in a.workloads.split(","):
        base_runs = runs_of(a.out, wl, "single")
        if not base_runs:
            print(f"## {wl}: no baseline runs\n")
            continue
        base = statistics.median(throughput(r) for r in base_runs)
        # T x the one-thread baseline: the linear reference (a second column).
        one = runs_of(a.out, wl, "single1")
        linear = a.threads * statistics.median(throughput(r) for r in one) if one else None
        print(f"## {wl}\n")
        print("| configuration | samples/s (median) | range | ratio to baseline | goal | verdict |"
              + (f" ratio to {a.threads} x 1 thread |" if linear else ""))
        print("|---|---:|---|---:|---:|---|" + ("---:|" if linear else ""))
        cfgs = sorted(os.listdir(os.path.join(a.out, "runs", wl)),
                      key=lambda c: (c != "single", c.startswith("tcp2"), c))
        for cfg in cfgs:
            rs = runs_of(a.out, wl, cfg)
            if not rs:
                continue
            t = [throughput(r) for r in rs]
            med = statistics.median(t)
            ratio = med / base
            goal = None if cfg.startswith("single") else (
                GOAL_TWO_PROCESSES if cfg.startswith("tcp2") else GOAL_ONE_NODE)
            verdict = "" if goal is None else ("met" if ratio >= goal else "MISSED")
            if verdict == "MISSED":
                missed.append((wl, cfg))
            print(f"| {cfg} | {med:,.0f} | {min(t):,.0f}-{max(t):,.0f} | {ratio:.2f} | "
                  f"{'' if goal is None else '>= ' + str(goal)} | {verdict} |"
                  + (f" {med / linear:.2f} |" if linear else ""))
        if linear:
            spread = [throughput(r) for r in base_runs]
            print(f"\nThe goals are against the {a.threads}-thread baseline (`single`); the last "
                  f"column is against {a.threads} x the one-thread baseline (`single1`), which "
                  f"does not depend on what the threads' shared rows cost. The {a.threads}-thread "
                  f"runs gave {min(spread) / linear:.2f}-{max(spread) / linear:.2f} of that.")
        costs = {cfg: breakdown(a.out, wl, cfg) for cfg in ("single", "tcp1-adaptive", "tcp2-adaptive")}
        if any(costs.values()):
            cats = [n for n, _ in CATEGORIES if n != "outside"] + ["other", "parked"]
            print("\nWhere a sample's time goes (workers' ns per sample; perf profile of one "
                  "untimed run; `parked` = result.json wait + barrier seconds; the "
                  "baseline's negative draws, inlined into its training loop, count as "
                  "maths, a node's as intent+sampling: compare totals):\n")
            print("| configuration | " + " | ".join(cats) + " | total |")
            print("|---|" + "---:|" * (len(cats) + 1))
            for cfg, c in costs.items():
                if c:
                    total = sum(c[k] for k in cats)
                    print(f"| {cfg} | " + " | ".join(f"{c[k]:.0f}" for k in cats) +
                          f" | {total:.0f} |")
            for wl_cfg in [m for m in missed if m[0] == wl]:
                cfg = wl_cfg[1]
                c = costs.get(cfg) or costs.get("tcp1-adaptive")
                b = costs.get("single")
                if c and b:
                    extra = sorted(((c[k] - b.get(k, 0), k) for k in c), reverse=True)[:2]
                    named = ", ".join(f"{k} +{d:.0f} ns" for d, k in extra if d > 0)
                    more = sum(c.values()) - sum(b.values())
                    whose = "" if costs.get(cfg) else " (the tcp1-adaptive profile's)"
                    print(f"\n{cfg} misses its goal; the remaining cost per sample over the "
                          f"baseline{whose}: {more:+.0f} ns in all; most in "
                          f"{named or 'nothing the profile shows (contention or idle time)'}")
        print()
    lines = micro(a.out)
    if lines:
        print("## Micro-benchmarks (medians)\n")
        print("| benchmark | ratio | goal | verdict |\n|---|---:|---:|---|")
        print("\n".join(lines))
        print()
    sys.exit(0)


if __name__ == "__main__":
    main()
