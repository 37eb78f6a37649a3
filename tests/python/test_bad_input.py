"""Bad input to the Python module and workloads: a clear exception or one line
and a non-zero exit, never a crash, a hang or a silently wrong result.
Ctrl-C in a blocking call raises KeyboardInterrupt at once (not at the peer
timeout), and a diverged workload run is an error."""

import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import torch

import augur
import augur.torch as at
from conftest import AUGUR, make_ctr_data, BUILD, free_port
from augur.workloads import ctr, harness


def python(*args, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(BUILD / "python"))
    return subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def interrupt_when_ready(p, marker):
    """SIGINT to p once it printed `marker` (it then blocks); its (rc, stdout, stderr)."""
    line = p.stdout.readline()
    assert marker in line, line + p.stderr.read()
    time.sleep(0.3)  # into the blocking call
    p.send_signal(signal.SIGINT)
    # The peer timeout is 120 s: only an interruptible wait ends within this.
    out, err = p.communicate(timeout=60)
    return p.returncode, out, err


def join_code(secret, rank, port, out):
    return (f"import augur\n"
            f"node = augur.join(4, rank={rank}, nodes=2, coordinator='127.0.0.1:{port}', "
            f"secret_file={secret!r}, out={str(out)!r}, peer_timeout='120s')\n")


def test_ctrl_c_interrupts_a_join_waiting_for_its_peer(secret, tmp_path):
    code = "print('joining', flush=True)\n" + join_code(secret, 0, free_port(), tmp_path)
    rc, _, err = interrupt_when_ready(python("-c", code), "joining")
    assert rc != 0
    assert "\nKeyboardInterrupt\n" in err, err
    assert "Traceback" in err and "object repr" not in err, err


def test_ctrl_c_interrupts_a_barrier_and_leaves_the_cluster(secret, tmp_path):
    port = free_port()
    waiter = python("-c", join_code(secret, 1, port, tmp_path) +
                    "print('joined', flush=True)\nimport time; time.sleep(120)\n")
    code = join_code(secret, 0, port, tmp_path) + (
        "w = node.worker(0)\nprint('barrier', flush=True)\n"
        "try:\n    w.barrier()\nexcept KeyboardInterrupt:\n"
        "    try:\n        w.pull(__import__('numpy').zeros(1, 'uint64'))\n"
        "    except RuntimeError as e:\n        print('after:', e, flush=True)\n    raise\n")
    try:
        p = python("-c", code)
        rc, out, err = interrupt_when_ready(p, "barrier")
    finally:
        waiter.kill()
        waiter.communicate()
    assert rc != 0
    assert "\nKeyboardInterrupt\n" in err, err
    # The node was abandoned: a later call says so instead of waiting.
    assert "after: rank 0: interrupted" in out, out
    assert "object repr" not in err


def test_lr_must_be_finite_and_below_1e6(solo):
    for lr in (math.inf, 1e30, 1e6, math.nan):
        with pytest.raises(ValueError, match=r"lr must be a number > 0 and below 1e6"):
            solo(dim=2, optimizer="sgd", lr=lr)


def test_finish_refuses_bad_epoch_times_and_measured_extra_fields(solo):
    node = solo(dim=2)
    for times, where in (([math.nan], r"epoch_seconds\[0\]"), ([1.0, -3.0], r"epoch_seconds\[1\]"),
                         ([math.inf], r"epoch_seconds\[0\]")):
        with pytest.raises(ValueError, match=where):
            node.finish(epoch_seconds=times, samples=10)
    for field in ("epoch_seconds", "nodes", "verified", "backend", "samples", "rank"):
        with pytest.raises(ValueError, match=rf'extra\["{field}"\] is a field the node records'):
            node.finish(epoch_seconds=[1.0], extra={field: 1})
    with pytest.raises(ValueError, match="samples must be in"):
        node.finish(samples=-5)
    assert not node.finished  # refused before anything was done
    r = node.finish(epoch_seconds=[1.0, 2.0], samples=10, extra={"quality": {"x": 1}})
    assert r["total_seconds"] == 3.0 and r["quality"] == {"x": 1}


def test_integer_arguments_out_of_range_are_named(solo):
    with pytest.raises(ValueError, match=r"dim must be in \[1, 65536\]"):
        solo(dim=2**40)
    with pytest.raises(ValueError, match=r"first_key must be in"):
        solo(dim=2, layout=[(-1, 10, 3)])
    with pytest.raises(ValueError, match=r"sample_range must be \(first_key, last_key\)"):
        solo(dim=2, sample_range=(0,))
    node = solo(dim=2, sample_range=(0, 99))
    with pytest.raises(ValueError, match=r"worker index must be in \[0,"):
        node.worker(-1)
    w = node.worker(0)
    k = np.arange(3, dtype=np.uint64)
    with pytest.raises(ValueError, match=r"intent: end must be in"):
        w.intent(k, 0, 2**70)
    with pytest.raises(ValueError, match=r"intent: start must be in"):
        w.intent(k, -1, 2)
    with pytest.raises(ValueError, match=r"prepare_sample: k must be in"):
        w.prepare_sample(-3, 0, 1)


