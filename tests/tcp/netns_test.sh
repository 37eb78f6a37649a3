#!/usr/bin/env bash
# Three nodes as separate hosts: 3 network namespaces with their own
# addresses (10.77.0.1-3, private to these namespaces), joined by veth pairs
# to a bridge in a fourth namespace, each link shaped by `tc ... tbf` (this
# kernel has no netem; latency comes from --emulate-latency). Needs root.
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! command -v tc >/dev/null; then
  echo "SKIPPED: needs root/netns (run as root with iproute2)"
  exit 0
fi
tag="augur$$"
ns() { echo "$tag-$1"; }
# shellcheck source=../../scripts/lib/netns.sh
source "$(dirname "$0")/../../scripts/lib/netns.sh"
CLEANUP_CMDS+=("netns_star_delete $tag 3")
if ! netns_star "$tag" 10.77.0 3; then
  echo "SKIPPED: needs root/netns (ip netns add failed)"
  exit 0
fi
for i in 0 1 2; do
  # 200 Mbit/s per node, shaped with a token bucket.
  ip netns exec "$(ns $i)" tc qdisc add dev v$i root tbf rate 200mbit burst 64kb latency 50ms
done

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$WORK/secret"
pids=()
for i in 0 1 2; do
  ip netns exec "$(ns $i)" timeout 120 "$AUGUR" run $SMALL --workers 2 --rank $i --nodes 3 \
    --coordinator 10.77.0.1:29500 --secret-file "$WORK/secret" --emulate-latency 100us \
    --peer-timeout 60s --out "$WORK/out" >"$WORK/n$i.log" 2>&1 &
  pids+=($!)
done
for i in 0 1 2; do
  wait "${pids[$i]}" || { cat "$WORK"/n*.log; fail "node $i failed"; }
done
cat "$WORK/n0.log"
for i in 0 1 2; do expect_json "$WORK/out/rank-$i/result.json" verified true; done
# The nodes really talked over the namespace addresses.
grep -q '"coordinator": "10.77.0.1:29500"' "$WORK/out/rank-2/result.json" || fail "not run over the namespaces"
pass "3 nodes in 3 network namespaces (veth + bridge, tbf 200mbit, 100us emulated latency) verified"
