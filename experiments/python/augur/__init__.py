"""Augur, an adaptive parameter server, from Python.

One Python process is one node of a TCP cluster (the same core and runtime
as `augur run`). Start the processes with `augur launch --local N -- python3
SCRIPT`, `--hostfile`, srun or mpirun, and in each:

    node = augur.join(dim=8, workers=2, policy="adaptive")
    w = node.worker(0)                      # one worker per Python thread
    w.push(keys, values); vals = w.pull(keys)
    node.finish()                           # writes OUT/rank-R/result.json

Keys are numpy uint64 arrays; values float32 arrays of shape (len(keys), length).
"""

import atexit
import numbers
import sys
import weakref

from . import _augur
from ._augur import Node, Ticket, Worker  # noqa: F401

__all__ = ["join", "Node", "Worker", "Ticket", "option_names"]


def option_names():
    """The `augur run` options join() accepts, by their Python names."""
    return list(_augur.option_names())


def _text(name, value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (numbers.Integral, numbers.Real, str)):
        return str(value)
    raise ValueError(f"augur.join: option {name}={value!r} must be a number, a string or a bool")


def join(dim, workers=1, layout=(), optimizer="sum", lr=0.1, initial_accumulator=0.0,
         init_scale=0.0, sample_range=None, workload="python", **options):
    """Joins the cluster as one node and returns it once every node joined.

    dim: floats per value (keys outside `layout`); layout: [(first_key,
    last_key, length), ...] for values of other lengths (last_key included).
    optimizer: how a push applies at the main copy: "sum" (value += update),
    "sgd" or "adagrad" (pushes are gradients; the state stays with the main
    copy), with learning rate `lr`. init_scale: values start uniform in
    [-s, s), seeded per key (0: zeros). sample_range=(first, last): the
    distribution of prepare_sample/pull_sample. workload: the name result.json
    records. Every other keyword is an `augur run` option spelt with
    underscores (policy, seed, out, sync_period, rank, nodes, coordinator,
    secret_file, wire_security, ...; see option_names()); a bad one raises
    ValueError with `augur run`'s message. Options not given come from
    `augur launch` (AUGUR_RANK, ...) or from srun/mpirun.
    """
    flags = [("workers", _text("workers", workers))]
    flags += [(k, _text(k, v)) for k, v in options.items() if v is not None]
    ranges = []
    for r in layout:
        if len(r) != 3:
            raise ValueError(f"layout entry {r!r} is not (first_key, last_key, length)")
        ranges.append((int(r[0]), int(r[1]), int(r[2])))
    if sample_range is not None:
        sample_range = (int(sample_range[0]), int(sample_range[1]))
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral) or dim <= 0:
        raise ValueError(f"dim must be a positive integer, not {dim!r}")
    node = _augur.join(int(dim), ranges, flags, optimizer, float(lr), float(initial_accumulator),
                       float(init_scale), sample_range, workload)
    _joined.add(node)
    return node


_joined = weakref.WeakSet()


@atexit.register
def _warn_unfinished():
    for node in list(_joined):
        if not node.finished:
            print(f"augur: rank {node.rank}: exiting without node.finish(): the other nodes "
                  "see this rank as lost and no result.json is written", file=sys.stderr)


def _finish(self, epoch_seconds=(), samples=0, verified=None, extra=None):
    """Drains the cluster and writes OUT/rank-R/result.json (with `out`)."""
    return self._finish(list(epoch_seconds), int(samples), verified, extra)


Node._finish = Node.finish
Node.finish = _finish
