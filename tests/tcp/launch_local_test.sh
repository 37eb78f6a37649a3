#!/usr/bin/env bash
# augur launch --local: 4 processes x 2 threads keep the sum invariant; the
# same with --emulate-latency and with deferred replica flushes; --hostfile
# through a stand-in for ssh; a program that never joins (--join-timeout) or
# a rank that fails before joining ends launch with one line naming it.
source "$(dirname "$0")/lib.sh"

timeout 120 "$AUGUR" launch --local 4 -- $SMALL --workers 2 --out "$WORK/local" >"$WORK/local.log" 2>&1 ||
  { cat "$WORK/local.log"; fail "launch --local 4 failed"; }
expect_json "$WORK/local/result.json" backend '"tcp"'
expect_json "$WORK/local/result.json" nodes 4
expect_json "$WORK/local/result.json" verified true
grep -q '^\[rank 3\]' "$WORK/local.log" || fail "no rank-prefixed output"
if grep -q "$(cat "$WORK/local/secret")" "$WORK/local.log" "$WORK/local/result.json"; then
  fail "the secret was logged"
fi
pass "launch --local 4 x 2 workers verified"

# The I/O thread's short slice (--io-slice, default 100us): in effect, or a
# kernel before 6.12 that ignores it; never an error. Out of range: one line, exit 2.
slice=$(json_get "$WORK/local/result.json" io_slice)
case "$slice" in
  '"applied"' | '"ignored by this kernel'*) pass "I/O thread slice: $slice" ;;
  *) fail "io_slice is $slice" ;;
esac
if "$AUGUR" launch --local 2 -- $SMALL --io-slice 5us --out "$WORK/badslice" >"$WORK/badslice.log" 2>&1; then
  fail "--io-slice 5us was accepted"
fi
grep -q -- "--io-slice must be 0 (the kernel's default) or in \[100us, 100ms\], not '5us'" "$WORK/badslice.log" ||
  { cat "$WORK/badslice.log"; fail "no clear error for --io-slice 5us"; }
pass "--io-slice 5us refused with one line"

timeout 120 "$AUGUR" launch --local 3 -- $SMALL --workers 2 --emulate-latency 100us \
  --out "$WORK/latency" >"$WORK/latency.log" 2>&1 || { cat "$WORK/latency.log"; fail "latency run failed"; }
expect_json "$WORK/latency/result.json" verified true
pass "launch with --emulate-latency 100us verified"

# Deferred replica flushes over real TCP (the round budget and the
# significance filter): still every push exactly once.
timeout 120 "$AUGUR" launch --local 3 -- $SMALL --workers 2 --policy replicate-all \
  --sync-round-keys 8 --sync-significance 0.2 --out "$WORK/deferred" >"$WORK/deferred.log" 2>&1 ||
  { cat "$WORK/deferred.log"; fail "run with deferred flushes failed"; }
expect_json "$WORK/deferred/result.json" verified true
deferrals=$(json_get "$WORK/deferred/result.json" replica_deferrals)
[ "${deferrals:-0}" -gt 0 ] || fail "no replica flush was deferred ($deferrals)"
pass "launch with --sync-round-keys 8 --sync-significance 0.2 verified ($deferrals deferrals)"

# --hostfile: a fake ssh that runs the remote command locally proves the
# hostfile path (ranks per slot, remote command line, quoting).
cat >"$WORK/fake-ssh" <<'SH'
#!/bin/sh
# usage: fake-ssh HOST COMMAND
shift
exec sh -c "$1"
SH
chmod +x "$WORK/fake-ssh"
printf '127.0.0.1 slots=2\n127.0.0.1\n' >"$WORK/hosts"
# free_port: launch --hostfile starts rank 0 through ssh, which cannot hand it
# a bound socket, so the port is picked and released first (a small race).
timeout 120 "$AUGUR" launch --hostfile "$WORK/hosts" --ssh "$WORK/fake-ssh" --port "$(free_port)" \
  -- $SMALL --workers 1 --out "$WORK/hostfile" >"$WORK/hostfile.log" 2>&1 ||
  { cat "$WORK/hostfile.log"; fail "launch --hostfile failed"; }
