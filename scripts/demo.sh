#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job end to end:
# the classic parameter server on the loopback runtime, 4 nodes x 2 workers,
# synthetic zipf workload (mixed pattern), verified, with a readable summary.
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
log "loopback: classic PS, 4 nodes x 2 workers, zipf mixed, verified"
build/bin/augur loopback --nodes 4 --workers 2 --workload zipf --pattern mixed \
  --keys 100000 --batches 200 --epochs 2 --verify --seed 1 --out "$out/loopback-classic"
log "done: results in $out/"
