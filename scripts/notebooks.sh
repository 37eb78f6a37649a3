#!/usr/bin/env bash
# Executes every notebook in notebooks/ headless on a small results set made
# here by `augur compare`, and checks that the committed notebooks carry no
# outputs. Usage: scripts/notebooks.sh [BUILD_DIR]   (default build/; needs BUILD_DIR/bin/augur)
#   1. BUILD_DIR/notebooks/data/sim: mf, classic and adaptive at 1 and 2 nodes in the simulator;
#      BUILD_DIR/notebooks/data/tcp: the same two policies at 2 nodes as real local TCP
#      processes (the simulator's baseline reused); both tiny (well under a minute here);
#   2. /usr/bin/jupyter nbconvert --execute of each notebook, the executed copy written to
#      BUILD_DIR/notebooks/ (never into the repository).
# Exits non-zero if a compare, a notebook cell or the output check fails.
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
build_dir=$(cd "${1:-build}" && pwd)
augur=$build_dir/bin/augur
out=$build_dir/notebooks
log() { printf '[notebooks] %s\n' "$*" >&2; }
# shellcheck source=scripts/lib/baseline_runs.sh
source scripts/lib/baseline_runs.sh
[ -x "$augur" ] || { log "no $augur: build the augur target first"; exit 1; }

log "committed notebooks carry no outputs"
/usr/bin/python3 - notebooks/*.ipynb <<'PY'
import json, sys
bad = [p for p in sys.argv[1:] for c in json.load(open(p))["cells"]
       if c["cell_type"] == "code" and (c.get("outputs") or c.get("execution_count"))]
if bad:
    sys.exit("notebooks with outputs (strip them: jupyter nbconvert --clear-output --inplace): "
             + " ".join(sorted(set(bad))))
PY

rm -rf "$out"
mkdir -p "$out/data"
tiny=(--workload mf --epochs 2 --workers 2 --mf-rows 2000 --mf-cols 400 --mf-nnz 30000 --no-plots)
log "small results set: sim compare"
timeout 120 "$augur" compare --backend sim --policies classic,adaptive --nodes 1,2 "${tiny[@]}" \
  --out "$out/data/sim" > /dev/null
log "small results set: tcp compare"
timeout 120 "$augur" compare --backend tcp --policies classic,adaptive --nodes 2 "${tiny[@]}" \
  --baseline "$(baseline_runs "$out/data/sim")" --out "$out/data/tcp" > /dev/null

failed=0
for nb in notebooks/*.ipynb; do
  name=$(basename "$nb" .ipynb)
  results=$out/data/sim/results.csv
  [ "$name" = sim_vs_real ] && results=$results:$out/data/tcp/results.csv
  log "executing $nb"
  if ! AUGUR_RESULTS=$results AUGUR_BUILD=$build_dir /usr/bin/jupyter nbconvert --to notebook --execute \
    --ExecutePreprocessor.timeout=300 --output-dir "$out" "$nb" > "$out/$name.log" 2>&1; then
    log "FAILED: $nb (see $out/$name.log)"
    tail -20 "$out/$name.log" >&2
    failed=1
  fi
done
[ $failed -eq 0 ] || exit 1
log "all notebooks executed: $out/*.ipynb"
