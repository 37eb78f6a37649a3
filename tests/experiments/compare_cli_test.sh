#!/usr/bin/env bash
# `augur compare` end to end at tiny scale. Usage: compare_cli_test.sh AUGUR CASE
#   sim      mf, 2 policies x nodes 1,2 in the simulator, the baseline run twice: results.csv
#            has one row per run (baseline first, its quality the mean of its 2 runs) with
#            speed-ups, report.md has its tables, both PNGs are drawn
#   predict  tcp compare: calibrates, each TCP run has the simulator's prediction beside it;
#            a sim compare with --costs charges the calibrated worker cost and says so
#   baseline a second compare reusing earlier baseline runs (--baseline A,B) on loopback; a
#            baseline file that is not a result, has a field of the wrong type or a negative
#            value, trained other epochs, flags or data, or diverged is refused with one line,
#            exit 2
#   kge      kge on WordNet cut to 5000 training triples, classic and adaptive at 2 nodes x 4
#            workers in the simulator: runs to the end with a test MRR in results.csv
#            (regression: negatives kept in a thread_local were overwritten by other simulated
#            workers, which share one OS thread, aborting with "was not pulled in this batch")
#   failure  flags a run would refuse (an unknown sim platform, a bad --lr, an unknown flag)
#            are refused before any run starts, one line, exit code 2; a run that fails (a
#            simulated node failure) fails compare, naming the run and quoting its error; bad
#            usage is exit code 2 with one line; a comparison where every run diverged exits 1
#            saying nothing converged, its report written, saying which baseline run diverged
#            in which epoch, with no speed-up or verdict against it (nor in results.csv, nor a
#            speed-up plot); plot_compare.py on a corrupted
#            results.csv is one line naming the file, line and column, exit code 2; Ctrl-C
#            stops the running run and starts no other, one line, exit code 130
set -euo pipefail
augur=$1
case_name=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL ($case_name): $*" >&2; exit 1; }
tiny=(--workload mf --mf-rows 600 --mf-cols 200 --mf-nnz 8000 --workers 2)
rows() { /usr/bin/python3 -c "import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))" "$1"; }
col() { /usr/bin/python3 -c "import csv,sys; print(';'.join(r[sys.argv[2]] for r in csv.DictReader(open(sys.argv[1]))))" "$1" "$2"; }

case "$case_name" in
sim)
  "$augur" compare --backend sim --policies classic,adaptive --nodes 1,2 "${tiny[@]}" --epochs 2 \
    --worker-cost baseline --baseline-runs 2 --out "$work/c" > "$work/out" 2> "$work/err" ||
    { cat "$work/err"; fail "compare exited non-zero"; }
  grep -q '\[compare\] 2/7 single-r2 ... done' "$work/err" || { cat "$work/err"; fail "the baseline did not run twice"; }
  grep -q '\[compare\] 3/7 single-t1 ... done' "$work/err" || { cat "$work/err"; fail "no one-thread timing run"; }
  grep -q '\[compare\] 7/7 sim-adaptive-n2 ... done' "$work/err" || { cat "$work/err"; fail "no progress lines"; }
  [[ -s $work/c/runs/single-r2/result.json ]] || fail "no second baseline run"
  /usr/bin/python3 - "$work/c" <<'PY' || fail "the speed reference is not the faster of the baseline's figures"
import csv, json, sys
d = sys.argv[1]
one = json.load(open(f"{d}/runs/single-t1/result.json"))
assert one["workers_per_node"] == 1, one["workers_per_node"]
base = next(csv.DictReader(open(f"{d}/results.csv")))
ref, threads, t1 = (float(base[k]) for k in
                    ("seconds_per_sample", "seconds_per_sample_threads", "seconds_per_sample_one_thread"))
