"""gnn: GCN node classification on WordNet (Debian wordnet-base).

Predict a synset's lexicographer file (45 classes: noun.animal, verb.motion,
...; lex_filenum in the data files, named in the lexnames(5WN) manual page)
from the graph of WordNet pointers, undirected. Every synset has a learnable
embedding in the parameter server; a mini-batch's targets aggregate their
own and up to --fanout sampled neighbours' embeddings (GCN mean aggregation
with a self loop), then a two-layer MLP (in the parameter server too)
classifies them. Intent is signalled for each mini-batch's sampled
neighbourhood --lookahead batches ahead. Quality: test accuracy (the share
of the majority class is recorded as `majority_share`: chance).
Usage:
  augur launch --local 2 -- python3 -m augur.workloads.gnn --out OUT
  python3 -m augur.workloads.gnn --baseline --out OUT
"""

import gzip
import pathlib
import re
import sys

import numpy as np
import torch

from . import harness

CLASSES = 45
DEFAULTS = {"dim": 32, "batch_size": 256, "lr": 0.05, "extra": [
    ("--wordnet", str, "/usr/share/wordnet", "WordNet database directory"),
    ("--fanout", int, 10, "neighbours sampled per target"),
    ("--max-train-nodes", int, 0, "train on this many training synsets only (0: all)"),
    ("--max-test-nodes", int, 0, "evaluate on this many test synsets only (0: all)"),
]}


def lexnames():
    """The 45 lexicographer file names, from wordnet-base's lexnames(5WN) page."""
    page = pathlib.Path("/usr/share/man/man5/lexnames.5WN.gz")
    names = {}
    if page.exists():
        for line in gzip.open(page, "rt", errors="replace"):
            m = re.match(r"^(\d\d)\t(\S+)\t", line)
            if m:
                names[int(m.group(1))] = m.group(2)
    return [names.get(i, f"lexfile{i:02d}") for i in range(CLASSES)]


def read_wordnet(directory):
    """(labels, CSR adjacency indptr, indices) over every synset of the four data files."""
    index, labels, edges = {}, [], []
    files = [("n", "data.noun"), ("v", "data.verb"), ("a", "data.adj"), ("r", "data.adv")]
    parsed = []
    for pos, name in files:
        path = pathlib.Path(directory) / name
        if not path.exists():
            harness.bad_input(f"gnn: {path} is missing (apt-get install wordnet-base)")
        with open(path, encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue  # the licence header
                fields = line.split(" | ", 1)[0].split()
                synset_pos = "a" if fields[2] == "s" else fields[2]
                key = (synset_pos, fields[0])
                index[key] = len(labels)
                labels.append(int(fields[1]))
                parsed.append((key, fields))
    for key, fields in parsed:
        words = int(fields[3], 16)
        at = 4 + 2 * words
        pointers = int(fields[at])
        src = index[key]
        for p in range(pointers):
            target = (fields[at + 2 + 4 * p + 1].replace("s", "a"), fields[at + 2 + 4 * p])
            dst = index.get(target)
            if dst is not None and dst != src:
                edges.append((src, dst))
    e = np.array(edges, np.int64)
    e = np.concatenate([e, e[:, ::-1]])  # undirected
    e = np.unique(e, axis=0)
    n = len(labels)
    indptr = np.zeros(n + 1, np.int64)
    np.add.at(indptr, e[:, 0] + 1, 1)
    return np.array(labels, np.int64), np.cumsum(indptr), e[:, 1].copy()


class Task:
    quality_name = "test_accuracy"
    init_scale = 0.1

    def __init__(self, a):
        self.dim, self.batch_size, self.fanout = a.dim, a.batch_size, a.fanout
        if self.fanout <= 0:
            harness.bad_input("gnn: --fanout must be at least 1")
        self.labels, self.indptr, self.indices = read_wordnet(a.wordnet)
        n = len(self.labels)
        order = np.random.default_rng(a.seed).permutation(n)  # seeded 80/10/10 split
        self.train = order[: int(0.8 * n)]
        self.test = order[int(0.9 * n):]
        if a.max_train_nodes:
            self.train = self.train[: a.max_train_nodes]
        if a.max_test_nodes:
            self.test = self.test[: a.max_test_nodes]
        self.seed = a.seed

    def tables(self):
        return [(len(self.labels), self.dim)]

    def make_dense(self):
        return torch.nn.Sequential(torch.nn.Linear(self.dim, 64), torch.nn.ReLU(),
                                   torch.nn.Linear(64, CLASSES))

    def shards(self, n):
        return [self.train[i::n] for i in range(n)]

    def sample(self, targets, rng):
        """Up to fanout neighbours per target (with replacement), and their mask."""
        start, deg = self.indptr[targets], self.indptr[targets + 1] - self.indptr[targets]
        pick = (rng.random((len(targets), self.fanout)) * np.maximum(deg, 1)[:, None]).astype(
            np.int64)
        neigh = self.indices[np.minimum(start[:, None] + pick, len(self.indices) - 1)]
        mask = (deg > 0)[:, None] & np.ones((1, self.fanout), bool)
        return np.where(mask, neigh, targets[:, None]), mask.astype(np.float32)

    def batches(self, shard, epoch, seed):
        rng = np.random.default_rng([seed, epoch, len(shard), int(shard[0]) if len(shard) else 0])
        order = shard[rng.permutation(len(shard))]
        for at in range(0, len(order), self.batch_size):
            t = order[at:at + self.batch_size]
            neigh, mask = self.sample(t, rng)
            yield t, neigh, mask, self.labels[t]

    def batch_len(self, batch):
        return len(batch[0])

    def batch_ids(self, batch):
        t, neigh, mask, _ = batch
        return [np.concatenate([t, neigh[mask > 0]])]

    def logits(self, tables, dense, t, neigh, mask):
        b = len(t)
        e = tables[0](torch.from_numpy(np.concatenate([t, neigh.reshape(-1)])))
        m = torch.from_numpy(mask)
        agg = e[:b] + (e[b:].reshape(b, self.fanout, self.dim) * m[:, :, None]).sum(1)
        return dense(agg / (1 + m.sum(1, keepdim=True)))

    def loss(self, tables, dense, batch):
        t, neigh, mask, y = batch
        return torch.nn.functional.cross_entropy(self.logits(tables, dense, t, neigh, mask),
                                                 torch.from_numpy(y))

    def evaluate(self, tables, dense):
        rng = np.random.default_rng([self.seed, 0xE7A1])
        correct = 0
        for at in range(0, len(self.test), 2048):
            t = self.test[at:at + 2048]
            neigh, mask = self.sample(t, rng)
            pred = self.logits(tables, dense, t, neigh, mask).argmax(1).numpy()
            correct += int((pred == self.labels[t]).sum())
        counts = np.bincount(self.labels[self.train], minlength=CLASSES)
        majority = int(counts.argmax())
        return {"test_accuracy": correct / max(len(self.test), 1),
                "majority_share": float((self.labels[self.test] == majority).mean()),
                "majority_class": lexnames()[majority]}


if __name__ == "__main__":
    harness.main("gnn", Task, sys.argv[1:], DEFAULTS)
