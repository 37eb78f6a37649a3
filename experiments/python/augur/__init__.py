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


def _integer(what, value, low, high):
    """value as an int in [low, high), else ValueError naming `what` (pybind11's own
    message for an int out of its C++ type's range is a dump of the signature)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{what} must be an integer, not {value!r}")
    if not low <= value < high:
        raise ValueError(f"{what} must be in [{low}, {high - 1}], not {value}")
    return int(value)


_KEY_END = 2**64 - 1  # the last key, 2^64-1, is reserved (join_options.cc)
_CLOCK_END = 2**63


def _key_pair(what, pair):
    try:
        first, last = pair
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be (first_key, last_key), not {pair!r}") from None
    return _integer(f"{what}: first_key", first, 0, _KEY_END), \
        _integer(f"{what}: last_key", last, 0, _KEY_END)


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
        try:
            first, last, length = r
        except (TypeError, ValueError):
            raise ValueError(f"layout entry {r!r} is not (first_key, last_key, length)") from None
        first, last = _key_pair(f"layout entry {r!r}", (first, last))
        ranges.append((first, last, _integer(f"layout entry {r!r}: length", length, 1, 2**16 + 1)))
    if sample_range is not None:
        sample_range = _key_pair("sample_range", sample_range)
    dim = _integer("dim", dim, 1, 2**16 + 1)
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


def _finish(self, epoch_seconds=(), samples=0, verified=None, extra=None, drain=True):
    """Drains the cluster and writes OUT/rank-R/result.json (with `out`).

    epoch_seconds: finite times >= 0; extra: fields added to result.json (not
    ones the node records itself: ValueError). drain=False: leave without the
    goodbye protocol (a rank that stops on its own, e.g. a diverged run; the
    other nodes see it lost), writing the result all the same.
    """
    try:
        times = [float(s) for s in epoch_seconds]
    except (TypeError, ValueError):
        raise ValueError(f"epoch_seconds must be a list of numbers, not {epoch_seconds!r}") \
            from None
    if verified is not None and not isinstance(verified, bool):
        raise ValueError(f"verified must be True, False or None, not {verified!r}")
    return self._finish(times, _integer("samples", samples, 0, 2**64), verified, extra,
                        bool(drain))


def _worker(self, i):
    """Worker i of this node, for one Python thread."""
    return self._worker(_integer("worker index", i, 0, 2**32))


def _intent(self, keys, start, end):
    """This worker will access `keys` while its clock is in [start, end)."""
    return self._intent(keys, _integer("intent: start", start, 0, _CLOCK_END),
                        _integer("intent: end", end, 0, _CLOCK_END))


def _prepare_sample(self, k, start, end):
    """Prepares k keys from the sample_range distribution for clocks [start, end)."""
    return self._prepare_sample(_integer("prepare_sample: k", k, 0, 2**32),
                                _integer("prepare_sample: start", start, 0, _CLOCK_END),
                                _integer("prepare_sample: end", end, 0, _CLOCK_END))


Node._finish, Node.finish = Node.finish, _finish
Node._worker, Node.worker = Node.worker, _worker
Worker._intent, Worker.intent = Worker.intent, _intent
Worker._prepare_sample, Worker.prepare_sample = Worker.prepare_sample, _prepare_sample
