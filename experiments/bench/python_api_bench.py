"""The Python API's cost per call on one node, next to numpy doing the same in memory.

Usage: PYTHONPATH=build/python /usr/bin/python3 experiments/bench/python_api_bench.py
Pulls and pushes of 64 random local keys of 16 floats through augur (pull,
pull_async into a preallocated array, push) against numpy on a dense array of
the same rows in the same run (dense[idx], np.add.at). Three repetitions.
"""

import os
import socket
import tempfile
import time

import numpy as np

import augur

KEYS, DIM, BATCH, CALLS = 100000, 16, 64, 2000


def per_call(fn, batches):
    t = time.perf_counter()
    for b in batches:
        fn(b)
    return (time.perf_counter() - t) / len(batches) * 1e6


def main():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    secret = os.path.join(tempfile.mkdtemp(), "secret")
    with open(secret, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(secret, 0o600)
    node = augur.join(dim=DIM, workers=1, rank=0, nodes=1, secret_file=secret,
                      coordinator=f"127.0.0.1:{port}")
    w = node.worker(0)
    w.push(np.arange(KEYS, dtype=np.uint64), np.zeros((KEYS, DIM), np.float32))
    rng = np.random.default_rng(1)
    batches = [rng.integers(0, KEYS, BATCH).astype(np.uint64) for _ in range(CALLS)]
    dense = np.zeros((KEYS, DIM), np.float32)
    out = np.zeros((BATCH, DIM), np.float32)
    ones = np.ones((BATCH, DIM), np.float32)
    print(f"per call, {BATCH} local keys x {DIM} floats (us)")
    for _ in range(3):
        pull = per_call(w.pull, batches)
        pull_async = per_call(lambda b: w.wait(w.pull_async(b, out)), batches)
        gather = per_call(lambda b: dense[b.astype(np.int64)], batches)
        push = per_call(lambda b: w.push(b, ones), batches)
        add_at = per_call(lambda b: np.add.at(dense, b.astype(np.int64), ones), batches)
        print(f"  augur pull {pull:.1f}, pull_async+wait {pull_async:.1f} | numpy dense[idx] "
              f"{gather:.1f};  augur push {push:.1f} | numpy np.add.at {add_at:.1f}")
    node.finish()


if __name__ == "__main__":
    main()
