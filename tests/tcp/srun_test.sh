#!/usr/bin/env bash
# `srun -n 3 augur run ... --verify` on a one-machine Slurm:
# starts Debian's slurmctld and slurmd (configured here: free loopback ports,
# state and spool in the work directory, auth/none, no cgroups), waits for the
# node to be idle, and checks that the 3 ranks took rank and size from
# SLURM_PROCID/SLURM_NTASKS and verified. Skips with exit code 77 (ctest:
# "Skipped") and a reason where Slurm cannot start (not installed, not root).
source "$(dirname "$0")/lib.sh"
skip() { echo "SKIPPED: $*"; exit 77; }
for tool in slurmctld slurmd srun sinfo; do
  command -v "$tool" >/dev/null || skip "needs $tool (apt-get install slurmctld slurmd slurm-client)"
done
[ -f /usr/lib/x86_64-linux-gnu/slurm-wlm/auth_none.so ] || skip "needs Slurm's auth/none plugin"
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd runs jobs as their user)"

node=$(hostname -s)
cpus=$(nproc)
mkdir -p "$WORK/state" "$WORK/spool"
export SLURM_CONF=$WORK/slurm.conf
# The daemons must be told their ports (they cannot inherit bound sockets):
# free_port's small race stays for them.
cat >"$SLURM_CONF" <<CONF
ClusterName=augurtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=augur Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
# Stopped (and waited for, so they are done writing to $WORK) before $WORK goes.
slurmctld -D -i -f "$SLURM_CONF" >"$WORK/slurmctld.out" 2>&1 &
CLEANUP_CMDS+=("kill $! 2>/dev/null; wait $! 2>/dev/null")
slurmd -D -f "$SLURM_CONF" -N "$node" >"$WORK/slurmd.out" 2>&1 &
CLEANUP_CMDS+=("kill $! 2>/dev/null; wait $! 2>/dev/null")
state=
for _ in $(seq 100); do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
if [ "$state" != idle ]; then
  tail -n 5 "$WORK/slurmctld.log" "$WORK/slurmd.log" "$WORK/slurmctld.out" "$WORK/slurmd.out" 2>/dev/null || true
  skip "the one-machine Slurm did not come up (node state '${state:-none}')"
fi
pass "slurmctld and slurmd up, node $node idle"

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$WORK/secret"
# --overcommit: 3 tasks on a machine that may have fewer CPUs; --immediate: fail
# instead of queueing if the node cannot take them. srun cannot hand its tasks a
# descriptor, so rank 0 binds the coordinator's socket itself and the other
# ranks read its port from a file (rank0_binds.sh).
timeout 120 srun -n 3 --overcommit --oversubscribe --immediate=20 \
  "$TCP_TESTS/rank0_binds.sh" "$WORK/port" "$AUGUR" run $SMALL --workers 1 \
  --secret-file "$WORK/secret" --peer-timeout 60s \
  --out "$WORK/out" >"$WORK/srun.log" 2>&1 || { cat "$WORK/srun.log"; fail "srun -n 3 augur run failed"; }
for r in 0 1 2; do
  expect_json "$WORK/out/rank-$r/result.json" verified true
  expect_json "$WORK/out/rank-$r/result.json" rank "$r"
  expect_json "$WORK/out/rank-$r/result.json" nodes 3
done
pass "srun -n 3: 3 ranks from SLURM_PROCID/SLURM_NTASKS, verified"
