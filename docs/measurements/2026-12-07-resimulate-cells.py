#!/usr/bin/python3
"""Re-simulates every cell of a scripts/bench-fidelity.sh output directory with
the current build, with and without extra `augur sim` flags for the shaped cells.
Usage: 2026-12-07-resimulate-cells.py OUT_DIR [FLAG ...] (from the repository root, after
scripts/bench-efficiency.sh cached kge50k). The sim flags of the bench-fidelity.sh it matches:
084283f; the experimental flag --emulated-latency it was used with was not kept."""
import json, os, subprocess, sys, statistics
A = 'build/bin/augur'
root, extra = sys.argv[1], sys.argv[2:]
jobs = {'zipf': "--workload zipf --pattern uniform --keys 20000 --dim 64 --batch-size 64 --batches 1500 --epochs 1 --seed 5 --policy classic",
        'kge': "--workload kge --data results/cache/bench-efficiency/kge50k --dim 50 --negatives 12 --eval-triples 20 --sampling local --policy adaptive --epochs 2",
        'mf': "--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 --policy adaptive --epochs 2"}
def run(args, out):
    subprocess.run([A, 'sim'] + args + ['--no-progress', '--out', out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.load(open(out + '/result.json'))
errs = {'old': [], 'new': []}
for cell in sorted(os.listdir(root + '/runs')):
    if not cell.startswith(('zipf', 'kge', 'mf')) or '-n' not in cell: continue
    wl, n, net = cell.split('-'); n = int(n[1:])
    sim = json.load(open(f'{root}/runs/{cell}/sim/result.json'))['config']['sim']
    costs = f'{root}/costs-{wl}.json' if net == 'loopback' else f'{root}/costs-{wl}-{net}.json'
    base = jobs[wl].split() + ['--nodes', str(n), '--workers', '1', '--compute', 'hybrid', '--costs', costs, '--host-cores', '1']
    if n > 2: base += ['--time-sliced', '--shared-cores', '2']
    if net != 'loopback':
        base += ['--link-bandwidth', '%.0fbps' % (8 * sim['link_bandwidth_bytes_per_second']),
                 '--link-latency', '%.9fs' % sim['link_latency_seconds']]
    m = statistics.median(statistics.mean(json.load(open(f'{root}/runs/{cell}/tcp-{k}/rank-0/result.json'))['epoch_seconds']) for k in (1, 2, 3))
    old = statistics.mean(run(base, '/tmp/resim-a')['epoch_seconds'])
    new = old if net == 'loopback' else statistics.mean(run(base + extra, '/tmp/resim-b')['epoch_seconds'])
    errs['old'].append(abs(old / m - 1)); errs['new'].append(abs(new / m - 1))
    print('%-18s measured %.4f  old %.3f  new %.3f' % (cell, m, old / m, new / m), flush=True)
for k, v in errs.items():
    print('%s: worst %.3f median %.3f over %d cells' % (k, max(v), statistics.median(v), len(v)))