assert abs(ref - min(threads, t1)) <= 1e-12 * ref, (ref, threads, t1)
assert base["speed_reference"] == ("one thread" if t1 < threads else "threads"), base["speed_reference"]
PY
  [[ $(rows "$work/c/results.csv") == 5 ]] || fail "results.csv does not have 5 rows"
  /usr/bin/python3 - "$work/c" <<'PY' || fail "the baseline's quality is not the mean of its runs"
import csv, json, sys
d = sys.argv[1]
runs = [json.load(open(f"{d}/runs/{r}/result.json"))["quality"]["test_rmse"] for r in ("single", "single-r2")]
base = next(csv.DictReader(open(f"{d}/results.csv")))
assert abs(float(base["quality"]) - sum(runs) / 2) < 1e-9, (base["quality"], runs)
assert float(base["quality_min"]) == min(runs) and float(base["quality_max"]) == max(runs)
PY
  grep -q "(mean of 2 runs, " "$work/c/report.md" || fail "report.md does not show the baseline's runs"
  [[ $(col "$work/c/results.csv" policy) == "single;classic;classic;adaptive;adaptive" ]] ||
    fail "rows are not baseline then policy-major: $(col "$work/c/results.csv" policy)"
  [[ $(col "$work/c/results.csv" nodes) == "1;1;2;1;2" ]] || fail "node counts wrong"
  for s in $(col "$work/c/results.csv" speedup_over_single | tr ';' ' '); do
    /usr/bin/python3 -c "import sys; assert float(sys.argv[1]) > 0" "$s" || fail "speed-up '$s' not positive"
  done
  [[ -n $(col "$work/c/results.csv" quality.test_rmse | tr -d ';') ]] || fail "no test_rmse column"
  for t in "Epoch time" "Speed-up over the single-node baseline" "Quality reached" \
    "Bytes sent per node" "Local-access share" "Relocations / replica syncs" \
    "Distance from the goals" "Configuration and provenance"; do
    grep -q "$t" "$work/c/report.md" || fail "report.md lacks '$t'"
  done
  for p in speedup.png quality_time.png; do
    [[ $(head -c 4 "$work/c/$p" | tail -c 3) == PNG ]] || fail "$p is not a PNG"
  done
  ;;
predict)
  # TCP: `augur calibrate` first (its 2-node runs need enough samples to measure), then every
  # TCP run gets the simulator's prediction beside it.
  mid=(--workload mf --mf-rows 3000 --mf-cols 500 --mf-nnz 60000 --workers 1)
  "$augur" compare --backend tcp --policies adaptive --nodes 2 "${mid[@]}" --epochs 2 --no-plots \
    --out "$work/c" > "$work/out" 2> "$work/err" || { cat "$work/err"; fail "tcp compare exited non-zero"; }
  [[ -s $work/c/costs.json ]] || fail "no costs.json from augur calibrate"
  p=$(col "$work/c/results.csv" sim_prediction.epoch_seconds_mean | cut -d';' -f2)
  /usr/bin/python3 -c "import sys; assert float(sys.argv[1]) > 0" "$p" || fail "no positive prediction '$p'"
  grep -q "prediction beside each TCP measurement" "$work/c/report.md" || fail "report.md lacks the prediction"
  [[ -s $work/c/runs/tcp-adaptive-n2/predicted/result.json ]] || fail "no predicted run"
  # Sim with those costs given: the runs charge the calibrated worker cost, and the report says so.
  "$augur" compare --backend sim --policies adaptive --nodes 2 "${mid[@]}" --epochs 2 --no-plots \
    --costs "$work/c/costs.json" --out "$work/s" > "$work/out" 2> "$work/err" ||
    { cat "$work/err"; fail "sim compare with --costs exited non-zero"; }
  [[ ! -e $work/s/costs.json ]] || fail "calibrated again although --costs was given"
  grep -q "the calibrated Augur worker" "$work/s/report.md" || fail "report.md does not say which worker cost"
  /usr/bin/python3 - "$work/c/costs.json" "$work/s/runs/sim-adaptive-n2/result.json" <<'PY' ||
