#!/usr/bin/env bash
# Faults: a wrong secret is refused; garbage, oversized and truncated frames
# drop only their connection; a stranger's 64 MiB header costs no memory and
# a silent stranger is dropped after --handshake-timeout; a killed or hung peer stops the others with an
# error naming it (a hung one, with --peer-timeout far away, by the stall watchdog's line first);
# a rank that never joins is reported.
source "$(dirname "$0")/lib.sh"

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$WORK/secret"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$WORK/wrong"
COMMON="--nodes 2 --cluster-id faults --peer-timeout 60s"

wait_listening() {  # PORT: bounded wait until something listens there
  for _ in $(seq 100); do
    ss -ltn "( sport = :$1 )" | grep -q LISTEN && return 0
    sleep 0.1
  done
  fail "nothing listens on port $1"
}

# Rank 0 waits for rank 1; meanwhile an intruder and garbage try their luck.
with_bound_port "$WORK/port0" timeout 90 "$AUGUR" run $SMALL --workers 2 --rank 0 $COMMON \
  --coordinator '127.0.0.1:{port}' --coordinator-fd 3 --secret-file "$WORK/secret" \
  --max-frame-bytes 1048576 --handshake-timeout 2s --out "$WORK/out" >"$WORK/rank0.log" 2>&1 &
rank0=$!
CLEANUP_CMDS+=("kill $rank0 2>/dev/null")
port=$(wait_port_file "$WORK/port0")
COMMON="$COMMON --coordinator 127.0.0.1:$port"
wait_listening "$port"

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
node0=""
for _ in $(seq 100); do
  # rank 0's augur process (under the shell, the wrapper's exec of timeout)
  for p in $(pgrep -x augur); do grep -qa -- "$WORK/out" "/proc/$p/cmdline" && node0=$p; done
  [ -n "$node0" ] && break
  sleep 0.1
done
[ -n "$node0" ] || fail "rank 0 did not start"
sleep 0.5  # past its start-up: the RSS below is the running node's
rss_before=$(rss_kb "$node0")
# Four strangers each claim a 64 MiB hello and send a little of it, then wait.
strangers=()
for _ in 1 2 3 4; do
  timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; printf '\xc1\xa7\x01\x00\x00\x00\x00\x04' >&3;
    head -c 60000 /dev/zero >&3; sleep 1" 2>/dev/null &
  strangers+=($!)
done
sleep 0.5
rss_after=$(rss_kb "$node0")
for j in "${strangers[@]}"; do wait "$j" || true; done
[ "$rss_after" -lt $((rss_before + 16384)) ] ||
  fail "rank 0 grew from $rss_before kB to $rss_after kB after 64 MiB headers from strangers"
pass "64 MiB pre-auth headers: rank 0 RSS $rss_before kB -> $rss_after kB"

# A silent stranger is dropped within --handshake-timeout (2 s) plus a tick.
t0=$(date +%s%N)
timeout 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; cat <&3 >/dev/null" ||
  fail "a silent connection was not dropped within 10 s"
elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
[ "$elapsed_ms" -lt 5000 ] || fail "a silent connection was dropped only after $elapsed_ms ms"
pass "silent stranger dropped after $elapsed_ms ms (--handshake-timeout 2s)"

set +e
timeout 30 "$AUGUR" run $SMALL --rank 1 $COMMON --secret-file "$WORK/wrong" >"$WORK/intruder.log" 2>&1
code=$?
set -e
[ "$code" = 1 ] || { cat "$WORK/intruder.log"; fail "intruder exited $code, expected 1"; }
grep -q "HMAC mismatch" "$WORK/intruder.log" || { cat "$WORK/intruder.log"; fail "intruder not told why"; }
pass "wrong secret refused: $(grep -m1 'HMAC' "$WORK/intruder.log")"

send_bytes() {  # PRINTF_FORMAT: one connection, these bytes, then close
  timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; printf '$1' >&3; sleep 0.2; exec 3>&-" || true
}
send_bytes 'GET / HTTP/1.1\r\nHost: augur\r\n\r\n'        # garbage
send_bytes '\xc1\xa7\x01\x00\xff\xff\xff\x7f'             # hello claiming 2 GB
send_bytes '\xc1\xa7\x01\x00\x40\x00\x00\x00\x01\x00\x01' # hello cut short

timeout 60 "$AUGUR" run $SMALL --workers 2 --rank 1 $COMMON --secret-file "$WORK/secret" \
  --out "$WORK/out" >"$WORK/rank1.log" 2>&1 || { cat "$WORK/rank0.log" "$WORK/rank1.log"; fail "rank 1 failed"; }
wait "$rank0" || { cat "$WORK/rank0.log"; fail "rank 0 failed after the bad connections"; }
cat "$WORK/rank0.log"
for reason in "closed by the peer after our challenge" "bad frame magic" "exceeds the pre-authentication limit" "truncated frame" "no handshake within 2 s"; do
  grep -q "dropped connection from 127.0.0.1:[0-9]* .*$reason" "$WORK/rank0.log" ||
    fail "rank 0 did not log a dropped connection for: $reason"
