# Shared by scripts/*.sh: the baseline runs of an earlier `augur compare`, for --baseline.
# shellcheck shell=bash

# baseline_runs DIR: DIR/runs/single/result.json and every DIR/runs/single-rK/result.json
# (--baseline-runs), comma-separated, the first run first; empty if there is none.
baseline_runs() {
  local dir=$1 list="" f
  for f in "$dir"/runs/single/result.json "$dir"/runs/single-r*/result.json; do
    [ -f "$f" ] && list+="${list:+,}$f"
  done
  printf '%s' "$list"
}
