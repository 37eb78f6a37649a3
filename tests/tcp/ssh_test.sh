#!/usr/bin/env bash
# `augur launch --hostfile` through real ssh: starts Debian's
# sshd (openssh-server) on a free loopback port with a host key and a client key
# this test makes, and launches 3 ranks (127.0.0.1 slots=2, localhost) over it,
# verified. Skips with exit code 77 (ctest: "Skipped") and a reason where sshd
# cannot start (not installed, not root).
source "$(dirname "$0")/lib.sh"
skip() { echo "SKIPPED: $*"; exit 77; }
sshd=/usr/sbin/sshd
[ -x "$sshd" ] || skip "needs $sshd (apt-get install openssh-server)"
for tool in ssh ssh-keygen; do
  command -v "$tool" >/dev/null || skip "needs $tool (apt-get install openssh-client)"
done
[ "$(id -u)" -eq 0 ] || skip "needs root (sshd's privilege separation)"

ssh-keygen -q -t ed25519 -N '' -f "$WORK/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$WORK/id"
cp "$WORK/id.pub" "$WORK/authorized_keys"
chmod 600 "$WORK/authorized_keys"
# sshd must be told its port (it cannot inherit a bound socket): free_port's
# small race stays here, and for launch --port below, whose rank 0 starts
# through ssh.
port=$(free_port)
cat >"$WORK/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $WORK/host_key
PidFile $WORK/sshd.pid
AuthorizedKeysFile $WORK/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
CONF
mkdir -p /run/sshd # privilege separation directory (the service creates it too)
"$sshd" -D -e -f "$WORK/sshd_config" 2>"$WORK/sshd.log" &
sshd_pid=$!
CLEANUP_CMDS+=("kill $sshd_pid 2>/dev/null")
ssh_cmd="ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -i $WORK/id -p $port"
up=0
for _ in $(seq 50); do
  if $ssh_cmd 127.0.0.1 true 2>/dev/null; then up=1; break; fi
  kill -0 "$sshd_pid" 2>/dev/null || break
  sleep 0.1
done
[ "$up" = 1 ] || { cat "$WORK/sshd.log"; skip "sshd did not accept a connection on 127.0.0.1:$port"; }
pass "sshd on 127.0.0.1:$port accepts the test's key"

printf '127.0.0.1 slots=2\nlocalhost\n' >"$WORK/hosts"
timeout 120 "$AUGUR" launch --hostfile "$WORK/hosts" --ssh "$ssh_cmd" --port "$(free_port)" \
  -- $SMALL --workers 1 --out "$WORK/ssh" >"$WORK/ssh.log" 2>&1 ||
  { cat "$WORK/ssh.log"; fail "launch --hostfile over ssh failed"; }
expect_json "$WORK/ssh/result.json" nodes 3
expect_json "$WORK/ssh/result.json" verified true
pass "launch --hostfile: 3 ranks over real ssh, verified"

# A program instead of `augur run` flags: the same ranks over ssh,
# each a Python process joining with the AUGUR_* variables launch passes.
module_dir=$(dirname "$AUGUR")/../python
if [ -f "$module_dir/augur/__init__.py" ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  cat >"$WORK/sums.py" <<'PY'
import numpy as np, augur
node = augur.join(dim=2, workers=1, policy="adaptive")
w = node.worker(0)
keys = np.arange(10, dtype=np.uint64)
w.intent(keys, 0, 1)
w.push(keys, np.ones((10, 2), np.float32))
for _ in range(2):
    w.barrier()
    w.wait_sync()
w.barrier()
ok = bool((w.pull(keys) == node.num_nodes).all())
w.barrier()
node.finish(samples=10, verified=ok)
PY
  timeout 120 "$AUGUR" launch --hostfile "$WORK/hosts" --ssh "$ssh_cmd" --port "$(free_port)" \
    --out "$WORK/ssh-py" -- /usr/bin/python3 "$WORK/sums.py" >"$WORK/ssh-py.log" 2>&1 ||
    { cat "$WORK/ssh-py.log"; fail "launch --hostfile -- python3 over ssh failed"; }
  expect_json "$WORK/ssh-py/result.json" nodes 3
  expect_json "$WORK/ssh-py/result.json" verified true
  pass "launch --hostfile -- python3: 3 Python ranks over real ssh, exact sums"
fi
