#!/usr/bin/python3
"""Re-simulates the 3-node cells of a scripts/bench-fidelity.sh output directory
with two host models (docs/measurements/2026-12-05-shared-machine.md):
old: 2/3 of a core per node and the plain wake-up delay; new: --shared-cores 2
and the time-sliced wake-up delay, fitted here to the matrix's own calibration
run as `augur calibrate` fits it. Usage: 2026-12-05-resimulate.py OUT_DIR
(run from the repository root, after scripts/bench-efficiency.sh cached kge50k)."""
import json, os, subprocess, sys, statistics
A='build/bin/augur'
root=sys.argv[1]
jobs={'zipf':"--workload zipf --pattern uniform --keys 20000 --dim 64 --batch-size 64 --batches 150 --epochs 1 --seed 5 --policy classic",
 'kge':"--workload kge --data results/cache/bench-efficiency/kge50k --dim 50 --negatives 12 --eval-triples 20 --sampling local --policy adaptive --epochs 2",
 'mf':"--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 --policy adaptive --epochs 2"}
def run(args, out):
    subprocess.run([A,'sim']+args+['--no-progress','--out',out],check=True,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
    return json.load(open(out+'/result.json'))
def costs_variant(src, dst, ts):
    c=json.load(open(src)); c.pop('time_sliced_wakeup_delay_seconds',None); c.pop('time_sliced_wakeup_delay_source',None)
    if ts is not None: c['time_sliced_wakeup_delay_seconds']=ts
    json.dump(c,open(dst,'w')); return dst
fits={}
for wl in ('zipf','kge','mf'):
    real=json.load(open(f'{root}/runs/calibrate-{wl}/time-sliced-n3/result.json'))
    E=len(real['epoch_seconds']); target=statistics.mean(real['epoch_seconds'][1:])
    flags=[f for f in jobs[wl].split()]
    i=flags.index('--epochs'); del flags[i:i+2]
    cf=costs_variant(f'{root}/costs-{wl}.json', f'/tmp/em-{wl}.json', None)
    def ep(d):
        r=run(flags+['--workers','1','--nodes','3','--epochs',str(min(E,3)),'--costs',cf,'--time-sliced','--compute','model','--wakeup-delay','%.9fs'%d], '/tmp/em-fit')
        return statistics.mean(r['epoch_seconds'][1:])
    best=None; prev=None; lo=None
    for d in [0,25e-6,50e-6,100e-6,200e-6,400e-6,800e-6,1600e-6]:
        e=ep(d)
        if best is None or abs(e-target)<best[1]: best=(d,abs(e-target),e)
        if best[1]<=0.02*target: break
        if prev and (prev[1]-target)*(e-target)<0 and lo is None: lo=(prev[0],prev[1]); hi=(d,e)
        if lo and e>target and e>prev[1]: break
        prev=(d,e)
    for _ in range(4):
        if lo is None or best[1]<=0.02*target: break
        d=round((lo[0]+(hi[0]-lo[0])*(target-lo[1])/(hi[1]-lo[1]))*1e9)/1e9
        if d<=lo[0] or d>=hi[0]: break
        e=ep(d)
        if abs(e-target)<best[1]: best=(d,abs(e-target),e)
        if (e-target)*(lo[1]-target)>0: lo=(d,e)
        else: hi=(d,e)
    fits[wl]=best[0]
    print('%s fit: target %.4f delay %.1f us -> %.4f' % (wl, target, best[0]*1e6, best[2]), flush=True)
for cell in sorted(os.listdir(root+'/runs')):
    if not cell.startswith(('zipf','kge','mf')) or '-n3-' not in cell: continue
    wl,n,net=cell.split('-')
    r=json.load(open(f'{root}/runs/{cell}/sim/result.json')); sim=r['config']['sim']
    src=f'{root}/costs-{wl}.json' if net=='loopback' else f'{root}/costs-{wl}-{net}.json'
    base=jobs[wl].split()+['--nodes','3','--workers','1','--compute','hybrid']
    if net!='loopback': base+=['--link-bandwidth','%.0fbps'%(8*sim['link_bandwidth_bytes_per_second']),'--link-latency','%.9fs'%sim['link_latency_seconds']]
    old=run(base+['--costs',costs_variant(src,'/tmp/em-a.json',None),'--host-cores','1','--host-speed','0.666667Gf','--time-sliced'],'/tmp/em-A')
    new=run(base+['--costs',costs_variant(src,'/tmp/em-b.json',fits[wl]),'--host-cores','1','--shared-cores','2','--time-sliced'],'/tmp/em-B')
    m=statistics.median(statistics.mean(json.load(open(f'{root}/runs/{cell}/tcp-{k}/rank-0/result.json'))['epoch_seconds']) for k in (1,2,3))
    a=statistics.mean(old['epoch_seconds']); b=statistics.mean(new['epoch_seconds'])
    print('%-18s measured %.4f  old %.3f  new %.3f' % (cell, m, a/m, b/m), flush=True)
