"""What the Python workloads share: flags, worker threads, epochs, results.

A workload supplies a Task (see ctr.py, gnn.py):
  task.tables()                        [(rows, dim), ...]: the embedding tables
  task.dim                             the most common dim (the join's default length)
  task.make_dense()                    a fresh torch module (the dense part)
  task.shards(n)                       the training data split into n parts
  task.batches(shard, epoch, seed)     an iterable of batches of one part
  task.batch_ids(batch)                per table, the rows a batch uses
  task.loss(tables, dense, batch)      the batch's loss (tables[t]: ids -> rows)
  task.evaluate(tables, dense)         {"test_...": value}: the headline quality
Training: AdaGrad on every parameter. On the parameter server table t's
rows are a key range of their own, the dense tensors keys after them (one
key per tensor, replicated or relocated by the policy like any other key),
the optimizer runs where each key's main copy is, and each worker signals
intent for a batch's rows --lookahead batches ahead (augur.torch.IntentLoader).
"""

import argparse
import json
import os
import pathlib
import threading
import time

import numpy as np
import torch


def parse_args(name, argv, defaults):
    p = argparse.ArgumentParser(prog=f"python3 -m augur.workloads.{name}")
    p.add_argument("--baseline", action="store_true",
                   help="single-process PyTorch, no parameter server")
    p.add_argument("--threads", type=int, default=1, help="baseline: torch threads")
    p.add_argument("--workers", type=int, default=1, help="worker threads per node")
    p.add_argument("--policy", default="adaptive")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data", default="")
    p.add_argument("--out", default="", help="baseline: result.json here (PS: AUGUR_OUT)")
    p.add_argument("--dim", type=int, default=defaults["dim"])
    p.add_argument("--batch-size", type=int, default=defaults["batch_size"])
    p.add_argument("--lr", type=float, default=defaults["lr"])
    p.add_argument("--lookahead", type=int, default=2, help="batches of intent ahead")
    p.add_argument("--sync-period", default=None)
    p.add_argument("--wire-security", default=None)
    for flag, kind, value, text in defaults.get("extra", []):
        p.add_argument(flag, type=kind, default=value, help=text)
    a = p.parse_args(argv)
    for k in ("threads", "workers", "epochs", "dim", "batch_size"):
        if getattr(a, k) <= 0:
            p.error(f"--{k.replace('_', '-')} must be at least 1")
    if not a.lr > 0:
        p.error("--lr must be > 0")
    return a


def write_result(out_dir, result):
    path = pathlib.Path(out_dir)
    path.mkdir(parents=True, exist_ok=True)
    tmp = path / "result.json.tmp"
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    os.replace(tmp, path / "result.json")


def run_baseline(name, task, a):
    """The same model in one process with torch.nn.Embedding (sparse) and AdaGrad."""
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    embs = [torch.nn.Embedding(rows, dim, sparse=True) for rows, dim in task.tables()]
    for e in embs:
        torch.nn.init.uniform_(e.weight, -task.init_scale, task.init_scale)
    dense = task.make_dense()
    params = [p for e in embs for p in e.parameters()] + list(dense.parameters())
    opt = torch.optim.Adagrad(params, lr=a.lr, eps=1e-10)
    embed = [lambda ids, e=e: e(torch.as_tensor(ids)) for e in embs]
    epoch_seconds, losses, samples = [], [], 0
    cpu0 = time.process_time()
    shard = task.shards(1)[0]
    for epoch in range(a.epochs):
        t0 = time.perf_counter()
        total, count = 0.0, 0
        for batch in task.batches(shard, epoch, a.seed):
            opt.zero_grad()
            loss = task.loss(embed, dense, batch)
            loss.backward()
            opt.step()
            total += loss.item() * task.batch_len(batch)
            count += task.batch_len(batch)
        epoch_seconds.append(time.perf_counter() - t0)
        losses.append(total / max(count, 1))
        samples += count
    cpu = time.process_time() - cpu0
    t0 = time.perf_counter()
    with torch.no_grad():
        quality = task.evaluate(embed, dense)
    result = {
        "backend": "single", "workload": name, "frontend": "python", "nodes": 1,
        "workers_per_node": a.threads, "threads": a.threads, "epochs": a.epochs,
        "epoch_seconds": epoch_seconds, "total_seconds": sum(epoch_seconds),
        "epoch_cpu_seconds": cpu / a.epochs, "samples": samples,
        "samples_per_second": samples / max(sum(epoch_seconds), 1e-12),
        "train_loss_per_epoch": losses, "quality": quality,
        "eval_seconds": time.perf_counter() - t0, "seed": a.seed,
        "config": {"workload": name, "dim": task.dim, "batch_size": a.batch_size, "lr": a.lr,
                   "threads": a.threads, "epochs": a.epochs, "seed": a.seed},
    }
    if a.out:
        write_result(a.out, result)
    print(f"{name} baseline: {a.epochs} epochs in {sum(epoch_seconds):.2f} s, "
          f"loss {losses[-1]:.4f}, {quality}")
    return result


