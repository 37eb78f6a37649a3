"""PyTorch on Augur: an embedding table whose rows live in the parameter server.

Embedding(worker, num_embeddings, embedding_dim) is a torch.nn.Module: forward
pulls the batch's rows (each distinct id once), backward pushes their summed
gradients. The optimizer step happens where the row's main copy is (its
state, e.g. AdaGrad's accumulator, stays there and moves with it), as for the
C++ workloads: join with optimizer="adagrad" or "sgd" and the learning rate.
On a node joined with optimizer="sum" (additive pushes), optimizer="sgd"
pushes -lr * gradient instead, which is the same SGD step.

IntentLoader wraps a DataLoader (any iterable of batches): it reads
`lookahead` batches ahead, signals each one's intent for the clock it will be
trained at, and advances the worker's clock as batches are consumed.
"""

import collections

import numpy as np
import torch

__all__ = ["Embedding", "IntentLoader"]


class _Lookup(torch.autograd.Function):
    @staticmethod
    def forward(ctx, rows, emb, inverse, keys):
        ctx.emb = emb
        ctx.keys = keys
        ctx.save_for_backward(inverse)
        return rows[inverse]

    @staticmethod
    def backward(ctx, grad):
        (inverse,) = ctx.saved_tensors
        emb = ctx.emb
        g = torch.zeros(len(ctx.keys), emb.embedding_dim, dtype=torch.float32)
        g.index_add_(0, inverse.reshape(-1), grad.reshape(-1, emb.embedding_dim).float())
        emb._push(ctx.keys, g.numpy())
        return None, None, None, None


class Embedding(torch.nn.Module):
    """An embedding table in the parameter server: row i is key `key_offset + i`.

    optimizer: "adagrad" or "sgd" (default: the node's optimizer, "sgd" on a
    "sum" node); lr: the node's learning rate unless the node is a "sum" one.
    REQUIRES: the node's values for these keys have embedding_dim floats.
    """

    def __init__(self, worker, num_embeddings, embedding_dim, optimizer=None, lr=None,
                 key_offset=0):
        super().__init__()
        node = worker.node
        self.worker = worker
        self.num_embeddings = int(num_embeddings)
        self.embedding_dim = int(embedding_dim)
        self.key_offset = int(key_offset)
        if self.num_embeddings <= 0:
            raise ValueError(f"num_embeddings must be positive, not {num_embeddings}")
        first, last = self.key_offset, self.key_offset + self.num_embeddings - 1
        probes = [first, last] + [max(a, first) for a, b, _ in node.layout if a <= last and b >= first]
        probes += [b + 1 for _, b, _ in node.layout if first <= b < last]
        for key in probes:  # the lengths in [first, last] are those at these keys
            if node.length(key) != self.embedding_dim:
                raise ValueError(
                    f"key {key} has values of {node.length(key)} floats, not embedding_dim "
                    f"{self.embedding_dim}: join with dim= or layout= to match")
        kind = node.optimizer
        if optimizer is None:
            optimizer = "sgd" if kind == "sum" else kind
        if optimizer not in ("adagrad", "sgd"):
            raise ValueError(f"optimizer must be 'adagrad' or 'sgd', not {optimizer!r}")
        if kind == "sum":
            if optimizer == "adagrad":
                raise ValueError("optimizer='adagrad' keeps its accumulator with the main copy: "
                                 "join with optimizer='adagrad', lr=...")
            self._scale = -(0.1 if lr is None else float(lr))  # the SGD step, pushed as a sum
        else:
            if optimizer != kind:
                raise ValueError(f"the node applies {kind!r} at the main copy: "
                                 f"Embedding(optimizer={optimizer!r}) cannot change it")
            if lr is not None and not np.isclose(float(lr), node.lr, rtol=1e-6):
                raise ValueError(f"lr={lr} differs from the node's lr={node.lr} (augur.join(lr=))")
            self._scale = None  # the node applies the step to the pushed gradient
        self.optimizer = optimizer
        self.lr = node.lr if lr is None else float(lr)

    def _row_ids(self, ids):
        """`ids` (a tensor or array of row indices) as a flat numpy integer array;
        TypeError for another dtype (1.5 is no row), IndexError out of range."""
        a = ids.detach().cpu().numpy() if isinstance(ids, torch.Tensor) else np.asarray(ids)
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"Embedding ids must be integers (as torch.nn.Embedding's), not "
                            f"{a.dtype}: convert them with .long() if they are whole numbers")
        a = a.reshape(-1)
        if a.size and (a.min() < 0 or a.max() >= self.num_embeddings):
            raise IndexError(f"ids must be in [0, {self.num_embeddings})")
        return a

    def keys(self, ids):
        """The distinct keys of `ids` (a tensor or array of row indices), as uint64."""
        return np.unique(self._row_ids(ids).astype(np.uint64)) + np.uint64(self.key_offset)

    def intent(self, ids, start, end):
        """Signals that the rows of `ids` are used while the clock is in [start, end)."""
        self.worker.intent(self.keys(ids), start, end)

    def forward(self, ids):
        ids = torch.as_tensor(ids)
        flat = self._row_ids(ids)
        uniq, inverse = np.unique(flat, return_inverse=True)
        keys = uniq.astype(np.uint64) + np.uint64(self.key_offset)
        rows = torch.from_numpy(self.worker.pull(keys)).requires_grad_()
        out = _Lookup.apply(rows, self, torch.from_numpy(inverse.astype(np.int64)), keys)
        return out.reshape(*ids.shape, self.embedding_dim)

    def _push(self, keys, grad):
        if self._scale is not None:
            grad = (grad * np.float32(self._scale)).astype(np.float32)
        self.worker.push(keys, np.ascontiguousarray(grad, dtype=np.float32))


