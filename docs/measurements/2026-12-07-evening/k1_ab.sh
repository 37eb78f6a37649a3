#!/bin/bash
# k1_ab.sh ROUNDS BIN...: alternating: augur single --threads 2 (first binary), then each BIN's one-node 2-worker kge run
rounds=$1; shift
D=results/cache/bench-efficiency/kge50k
J="--workload kge --data $D --dim 50 --negatives 12 --epochs 3 --eval-triples 20"
for r in $(seq 1 $rounds); do
  $1 single $J --threads 2 --out /tmp/k1-ab-single > /dev/null 2>&1
  /usr/bin/python3 -c "
import json,statistics;r=json.load(open('/tmp/k1-ab-single/result.json'));print('single', ' '.join('%.4f'%x for x in r['epoch_seconds']), 'median %.4f'%statistics.median(r['epoch_seconds']))"
  for b in "$@"; do
    $b launch --local 1 -- $J --sampling local --workers 2 --policy adaptive --out /tmp/k1-ab-run > /dev/null 2>&1
    /usr/bin/python3 -c "
import json,statistics;r=json.load(open('/tmp/k1-ab-run/result.json'));print('$(basename $b)', ' '.join('%.4f'%x for x in r['epoch_seconds']), 'median %.4f'%statistics.median(r['epoch_seconds']), 'mrr %.4f'%r['quality']['test_mrr'])"
  done
done
