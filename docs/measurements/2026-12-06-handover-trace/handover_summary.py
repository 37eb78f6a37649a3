#!/usr/bin/env python3
"""Per sub-epoch boundary of a traced 2-node mf run: when each node reached it,
how long each waited there, and how long the hand-over took once both had."""
import re, sys, statistics as st
ev = []
for line in open(sys.argv[1]):
    m = re.search(r'DBG (\S+) node (\d+) other (\d+) n (-?\d+) at ([\d.]+)', line)
    r = re.match(r'\[rank (\d+)\]', line)
    if m:
        node = int(m[2]) if int(m[2]) != 9 else int(r[1])
        ev.append((float(m[5]), m[1], node, int(m[3]), int(m[4])))
ev.sort()
per_epoch = int(sys.argv[2]) if len(sys.argv) > 2 else 1758
sub = per_epoch // 2
rows = []
for b in range(per_epoch + sub, 10 * per_epoch, sub):
    reach = {}
    for t, w, n, _, c in ev:
        if w == 'clock' and c == b and n not in reach: reach[n] = t
    if len(reach) < 2: break
    waits = {0: 0.0, 1: 0.0}
    open_ = {}
    for t, w, n, _, c in ev:
        if w == 'waitstart' and b <= c < b + 40: open_[n] = t
        if w == 'waitend' and n in open_ and b <= c < b + 40:
            waits[n] += t - open_.pop(n)
    last_end = max((t for t, w, n, _, c in ev if w == 'waitend' and b <= c < b + 40), default=None)
    both = max(reach.values())
    rows.append((b, abs(reach[0] - reach[1]) * 1e3, waits[0] * 1e3, waits[1] * 1e3,
                 ((last_end - both) * 1e3) if last_end else 0.0))
print('boundary  imbalance_ms  wait0_ms  wait1_ms  after_both_ms')
for r in rows: print('%8d  %12.2f  %8.2f  %8.2f  %13.2f' % r)
if rows:
    print('median    %12.2f  %8.2f  %8.2f  %13.2f' % tuple(st.median(x[i] for x in rows) for i in range(1, 5)))
