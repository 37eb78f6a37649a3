"""What the re-simulation scripts beside it share: the cells of a scripts/bench-fidelity.sh
output directory, each with the `augur sim` flags that simulate it again (its costs file,
host model and link) and its measured epoch (median over its 3 TCP runs of rank 0's mean).
Run from the repository root, after scripts/bench-efficiency.sh cached kge50k."""
import json, os, statistics, subprocess

JOBS = {'zipf': "--workload zipf --pattern uniform --keys 20000 --dim 64 --batch-size 64 --batches 1500 --epochs 1 --seed 5 --policy classic",
        'kge': "--workload kge --data results/cache/bench-efficiency/kge50k --dim 50 --negatives 12 --eval-triples 20 --sampling local --policy adaptive --epochs 2",
        'mf': "--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 --policy adaptive --epochs 2"}


def cells(root):
    """Yields (cell name, network, sim flags, measured epoch seconds) per cell of root."""
    for cell in sorted(os.listdir(root + '/runs')):
        if not cell.startswith(('zipf', 'kge', 'mf')) or '-n' not in cell:
            continue
        wl, n, net = cell.split('-')
        n = int(n[1:])
        sim = json.load(open(f'{root}/runs/{cell}/sim/result.json'))['config']['sim']
        costs = f'{root}/costs-{wl}.json' if net == 'loopback' else f'{root}/costs-{wl}-{net}.json'
        flags = JOBS[wl].split() + ['--nodes', str(n), '--workers', '1', '--compute', 'hybrid',
                                    '--costs', costs, '--host-cores', '1']
        if n > 2:
            flags += ['--time-sliced', '--shared-cores', '2']
        if net != 'loopback':
            flags += ['--link-bandwidth', '%.0fbps' % (8 * sim['link_bandwidth_bytes_per_second']),
                      '--link-latency', '%.9fs' % sim['link_latency_seconds']]
        measured = statistics.median(statistics.mean(json.load(open(
            f'{root}/runs/{cell}/tcp-{k}/rank-0/result.json'))['epoch_seconds']) for k in (1, 2, 3))
        yield cell, net, flags, measured


def simulate(binary, flags, out):
    """Runs `binary sim FLAGS` into out; returns its result.json."""
    subprocess.run([binary, 'sim'] + flags + ['--no-progress', '--out', out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.load(open(out + '/result.json'))


def report(errors):
    """Prints the worst and median |predicted/measured - 1| of each named list."""
    for name, v in errors.items():
        print('%s: worst %.3f median %.3f over %d cells' % (name, max(v), statistics.median(v), len(v)))
