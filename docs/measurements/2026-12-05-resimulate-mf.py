#!/usr/bin/python3
"""Re-simulates the mf cells of a scripts/bench-fidelity.sh output directory with
costs-file fields overridden, against the same directory's measured epochs (its
matrix.csv), and prints each variant's worst and median |predicted/measured - 1|.
Usage (from the repository root, after a bench-fidelity run into OUT_DIR):
  2026-12-05-resimulate-mf.py OUT_DIR '[{}, {"seconds_per_coalesced_message": 5e-7}]'
The README's "Simulator fidelity" quotes it for the coalesced message cost."""
import json, subprocess, sys, csv, statistics
A='build/bin/augur'
root=sys.argv[1]; variants=json.loads(sys.argv[2])
flags="--workload mf --mf-rows 20000 --mf-cols 2000 --mf-nnz 1000000 --dim 32 --policy adaptive --epochs 2".split()
rows=list(csv.DictReader(open(root+'/matrix.csv')))
for v in variants:
  errs=[]; out=[]
  for r in rows:
    if r['workload']!='mf': continue
    cell=f"mf-n{r['nodes']}-{r['network']}"
    cfg=json.load(open(f"{root}/runs/{cell}/sim/result.json"))['config']['sim']
    c=json.load(open(cfg['costs_file']))
    for k,val in v.items(): c[k]=val
    json.dump(c,open('/tmp/cv.json','w'))
    a=flags+['--nodes',r['nodes'],'--workers','1','--compute','hybrid','--costs','/tmp/cv.json','--host-cores','1','--no-progress','--out','/tmp/rs']
    if r['network']!='loopback': a+=['--link-bandwidth','%.0fbps'%(cfg['link_bandwidth_bytes_per_second']*8),'--link-latency','%.9fs'%cfg['link_latency_seconds']]
    if cfg.get('time_sliced'): a+=['--time-sliced','--shared-cores',str(cfg['shared_cores'])]
    subprocess.run([A,'sim']+a,check=True,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
    e=json.load(open('/tmp/rs/result.json'))['epoch_seconds']
    p=statistics.mean(e); m=float(r['measured_epoch_s'])
    out.append(f"{cell}:{p/m:.2f}"); errs.append(abs(p/m-1))
  print(v, 'worst %.3f median %.3f'%(max(errs),statistics.median(errs)), ' '.join(out))
