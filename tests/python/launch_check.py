"""The issue's outside check: run under `augur launch --local 2 -- python3 launch_check.py`.

Two workers (threads) per node signal intents, push ones and read back the
exact sums through the Python API; then each takes one step of an
augur.torch.Embedding backward and the rows must hold the exact SGD update.
Every rank recomputes every worker's (seeded) pushes, so each checks all keys.
Exits 1 on any mismatch.
"""

import sys
import threading

import numpy as np
import torch

import augur
import augur.torch

WORKERS, DIM, KEYS, ROUNDS, BATCH = 2, 8, 48, 6, 12
ROWS, EMB_OFFSET, LR = 10, 1000, 0.25  # lr a power of two: the sums are exact


def pushes(rank, worker):
    """The key batches worker (rank, worker) pushes, one per round."""
    rng = np.random.default_rng(1000 * rank + worker)
    return [np.unique(rng.integers(0, KEYS, BATCH)).astype(np.uint64) for _ in range(ROUNDS)]


def emb_ids(rank, worker):
    return torch.tensor([(rank + worker) % ROWS, 3, 3, 7], dtype=torch.int64)


def main():
    node = augur.join(dim=DIM, workers=WORKERS, policy="adaptive")
    errors = []

    def run(i):
        w = node.worker(i)
        batches = pushes(node.rank, i)
        for r, keys in enumerate(batches):  # intent one clock ahead, then use
            if r + 1 < len(batches):
                w.intent(batches[r + 1], w.clock + 1, w.clock + 2)
            w.push(keys, np.ones((len(keys), DIM), np.float32))
            w.advance_clock()
        emb = augur.torch.Embedding(w, num_embeddings=ROWS, embedding_dim=DIM, lr=LR,
                                    key_offset=EMB_OFFSET)
        emb(emb_ids(node.rank, i)).sum().backward()
        for _ in range(2):  # deltas to the main copies, then replicas refreshed
            w.barrier()
            w.wait_sync()
        w.barrier()
        want = np.zeros(KEYS, np.float32)
        want_emb = np.zeros(ROWS, np.float32)
        for rank in range(node.num_nodes):
            for j in range(WORKERS):
                for keys in pushes(rank, j):
                    want[keys.astype(np.int64)] += 1
                np.add.at(want_emb, emb_ids(rank, j).numpy(), -LR)
        got = w.pull(np.arange(KEYS, dtype=np.uint64))
        if not np.array_equal(got, np.repeat(want[:, None], DIM, axis=1)):
            errors.append(f"worker {i}: sums differ at keys "
                          f"{np.nonzero(got[:, 0] != want)[0].tolist()}")
        got_emb = emb(torch.arange(ROWS)).detach().numpy()
        if not np.array_equal(got_emb, np.repeat(want_emb[:, None], DIM, axis=1)):
            errors.append(f"worker {i}: embedding rows differ: {got_emb[:, 0]} vs {want_emb}")
        w.barrier()

    def guarded(i):
        try:
            run(i)
        except Exception as e:  # noqa: BLE001 (reported, and the rank fails)
            errors.append(f"worker {i}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    result = node.finish(samples=WORKERS * ROUNDS, verified=not errors,
                         extra={"check": "launch_check.py"})
    for e in errors:
        print(f"rank {node.rank}: {e}")
    print(f"rank {node.rank}: {'ok' if not errors else 'FAILED'}, "
          f"local access ratio {result['local_access_ratio']:.2f}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
