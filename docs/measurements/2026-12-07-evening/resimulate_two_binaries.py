#!/usr/bin/python3
"""resimulate_two_binaries.py OUT_DIR BIN_A BIN_B (from the repository root): re-simulates every
cell of a scripts/bench-fidelity.sh output directory with both binaries and that directory's costs
files, against its measured epochs; prints frames sent and bundled messages too."""
import json, os, subprocess, sys, statistics
root, A, B = sys.argv[1:4]
jobs = {'zipf': "--workload zipf --pattern uniform --keys 20000 --dim 64 --batch-size 64 --batches 1500 --epochs 1 --seed 5 --policy classic",
        'kge': "--workload kge --data results/cache/bench-efficiency/kge50k --dim 50 --negatives 12 --eval-triples 20 --sampling local --policy adaptive --epochs 2",
        'mf': "--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 --policy adaptive --epochs 2"}
def run(b, args, out):
    subprocess.run([b, 'sim'] + args + ['--no-progress', '--out', out], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.load(open(out + '/result.json'))
errs = {'a': [], 'b': []}
for cell in sorted(os.listdir(root + '/runs')):
    if not cell.startswith(('zipf', 'kge', 'mf')) or '-n' not in cell: continue
    wl, n, net = cell.split('-'); n = int(n[1:])
    sim = json.load(open(f'{root}/runs/{cell}/sim/result.json'))['config']['sim']
    costs = f'{root}/costs-{wl}.json' if net == 'loopback' else f'{root}/costs-{wl}-{net}.json'
    base = jobs[wl].split() + ['--nodes', str(n), '--workers', '1', '--compute', 'hybrid', '--costs', costs, '--host-cores', '1']
    if n > 2: base += ['--time-sliced', '--shared-cores', '2']
    if net != 'loopback':
        base += ['--link-bandwidth', '%.0fbps' % (8 * sim['link_bandwidth_bytes_per_second']), '--link-latency', '%.9fs' % sim['link_latency_seconds']]
    m = statistics.median(statistics.mean(json.load(open(f'{root}/runs/{cell}/tcp-{k}/rank-0/result.json'))['epoch_seconds']) for k in (1, 2, 3))
    ra = run(A, base, '/tmp/resim-a'); rb = run(B, base, '/tmp/resim-b')
    a = statistics.mean(ra['epoch_seconds']); b = statistics.mean(rb['epoch_seconds'])
    errs['a'].append(abs(a / m - 1)); errs['b'].append(abs(b / m - 1))
    print('%-18s measured %.4f  a %.3f  b %.3f   msgs a %d b %d bundled a %d b %d' % (cell, m, a / m, b / m, ra['messages_sent'], rb['messages_sent'], ra['bundled_messages'], rb['bundled_messages']), flush=True)
for k, v in errs.items():
    print('%s: worst %.3f median %.3f over %d cells' % (k, max(v), statistics.median(v), len(v)))