class IntentLoader:
    """Iterates over `loader`, signalling intent `lookahead` batches ahead.

    signal(batch, start, end) is called for each batch before it is trained,
    with the clock window [start, end) it will be trained in (one clock per
    batch, from the worker's clock when iteration starts); the worker's clock
    advances after each batch (advance_clock=False: the caller advances it).
    """

    def __init__(self, loader, worker, signal, lookahead=2, advance_clock=True):
        if lookahead < 0:
            raise ValueError("lookahead must be >= 0")
        self.loader, self.worker, self.signal = loader, worker, signal
        self.lookahead, self.advance_clock = int(lookahead), advance_clock

    def __len__(self):
        return len(self.loader)

    def __iter__(self):
        it = iter(self.loader)
        ahead = collections.deque()
        start = self.worker.clock
        read = 0
        exhausted = False

        def fill():
            nonlocal read, exhausted
            while not exhausted and len(ahead) <= self.lookahead:
                try:
                    batch = next(it)
                except StopIteration:
                    exhausted = True
                    return
                self.signal(batch, start + read, start + read + 1)
                ahead.append(batch)
                read += 1

        fill()
        while ahead:
            yield ahead.popleft()
            if self.advance_clock:
                self.worker.advance_clock()
            fill()


class DenseParameters:
    """A module's dense parameters kept in the parameter server, one key per tensor.

    pull() copies the current values into the module, push() sends its
    gradients (the node's optimizer applies them at the main copy; a "sum"
    node gets -lr * gradient) and clears them. layout() gives the join
    layout these keys need: augur.join(layout=DenseParameters.layout(m, k)).
    """

    def __init__(self, worker, module, first_key, lr=None):
        self.worker = worker
        self.params = list(module.parameters())
        self.keys = np.arange(first_key, first_key + len(self.params), dtype=np.uint64)
        self.sizes = [p.numel() for p in self.params]
        self.flat = np.zeros(sum(self.sizes), np.float32)
        node = worker.node
        for k, n in zip(self.keys, self.sizes):
            if node.length(int(k)) != n:
                raise ValueError(f"key {int(k)} has {node.length(int(k))} floats, the parameter "
                                 f"{n}: join with layout=DenseParameters.layout(module, {first_key})")
        self._scale = -(0.1 if lr is None else float(lr)) if node.optimizer == "sum" else None

    @staticmethod
    def layout(module, first_key):
        return [(first_key + i, first_key + i, p.numel())
                for i, p in enumerate(module.parameters())]

    def intent(self, start, end):
        self.worker.intent(self.keys, start, end)

    def set_from_module(self):
        """Overwrites the stored values with the module's (initialisation)."""
        flat = np.concatenate([p.detach().reshape(-1).numpy() for p in self.params])
        self.worker.set(self.keys, flat.astype(np.float32))

    def pull(self):
        self.worker.wait(self.worker.pull_async(self.keys, self.flat))
        at = 0
        with torch.no_grad():
            for p, n in zip(self.params, self.sizes):
                p.copy_(torch.from_numpy(self.flat[at:at + n]).reshape(p.shape))
                at += n

    def push(self):
        grads = [p.grad.reshape(-1) if p.grad is not None else torch.zeros(p.numel())
                 for p in self.params]
        flat = torch.cat(grads).numpy().astype(np.float32)
        if self._scale is not None:
            flat *= np.float32(self._scale)
        self.worker.push(self.keys, flat)
        for p in self.params:
            p.grad = None
