#!/usr/bin/env python3
"""Reads the log of a run traced with instrumentation.patch (augur launch's
output with AUGUR_DBG_WAIT=1: each process prints its events at exit).

  trace.py summary LOG [CLOCKS_PER_EPOCH]
      per mf sub-epoch boundary of a 2-node run (default 1758 clocks an
      epoch): how far apart the nodes reached it, how long each waited
      there, and how long the hand-over took once both had arrived.
  trace.py timeline LOG CLOCK
      events per node in 100 us buckets, from 12 ms before the first node
      reaches CLOCK to 12 ms after; waits listed one by one.
"""
import collections
import re
import statistics
import sys


def read_events(path):
    """(time, event, node, other, n), sorted by time. Node 9 in a record
    means "this process": the rank prefix of the line says which."""
    events = []
    for line in open(path):
        m = re.search(r'DBG (\S+) node (\d+) other (\d+) n (-?\d+) at ([\d.]+)', line)
        if not m:
            continue
        rank = re.match(r'\[rank (\d+)\]', line)
        node = int(m[2]) if int(m[2]) != 9 else int(rank[1])
        events.append((float(m[5]), m[1], node, int(m[3]), int(m[4])))
    events.sort()
    return events


def first_reach(events, clock):
    reach = {}
    for t, what, node, _, n in events:
        if what == 'clock' and n == clock and node not in reach:
            reach[node] = t
    return reach


def summary(events, per_epoch):
    sub = per_epoch // 2
    rows = []
    for b in range(per_epoch + sub, 10 * per_epoch, sub):
        reach = first_reach(events, b)
        if len(reach) < 2:
            break
        waits = {0: 0.0, 1: 0.0}
        open_waits = {}
        for t, what, node, _, n in events:
            if not b <= n < b + 40:
                continue
            if what == 'waitstart':
                open_waits[node] = t
            elif what == 'waitend' and node in open_waits:
                waits[node] += t - open_waits.pop(node)
        ends = [t for t, what, _, _, n in events if what == 'waitend' and b <= n < b + 40]
        both = max(reach.values())
        rows.append((b, abs(reach[0] - reach[1]) * 1e3, waits[0] * 1e3, waits[1] * 1e3,
                     (max(ends) - both) * 1e3 if ends else 0.0))
    print('boundary  imbalance_ms  wait0_ms  wait1_ms  after_both_ms')
    for r in rows:
        print('%8d  %12.2f  %8.2f  %8.2f  %13.2f' % r)
    if rows:
        print('median    %12.2f  %8.2f  %8.2f  %13.2f' %
              tuple(statistics.median(x[i] for x in rows) for i in range(1, 5)))


def timeline(events, clock):
    t0 = min(first_reach(events, clock).values()) - 0.012
    buckets = collections.defaultdict(dict)
    for t, what, node, _, n in events:
        if t < t0 or t > t0 + 0.024 or what == 'clock':
            continue
        if what in ('waitstart', 'waitend'):
            print('%6.2f ms %s node %d clock %d' % ((t - t0) * 1e3, what, node, n))
            continue
        key = '%s%d' % (what, node)
        b = buckets[int((t - t0) * 1e4)]
        b[key] = b.get(key, 0) + (n if what.startswith('recv') else 1)
    for b in sorted(buckets):
        print('%5.1f' % (b / 10), ' '.join('%s=%d' % kv for kv in sorted(buckets[b].items())))


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'summary':
        summary(read_events(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1758)
    elif len(sys.argv) == 4 and sys.argv[1] == 'timeline':
        timeline(read_events(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(__doc__)
