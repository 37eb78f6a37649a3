#!/usr/bin/env bash
# Benchmark (not a test; issue 18): does replication keep quality on data nobody
# tuned for? adaptive and classic at 8 nodes x 4 workers in the simulator
# (ethernet-10g, hybrid compute) against the single-node baseline (`augur
# compare`, which runs the baseline first and calibrates the compute per sample
# from it), every row with default flags except the sampling scheme it names
# (so the default partition: graph for kge and wv, random with --sampling local, block
# for mf, at 8 nodes):
#   wv   the WordNet glosses; a small-vocabulary corpus (Debian changelogs on
#        this machine, /usr/share/doc/*/changelog.Debian.gz, about 15k words);
#        a Zipf-generated corpus of about 1M tokens (scripts/lib/zipf_corpus.py);
#        each with the default sampling and with --sampling pool
#   kge  all of WordNet and Debian's package relations (scripts/lib/debian_kg.py
#        over `apt-cache dumpavail`: 107k packages, hubs such as libc6), each
#        with --sampling naive, pool and local
#   mf   a generated 20,000 x 2,000 matrix of 1M ratings at rank 32 and 100, and
#        100,000 x 10,000 with 10M ratings at rank 32 (at 1M, 32 workers get
#        28k ratings each an epoch: a sub-epoch of the block schedule is
#        shorter than a replica's sync round trip, which 10M is not)
# and prints every cell: quality against the baseline (goal: within 2%, never
# diverged) and speed-up (goal: >= 4x wv, >= 6x kge and mf; naive kge is judged
# on quality only, with the link arithmetic printed). kge is ranked on the whole
# test split, and its rows give the standard error of adaptive's gap from both
# test MRRs' (a 2% goal needs about 1% of it: 300 triples gave about 3%).
# Simulated speed-ups are upper bounds until the simulator's fidelity is
# calibrated (issue 16).
# Usage: scripts/bench-quality.sh [OUT_DIR] ; environment: QUALITY_CELLS (a
# subset of the cell names printed, separated by spaces or commas; default all;
# an unknown name is refused), QUALITY_KGE_EPOCHS
# (4), QUALITY_WV_EPOCHS (1), QUALITY_MF_EPOCHS (5).
# Cost: every cell is a compare of 3 runs; the whole matrix takes hours on 2 cores.
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
# --- cells: name workload data [flags...]
cells=(
  "wv-wordnet wv wordnet-text"
  "wv-wordnet-pool wv wordnet-text --sampling pool"
  "wv-debian wv debian-text"
  "wv-debian-pool wv debian-text --sampling pool"
  "wv-zipf wv zipf-text"
  "wv-zipf-pool wv zipf-text --sampling pool"
  "kge-wordnet-naive kge wordnet-kg --sampling naive"
  "kge-wordnet-pool kge wordnet-kg --sampling pool"
  "kge-wordnet-local kge wordnet-kg --sampling local"
  "kge-debian-naive kge debian-kg --sampling naive"
  "kge-debian-pool kge debian-kg --sampling pool"
  "kge-debian-local kge debian-kg --sampling local"
  "mf-r32 mf mf --dim 32"
  "mf-r100 mf mf --dim 100"
  "mf-r32-10m mf mf10m --dim 32"
)
# shellcheck source=scripts/lib/args.sh
source scripts/lib/args.sh
# QUALITY_CELLS: names separated by spaces or commas; each must be a cell above.
# Unset: every cell. Set, it must name at least one (a "," is not "all").
selected=""
if [ -n "${QUALITY_CELLS+set}" ]; then
  read -r -a wanted <<<"${QUALITY_CELLS//,/ }"  # split only: no glob expansion
  [ ${#wanted[@]} -gt 0 ] || usage_error "QUALITY_CELLS names no cell (unset it for all cells)"
  for want in "${wanted[@]}"; do
    known=no
    for c in "${cells[@]}"; do [ "${c%% *}" = "$want" ] && known=yes; done
    if [ "$known" = no ]; then
      usage_error "QUALITY_CELLS names no cell '$want' (cells: $(printf '%s ' "${cells[@]%% *}"))"
    fi
  done
  selected=" ${wanted[*]} "
fi
for v in QUALITY_KGE_EPOCHS QUALITY_WV_EPOCHS QUALITY_MF_EPOCHS; do
  [ -z "${!v+set}" ] || positive_int "$v" "${!v}"
done
out=${1:-results/bench-quality}

# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh
# shellcheck source=scripts/lib/baseline_runs.sh
source scripts/lib/baseline_runs.sh
install_deps
AUGUR_TARGETS=augur build build -DCMAKE_BUILD_TYPE=Release
augur=build/bin/augur
data=$out/data
mkdir -p "$data"
kge_epochs=${QUALITY_KGE_EPOCHS:-4}
wv_epochs=${QUALITY_WV_EPOCHS:-1}
mf_epochs=${QUALITY_MF_EPOCHS:-5}

# --- data (each built once)
[ -d "$data/wordnet-kg" ] || "$augur" data wordnet --out "$data/wordnet-kg" >&2
[ -d "$data/wordnet-text" ] || "$augur" data text --out "$data/wordnet-text" >&2
if [ ! -d "$data/debian-text" ]; then
  # Changelog entries, without their signature and header lines, each line once.
  zcat -f /usr/share/doc/*/changelog.Debian.gz 2>/dev/null |
    grep -v -e '^ --' -e '^[a-z0-9.+-]* (.*) .*urgency' | awk '!seen[$0]++' |
    head -n 60000 > "$data/debian-changelogs.txt" || true
  "$augur" data text --in "$data/debian-changelogs.txt" --out "$data/debian-text" >&2
fi
if [ ! -d "$data/zipf-text" ]; then
  /usr/bin/python3 scripts/lib/zipf_corpus.py "$data/zipf.txt" 1000000 30000 1
  "$augur" data text --in "$data/zipf.txt" --out "$data/zipf-text" >&2
fi
if [ ! -d "$data/debian-kg" ]; then
  apt-cache dumpavail > "$data/packages.txt"
  /usr/bin/python3 scripts/lib/debian_kg.py "$data/packages.txt" "$data/debian-kg.tsv"
  "$augur" data kg --train "$data/debian-kg.tsv" --split 5000,5000 --seed 1 \
    --out "$data/debian-kg" >&2
fi
[ -d "$data/mf" ] || "$augur" data mf --rows 20000 --cols 2000 --nnz 1000000 --seed 1 \
  --out "$data/mf" >&2
if [[ -z "$selected" || "$selected" == *" mf-r32-10m "* ]] && [ ! -d "$data/mf10m" ]; then
  "$augur" data mf --rows 100000 --cols 10000 --nnz 10000000 --seed 1 --out "$data/mf10m" >&2
fi

run_cell() {
  local name=$1 workload=$2 set=$3
  shift 3
  local epochs extra=()
  case $workload in
    kge) epochs=$kge_epochs; extra=(--dim 32 --eval-triples 0) ;;  # the whole test split
    wv) epochs=$wv_epochs ;;
    mf) epochs=$mf_epochs ;;
  esac
  [ -f "$out/$name/results.csv" ] && return 0  # done in an earlier invocation
  log "cell $name"
  # The cells that differ only in --sampling (which the baseline does not
  # take) share the first one's baseline.
  local base=() group=${name%-naive} b
  group=${group%-pool}
  group=${group%-local}
  for b in "$out/$group" "$out/$group"-*; do
    if [ -f "$b/runs/single/result.json" ]; then
      base=(--baseline "$(baseline_runs "$b")")
      break
    fi
  done
  "$augur" compare --backend sim --workload "$workload" --data "$data/$set" \
    --policies classic,adaptive --nodes 8 --workers 4 --preset ethernet-10g --compute hybrid \
    --epochs "$epochs" --seed 1 --no-plots "${base[@]}" "${extra[@]}" "$@" --out "$out/$name" >&2 ||
    log "cell $name: compare failed (see $out/$name)"
}
for c in "${cells[@]}"; do
  read -r -a f <<< "$c"
  if [ -n "$selected" ] && [[ "$selected" != *" ${f[0]} "* ]]; then continue; fi
  run_cell "${f[@]}"
done

/usr/bin/python3 - "$out" "${cells[@]}" <<'PY'
import csv, json, os, sys
out, cells = sys.argv[1], [c.split() for c in sys.argv[2:]]
goal = {"wv": 4.0, "kge": 6.0, "mf": 6.0}
lower = {"wv": True, "mf": True, "kge": False}  # quality: lower is better?
print("scripts/bench-quality.sh: 8 nodes x 4 workers, sim, ethernet-10g, hybrid compute;")
print("quality goal: within 2% of the single-node baseline, never diverged; speed goal: "
      "adaptive >= 4x (wv), >= 6x (kge, mf). Simulated speed-ups are upper bounds (issue 16).")
print(f"{'cell':<20}{'baseline':>10}{'adaptive':>12}{'vs base':>9}{'classic':>12}{'vs base':>9}"
      f"{'adapt x':>9}{'class x':>9}  verdict")
naive_rows = []
def noise(b, a):
    """kge: the standard error of adaptive's gap to the baseline, from both test MRRs'."""
    try:
        eb, ea = float(b["quality_stderr"]), float(a["quality_stderr"])
        return f" (gap's standard error {100 * (eb**2 + ea**2)**0.5 / float(b['quality']):.1f}%)"
    except (TypeError, KeyError, ValueError):  # none reported, or diverged
        return ""
for c in cells:
    name, w = c[0], c[1]
    path = f"{out}/{name}/results.csv"
    if not os.path.exists(path):
        print(f"{name:<20}  not run (QUALITY_CELLS) or failed: see {out}/{name}")
        continue
    rows = {r["policy"]: r for r in csv.DictReader(open(path))}
    b, a, k = rows.get("single"), rows.get("adaptive"), rows.get("classic")
    def q(r):
        return r["quality"] if r else ""
    def gap(r):  # > 0: worse than the baseline
        if not r or r["quality"] in ("", "diverged") or b["quality"] in ("", "diverged"):
            return None
        ratio = float(r["quality"]) / float(b["quality"])
        return ratio - 1 if lower[w] else 1 - ratio
    def fmt_q(r):
        v = q(r)
        return v if v in ("", "diverged") else f"{float(v):.4g}"
    def fmt_gap(g):
        return "" if g is None else f"{100 * g:+.1f}%"
    sa = float(a["speedup_over_single"]) if a and a["speedup_over_single"] else 0.0
    sk = float(k["speedup_over_single"]) if k and k["speedup_over_single"] else 0.0
    ga = gap(a)
    quality_ok = ga is not None and ga <= 0.02 + 1e-9
    naive_kge = w == "kge" and "naive" in name
    speed_ok = naive_kge or sa >= goal[w]
    verdict = ("quality met" if quality_ok else "quality MISSED") + ", " + (
        "speed not judged (naive)" if naive_kge else ("speed met" if speed_ok else "speed MISSED"))
    print(f"{name:<20}{fmt_q(b):>10}{fmt_q(a):>12}{fmt_gap(ga):>9}{fmt_q(k):>12}"
          f"{fmt_gap(gap(k)):>9}{sa:>8.2f}x{sk:>8.2f}x  {verdict}{noise(b, a)}")
    if naive_kge:
        naive_rows.append((name, b, a))
for name, b, a in naive_rows:
    r = json.load(open(f"{out}/{name}/runs/sim-adaptive-n8/result.json"))
    cfg = r["config"]
    dim = cfg.get("kge", {}).get("dim", 32)
    neg = cfg.get("kge", {}).get("negatives", 10)
    per_sample = cfg.get("kge", {}).get("compute_seconds_per_sample", 0)  # calibrated
    if per_sample <= 0:
        continue
    row_bytes = 2 * dim * 4  # a ComplEx row: 2 x dim floats
    node_rate = 6 * 4 / per_sample / 8  # triples/s per node at 6x of a 4-core baseline node
    gbit = node_rate * neg * row_bytes * 8 / 1e9
    print(f"{name}: at 6x every node trains {node_rate:,.0f} triples/s ({1e6 * per_sample:.2f} us "
          f"per triple per core). naive makes each triple's {neg} negatives remote (7/8 of them "
          f"homed elsewhere): their rows of {row_bytes} B come in ({gbit * 7 / 8:.1f} Gbit/s) and "
          f"as many gradients from other nodes come in for the main copies held here "
          f"({gbit * 7 / 8:.1f} Gbit/s): {gbit * 7 / 4:.1f} Gbit/s into every node of payload "
          f"alone, on 10 Gbit/s links, before keys, headers and the positives; and each batch "
          f"waits a round trip for its negatives. So naive kge is judged on quality only.")
PY
