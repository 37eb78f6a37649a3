#!/usr/bin/python3
"""Re-simulates every cell of a scripts/bench-fidelity.sh output directory with
the current build, with and without extra `augur sim` flags for the shaped cells.
Usage: 2026-12-07-resimulate-cells.py OUT_DIR [FLAG ...] (from the repository root, after
scripts/bench-efficiency.sh cached kge50k). The sim flags of the bench-fidelity.sh it matches:
084283f; the experimental flag --emulated-latency it was used with was not kept."""
import os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from resimulate_lib import cells, report, simulate

root, extra = sys.argv[1], sys.argv[2:]
errs = {'old': [], 'new': []}
for cell, net, flags, m in cells(root):
    old = statistics.mean(simulate('build/bin/augur', flags, '/tmp/resim-a')['epoch_seconds'])
    new = old if net == 'loopback' else statistics.mean(
        simulate('build/bin/augur', flags + extra, '/tmp/resim-b')['epoch_seconds'])
    errs['old'].append(abs(old / m - 1)); errs['new'].append(abs(new / m - 1))
    print('%-18s measured %.4f  old %.3f  new %.3f' % (cell, m, old / m, new / m), flush=True)
report(errs)
