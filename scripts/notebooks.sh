#!/usr/bin/env bash
# Executes every notebook in notebooks/ headless on a small results set made
# here by `augur compare`, and checks that the committed notebooks carry no
# outputs. Usage: scripts/notebooks.sh [BUILD_DIR]   (default build/; needs BUILD_DIR/bin/augur)
#   1. BUILD_DIR/notebooks/data/sim: mf, classic and adaptive at 1 and 2 nodes in the simulator;
#      BUILD_DIR/notebooks/data/tcp: the same two policies at 2 nodes as real local TCP
#      processes (the simulator's baseline reused); both tiny (well under a minute here);
#      BUILD_DIR/notebooks/data/diverged: a compare in which every run diverged;
#   2. /usr/bin/jupyter nbconvert --execute of each notebook, the executed copy written to
#      BUILD_DIR/notebooks/ (never into the repository); those over one comparison also on
#      the diverged one (quality_over_time must say "All runs diverged" and plot nothing).
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

log "small results set: a compare in which every run diverged (ratings of +-1e30)"
/usr/bin/python3 -c "
import sys
with open(sys.argv[1], 'w') as f:
    for u in range(30):
        for i in range(20):
            if (u + i) % 3: f.write('%d,%d,%s\n' % (u, i, '1e30' if (u * i) % 2 else '-1e30'))" "$out/data/huge.csv"
"$augur" data mf --in "$out/data/huge.csv" --out "$out/data/huge" > /dev/null
rc=0
timeout 120 "$augur" compare --backend sim --workload mf --data "$out/data/huge" --policies classic,adaptive \
  --nodes 1,2 --workers 1 --epochs 1 --worker-cost baseline --no-plots --out "$out/data/diverged" \
  > /dev/null 2> "$out/data/diverged.log" || rc=$?
[ $rc -eq 1 ] && [ -s "$out/data/diverged/results.csv" ] ||
  { tail -3 "$out/data/diverged.log" >&2; log "the diverged compare exited $rc, not 1 with its results"; exit 1; }

failed=0
# execute NOTEBOOK RESULTS SUFFIX: nbconvert --execute into $out/NAME$SUFFIX.ipynb.
execute() {
  local nb=$1 results=$2 name
  name=$(basename "$1" .ipynb)$3
  log "executing $nb${3:+ ($3)}"
  if ! AUGUR_RESULTS=$results AUGUR_BUILD=$build_dir /usr/bin/jupyter nbconvert --to notebook --execute \
    --ExecutePreprocessor.timeout=300 --output-dir "$out" --output "$name" "$nb" > "$out/$name.log" 2>&1; then
    log "FAILED: $nb (see $out/$name.log)"
    tail -20 "$out/$name.log" >&2
    failed=1
  fi
}
for nb in notebooks/*.ipynb; do
  results=$out/data/sim/results.csv
  [ "$(basename "$nb")" = sim_vs_real.ipynb ] && results=$results:$out/data/tcp/results.csv
  execute "$nb" "$results" ""
done
# Every run diverged: the notebooks over one comparison say so instead of failing (an
# assertion), and quality_over_time draws no plot for them.
for nb in quality_over_time policy_comparison scaling; do
  execute "notebooks/$nb.ipynb" "$out/data/diverged/results.csv" -diverged
done
/usr/bin/python3 - "$out/quality_over_time-diverged.ipynb" <<'PY' || failed=1
import json, sys
outputs = [o for c in json.load(open(sys.argv[1]))["cells"] for o in c.get("outputs", [])]
text = " ".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/markdown", "")) for o in outputs)
if "All runs diverged" not in text:
    sys.exit(f"{sys.argv[1]}: no 'All runs diverged' note")
if any("image/png" in o.get("data", {}) for o in outputs):
    sys.exit(f"{sys.argv[1]}: a plot of runs that all diverged")
PY
[ $failed -eq 0 ] || exit 1
log "all notebooks executed: $out/*.ipynb"
