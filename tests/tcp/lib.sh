# Shared by tests/tcp/*_test.sh: temp dirs, free ports, checks.
# shellcheck shell=bash
set -euo pipefail
AUGUR=${1:?usage: $0 PATH/TO/augur}
TCP_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=$(mktemp -d /tmp/augur-tcp-test.XXXXXX)
CLEANUP_CMDS=()
cleanup() {
  local c
  for c in "${CLEANUP_CMDS[@]}"; do eval "$c" || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }
# free_port: a port that was free a moment ago. It is released before use, so
# another process may take it meanwhile ("Address already in use"). Only for
# what must be told a port number and cannot inherit a bound socket: the
# daemons the srun and ssh tests start (slurmctld, slurmd, sshd) and
# `augur launch --hostfile --port`, whose rank 0 starts through ssh. The
# coordinator of `augur run` ranks uses with_bound_port, or rank0_binds.sh
# under mpirun and srun.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# with_bound_port PORTFILE CMD...: binds a listening socket on a free loopback
# port, writes the port to PORTFILE and execs CMD with the socket as
# descriptor 3 and every "{port}" in CMD replaced by the port (bind_port.py).
# For a rank 0:
# `with_bound_port F augur run --rank 0 --coordinator 127.0.0.1:{port} --coordinator-fd 3 ...`;
# the port is never free between its pick and its use.
with_bound_port() {
  /usr/bin/python3 "$TCP_TESTS/bind_port.py" "$@"
}
# wait_port_file PORTFILE: the port once with_bound_port wrote it (bounded wait).
wait_port_file() {
  for _ in $(seq 200); do
    [ -s "$1" ] && { cat "$1"; return 0; }
    sleep 0.05
  done
  fail "no port written to $1"
}
# json_get FILE KEY: prints a top-level field of a JSON file.
json_get() {
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(json.dumps(v))' "$1" "$2"
}
expect_json() {  # FILE KEY VALUE
  local got
  got=$(json_get "$1" "$2")
  [ "$got" = "$3" ] || fail "$1: $2 is $got, expected $3"
}
SMALL="--workload zipf --pattern mixed --keys 20000 --batches 50 --epochs 1 --verify"

# kill_after_second_checkpoint KILL_AFTER EPOCHS JOB...: runs `launch --local 3`
# with checkpoints in $CK, SIGKILLs rank 2 once $CK/LATEST names ckpt-2 or
# later, and checks the launch failed with a survivor naming rank 2. Sets
# `latest` (ckpt-E) and `epoch` (E). Log: $WORK/a.log, output $WORK/a.
kill_after_second_checkpoint() {
  local kill_after=$1 epochs=$2 launch code
  shift 2
  "$AUGUR" launch --local 3 --kill-after "$kill_after" -- "$@" --epochs "$epochs" \
    --out "$WORK/a" >"$WORK/a.log" 2>&1 &
  launch=$!
  CLEANUP_CMDS+=("kill $launch 2>/dev/null")
  for _ in $(seq 600); do
    grep -Eqx "ckpt-([2-9]|[1-9][0-9]+)" "$CK/LATEST" 2>/dev/null && break
    kill -0 "$launch" 2>/dev/null || { cat "$WORK/a.log"; fail "the run ended before its second checkpoint"; }
    sleep 0.1
  done
  grep -Eqx "ckpt-([2-9]|[1-9][0-9]+)" "$CK/LATEST" || { cat "$WORK/a.log"; fail "no second checkpoint within 60s"; }
  local victim
  victim=$(pgrep -P "$launch" -f -- "--rank 2 " | head -1)
  [ -n "$victim" ] || { cat "$WORK/a.log"; fail "rank 2's process not found"; }
  kill -9 "$victim"
  set +e
  wait "$launch"
  code=$?
  set -e
  [ "$code" != 0 ] || fail "launch succeeded although rank 2 was killed"
  grep -q "lost rank 2" "$WORK/a.log" || { cat "$WORK/a.log"; fail "no survivor named rank 2"; }
  latest=$(cat "$CK/LATEST")
  epoch=${latest#ckpt-}
  pass "rank 2 killed after $latest; survivors stopped: $(grep -m1 'lost rank 2' "$WORK/a.log")"
}

# restart_after_kill KILL_AFTER EPOCHS JOB...: `launch --local 3
# --restart-on-failure 2` with checkpoints in $CK (emptied first); SIGKILLs
# rank 1 after the first checkpoint; the launch must restart from a
# checkpoint and finish. Log: $WORK/d.log, output $WORK/d.
restart_after_kill() {
  local kill_after=$1 epochs=$2 launch victim
  shift 2
  rm -rf "$CK"
  "$AUGUR" launch --local 3 --restart-on-failure 2 --kill-after "$kill_after" -- "$@" \
    --epochs "$epochs" --out "$WORK/d" >"$WORK/d.log" 2>&1 &
  launch=$!
  CLEANUP_CMDS+=("kill $launch 2>/dev/null")
  for _ in $(seq 600); do
    grep -Eqx "ckpt-[1-9][0-9]*" "$CK/LATEST" 2>/dev/null && break
    sleep 0.1
  done
  victim=$(pgrep -P "$launch" -f -- "--rank 1 " | head -1)
  [ -n "$victim" ] || { cat "$WORK/d.log"; fail "rank 1's process not found"; }
  kill -9 "$victim"
  wait "$launch" || { cat "$WORK/d.log"; fail "launch --restart-on-failure did not recover"; }
  grep -q "restarting from" "$WORK/d.log" || { cat "$WORK/d.log"; fail "no restart happened"; }
}
