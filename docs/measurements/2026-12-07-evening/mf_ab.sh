#!/bin/bash
# mf_ab.sh ROUNDS BIN...: alternating 2-process mf runs (PIN=--pin: each on a core of its own);
# epochs, the median of epochs 2.., the median CPU of epochs 2.. (MF_ROWS, MF_COLS, MF_NNZ, MF_EPOCHS: the matrix)
rounds=$1; shift
J="--workload mf --mf-rows ${MF_ROWS:-20000} --mf-cols ${MF_COLS:-2000} --mf-nnz ${MF_NNZ:-1000000} --dim 32 --epochs ${MF_EPOCHS:-6}"
for r in $(seq 1 $rounds); do
  for b in "$@"; do
    $b launch --local 2 $PIN -- $J --workers 1 --policy adaptive --out /tmp/mf-ab-run > /dev/null 2>&1
    /usr/bin/python3 -c "
import json,statistics;r=json.load(open('/tmp/mf-ab-run/result.json'));e=r['epoch_seconds'];c=r['epoch_process_cpu_seconds'];print('%-12s'%'$(basename $b)', ' '.join('%.4f'%x for x in e), '| med2+ %.4f'%statistics.median(e[1:]), '| cpu med2+ %.4f'%statistics.median(c[1:]), 'rmse %.4f'%r['quality']['test_rmse'])"
  done
done
