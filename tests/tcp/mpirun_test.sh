#!/usr/bin/env bash
# mpirun starts a 3-node cluster: `augur run` takes rank and size from
# OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE (no --rank/--nodes given).
source "$(dirname "$0")/lib.sh"
if ! command -v mpirun >/dev/null; then
  echo "SKIPPED: needs mpirun (apt-get install openmpi-bin)"
  exit 0
fi
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$WORK/secret"
# mpirun cannot hand its ranks a descriptor, so rank 0 binds the coordinator's
# socket itself and the other ranks read its port from a file (rank0_binds.sh).
timeout 120 mpirun --allow-run-as-root --oversubscribe -np 3 \
  "$TCP_TESTS/rank0_binds.sh" "$WORK/port" \
  "$AUGUR" run $SMALL --workers 2 --secret-file "$WORK/secret" \
  --peer-timeout 60s --out "$WORK/out" >"$WORK/mpi.log" 2>&1 || { cat "$WORK/mpi.log"; fail "mpirun failed"; }
for r in 0 1 2; do
  expect_json "$WORK/out/rank-$r/result.json" verified true
  expect_json "$WORK/out/rank-$r/result.json" rank "$r"
  expect_json "$WORK/out/rank-$r/result.json" nodes 3
done
pass "mpirun -np 3: 3 ranks from OMPI_COMM_WORLD_*, verified"