def run_ps(name, task, a):
    import augur
    import augur.torch as at

    offsets, layout, keys = [], [], 0
    for rows, dim in task.tables():  # a key range per table
        offsets.append(keys)
        if dim != task.dim:
            layout.append((keys, keys + rows - 1, dim))
        keys += rows
    template = task.make_dense()
    options = {"policy": a.policy, "seed": a.seed}
    if a.sync_period:
        options["sync_period"] = a.sync_period
    if a.wire_security:
        options["wire_security"] = a.wire_security
    node = augur.join(dim=task.dim, workers=a.workers,
                      layout=layout + at.DenseParameters.layout(template, keys),
                      optimizer="adagrad",
                      lr=a.lr, init_scale=task.init_scale, workload=name, **options)
    nodes, rank = node.num_nodes, node.rank
    shards = task.shards(nodes * a.workers)
    epoch_seconds, losses = [], []
    samples = [0] * a.workers
    totals = [[0.0, 0] for _ in range(a.workers)]
    quality = {}
    errors = []
    clock = threading.Lock()

    def worker(i):
        w = node.worker(i)
        torch.manual_seed(a.seed)  # every worker's dense module starts the same
        dense = task.make_dense()
        params = at.DenseParameters(w, dense, keys)
        embs = [at.Embedding(w, rows, dim, key_offset=off)
                for (rows, dim), off in zip(task.tables(), offsets)]
        if rank == 0 and i == 0:
            params.set_from_module()
        w.barrier()
        shard = shards[rank * a.workers + i]

        def signal(batch, start, end):
            for e, ids in zip(embs, task.batch_ids(batch)):
                e.intent(ids, start, end)
            params.intent(start, end)

        for epoch in range(a.epochs):
            w.barrier()
            t0 = time.perf_counter()
            totals[i] = [0.0, 0]
            loader = at.IntentLoader(task.batches(shard, epoch, a.seed), w, signal,
                                     lookahead=a.lookahead)
            for batch in loader:
                params.pull()
                loss = task.loss(embs, dense, batch)
                loss.backward()
                params.push()
                n = task.batch_len(batch)
                totals[i][0] += loss.item() * n
                totals[i][1] += n
                samples[i] += n
            w.barrier()
            if i == 0:
                with clock:
                    epoch_seconds.append(time.perf_counter() - t0)
                    s = sum(t[0] for t in totals)
                    c = sum(t[1] for t in totals)
                    losses.append(s / max(c, 1))
        for _ in range(2):  # every delta at its main copy, then replicas refreshed
            w.wait_sync()
            w.barrier()
        if rank == 0 and i == 0:
            t0 = time.perf_counter()
            params.pull()
            with torch.no_grad():
                quality.update(task.evaluate(embs, dense))
            quality["eval_seconds"] = time.perf_counter() - t0
        w.barrier()

    def guarded(i):
        try:
            worker(i)
        except Exception as e:  # noqa: BLE001 (reported; the rank fails)
            errors.append(f"worker {i}: {type(e).__name__}: {e}")
            raise

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(a.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit(f"{name}: rank {rank}: " + "; ".join(errors))
    extra = {"train_loss_per_epoch": losses}
    if rank == 0:
        eval_seconds = quality.pop("eval_seconds")
        extra.update({"quality": quality, "eval_seconds": eval_seconds})
    extra["config_workload"] = {"dim": task.dim, "batch_size": a.batch_size, "lr": a.lr,
                                "lookahead": a.lookahead}
    result = node.finish(epoch_seconds=epoch_seconds, samples=sum(samples), extra=extra)
    if rank == 0:
        print(f"{name}: {nodes} nodes x {a.workers} workers, {a.policy}: {a.epochs} epochs in "
              f"{sum(epoch_seconds):.2f} s, loss {losses[-1]:.4f}, {quality}, "
              f"local accesses {result['local_access_ratio']:.1%}")
    return result


def main(name, make_task, argv, defaults):
    a = parse_args(name, argv, defaults)
    task = make_task(a)
    return run_baseline(name, task, a) if a.baseline else run_ps(name, task, a)
