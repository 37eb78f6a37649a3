#!/usr/bin/env python3
"""Timeline of a traced run (instrumentation.patch) around one worker clock:
events per node in 100 us buckets, from 12 ms before the first node reaches
the clock to 12 ms after. Usage: timeline.py LOG CLOCK"""
import sys,re,collections
ev=[]
for line in open(sys.argv[1]):
    m=re.search(r'DBG (\S+) node (\d+) other (\d+) n (-?\d+) at ([\d.]+)',line)
    r=re.match(r'\[rank (\d+)\]',line)
    if m:
        node=int(m[2]) if int(m[2])!=9 else int(r[1])
        ev.append((float(m[5]),m[1],node,int(m[3]),int(m[4])))
ev.sort()
clk=int(sys.argv[2])
# find time node0 and node1 reach clock clk
t={}
for e in ev:
    if e[1]=='clock' and e[4]==clk and e[2] not in t: t[e[2]]=e[0]
t0=min(t.values())-0.012
print('reach',{k:round((v-t0)*1e3,2) for k,v in t.items()})
b=collections.OrderedDict()
for e in ev:
    if e[0]<t0 or e[0]>t0+0.024: continue
    if e[1]=='clock': continue
    k=(int((e[0]-t0)*1e4), e[1], e[2])
    b[k]=b.get(k,0)+(e[4] if e[1].startswith('recv') else 1)
    if e[1] in('waitstart','waitend','barrierend'): print('%6.2f ms %s node %d clock %d'%((e[0]-t0)*1e3,e[1],e[2],e[4]))
rows=collections.defaultdict(dict)
for (bk,w,n),c in b.items():
    if w in ('waitstart','waitend','barrierend'): continue
    rows[bk]['%s%d'%(w,n)]=c
for bk in sorted(rows): print('%5.1f'%(bk/10), ' '.join('%s=%d'%(k,v) for k,v in sorted(rows[bk].items())))
