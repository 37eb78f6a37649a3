#!/bin/bash
# wv_ab.sh ROUNDS SAMPLING BIN...: alternating 2-process wv runs; epochs and CPU per run.
rounds=$1; samp=$2; shift 2
D=results/cache/bench-efficiency/text
for r in $(seq 1 $rounds); do
  for b in "$@"; do
    out=/tmp/wv-ab-$(basename $b)-$r
    $b launch --local 2 $PIN -- --workload wv --data $D --epochs 2 --workers 1 --policy adaptive --sampling $samp --out $out >/dev/null 2>&1
    /usr/bin/python3 -c "
import json;r=json.load(open('$out/result.json'));print('$(basename $b)', ' '.join('%.3f'%x for x in r['epoch_seconds']), '| cpu', ' '.join('%.3f'%x for x in r['epoch_process_cpu_seconds']), '| loss %.4f'%r['quality']['heldout_loss'], 'inplace', r.get('samples_in_place'))"
  done
done
