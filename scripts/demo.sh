#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job end to end on the
# synthetic zipf workload (mixed pattern), every run verified (sum invariant):
#   1. loopback runtime, 4 nodes x 2 workers: classic vs adaptive;
#   2. the SimGrid simulator, 8 nodes x 4 workers: classic vs adaptive;
#   3. real processes over TCP on this machine, 4 nodes x 2 workers, adaptive.
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

install_deps
log "building (build/)"
build build -DCMAKE_BUILD_TYPE=Release

out=results/demo
mkdir -p "$out"
for policy in classic adaptive; do
  log "loopback: $policy, 4 nodes x 2 workers, zipf mixed, verified"
  build/bin/augur loopback --nodes 4 --workers 2 --workload zipf --pattern mixed --policy "$policy" \
    --keys 100000 --batches 200 --epochs 2 --verify --seed 1 --out "$out/loopback-$policy"
done
for policy in classic adaptive; do
  log "simulator: $policy, 8 nodes x 4 workers (star, 10 Gbit/s, 5 us links), verified"
  build/bin/augur sim --nodes 8 --workers 4 --workload zipf --pattern mixed --policy "$policy" \
    --epochs 1 --verify --seed 1 --no-progress --out "$out/sim-$policy"
done
log "tcp: adaptive, 4 local processes x 2 workers, verified"
build/bin/augur launch --local 4 -- --workload zipf --pattern mixed --policy adaptive --workers 2 \
  --sync-period 5ms --verify --epochs 1 --out "$out/tcp-adaptive"
log "done: results in $out/ (each run's result.json)"
