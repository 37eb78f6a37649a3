#!/bin/bash
# usage: microab4.sh ROUNDS BIN...  pull/memcpy push/memcpy push/rowadd per run
rounds=$1; shift
for r in $(seq $rounds); do
  for b in "$@"; do
    $b --benchmark_filter='(LocalPull|LocalPush|Memcpy|RowAdd)/100$' --benchmark_format=json 2>/dev/null > /tmp/micro.json
    /usr/bin/python3 -c "
import json;d=json.load(open('/tmp/micro.json'))['benchmarks'];t={x['name']:x['bytes_per_second'] for x in d}
m=t['BM_Memcpy/100']
print('$b', 'pull %.3f push %.3f rowadd %.3f'%(t['BM_LocalPull/100']/m,t['BM_LocalPush/100']/m,t['BM_RowAdd/100']/m), 'memcpy %.1f GB/s'%(m/1e9))"
  done
done
