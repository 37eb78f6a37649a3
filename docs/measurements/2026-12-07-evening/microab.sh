#!/bin/bash
# usage: microab.sh ROUNDS BIN...  prints pull/memcpy push/memcpy per run
rounds=$1; shift
for r in $(seq $rounds); do
  for b in "$@"; do
    $b --benchmark_filter='(LocalPull|LocalPush|Memcpy)/100$' --benchmark_format=json 2>/dev/null > /tmp/micro.json
    /usr/bin/python3 -c "
import json;d=json.load(open('/tmp/micro.json'))['benchmarks'];t={x['name']:x['bytes_per_second'] for x in d}
print('$b', 'pull %.3f push %.3f'%(t['BM_LocalPull/100']/t['BM_Memcpy/100'],t['BM_LocalPush/100']/t['BM_Memcpy/100']), 'memcpy %.1f GB/s'%(t['BM_Memcpy/100']/1e9))"
  done
done
