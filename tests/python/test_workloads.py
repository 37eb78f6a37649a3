"""ctr and gnn at tiny size: both learn, alone (the PyTorch baseline) and on the
parameter server through `augur compare --backend tcp` (real processes)."""

import csv
import json
import subprocess

import pytest

from conftest import AUGUR, make_ctr_data
from augur.workloads import ctr, gnn, harness


@pytest.fixture(scope="module")
def ctr_data(tmp_path_factory):
    return make_ctr_data(tmp_path_factory, rows=8000, max_cardinality=400)


def test_ctr_generator_plants_a_learnable_truth(ctr_data):
    meta = json.loads((ctr_data / "meta.json").read_text())
    assert meta["categorical"] == 26 and meta["dense"] == 13
    assert meta["cardinalities"][0] == 4 and meta["cardinalities"][-1] == 400
    assert meta["train"]["rows"] + meta["test"]["rows"] == 8000
    assert 0.7 < meta["test"]["truth_auc"] < 1  # the labels follow the planted model
    assert 0.1 < meta["train"]["positive_rate"] < 0.6


def test_ctr_baseline_learns(ctr_data, tmp_path):
    r = harness.main("ctr", ctr.Task, ["--baseline", "--data", str(ctr_data), "--epochs", "3",
                                       "--out", str(tmp_path)], ctr.DEFAULTS)
    losses = r["train_loss_per_epoch"]
    assert losses[0] > losses[1] > losses[2]
    assert r["quality"]["test_auc"] > 0.6
    assert json.loads((tmp_path / "result.json").read_text())["backend"] == "single"


def test_gnn_baseline_learns():
    r = harness.main("gnn", gnn.Task, ["--baseline", "--epochs", "3", "--max-train-nodes", "6000",
                                       "--max-test-nodes", "3000"], gnn.DEFAULTS)
    losses = r["train_loss_per_epoch"]
    assert losses[0] > losses[1] > losses[2]
    q = r["quality"]
    assert q["test_accuracy"] > q["majority_share"] + 0.1  # well above chance
    assert len(gnn.lexnames()) == 45 and gnn.lexnames()[5] == "noun.animal"


def compare(tmp_path, workload, policies, *flags):
    out = tmp_path / workload
    p = subprocess.run([str(AUGUR), "compare", "--backend", "tcp", "--workload", workload,
                        "--policies", policies, "--nodes", "2", "--workers", "1", "--epochs", "1",
                        "--out", str(out), "--no-plots", *flags],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    with open(out / "results.csv") as f:
        return {row["run"]: row for row in csv.DictReader(f)}


def test_compare_tcp_ctr_and_gnn_write_results(ctr_data, tmp_path):
    rows = compare(tmp_path, "ctr", "classic,adaptive", "--data", str(ctr_data))
    assert set(rows) == {"single", "tcp-classic-n2", "tcp-adaptive-n2"}
    for name, row in rows.items():
        assert row["quality_name"] == "quality.test_auc"
        assert float(row["quality"]) > 0.55, name  # it learned on 2 nodes too
        assert float(row["speedup_over_single"]) > 0
    assert float(rows["tcp-adaptive-n2"]["local_access_ratio"]) > float(
        rows["tcp-classic-n2"]["local_access_ratio"])
    rows = compare(tmp_path, "gnn", "adaptive", "--max-train-nodes", "8000",
                   "--max-test-nodes", "2000", "--lr", "0.2", "--batch-size", "128")
    assert set(rows) == {"single", "tcp-adaptive-n2"}
    for name, row in rows.items():
        assert row["quality_name"] == "quality.test_accuracy"
        assert float(row["quality"]) > 0.25, name  # the majority share is 0.125
