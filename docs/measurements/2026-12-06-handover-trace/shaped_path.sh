#!/bin/bash
# shaped_path.sh OUT ROUNDS (root): the kge job on 2 pinned processes, alternating
# loopback, 2 network namespaces unshaped, with tbf at 1 Gbit/s (64 KB bucket), and
# with tbf plus --emulate-latency 50us; prints the median epoch, both processes CPU
# per epoch, their waits, late accesses and bytes sent per configuration.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
source "$root/scripts/lib/netns.sh"
out=$1; rounds=$2; mkdir -p $out
A=$root/build/bin/augur
tag=augx$$
netns_star $tag 10.79.9 2
trap "netns_star_delete $tag 2" EXIT
head -c 32 /dev/urandom | base64 > $out/secret; chmod 600 $out/secret
J="--workload kge --data $root/results/cache/bench-efficiency/kge50k --dim 50 --negatives 12 --sampling local --epochs 3 --policy adaptive --eval-triples 20 --no-eval"
shape() { for i in 0 1; do ip netns exec $tag-$i tc qdisc replace dev v$i root tbf rate $1 burst $2 latency 100ms; ip netns exec $tag-br tc qdisc replace dev b$i root tbf rate $1 burst $2 latency 100ms; done; }
unshape() { for i in 0 1; do ip netns exec $tag-$i tc qdisc del dev v$i root 2>/dev/null; ip netns exec $tag-br tc qdisc del dev b$i root 2>/dev/null; done; true; }
port=41000
for r in $(seq 1 $rounds); do
  for cfg in lo ns tbf tbflat; do
    port=$((port+1)); d=$out/$cfg-$r; mkdir -p $d
    case $cfg in lo) unshape;; ns) unshape;; tbf|tbflat) shape 1gbit 64kb;; esac
    emul=(); [ $cfg = tbflat ] && emul=(--emulate-latency 50us)
    for i in 0 1; do
      if [ $cfg = lo ]; then ns=(); coord=127.0.0.1:$port; else ns=(ip netns exec $tag-$i); coord=10.79.9.1:$port; fi
      "${ns[@]}" taskset -c $i $A run $J --nodes 2 --workers 1 --rank $i --coordinator $coord --secret-file $out/secret "${emul[@]}" --out $d > $d/rank-$i.log 2>&1 &
    done
    wait
  done
done
python3 - $out $rounds <<'PY'
import json,statistics as st,sys
out,rounds=sys.argv[1],int(sys.argv[2])
for cfg in ['lo','ns','tbf','tbflat']:
  E=[];C=[];W=[];L=[];B=[]
  for r in range(1,rounds+1):
    x=[json.load(open(f'{out}/{cfg}-{r}/rank-{k}/result.json')) for k in (0,1)]
    E.append(st.median(x[0]['epoch_seconds'][1:])); C.append(sum(st.median(y['epoch_process_cpu_seconds'][1:]) for y in x)); W.append(sum(y['wait_seconds'] for y in x)); L.append(sum(y['late_accesses'] for y in x)); B.append(sum(y['bytes_sent'] for y in x))
  print(cfg,'epoch',round(st.median(E),4),[round(e,3) for e in E],'cpu(both)',round(st.median(C),3),'wait(both)',round(st.median(W),3),'late',st.median(L),'MB',round(st.median(B)/1e6,1))
PY
