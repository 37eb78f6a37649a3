"""Shared fixtures of the Python tests: the built module, a secret, one-node clusters.

The module is taken from AUGUR_BUILD_DIR/python (default: build/ at the
repository root), the binary from AUGUR_BUILD_DIR/bin/augur.
"""

import os
import pathlib
import socket
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("AUGUR_BUILD_DIR", ROOT / "build")).resolve()
sys.path.insert(0, str(BUILD / "python"))
AUGUR = BUILD / "bin" / "augur"


def make_ctr_data(tmp_path_factory, rows, max_cardinality):
    """A generated click-through data set (`augur data ctr`) of `rows` rows."""
    import subprocess
    d = tmp_path_factory.mktemp("ctr") / "data"
    subprocess.run([str(AUGUR), "data", "ctr", "--out", str(d), "--rows", str(rows),
                    "--max-cardinality", str(max_cardinality), "--seed", "3"],
                   check=True, capture_output=True)
    return d


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def secret(tmp_path_factory):
    path = tmp_path_factory.mktemp("secret") / "secret"
    path.write_bytes(os.urandom(32))
    path.chmod(0o600)
    return str(path)


@pytest.fixture
def solo(secret):
    """join(...) for a one-node cluster on a free port; finishes what it joined."""
    import augur
    joined = []

    def make(**kwargs):
        kwargs.setdefault("rank", 0)
        kwargs.setdefault("nodes", 1)
        kwargs.setdefault("secret_file", secret)
        kwargs.setdefault("coordinator", f"127.0.0.1:{free_port()}")
        node = augur.join(**kwargs)
        joined.append(node)
        return node

    yield make
    for node in joined:
        if not node.finished:
            node.finish()