import json, sys
costs, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert run["config"]["mf"]["compute_seconds_per_sample"] == costs["seconds_per_sample"], "per-sample cost not charged"
assert run["config"]["sim"]["host_cores"] == max(1, costs["cores"] // 2), "host cores not from the costs"
PY
    fail "the sim run did not use the calibrated costs"
  # TCP with those costs given: no calibration, the TCP run is launched without --costs (which
  # `augur run` does not take) and its prediction charges the file's worker cost.
  "$augur" compare --backend tcp --policies adaptive --nodes 2 "${mid[@]}" --epochs 2 --no-plots \
    --costs "$work/c/costs.json" --out "$work/t" > "$work/out" 2> "$work/err" ||
    { cat "$work/err"; fail "tcp compare with --costs exited non-zero"; }
  [[ ! -e $work/t/costs.json ]] || fail "calibrated again although --costs was given"
  /usr/bin/python3 - "$work/c/costs.json" "$work/t/runs/tcp-adaptive-n2/predicted/result.json" <<'PY' ||
import json, sys
costs, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert run["config"]["mf"]["compute_seconds_per_sample"] == costs["seconds_per_sample"], "per-sample cost not charged"
PY
    fail "the tcp compare's prediction did not use the given costs"
  ;;
baseline)
  for s in s s2 t1; do
    flags=(--threads 2 --epochs 2)
    # compare's one-thread timing run: one epoch, no evaluation (any epochs are accepted).
    [[ $s == t1 ]] && flags=(--threads 1 --epochs 1 --no-eval)
    "$augur" single "${flags[@]}" --workload mf --mf-rows 600 --mf-cols 200 \
      --mf-nnz 8000 --out "$work/$s" > /dev/null
  done
  /usr/bin/python3 -c "import json,sys; assert 'quality' not in json.load(open(sys.argv[1]))" \
    "$work/t1/result.json" || fail "augur single --no-eval still evaluated"
  "$augur" compare --backend loopback --policies nups --nodes 2 "${tiny[@]}" --epochs 2 \
    --baseline "$work/s/result.json,$work/s2/result.json,$work/t1/result.json" --no-plots \
    --out "$work/c" > /dev/null 2> "$work/err" ||
    { cat "$work/err"; fail "compare with --baseline exited non-zero"; }
  [[ $(rows "$work/c/results.csv") == 2 ]] || fail "expected baseline + 1 run"
  [[ ! -d "$work/c/runs/single" ]] || fail "the baseline was run again"
  # The one-thread run is the speed reference's other candidate, not a third quality run.
  /usr/bin/python3 -c "import csv,sys; r = next(csv.DictReader(open(sys.argv[1]))); \
assert len(r['quality_runs'].split(';')) == 2, r['quality_runs']" "$work/c/results.csv" ||
    fail "the baseline's quality is not that of its two runs: $(col "$work/c/results.csv" quality_runs)"
  [[ -n $(col "$work/c/results.csv" seconds_per_sample_one_thread | cut -d';' -f1) ]] ||
    fail "the one-thread run's time per sample is missing"
  # refused EPOCHS BASELINE TEXT WHAT [FLAGS...]: compare exits 2 with one line containing
  # TEXT, and runs nothing.
  refused() {
    local epochs=$1 baseline=$2 text=$3 what=$4
    shift 4
    rm -rf "$work/e"
    set +e
    "$augur" compare --backend loopback --policies nups --nodes 2 "${tiny[@]}" --epochs "$epochs" \
      --baseline "$baseline" "$@" --out "$work/e" > /dev/null 2> "$work/err"
    local code=$?
    set -e
    [[ $code == 2 ]] || { cat "$work/err"; fail "$what was accepted (exit $code)"; }
    [[ $(wc -l < "$work/err") == 1 ]] || { cat "$work/err"; fail "$what: not one line"; }
    grep -qF -- "$text" "$work/err" || { cat "$work/err"; fail "unclear message for $what"; }
    [[ ! -e $work/e/runs ]] || fail "$what: a run was started"
  }
  refused 2 "$work/s/result.json," "an empty file name" "an empty --baseline item"
  refused 2 "$work/s/result.json,$work/s/result.json" "$work/s/result.json is given twice" \
    "a --baseline file given twice (it counted as its own repeat)"
  refused 3 "$work/s/result.json" "is not an \`augur single\` run of mf for 3 epochs" \
    "a baseline of other epochs"
  echo '[1, 2, 3]' > "$work/array.json"
  refused 2 "$work/array.json" "not a result.json (a JSON object), but a array" "a JSON array"
  edit() {  # edit OUT PYTHON: s/result.json with j changed by PYTHON, into OUT
    /usr/bin/python3 -c "import json,sys; j=json.load(open(sys.argv[1])); $2; json.dump(j, open(sys.argv[3], 'w'))" \
      "$work/s/result.json" "$2" "$1"
  }
  edit "$work/str.json" 'j["samples"] = "many"'
  refused 2 "$work/str.json" "field 'samples' must be a finite number >= 0, got \"many\"" \
    "a field of the wrong type"
  edit "$work/neg.json" 'j["quality"]["test_rmse"] = -5'
  refused 2 "$work/neg.json" "field 'quality.test_rmse' must be a finite number >= 0" \
    "a negative quality"
  edit "$work/cpu.json" 'j["epoch_cpu_seconds"] = [-1]'
  refused 2 "$work/cpu.json" "field 'epoch_cpu_seconds' must hold finite seconds >= 0" \
    "a negative epoch time"
  edit "$work/data.json" 'j["config"]["data_dir"] = "elsewhere"'
  refused 2 "$work/data.json" 'ran with data "elsewhere"' "a baseline of other data"
  refused 2 "$work/s/result.json" "ran with mf.learning_rate 0.02, this comparison with 0.05 (--lr)" \
    "a baseline of another learning rate" --lr 0.05
  # A diverged run is no reference (it was taken as one, its speed-ups reported).
  edit "$work/diverged.json" 'j["diverged"] = True; j["divergence"] = "training diverged in epoch 2: loss nan"; del j["quality"]'
  refused 2 "$work/s/result.json,$work/diverged.json" \
    "$work/diverged.json: that run diverged (training diverged in epoch 2: loss nan), so it is no reference" \
    "a diverged baseline run"
  ;;