def test_embedding_refuses_float_ids(solo):
    node = solo(dim=4, optimizer="sgd", lr=0.1)
    e = at.Embedding(node.worker(0), num_embeddings=10, embedding_dim=4)
    with pytest.raises(TypeError, match="ids must be integers"):
        e(torch.tensor([1.5]))
    with pytest.raises(TypeError, match="ids must be integers"):
        e.intent(np.array([2.0]), 0, 1)
    assert e(torch.tensor([1, 2])).shape == (2, 4)


@pytest.fixture(scope="module")
def ctr_data(tmp_path_factory):
    return make_ctr_data(tmp_path_factory, rows=3000, max_cardinality=200)


def test_a_diverged_baseline_is_an_error_without_quality(ctr_data, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        harness.main("ctr", ctr.Task, ["--baseline", "--data", str(ctr_data), "--lr", "1000",
                                       "--out", str(tmp_path)], ctr.DEFAULTS)
    assert str(e.value.code).startswith("ctr: training diverged in epoch 1: loss ")
    r = json.loads((tmp_path / "result.json").read_text())
    assert r["diverged"] is True and "quality" not in r
    assert r["divergence"].startswith("training diverged in epoch 1")


def test_a_diverged_parameter_server_run_fails_the_launch(ctr_data, tmp_path):
    p = subprocess.run([str(AUGUR), "launch", "--local", "2", "--out", str(tmp_path), "--",
                        sys.executable, "-m", "augur.workloads.ctr", "--data", str(ctr_data),
                        "--lr", "1000"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "training diverged in epoch 1" in p.stdout + p.stderr
    for r in range(2):
        path = tmp_path / f"rank-{r}" / "result.json"
        if path.exists():  # a rank that diverged itself; the other may have lost it first
            rank = json.loads(path.read_text())
            assert rank["diverged"] is True and "quality" not in rank


def test_a_diverged_run_on_one_node_writes_its_result(ctr_data, tmp_path):
    p = subprocess.run([str(AUGUR), "launch", "--local", "1", "--out", str(tmp_path), "--",
                        sys.executable, "-m", "augur.workloads.ctr", "--data", str(ctr_data),
                        "--lr", "1000"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stdout + p.stderr
    merged = json.loads((tmp_path / "result.json").read_text())
    assert merged["diverged"] is True and "quality" not in merged


def run_ctr(*args):
    env = dict(os.environ, PYTHONPATH=str(BUILD / "python"))
    return subprocess.run([sys.executable, "-m", "augur.workloads.ctr", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def test_ctr_flags_are_checked_with_baseline_too(tmp_path):
    p = run_ctr("--baseline", "--policy", "bogus", "--out", str(tmp_path))
    assert p.returncode == 2 and "--policy: invalid choice: 'bogus'" in p.stderr, p.stderr
    p = run_ctr("--baseline", "--data", str(tmp_path / "nonexistent"))
    assert p.returncode == 2 and p.stderr.endswith("/nonexistent: no such directory\n")
    assert p.stderr.count("\n") == 1, p.stderr
    (tmp_path / "empty").mkdir()
    p = run_ctr("--baseline", "--data", str(tmp_path / "empty"))
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.count("\n") == 1 and "not a readable `augur data ctr` data set" in p.stderr
    p = run_ctr("--baseline", "--lr", "1e9")
    assert p.returncode == 2 and "--lr must be a number > 0 and below 1e6" in p.stderr
    # Each number flag says what is wrong with a number it cannot use (float() said nothing).
    for lr, why in (("inf", "'inf' is not a finite number"),
                    ("1e400", "'1e400' is out of range"),
                    ("1e-400", "'1e-400' underflows to 0"),
                    ("fast", "'fast' is not a number")):
        p = run_ctr("--baseline", "--lr", lr)
        assert p.returncode == 2 and f"argument --lr: {why}" in p.stderr, p.stderr


def test_a_push_or_set_of_nan_or_inf_is_refused_naming_the_key_position(solo):
    node = solo(dim=2)
    w = node.worker(0)
    keys = np.array([5, 7, 9], dtype=np.uint64)
    w.push(keys, np.ones((3, 2), dtype=np.float32))
    bad = np.ones((3, 2), dtype=np.float32)
    bad[1, 1] = np.nan
    with pytest.raises(ValueError, match=r"values for key position 1 \(key 7, float 1 of 2\) is nan"):
        w.push(keys, bad)
    bad[1, 1] = 1
    bad[2, 0] = -np.inf
    with pytest.raises(ValueError, match=r"key position 2 \(key 9, float 0 of 2\) is -inf"):
        w.push_async(keys, bad)
    bad[2, 0] = np.inf
    with pytest.raises(ValueError, match=r"key position 2 \(key 9, float 0 of 2\) is inf"):
        w.set(keys, bad)
    # Nothing of the refused pushes was stored (NaN used to be summed in).
    assert np.array_equal(w.pull(keys), np.ones((3, 2), dtype=np.float32))


def test_a_bad_out_is_refused_at_join_not_after_training(solo, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ValueError, match=rf"out {blocker}/sub: cannot create {blocker}/sub/rank-0"):
        solo(dim=2, out=str(blocker / "sub"))
    with pytest.raises(ValueError, match=r"out /proc/augur-out: cannot create /proc/augur-out/rank-0"):
        solo(dim=2, out="/proc/augur-out")