expect_json "$WORK/hostfile/result.json" nodes 3
expect_json "$WORK/hostfile/result.json" verified true
pass "launch --hostfile (3 ranks over a stand-in ssh) verified"

# A remote shell that leaves a process holding the rank's output (it does not
# exec, and its child outlives it): launch still ends, the grace of
# --kill-after after the last rank exited.
cat >"$WORK/stuck-ssh" <<'SH'
#!/bin/sh
case "$1" in
  stuck) sleep 617 & sleep 1; exit 255 ;;  # the sleep keeps the output pipe
  *) shift; exec sh -c "$1" ;;
esac
SH
chmod +x "$WORK/stuck-ssh"
printf '127.0.0.1\nstuck\n' >"$WORK/stuck-hosts"
set +e
timeout 60 "$AUGUR" launch --hostfile "$WORK/stuck-hosts" --ssh "$WORK/stuck-ssh" --port "$(free_port)" \
  --kill-after 1s -- $SMALL --workers 1 --peer-timeout 2s --out "$WORK/stuck" >"$WORK/stuck.log" 2>&1
code=$?
set -e
pkill -f "sleep 617" || true
[ "$code" = 1 ] || { cat "$WORK/stuck.log"; fail "launch with a stuck remote shell exited $code, expected 1 (124: hung)"; }
grep -q "its output is still open" "$WORK/stuck.log" || { cat "$WORK/stuck.log"; fail "no line about the open output"; }
pass "launch ends when a remote shell's leftover process holds a rank's output"

# Bad input: one clear line and exit code 2, before anything starts.
set +e
timeout 20 "$AUGUR" launch --local 2 -- --rank 1 >"$WORK/bad.log" 2>&1
code=$?
set -e
[ "$code" = 2 ] || fail "launch with a reserved flag exited $code, expected 2"
grep -q -- '--rank is set by launch' "$WORK/bad.log" || fail "no clear usage error"
pass "reserved run flag refused"

# A program that never calls augur.join (it waited forever): after --join-timeout, one line
# naming each rank that never began to join (rank, pid, program), every rank killed, exit 1.
set +e
timeout 60 "$AUGUR" launch --local 2 --join-timeout 2s -- sleep 30 >"$WORK/nojoin.log" 2>"$WORK/nojoin.err"
code=$?
set -e
[ "$code" = 1 ] || { cat "$WORK/nojoin.log" "$WORK/nojoin.err"; fail "launch of ranks that never join exited $code, expected 1 (124: hung)"; }
[ "$(wc -l <"$WORK/nojoin.err")" = 1 ] || { cat "$WORK/nojoin.err"; fail "ranks that never join: not one line"; }
grep -qE '^augur: cluster failed: rank 0 \(pid [0-9]+, sleep 30\) and rank 1 \(pid [0-9]+, sleep 30\) did not join the cluster within 2 s \(--join-timeout\): they never connected to the coordinator \(did the program call augur\.join\?\); every rank was killed$' \
  "$WORK/nojoin.err" || { cat "$WORK/nojoin.err"; fail "unclear message for ranks that never join"; }
for pid in $(grep -oE 'pid [0-9]+' "$WORK/nojoin.err" | cut -d' ' -f2); do
  ! kill -0 "$pid" 2>/dev/null || { kill "$pid"; fail "rank pid $pid still runs after the join timeout"; }
done
# --join-timeout is the program's: refused for augur run ranks, and without a unit.
set +e
"$AUGUR" launch --local 2 --join-timeout 2s -- $SMALL >"$WORK/jt.log" 2>&1
code=$?
set -e
[ "$code" = 2 ] && grep -q -- "--join-timeout is for a program after --" "$WORK/jt.log" ||
  { cat "$WORK/jt.log"; fail "--join-timeout with augur run ranks: exit $code"; }
set +e
"$AUGUR" launch --local 2 --join-timeout 2 -- sleep 1 >"$WORK/jt.log" 2>&1
code=$?
set -e
[ "$code" = 2 ] && grep -q -- "--join-timeout: '2' has no unit" "$WORK/jt.log" ||
  { cat "$WORK/jt.log"; fail "--join-timeout without a unit: exit $code"; }
