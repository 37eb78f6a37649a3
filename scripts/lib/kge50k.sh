# Shared by scripts/bench-efficiency.sh and scripts/bench-fidelity.sh: the
# kge benchmark sample, the first 50,000 WordNet training triples, built once.
# shellcheck shell=bash

# kge50k_data AUGUR CACHE: makes CACHE/kge50k (and CACHE/wordnet) unless it
# exists. Written to CACHE/kge50k.tmp first and renamed, so an interrupted
# build leaves nothing that looks finished.
kge50k_data() {
  local augur=$1 cache=$2
  [ -f "$cache/kge50k/train.tsv" ] && return 0
  log "data: WordNet knowledge graph, first 50,000 training triples"
  rm -rf "$cache/wordnet" "$cache/kge50k.tmp"
  "$augur" data wordnet --out "$cache/wordnet" >/dev/null
  mkdir -p "$cache/kge50k.tmp"
  cp "$cache"/wordnet/{entities,relations,valid,test}.tsv "$cache/kge50k.tmp/"
  awk 'NR == 1 && /^#/ { print; next } { if (++n <= 50000) print }' "$cache/wordnet/train.tsv" \
    >"$cache/kge50k.tmp/train.tsv"
  /usr/bin/python3 - "$cache/wordnet/meta.json" "$cache/kge50k.tmp/meta.json" <<'PY'
import json, sys
meta = json.load(open(sys.argv[1]))
meta["train"] = 50000
meta["source"] += "; first 50,000 training triples (scripts/lib/kge50k.sh)"
json.dump(meta, open(sys.argv[2], "w"), indent=1)
PY
  mv "$cache/kge50k.tmp" "$cache/kge50k"
}