kge)
  "$augur" data wordnet --out "$work/wn" > /dev/null
  head -5001 "$work/wn/train.tsv" > "$work/train" && mv "$work/train" "$work/wn/train.tsv"
  "$augur" compare --backend sim --workload kge --data "$work/wn" --policies classic,adaptive \
    --nodes 2 --workers 4 --epochs 1 --eval-triples 20 --dim 8 --no-plots --out "$work/c" \
    > /dev/null 2> "$work/err" || { cat "$work/err"; fail "kge compare exited non-zero"; }
  [[ $(rows "$work/c/results.csv") == 3 ]] || fail "expected baseline + 2 runs"
  for m in $(col "$work/c/results.csv" quality.test_mrr | tr ';' ' '); do
    /usr/bin/python3 -c "import sys; assert 0 < float(sys.argv[1]) <= 1" "$m" || fail "MRR '$m' out of (0, 1]"
  done
  ;;
failure)
  # Flags a run would refuse: refused before anything runs (the baseline included).
  for bad in "--platform nosuch.xml" "--lr abc" "--bogus-flag 3"; do
    rm -rf "$work/c"
    set +e
    # shellcheck disable=SC2086  # $bad is two words
    "$augur" compare --backend sim --policies adaptive --nodes 2 "${tiny[@]}" --epochs 2 $bad \
      --no-plots --out "$work/c" > "$work/out" 2> "$work/err"
    code=$?
    set -e
    [[ $code == 2 ]] || { cat "$work/err"; fail "$bad gave exit code $code, not 2"; }
    [[ $(wc -l < "$work/err") == 1 ]] || { cat "$work/err"; fail "$bad: not one line"; }
    grep -q "the flags of run sim-adaptive-n2 (\`augur sim\`) are refused" "$work/err" ||
      { cat "$work/err"; fail "$bad: the run is not named"; }
    grep -qF -- "${bad%% *}" "$work/err" || grep -qF -- "${bad##* }" "$work/err" ||
      { cat "$work/err"; fail "$bad: the flag is not named"; }
    [[ ! -e $work/c/runs ]] || fail "$bad: a run was started"
  done
  # A list flag with an entry given twice (merged silently before: fewer runs than asked).
  for dup in "--policies adaptive,classic,adaptive --nodes 2:--policies adaptive,classic,adaptive: adaptive is given twice" \
    "--policies adaptive --nodes 2,1,2:--nodes 2,1,2: 2 is given twice"; do
    rm -rf "$work/c"
    set +e
    # shellcheck disable=SC2086  # the flags and their values are four words
    "$augur" compare --backend sim "${tiny[@]}" ${dup%%:*} \
      --no-plots --out "$work/c" > "$work/out" 2> "$work/err"
    code=$?
    set -e
    [[ $code == 2 && $(wc -l < "$work/err") == 1 ]] || { cat "$work/err"; fail "${dup%%:*}: exit $code"; }
    grep -qF -- "${dup#*:}" "$work/err" || { cat "$work/err"; fail "${dup%%:*}: unclear message"; }
    [[ ! -e $work/c/runs ]] || fail "${dup%%:*}: a run was started"
  done
  rm -rf "$work/c"
  set +e
  "$augur" compare --backend sim --policies adaptive --nodes 2 "${tiny[@]}" --epochs 2 --fail-node 1@1us \
    --no-plots --out "$work/c" > "$work/out" 2> "$work/err"
  code=$?
  set -e
  [[ $code == 1 ]] || { cat "$work/err"; fail "a failing run gave exit code $code, not 1"; }
  grep -q "run sim-adaptive-n2 failed (exit code" "$work/err" || { cat "$work/err"; fail "the run is not named"; }
  grep -q "node 1 failed" "$work/err" || { cat "$work/err"; fail "the run's own error is not quoted"; }
  # Every run diverges (ratings of +-1e30): exit 1, nothing converged, the report written.
  /usr/bin/python3 -c "