done
expect_json "$WORK/out/rank-0/result.json" verified true
expect_json "$WORK/out/rank-1/result.json" verified true
pass "garbage, oversized and truncated frames dropped; cluster verified"

# A killed peer: the others stop with an error naming it.
start_three() {  # TIMEOUT_FLAG [FLAGS...]: three long-running ranks in the background
  pids=()
  rm -f "$WORK/port3"
  for r in 0 1 2; do
    local coordinator=(--coordinator "127.0.0.1:{port}" --coordinator-fd 3) wrap=(with_bound_port "$WORK/port3")
    if [ "$r" != 0 ]; then
      coordinator=(--coordinator "127.0.0.1:$(wait_port_file "$WORK/port3")")
      wrap=()
    fi
    "${wrap[@]}" timeout 90 "$AUGUR" run --workload zipf --keys 20000 --batches 100000000 --workers 1 \
      --rank $r --nodes 3 "${coordinator[@]}" --secret-file "$WORK/secret" \
      --peer-timeout "$1" "${@:2}" >"$WORK/k$r.log" 2>&1 &
    pids+=($!)
    CLEANUP_CMDS+=("kill -9 $! 2>/dev/null")
  done
  for r in 0 1 2; do
    for _ in $(seq 200); do grep -q "joined cluster" "$WORK/k$r.log" && break; sleep 0.1; done
    grep -q "joined cluster" "$WORK/k$r.log" || { cat "$WORK"/k*.log; fail "rank $r did not join"; }
  done
}
expect_lost_rank_2() {  # WHAT: ranks 0 and 1 stop with exit code 1; one of them names rank 2
  # (the other may see the first one stop before it notices rank 2 itself).
  for r in 0 1; do
    set +e
    wait "${pids[$r]}"
    code=$?
    set -e
    [ "$code" = 1 ] || { cat "$WORK"/k*.log; fail "$1: rank $r exited $code, expected 1"; }
    grep -q "augur: rank $r: lost rank" "$WORK/k$r.log" || { cat "$WORK"/k*.log; fail "$1: rank $r named no lost rank"; }
  done
  grep -q "lost rank 2" "$WORK/k0.log" "$WORK/k1.log" || { cat "$WORK"/k*.log; fail "$1: nobody named rank 2"; }
  pass "$1: $(grep -h -m1 'lost rank 2' "$WORK/k0.log" "$WORK/k1.log" | head -1)"
}

rank2_process() { pgrep -P "${pids[2]}" augur; }  # the augur under rank 2's timeout

start_three 30s
sleep 0.5
kill -9 "$(rank2_process)"
expect_lost_rank_2 "killed peer detected"

start_three 2s
sleep 0.5
stopped=$(rank2_process)
kill -STOP "$stopped"
CLEANUP_CMDS+=("kill -9 $stopped 2>/dev/null; kill -CONT $stopped 2>/dev/null")
expect_lost_rank_2 "hung peer detected within --peer-timeout"
kill -9 "$stopped" 2>/dev/null || true
kill -CONT "$stopped" 2>/dev/null || true

# The same hung peer with --peer-timeout far away: a rank waiting for a pull,
# a push or a sync round that rank 2 never answers ends with the stall
# watchdog's one line (core/protocol/stall_watchdog.h), exit 1; the other
# stops then, with its own stall or the lost first one.
start_three 60s --stall-timeout 1s
sleep 0.5
stopped=$(rank2_process)
kill -STOP "$stopped"
CLEANUP_CMDS+=("kill -9 $stopped 2>/dev/null; kill -CONT $stopped 2>/dev/null")
for r in 0 1; do
  set +e
  wait "${pids[$r]}"
  code=$?
  set -e
  [ "$code" = 1 ] || { cat "$WORK"/k*.log; fail "stalled peer: rank $r exited $code, expected 1"; }
done
# Whichever waited longest first: a worker's pull or push, or a timer sync round.
grep -Eq "augur: rank [01]: stalled operation: node [01]( worker 0|'s timer sync round) has waited [0-9.e+]+ s \(wall time\)" \
  "$WORK/k0.log" "$WORK/k1.log" || { cat "$WORK"/k*.log; fail "stalled peer: no stall reported"; }
pass "stalled peer reported: $(grep -h -m1 'stalled operation' "$WORK/k0.log" "$WORK/k1.log" | head -1 | cut -c1-160)"
kill -9 "$stopped" 2>/dev/null || true
kill -CONT "$stopped" 2>/dev/null || true

# A rank that never joins.
set +e
with_bound_port "$WORK/port-alone" timeout 30 "$AUGUR" run $SMALL --rank 0 --nodes 2 \
  --coordinator '127.0.0.1:{port}' --coordinator-fd 3 --secret-file "$WORK/secret" --peer-timeout 1s >"$WORK/alone.log" 2>&1
code=$?
set -e
[ "$code" = 1 ] || { cat "$WORK/alone.log"; fail "lonely rank 0 exited $code, expected 1"; }
grep -q "rank 1 did not connect" "$WORK/alone.log" || { cat "$WORK/alone.log"; fail "missing rank not named"; }
pass "missing rank reported: $(grep -m1 "did not connect" "$WORK/alone.log")"
