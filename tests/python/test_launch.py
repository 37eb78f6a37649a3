"""`augur launch --local 2 -- python3 SCRIPT`: a real two-process cluster from Python."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import AUGUR, BUILD, free_port

HERE = pathlib.Path(__file__).resolve().parent


def launch(tmp_path, *program):
    return subprocess.run([str(AUGUR), "launch", "--local", "2", "--out", str(tmp_path), "--",
                           *program], capture_output=True, text=True, timeout=300)


def test_two_processes_two_threads_sum_invariant_and_embedding_step(tmp_path):
    p = launch(tmp_path, sys.executable, str(HERE / "launch_check.py"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "[rank 0] rank 0: ok" in p.stdout and "[rank 1] rank 1: ok" in p.stdout
    merged = json.loads((tmp_path / "result.json").read_text())
    assert merged["nodes"] == 2 and merged["verified"] is True
    assert merged["workload"] == "python" and merged["messages_sent"] > 0
    for r in range(2):
        rank = json.loads((tmp_path / f"rank-{r}" / "result.json").read_text())
        assert rank["rank"] == r and rank["frontend"] == "python"


def test_a_failing_program_fails_the_launch(tmp_path):
    p = launch(tmp_path, sys.executable, "-c",
               "import os, sys; sys.exit(3 if os.environ['AUGUR_RANK'] == '1' else 0)")
    assert p.returncode != 0
    assert "rank 1 failed (exit code 3)" in p.stdout


def test_a_rank_leaving_before_it_joined_stops_the_ranks_waiting_for_it(tmp_path):
    # Rank 1 ends without augur.join while rank 0 joins: rank 0 waited for it until its
    # --peer-timeout ("lost rank 1"); launch now says at once which rank left, and stops rank 0.
    script = tmp_path / "leave_early.py"
    script.write_text(
        "import os, sys\n"
        "if os.environ['AUGUR_RANK'] == '1':\n"
        "    sys.exit(0)\n"
        "import augur\n"
        "augur.join(dim=2, workers=1, peer_timeout='20s')\n")
    p = launch(tmp_path, sys.executable, str(script))
    assert p.returncode == 1, p.stdout + p.stderr
    line = (r"rank 1 \(pid \d+, [^)]*leave_early\.py\) exited with code 0 before it joined "
            r"the cluster \(rank 0 began to join and would wait for it\)")
    assert re.search(rf"^\[launch\] {line}: stopping the other ranks$", p.stdout, re.M), p.stdout
    assert re.fullmatch(rf"augur: cluster failed: {line}\n", p.stderr), p.stderr
    assert "lost rank 1" not in p.stdout, p.stdout


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="needs mpirun (openmpi-bin)")
def test_mpirun_ranks_join_from_open_mpi_variables(tmp_path, secret):
    env = dict(os.environ, PYTHONPATH=str(BUILD / "python"), AUGUR_SECRET_FILE=secret,
               AUGUR_COORDINATOR=f"127.0.0.1:{free_port()}", AUGUR_OUT=str(tmp_path))
    p = subprocess.run(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2",
                        "-x", "PYTHONPATH", "-x", "AUGUR_SECRET_FILE", "-x", "AUGUR_COORDINATOR",
                        "-x", "AUGUR_OUT", sys.executable, str(HERE / "launch_check.py")],
                       capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    for r in range(2):  # rank and size came from OMPI_COMM_WORLD_RANK/SIZE
        rank = json.loads((tmp_path / f"rank-{r}" / "result.json").read_text())
        assert rank["rank"] == r and rank["nodes"] == 2 and rank["verified"] is True


def test_a_rank_leaving_without_finish_is_a_lost_peer_not_a_hang(tmp_path):
    script = tmp_path / "leave.py"
    script.write_text(
        "import sys, numpy as np, augur\n"
        "node = augur.join(dim=2, workers=1, peer_timeout='5s')\n"
        "w = node.worker(0)\n"
        "w.push(np.arange(4, dtype=np.uint64), np.ones((4, 2), np.float32))\n"
        "if node.rank == 1:\n"
        "    sys.exit(0)\n"
        "w.barrier()\n")
    p = launch(tmp_path / "out", sys.executable, str(script))
    assert p.returncode != 0
    assert "rank 1: exiting without node.finish()" in p.stdout
    assert "rank 0: lost rank 1" in p.stdout