import sys
with open(sys.argv[1], 'w') as f:
    for u in range(30):
        for i in range(20):
            if (u + i) % 3: f.write('%d,%d,%s\n' % (u, i, '1e30' if (u * i) % 2 else '-1e30'))" "$work/huge.csv"
  "$augur" data mf --in "$work/huge.csv" --out "$work/huge" > /dev/null
  set +e
  "$augur" compare --backend sim --workload mf --data "$work/huge" --policies adaptive --nodes 2 \
    --workers 1 --epochs 1 --worker-cost baseline --no-plots --out "$work/div" > /dev/null 2> "$work/err"
  code=$?
  set -e
  [[ $code == 1 ]] || { cat "$work/err"; fail "an all-diverged comparison gave exit code $code, not 1"; }
  [[ $(tail -1 "$work/err") == "augur: nothing converged: every run, the baseline included, diverged"* ]] ||
    { cat "$work/err"; fail "an all-diverged comparison does not say nothing converged"; }
  [[ -s $work/div/report.md ]] || fail "no report of the diverged comparison"
  # A diverged baseline is no reference: the report says which run diverged in which epoch,
  # and has no speed-up, ratio or verdict against it; nor has results.csv or a plot.
  grep -q "^## The baseline diverged" "$work/div/report.md" &&
    grep -q "^- single: training diverged in epoch 1: " "$work/div/report.md" ||
    { cat "$work/div/report.md"; fail "the report does not say the baseline diverged, and where"; }
  grep -q "no verdict: the baseline diverged" "$work/div/report.md" ||
    { cat "$work/div/report.md"; fail "a verdict against a diverged baseline"; }
  ! grep -q "over one node of" "$work/div/report.md" ||
    { cat "$work/div/report.md"; fail "a speed-up against a diverged baseline in the report"; }
  [[ $(col "$work/div/results.csv" speedup_over_single) == ";" ]] ||
    fail "results.csv has speed-ups against a diverged baseline: $(col "$work/div/results.csv" speedup_over_single)"
  [[ $(col "$work/div/results.csv" baseline_diverged) == "true;true" ]] ||
    fail "results.csv does not say the baseline diverged"
  [[ ! -e $work/div/speedup.png ]] || fail "a speed-up plot against a diverged baseline"
  # plot_compare.py on a corrupted results.csv: one line naming file, line and column.
  "$augur" compare --backend sim --policies adaptive --nodes 2 "${tiny[@]}" --epochs 1 \
    --worker-cost baseline --no-plots --out "$work/p" > /dev/null 2>&1 || fail "a plain compare failed"
  plot=$(dirname "$0")/../../experiments/compare/plot_compare.py
  /usr/bin/python3 - "$work/p/results.csv" "$work/bad.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows[2][rows[0].index("speedup_over_single")] = "abc"
