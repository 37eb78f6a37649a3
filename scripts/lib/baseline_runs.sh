# Shared by scripts/*.sh: the baseline runs of an earlier `augur compare`, for --baseline.
# shellcheck shell=bash

# baseline_runs DIR: DIR/runs/single/result.json, every DIR/runs/single-rK/result.json
# (--baseline-runs) and DIR/runs/single-t1/result.json (its one-thread timing run, the
# speed reference's other candidate), comma-separated, the first run first; empty if
# there is none.
baseline_runs() {
  local dir=$1 list="" f
  for f in "$dir"/runs/single/result.json "$dir"/runs/single-r*/result.json \
    "$dir"/runs/single-t1/result.json; do
    [ -f "$f" ] && list+="${list:+,}$f"
  done
  printf '%s' "$list"
}