# A rank that fails before it joined is reported at once and the others are stopped (they
# waited for it until --peer-timeout, or forever if they never join either).
set +e
timeout 60 "$AUGUR" launch --local 2 -- sh -c 'if [ "$AUGUR_RANK" = 1 ]; then exit 3; fi; exec sleep 30' \
  >"$WORK/early.log" 2>"$WORK/early.err"
code=$?
set -e
[ "$code" = 1 ] || { cat "$WORK/early.log" "$WORK/early.err"; fail "a rank failing before it joined: exit $code, expected 1"; }
grep -qE '^\[launch\] rank 1 \(pid [0-9]+, sh -c .*\) exited with code 3 before it joined the cluster: stopping the other ranks$' \
  "$WORK/early.log" || { cat "$WORK/early.log"; fail "a rank failing before it joined is not reported"; }
grep -qE '^augur: cluster failed: rank 1 \(pid [0-9]+, sh -c .*\) exited with code 3 before it joined the cluster$' \
  "$WORK/early.err" || { cat "$WORK/early.err"; fail "the error does not name the rank that failed before it joined"; }
grep -q '^\[launch\] rank 0 failed (exit code 137)' "$WORK/early.log" ||
  { cat "$WORK/early.log"; fail "rank 0 was not stopped"; }
pass "ranks that never join, or fail before joining, end launch with one line naming them"

# --pin: rank r on the r-th allowed CPU (a spawned program inherits it), and
# refused without --local or with more ranks than CPUs.
ncpu=$(nproc)
timeout 60 "$AUGUR" launch --local "$ncpu" --pin -- sh -c 'grep Cpus_allowed_list /proc/self/status' \
  >"$WORK/pin.log" 2>&1 || { cat "$WORK/pin.log"; fail "launch --pin failed"; }
for ((r = 0; r < ncpu; r++)); do
  cpu=$(sed -n "s/^\[rank $r\] Cpus_allowed_list:[[:space:]]*//p" "$WORK/pin.log")
  [ -n "$cpu" ] || { cat "$WORK/pin.log"; fail "rank $r printed no affinity"; }
  case $cpu in *[-,]*) cat "$WORK/pin.log"; fail "rank $r is not on one CPU: $cpu" ;; esac
  seen="${seen:-} $cpu "
done
[ "$(echo $seen | tr ' ' '\n' | sort -u | wc -l)" -eq "$ncpu" ] || fail "ranks share a CPU: $seen"
if "$AUGUR" launch --local $((ncpu + 1)) --pin -- $SMALL >"$WORK/pin-many.log" 2>&1; then
  fail "--pin accepted more ranks than CPUs"
fi
grep -q -- "--pin: $((ncpu + 1)) ranks but only $ncpu CPUs" "$WORK/pin-many.log" ||
  { cat "$WORK/pin-many.log"; fail "no clear --pin error"; }
pass "launch --pin puts each of $ncpu ranks on a CPU of its own"

# A launch killed with SIGKILL (no chance to stop its ranks) takes its ranks
# with it: the kernel sends each SIGTERM when its parent augur dies.
"$AUGUR" launch --local 2 -- --workload zipf --keys 20000 --batches 100000 --epochs 1 \
  --out "$WORK/orphans" >"$WORK/orphans.log" 2>&1 &
launcher=$!
for _ in $(seq 100); do
  [ "$(pgrep -f -- "--out $WORK/orphans" | grep -vc "^$launcher$")" -ge 2 ] && break
  sleep 0.1
done
[ "$(pgrep -f -- "--out $WORK/orphans" | grep -vc "^$launcher$")" -ge 2 ] ||
  { cat "$WORK/orphans.log"; fail "the ranks did not start"; }
kill -9 "$launcher"
wait "$launcher" 2>/dev/null || true
for _ in $(seq 100); do
  pgrep -f -- "--out $WORK/orphans" >/dev/null || break
  sleep 0.1
done
if pgrep -f -- "--out $WORK/orphans" >/dev/null; then
  pkill -f -- "--out $WORK/orphans" || true
  fail "ranks outlived a killed launch"
fi
pass "a killed launch leaves no rank running"