csv.writer(open(sys.argv[2], "w", newline="")).writerows(rows)
PY
  set +e
  /usr/bin/python3 "$plot" "$work/bad.csv" "$work/p" > /dev/null 2> "$work/err"
  code=$?
  set -e
  [[ $code == 2 ]] || { cat "$work/err"; fail "plot_compare.py on a bad cell exited $code, not 2"; }
  [[ $(cat "$work/err") == "plot_compare.py: $work/bad.csv:3: column 'speedup_over_single' must be a number, got 'abc'" ]] ||
    { cat "$work/err"; fail "plot_compare.py's message on a bad cell"; }
  set +e
  "$augur" compare --backend sim --policies adaptive,lapse --nodes 2 --out "$work/d" 2> "$work/err"
  code=$?
  set -e
  [[ $code == 2 ]] || fail "bad usage gave exit code $code, not 2"
  [[ $(wc -l < "$work/err") == 1 ]] || { cat "$work/err"; fail "bad usage is not one line"; }
  grep -q "'lapse'" "$work/err" || fail "the bad policy is not named"
  # Ctrl-C while a run is running: that run stops, none follows, one line, exit 130
  # (compare died silently, leaving its children to stop on their own).
  "$augur" compare --backend loopback --policies classic --nodes 2 --workload mf --mf-rows 2000 \
    --mf-cols 400 --mf-nnz 200000 --workers 1 --threads 1 --epochs 1000 --no-plots \
    --out "$work/int" > /dev/null 2> "$work/err" &
  pid=$!
  for _ in $(seq 600); do  # until the baseline's run has started (its log exists)
    [[ -s $work/int/runs/single/log.txt ]] && break
    sleep 0.1
  done
  kill -INT "$pid"
  set +e
  wait "$pid"
  code=$?
  set -e
  [[ $code == 130 ]] || { cat "$work/err"; fail "an interrupted compare exited $code, not 130"; }
  [[ $(tail -1 "$work/err") == "augur: interrupted (SIGINT)" ]] ||
    { cat "$work/err"; fail "an interrupted compare does not say so in one line"; }
  ! pgrep -f -- "--out $work/int/" > /dev/null || fail "a run of the interrupted compare still runs"
  [[ ! -e $work/int/runs/loopback-classic-n2 ]] || fail "a run started after the interruption"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok ($case_name)"
