#!/usr/bin/python3
"""resimulate_two_binaries.py OUT_DIR BIN_A BIN_B (from the repository root): re-simulates every
cell of a scripts/bench-fidelity.sh output directory with both binaries and that directory's costs
files, against its measured epochs; prints frames sent and bundled messages too."""
import os, statistics, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from resimulate_lib import cells, report, simulate

root, A, B = sys.argv[1:4]
errs = {'a': [], 'b': []}
for cell, _, flags, m in cells(root):
    ra = simulate(A, flags, '/tmp/resim-a'); rb = simulate(B, flags, '/tmp/resim-b')
    a = statistics.mean(ra['epoch_seconds']); b = statistics.mean(rb['epoch_seconds'])
    errs['a'].append(abs(a / m - 1)); errs['b'].append(abs(b / m - 1))
    print('%-18s measured %.4f  a %.3f  b %.3f   msgs a %d b %d bundled a %d b %d' % (
        cell, m, a / m, b / m, ra['messages_sent'], rb['messages_sent'], ra['bundled_messages'],
        rb['bundled_messages']), flush=True)
report(errs)
