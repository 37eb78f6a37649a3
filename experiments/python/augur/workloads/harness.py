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
Training: AdaGrad on every parameter. Diverged training stops, as in the C++
workloads (experiments/jobs/divergence_guard.h): a loss that is NaN or
infinite, or more than 10x the untrained model's (the first batch's, before
any step) or the first observed, over a window of an eighth of a worker's
batches or over the epoch, stops the run with `NAME: training diverged in
epoch E: loss X (...); last good loss L (epoch E')`, exit 1, and
result.json has "diverged": true and no quality. On several nodes each
rank judges its own workers and leaves without goodbye (the others then stop
with `lost rank`). On the parameter server table t's
rows are a key range of their own, the dense tensors keys after them (one
key per tensor, replicated or relocated by the policy like any other key),
the optimizer runs where each key's main copy is, and each worker signals
intent for a batch's rows --lookahead batches ahead (augur.torch.IntentLoader).
"""

import argparse
import json
import math
import os
import pathlib
import sys
import threading
import time

import numpy as np
import torch


def bad_input(message):
    """Bad input (a missing data set, ...): one line on stderr, exit 2."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def number(text):
    """A float flag's value, as augur's own flags read one (core/config/number_text.h):
    Python's float() turns 1e400 into inf and 1e-400 into 0 without a word."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    mantissa = text.lower().split("e")[0]
    if math.isnan(v) or (math.isinf(v) and "inf" in mantissa):
        raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
    if math.isinf(v):
        raise argparse.ArgumentTypeError(f"'{text}' is out of range (beyond +-1.8e308)")
    if abs(v) < sys.float_info.min and any(c in "123456789" for c in mantissa):
        raise argparse.ArgumentTypeError(
            f"'{text}' underflows{' to 0' if v == 0 else ''} (below 2.2e-308 in magnitude)")
    return v


class DivergenceGuard:
    """experiments/jobs/divergence_guard.h in Python: a loss diverged when it is
    NaN or infinite, or more than GROWTH_LIMIT times the smaller of the first
    one observed and `untrained` (the untrained model's loss; 0: unknown)."""

    GROWTH_LIMIT = 10

    def __init__(self, untrained=0.0):
        self.untrained = untrained
        self.first = self.last_good = self.bad = None  # bad, last_good: (epoch, loss)

    def reference(self):
        return min(self.first, self.untrained) if self.untrained > 0 else self.first

    def observe(self, epoch, loss):
        """False once the sequence diverged (this loss or an earlier one)."""
        if self.bad is not None:
            return False
        if math.isfinite(loss) and self.first is None:
            self.first = loss
        if not math.isfinite(loss) or (self.reference() > 0
                                        and loss > self.GROWTH_LIMIT * self.reference()):
            self.bad = (epoch, loss)
            return False
        self.last_good = (epoch, loss)
        return True

    def message(self):
        epoch, loss = self.bad
        s = f"training diverged in epoch {epoch + 1}: loss {loss:.6g}"
        if math.isfinite(loss):
            ref = (f"the untrained model's, {self.untrained:.6g}"
                   if self.reference() < self.first else f"the first, {self.first:.6g}")
            s += f" (more than {self.GROWTH_LIMIT}x {ref})"
        if self.last_good is None:
            return s + "; no good loss before it"
        return s + f"; last good loss {self.last_good[1]:.6g} (epoch {self.last_good[0] + 1})"


class LossWatch:
    """One worker's losses: the first batch's (the untrained model's), then its
    mean over windows of an eighth of the worker's batches per epoch."""

    WINDOWS = 8

    def __init__(self, batches_per_epoch):
        self.window = max(1, batches_per_epoch // self.WINDOWS)
        self.guard = None
        self.total, self.count, self.batches = 0.0, 0, 0

    def add(self, epoch, loss, n):
        """The batch's mean loss over n samples; a message once diverged, else None."""
        if self.guard is None:
            self.guard = DivergenceGuard(untrained=loss if math.isfinite(loss) else 0.0)
        self.total += loss * n
        self.count += n
        self.batches += 1
        if self.batches < self.window:
            return None
        mean = self.total / max(self.count, 1)
        self.total, self.count, self.batches = 0.0, 0, 0
        if self.guard.observe(epoch, mean):
            return None
        return f"{self.guard.message()} (the loss over the last {self.window} batches)"


def batches_per_epoch(shard, batch_size):
    return max(1, -(-len(shard) // batch_size))


def policy_names():
    from augur import _augur
    return list(_augur.policy_names())


def parse_args(name, argv, defaults):
    p = argparse.ArgumentParser(prog=f"python3 -m augur.workloads.{name}")
    p.add_argument("--baseline", action="store_true",
                   help="single-process PyTorch, no parameter server")
    p.add_argument("--threads", type=int, default=1, help="baseline: torch threads")
    p.add_argument("--workers", type=int, default=1, help="worker threads per node")
    # Checked with --baseline too (which ignores it): `augur compare` gives a
    # Python workload's baseline the flags of its parameter-server runs.
    p.add_argument("--policy", default="adaptive", choices=policy_names())
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data", default="")
    p.add_argument("--out", default="", help="baseline: result.json here (PS: AUGUR_OUT)")
    p.add_argument("--dim", type=int, default=defaults["dim"])
    p.add_argument("--batch-size", type=int, default=defaults["batch_size"])
    p.add_argument("--lr", type=number, default=defaults["lr"])
    p.add_argument("--lookahead", type=int, default=2, help="batches of intent ahead")
    p.add_argument("--sync-period", default=None)
    p.add_argument("--wire-security", default=None)
    for flag, kind, value, text in defaults.get("extra", []):
        p.add_argument(flag, type=kind, default=value, help=text)
    a = p.parse_args(argv)
    for k in ("threads", "workers", "epochs", "dim", "batch_size"):
        if getattr(a, k) <= 0:
            p.error(f"--{k.replace('_', '-')} must be at least 1")
    if a.lookahead < 0:
        p.error("--lookahead must be >= 0")
    if not 0 < a.lr < 1e6:  # as augur run's --lr (and NaN is refused)
        p.error("--lr must be a number > 0 and below 1e6")
    if a.data and not pathlib.Path(a.data).is_dir():
        bad_input(f"{name}: --data {a.data}: no such directory")
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
    watch = LossWatch(batches_per_epoch(shard, a.batch_size))
    epoch_guard = DivergenceGuard()
    divergence = None
    for epoch in range(a.epochs):
        t0 = time.perf_counter()
        total, count = 0.0, 0
        for batch in task.batches(shard, epoch, a.seed):
            opt.zero_grad()
            loss = task.loss(embed, dense, batch)
            loss.backward()
            opt.step()
            n = task.batch_len(batch)
            total += loss.item() * n
            count += n
            divergence = watch.add(epoch, loss.item(), n)
            if divergence:
                break
        epoch_seconds.append(time.perf_counter() - t0)
        losses.append(total / max(count, 1))
        samples += count
        if not divergence and count and not epoch_guard.observe(epoch, total / count):
            divergence = epoch_guard.message() + " (mean training loss of the epoch)"
        if divergence:
            break
    cpu = time.process_time() - cpu0
    t0 = time.perf_counter()
    quality = {}
    if not divergence:  # a diverged model is not evaluated
        with torch.no_grad():
            quality = task.evaluate(embed, dense)
    result = {
        "backend": "single", "workload": name, "frontend": "python", "nodes": 1,
        "workers_per_node": a.threads, "threads": a.threads, "epochs": a.epochs,
        "epoch_seconds": epoch_seconds, "total_seconds": sum(epoch_seconds),
        "epoch_cpu_seconds": cpu / len(epoch_seconds), "samples": samples,
        "samples_per_second": samples / max(sum(epoch_seconds), 1e-12),
        "train_loss_per_epoch": losses, "diverged": bool(divergence), "seed": a.seed,
        "config": {"workload": name, "dim": task.dim, "batch_size": a.batch_size, "lr": a.lr,
                   "threads": a.threads, "epochs": a.epochs, "seed": a.seed},
    }
    if divergence:
        result["divergence"] = divergence
    else:
        result.update({"quality": quality, "eval_seconds": time.perf_counter() - t0})
    if a.out:
        write_result(a.out, result)
    if divergence:
        raise SystemExit(f"{name}: {divergence}")
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
    stop = []  # the first divergence message of this rank's workers

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
        watch = LossWatch(batches_per_epoch(shard, a.batch_size))
        epoch_guard = DivergenceGuard()  # every worker sees the same epoch losses

        def diverged(message):
            with clock:
                if not stop:
                    stop.append(message)

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
                if stop:
                    break  # another worker of this rank diverged: on to the epoch's end
                params.pull()
                loss = task.loss(embs, dense, batch)
                loss.backward()
                params.push()
                n = task.batch_len(batch)
                totals[i][0] += loss.item() * n
                totals[i][1] += n
                samples[i] += n
                message = watch.add(epoch, loss.item(), n)
                if message:
                    diverged(f"{message} (worker {i})")
            w.barrier()
            # Every worker reads the same totals after the barrier: one decision per rank.
            s = sum(t[0] for t in totals)
            c = sum(t[1] for t in totals)
            if c and not epoch_guard.observe(epoch, s / c):
                diverged(epoch_guard.message() + " (mean training loss of the epoch)")
            if i == 0:
                with clock:
                    epoch_seconds.append(time.perf_counter() - t0)
                    losses.append(s / max(c, 1))
            if stop:
                return  # no evaluation, no more barriers: the other ranks may go on
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
    try:
        for t in threads:
            t.join()
    except KeyboardInterrupt:  # the workers' waits end with an error, then they return
        node.abandon("interrupted (Ctrl-C); the node left the cluster")
        for t in threads:
            t.join()
        raise
    if errors:
        raise SystemExit(f"{name}: rank {rank}: " + "; ".join(errors))
    config_workload = {"dim": task.dim, "batch_size": a.batch_size, "lr": a.lr,
                       "lookahead": a.lookahead}
    if stop:
        # Alone, the node says goodbye; on several, the others may still be training.
        node.finish(epoch_seconds=epoch_seconds, samples=sum(samples), drain=nodes == 1,
                    extra={"train_loss_per_epoch": losses, "diverged": True,
                           "divergence": stop[0], "config_workload": config_workload})
        raise SystemExit(f"{name}: rank {rank}: {stop[0]}")
    extra = {"train_loss_per_epoch": losses, "diverged": False}
    if rank == 0:
        eval_seconds = quality.pop("eval_seconds")
        extra.update({"quality": quality, "eval_seconds": eval_seconds})
    extra["config_workload"] = config_workload
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
