#!/usr/bin/env bash
# rank0_binds.sh PORTFILE CMD...: runs CMD as one rank of a cluster started by
# a launcher that cannot hand its ranks a bound socket (mpirun, srun). The rank
# is OMPI_COMM_WORLD_RANK or SLURM_PROCID. Rank 0 binds the coordinator's
# listening socket in its own process (bind_port.py), writes the port to
# PORTFILE and execs `CMD --coordinator 127.0.0.1:PORT --coordinator-fd 3`;
# every other rank waits (up to 60 s) for PORTFILE and execs
# `CMD --coordinator 127.0.0.1:PORT`. The port is never free between its pick
# and its use. PORTFILE must be on a file system every rank sees.
set -euo pipefail
portfile=${1:?usage: $0 PORTFILE CMD...}
shift
rank=${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-}}
[ -n "$rank" ] || { echo "$0: neither OMPI_COMM_WORLD_RANK nor SLURM_PROCID is set" >&2; exit 2; }
if [ "$rank" = 0 ]; then
  exec /usr/bin/python3 "$(dirname "$0")/bind_port.py" "$portfile" \
    "$@" --coordinator "127.0.0.1:{port}" --coordinator-fd 3
fi
for _ in $(seq 1200); do
  [ -s "$portfile" ] && exec "$@" --coordinator "127.0.0.1:$(cat "$portfile")"
  sleep 0.05
done
echo "$0: rank $rank: no port written to $portfile within 60 s" >&2
exit 1
