"""augur's numpy API on a one-node cluster: round trips, errors, options."""

import json
import threading
import time

import numpy as np
import pytest

import augur


def keys(*k):
    return np.array(k, dtype=np.uint64)


def test_push_pull_set_round_trip(solo):
    node = solo(dim=4, workers=1)
    w = node.worker(0)
    k = keys(3, 1, 2**63 + 5)
    w.push(k, np.arange(12, dtype=np.float32).reshape(3, 4))
    w.push(k, np.ones((3, 4), np.float32))
    got = w.pull(k)
    assert got.dtype == np.float32 and got.shape == (3, 4)
    np.testing.assert_array_equal(got, np.arange(12).reshape(3, 4) + 1)
    w.set(k[:1], np.full((1, 4), 7, np.float32))
    np.testing.assert_array_equal(w.pull(k[:1]), np.full((1, 4), 7))
    assert w.pull(keys()).shape == (0, 4)


def test_pull_async_writes_out_in_place(solo):
    node = solo(dim=2, workers=1)
    w = node.worker(0)
    k = keys(10, 11)
    w.push(k, np.array([[1, 2], [3, 4]], np.float32))
    out = np.zeros((2, 2), np.float32)
    t = w.pull_async(k, out)
    w.wait(t)
    assert t.done
    np.testing.assert_array_equal(out, [[1, 2], [3, 4]])
    t = w.push_async(k, np.ones(4, np.float32))  # a flat buffer of every float
    w.wait(t)
    np.testing.assert_array_equal(w.pull(k), [[2, 3], [4, 5]])


def test_a_ticket_dropped_unwaited_waits_for_its_buffer(solo):
    w = solo(dim=3, workers=1).worker(0)
    k = np.arange(100, dtype=np.uint64)
    w.push(k, np.full((100, 3), 2, np.float32))
    out = np.zeros((100, 3), np.float32)
    t = w.pull_async(k, out)
    del t  # the ticket waited before letting go of out
    np.testing.assert_array_equal(out, np.full((100, 3), 2))


def test_layout_gives_values_of_other_lengths(solo):
    node = solo(dim=2, workers=1, layout=[(100, 199, 5)])
    w = node.worker(0)
    assert node.length(150) == 5 and node.length(200) == 2
    w.push(keys(150), np.ones((1, 5), np.float32))
    np.testing.assert_array_equal(w.pull(keys(150)), np.ones((1, 5)))
    with pytest.raises(ValueError, match="different lengths"):
        w.pull(keys(1, 150))
    out = np.zeros(7, np.float32)  # mixed lengths: a flat out array
    w.wait(w.pull_async(keys(1, 150), out))
    np.testing.assert_array_equal(out, [0, 0, 1, 1, 1, 1, 1])


def test_dtype_and_shape_errors(solo):
    w = solo(dim=3, workers=1).worker(0)
    v = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match="dtype uint64, not int64"):
        w.push(np.array([1, 2]), v)
    with pytest.raises(TypeError, match="numpy array"):
        w.pull([1, 2])
    with pytest.raises(TypeError, match="float32, not float64"):
        w.push(keys(1, 2), np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"shape \(2, 2\), expected \(2, 3\)"):
        w.push(keys(1, 2), np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError, match="1-D"):
        w.pull(np.zeros((2, 2), np.uint64))
    with pytest.raises(ValueError, match="C-contiguous"):
        w.pull_async(keys(1, 2), np.zeros((3, 2), np.float32).T)
    with pytest.raises(ValueError, match="end .* must be after start"):
        w.intent(keys(1), 3, 3)


def test_bad_options_raise_value_error_with_augur_run_messages(secret):
    base = {"rank": 0, "nodes": 1, "secret_file": secret}
    cases = {
        "policy": ("bogus", "--policy: unknown policy 'bogus'"),
        "sync_period": ("-1ms", "--sync-period"),
        "wire_security": ("rot13", "--wire-security"),
        "workers": (0, r"--workers must be in \[1, 1024\]"),
        "rank": (3, "--rank 3 is not below --nodes 1"),
    }
    for name, (value, message) in cases.items():
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            augur.join(dim=4, **{**base, name: value})
    with pytest.raises(ValueError, match="unknown option 'epochs'"):
        augur.join(dim=4, epochs=2, **base)
    with pytest.raises(ValueError, match="dim must be"):
        augur.join(dim=0, **base)
    with pytest.raises(ValueError, match="optimizer"):
        augur.join(dim=4, optimizer="adam", **base)
    with pytest.raises(ValueError, match="layout"):
        augur.join(dim=4, layout=[(10, 5, 2)], **base)


def test_clock_intent_barrier_sync_metrics_and_result(solo, tmp_path):
    node = solo(dim=2, workers=2, out=str(tmp_path), workload="unit")
    assert (node.rank, node.num_nodes, node.num_workers) == (0, 1, 2)
    errors = []

    def run(i):
        try:
            w = node.worker(i)
            for c in range(3):
                w.intent(keys(i, 9), w.clock, w.clock + 1)
                w.push(keys(i, 9), np.ones((2, 2), np.float32))
                w.advance_clock()
            assert w.clock == 3
            w.wait_sync()
            w.barrier()
            np.testing.assert_array_equal(w.pull(keys(9)), [[6, 6]])
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    m = node.metrics()
    assert m["local_accesses"] == 14 and m["remote_accesses"] == 0
    r = node.finish(samples=6, extra={"quality": {"auc": 0.5}})
    assert node.finished
    written = json.loads((tmp_path / "rank-0" / "result.json").read_text())
    assert written["workload"] == "unit" and written["samples"] == 6
    assert written["quality"] == {"auc": 0.5} and r["rank"] == 0
    with pytest.raises(RuntimeError, match="finished"):
        node.worker(0).pull(keys(1))


def test_sampling_draws_from_the_range(solo):
    w = solo(dim=2, workers=1, sample_range=(50, 59), sampling="preloc").worker(0)
    h = w.prepare_sample(8, w.clock, w.clock + 1)
    k, v = w.pull_sample(h)
    assert k.dtype == np.uint64 and len(k) == 8 and v.shape == (8, 2)
    assert ((k >= 50) & (k <= 59)).all()
    with pytest.raises(ValueError, match="unknown or already pulled"):
        w.pull_sample(h)


def test_a_worker_used_by_two_threads_at_once_is_refused(solo):
    node = solo(dim=1, workers=2)
    w0, w1 = node.worker(0), node.worker(1)
    t = threading.Thread(target=w0.barrier)  # parks inside worker 0 until worker 1 arrives
    t.start()
    refused = None
    for _ in range(100000):  # until the thread is inside the call (then it stays there)
        try:
            w0.pull(keys(1))
        except RuntimeError as e:
            refused = str(e)
            break
        time.sleep(0.001)
    w1.barrier()
    t.join()
    assert refused is not None and "two threads at once" in refused
