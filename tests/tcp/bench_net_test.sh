#!/usr/bin/env bash
# `augur bench-net`: a short run reports its round trip and ratio lines; with
# --emulate-latency 2ms every augur frame is held 2 ms on receipt, so the
# pull's round trip (request and response each held once) is at least 4 ms by
# construction, while the raw ping-pong is never delayed; a malformed
# --emulate-latency is a usage error (exit 2) that names the flag.
# shellcheck source=tests/tcp/lib.sh
source "$(dirname "$0")/lib.sh"

out=$("$AUGUR" bench-net --dim 4 --batch 8 --batches 60 --warmup 10 --blocks 2 \
  --wire-security none --emulate-latency 2ms 2>"$WORK/err") ||
  { cat "$WORK/err" >&2; fail "bench-net with --emulate-latency 2ms failed"; }
echo "$out"
grep -q -- "--emulate-latency 2ms" <<<"$out" || fail "the header does not name the emulated latency"
grep -q "ratio (augur / raw)" <<<"$out" || fail "no ratio line"
rtt=$(sed -n 's/.*augur round trip: \([0-9.]*\) us.*/\1/p' <<<"$out")
[ -n "$rtt" ] || fail "no 'augur round trip' line"
python3 -c "import sys; sys.exit(0 if float('$rtt') >= 4000 else 1)" ||
  fail "augur round trip $rtt us with 2 ms held on each side: the emulation did not apply"
pass "bench-net holds frames for --emulate-latency (round trip $rtt us)"

set +e
"$AUGUR" bench-net --emulate-latency 5parsecs >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "a malformed --emulate-latency exited $rc, not 2"
grep -q -- "--emulate-latency" "$WORK/err" || fail "the error does not name --emulate-latency: $(cat "$WORK/err")"
pass "a malformed --emulate-latency is a usage error"

# A --port another process listens on: one line naming it, exit 2, at once
# (rank 1 waited its 30 s peer timeout for a rank 0 that could not listen).
python3 - "$AUGUR" "$WORK" <<'PY' || fail "bench-net on a port in use: see above"
import socket, subprocess, sys
augur, work = sys.argv[1], sys.argv[2]
held = socket.socket()
held.bind(("127.0.0.1", 0))
held.listen()
port = held.getsockname()[1]
r = subprocess.run([augur, "bench-net", "--port", str(port)], capture_output=True, text=True,
                   timeout=25)
lines = r.stderr.splitlines()
want = f"augur: error: --port {port}: cannot listen on 127.0.0.1:{port}: Address already in use"
if r.returncode != 2 or lines != [want]:
    sys.exit(f"exit {r.returncode}, stderr {r.stderr!r}; wanted exit 2 and {want!r}")
PY
pass "bench-net on a port in use: one line, exit 2"
