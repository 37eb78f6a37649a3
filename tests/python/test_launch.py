"""`augur launch --local 2 -- python3 SCRIPT`: a real two-process cluster from Python."""

import json
import pathlib
import subprocess
import sys

from conftest import AUGUR

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
