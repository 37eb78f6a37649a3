"""augur.torch.Embedding against a dense PyTorch reference, and IntentLoader."""

import numpy as np
import pytest
import torch

import augur.torch as at

N, D = 12, 4


def reference_step(weights, ids, targets, make_optimizer, steps):
    """The same model with a dense torch.nn.Embedding: the weights after `steps` steps."""
    dense = torch.nn.Embedding(N, D)
    with torch.no_grad():
        dense.weight.copy_(torch.from_numpy(weights))
    opt = make_optimizer(dense.parameters())
    for _ in range(steps):
        opt.zero_grad()
        loss = ((dense(ids) - targets) ** 2).sum()
        loss.backward()
        opt.step()
    return dense.weight.detach().numpy()


def train(emb, ids, targets, steps):
    for _ in range(steps):
        loss = ((emb(ids) - targets) ** 2).sum()
        loss.backward()


@pytest.mark.parametrize("join_optimizer,lr,make", [
    ("sum", 0.05, lambda p: torch.optim.SGD(p, lr=0.05)),
    ("sgd", 0.05, lambda p: torch.optim.SGD(p, lr=0.05)),
    ("adagrad", 0.3, lambda p: torch.optim.Adagrad(p, lr=0.3, eps=1e-10)),
])
def test_training_steps_match_a_dense_reference(solo, join_optimizer, lr, make):
    node = solo(dim=D, workers=1, optimizer=join_optimizer, lr=lr, init_scale=0.5, seed=3)
    w = node.worker(0)
    emb = at.Embedding(w, N, D, lr=lr if join_optimizer == "sum" else None, key_offset=100)
    assert emb.optimizer == ("sgd" if join_optimizer == "sum" else join_optimizer)
    start = emb(torch.arange(N)).detach().numpy()
    assert np.abs(start).max() > 0  # init_scale: seeded, not zeros
    ids = torch.tensor([[1, 3, 3], [5, 1, 11]])  # repeats: their gradients add up
    targets = torch.linspace(-1, 1, 2 * 3 * D).reshape(2, 3, D)
    train(emb, ids, targets, steps=3)
    want = reference_step(start, ids, targets, make, steps=3)
    got = emb(torch.arange(N)).detach().numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert not np.allclose(got, start)  # it did train
    untouched = [i for i in range(N) if i not in (1, 3, 5, 11)]
    np.testing.assert_array_equal(got[untouched], start[untouched])


def test_embedding_checks_its_keys_and_optimizer(solo):
    node = solo(dim=D, workers=1, layout=[(50, 59, 2)])
    w = node.worker(0)
    with pytest.raises(ValueError, match="not embedding_dim"):
        at.Embedding(w, 20, D, key_offset=45)
    with pytest.raises(ValueError, match="join with optimizer='adagrad'"):
        at.Embedding(w, N, D, optimizer="adagrad")
    emb = at.Embedding(w, N, D)
    with pytest.raises(IndexError):
        emb(torch.tensor([N]))


def test_intent_loader_signals_ahead_and_advances_the_clock(solo):
    w = solo(dim=D, workers=1).worker(0)
    signals = []
    batches = [torch.tensor([i, i + 1]) for i in range(5)]
    loader = at.IntentLoader(batches, w, lambda b, s, e: signals.append((b[0].item(), s, e)),
                             lookahead=2)
    seen = []
    for b in loader:
        seen.append((b[0].item(), w.clock, len(signals)))
    assert [s for s, _, _ in seen] == [0, 1, 2, 3, 4]
    assert [c for _, c, _ in seen] == [0, 1, 2, 3, 4]  # batch j is trained at clock j
    assert signals == [(j, j, j + 1) for j in range(5)]  # each signalled for its own clock
    assert [n for _, _, n in seen] == [3, 4, 5, 5, 5]  # two batches ahead of the one trained
    assert w.clock == 5
