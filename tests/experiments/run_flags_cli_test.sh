#!/usr/bin/env bash
# The training commands refuse what they would otherwise ignore or misread,
# with one line on stderr and exit 2: a flag for another workload or sampling
# scheme, an explicit 0 where a default used to stand in, conflicting aliases,
# a negative seed, a duration or bandwidth without a unit (--stall-timeout too), a cluster shape
# beyond the bounds, a repeated flag, a trace file that cannot be written, a
# costs file without a worker cost, a data set whose test split is empty or
# whose corpus has no training pair. A kge run that explodes from its first
# batches is reported as diverged (exit 1). Usage: run_flags_cli_test.sh AUGUR
augur=$1
source "$(dirname "$0")/cli_lib.sh"

# Small data sets: a generated rating matrix, a knowledge graph, a text corpus.
"$augur" data mf --rows 60 --cols 20 --nnz 400 --out "$work/mf" > /dev/null
for e in $(seq 0 59); do
  printf 'e%d\tr%d\te%d\n' "$e" $((e % 3)) $(((e * 7 + 1) % 60)) >> "$work/kg.tsv"
  printf 'e%d\tr%d\te%d\n' "$e" $(((e + 1) % 3)) $(((e * 11 + 3) % 60)) >> "$work/kg.tsv"
done
"$augur" data kg --train "$work/kg.tsv" --split 10,10 --out "$work/kg" > /dev/null
printf 'the cat sat on the mat\nthe dog ate the cat\nthe cat ran\n' > "$work/tiny.txt"
"$augur" data text --in "$work/tiny.txt" --out "$work/tiny" > /dev/null
mf=(--workload mf --data "$work/mf" --epochs 1)
sim=(sim --nodes 2 --workers 1 --no-progress)
zipf=(--workload zipf --keys 100 --batches 2)

# --- flags the run would ignore -----------------------------------------------------
expect_refused 2 "--data does not apply to --workload zipf" "$augur" "${sim[@]}" "${zipf[@]}" --data "$work/mf"
expect_refused 2 "--sampling does not apply to --workload mf" "$augur" "${sim[@]}" "${mf[@]}" --sampling pool
expect_refused 2 "--reg does not apply to --workload kge" "$augur" "${sim[@]}" --workload kge --data "$work/kg" --reg 0.5
expect_refused 2 "--verify does not apply to --workload mf" "$augur" "${sim[@]}" "${mf[@]}" --verify
expect_refused 2 "--window does not apply to --workload mf" "$augur" single "${mf[@]}" --window 3
expect_refused 2 "--mf-rows sizes the matrix" "$augur" "${sim[@]}" "${mf[@]}" --mf-rows 5
expect_refused 2 "--reuse is for --sampling pool" "$augur" "${sim[@]}" --workload kge --data "$work/kg" --reuse 3
expect_refused 2 "--keys does not apply" "$augur" launch --local 2 -- "${mf[@]}" --keys 5
ok "flags for another workload or scheme are refused"
"$augur" "${sim[@]}" --workload kge --data "$work/kg" --epochs 1 --eval-triples 5 \
  --sampling pool --reuse 2 --out "$work/pool" > /dev/null || fail "--reuse with pool was refused"
ok "--reuse with --sampling pool runs"

# --- an explicit value is used or refused, never replaced by the default ------------
expect_refused 2 "--lr must be" "$augur" single "${mf[@]}" --lr 0
expect_refused 2 "--lr: 'inf' is not a finite number" "$augur" single "${mf[@]}" --lr inf
# A number out of range is named as such (strtod made it inf or 0 without a word).
expect_refused 2 "--lr: '1e-400' underflows to 0" "$augur" single "${mf[@]}" --lr 1e-400
expect_refused 2 "--compute-per-key: '1e400' is out of range" "$augur" "${sim[@]}" "${zipf[@]}" --compute-per-key 1e400
expect_refused 2 "--link-latency: '1e-400us': '1e-400' underflows to 0" "$augur" "${sim[@]}" "${zipf[@]}" \
  --link-latency 1e-400us
expect_refused 2 "--dim must be" "$augur" single "${mf[@]}" --dim 0
expect_refused 2 "--batch-size must be" "$augur" single "${mf[@]}" --batch-size 0
expect_refused 2 "--negatives must be" "$augur" single --workload kge --data "$work/kg" --negatives 0
expect_refused 2 "--workers and --threads are the same" "$augur" single "${mf[@]}" --workers 2 --threads 1
expect_refused 2 "--seed: '-3' must be >= 0" "$augur" single "${mf[@]}" --seed -3
expect_refused 2 "--compute-per-key must be >= 0" "$augur" "${sim[@]}" "${zipf[@]}" --compute-per-key -1
"$augur" single "${mf[@]}" --lr 0.01 --dim 4 --out "$work/explicit" > /dev/null
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["config"]["mf"]; assert abs(m["learning_rate"]-0.01)<1e-9 and m["rank"]==4, m' \
  "$work/explicit/result.json" || fail "explicit --lr/--dim not in result.json"
ok "explicit zeros are refused; explicit values are used"

# --- units, bounds, repeats, files ----------------------------------------------------
expect_refused 2 "'5' has no unit" "$augur" "${sim[@]}" "${zipf[@]}" --link-latency 5
expect_refused 2 "has no unit" "$augur" "${sim[@]}" "${zipf[@]}" --link-bandwidth 10
expect_refused 2 "--stall-timeout: '5' has no unit" "$augur" "${sim[@]}" "${zipf[@]}" --stall-timeout 5
expect_refused 2 "--stall-timeout: '-1s' is not a duration" "$augur" "${sim[@]}" "${zipf[@]}" \
  --stall-timeout -1s
expect_refused 2 "--stall-timeout is a cluster flag" "$augur" single "${mf[@]}" --stall-timeout 1s
"$augur" "${sim[@]}" "${zipf[@]}" --stall-timeout 0 --out "$work/no-watchdog" > /dev/null ||
  fail "--stall-timeout 0 was refused"
grep -q '"stall_timeout_seconds": 0' "$work/no-watchdog/result.json" ||
  fail "--stall-timeout 0 not in result.json"
expect_refused 2 "host speed '0Gf' must be > 0" "$augur" "${sim[@]}" "${zipf[@]}" --host-speed 0Gf
expect_refused 2 "--workers must be in \[1, 1024\]" "$augur" single "${mf[@]}" --workers 100000
expect_refused 2 "--nodes must be in \[1, 4096\]" "$augur" sim --nodes 100000 "${zipf[@]}"
expect_refused 2 "--nodes x --workers is 4194304" "$augur" sim --nodes 4096 --workers 1024 "${zipf[@]}"
expect_refused 2 "--nodes is given 2 times" "$augur" sim --nodes 2 --nodes 3 "${zipf[@]}"
expect_refused 2 "--trace: cannot write /proc/" "$augur" "${sim[@]}" "${zipf[@]}" --trace /proc/none/t.paje
"$augur" "${sim[@]}" "${zipf[@]}" --trace "$work/new/dir/t.paje" > /dev/null ||
  fail "--trace into a new directory failed"
[ -s "$work/new/dir/t.paje" ] || fail "--trace wrote nothing"
printf '{"workload": "mf", "seconds_per_key": -1, "seconds_per_message": 1e-6, "seconds_per_message_byte": 0}\n' > "$work/costs.json"
expect_refused 2 "has no worker cost \(seconds_per_sample" "$augur" "${sim[@]}" "${mf[@]}" --costs "$work/costs.json"
# A core count that is not a whole number >= 1 (nlohmann wrapped -2 and truncated 2.5).
for cores in 0 -2 2.5; do
  printf '{"seconds_per_key": 1e-7, "seconds_per_message": 1e-6, "seconds_per_message_byte": 0, "cores": %s}\n' \
    "$cores" > "$work/cores.json"
  expect_refused 2 "costs file $work/cores.json: cores is $cores \(expected a whole number in \[1, 4096\]\)" \
    "$augur" "${sim[@]}" "${zipf[@]}" --costs "$work/cores.json"
done
expect_refused 2 "--peer-timeout must be > 0" "$augur" launch --local 2 -- "${mf[@]}" --peer-timeout 0s
# A platform SimGrid would abort on: one line instead (exit 2, bad input as a wrong flag).
cat > "$work/good.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf" core="2"/>
    <host id="b" speed="1Gf" core="2"/>
    <link id="l" bandwidth="1GBps" latency="10us"/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
  </zone>
</platform>
XML
sed 's/1Gf/0f/g' "$work/good.xml" > "$work/zerospeed.xml"
sed 's/core="2"/core="0"/g' "$work/good.xml" > "$work/zerocore.xml"
sed 's/1GBps/0Bps/' "$work/good.xml" > "$work/zerobw.xml"
sed 's/10us/-10us/' "$work/good.xml" > "$work/neglat.xml"
expect_refused 2 "host 'a' has speed 0" "$augur" "${sim[@]}" "${zipf[@]}" --platform "$work/zerospeed.xml"
expect_refused 2 "zerocore.xml:5: core=\"0\": a host needs at least one core" "$augur" "${sim[@]}" "${zipf[@]}" --platform "$work/zerocore.xml"
expect_refused 2 "link 'l' has bandwidth 0" "$augur" "${sim[@]}" "${zipf[@]}" --platform "$work/zerobw.xml"
expect_refused 2 "neglat.xml:7: latency=\"-10us\": a link's latency must be >= 0" "$augur" "${sim[@]}" "${zipf[@]}" --platform "$work/neglat.xml"
# A third host without a route to the others: SimGrid aborted at its first message.
sed 's|<link id="l"|<host id="c" speed="1Gf" core="2"/>\n    &|' "$work/good.xml" > "$work/noroute.xml"
expect_refused 2 "noroute.xml: no route from host 'a' to host 'c'" "$augur" sim --nodes 3 --workers 1 \
  --no-progress "${zipf[@]}" --platform "$work/noroute.xml"
head -c 120 "$work/good.xml" > "$work/cut.xml"
expect_refused 2 "cannot load platform .*cut.xml" "$augur" "${sim[@]}" "${zipf[@]}" --platform "$work/cut.xml"
"$augur" "${sim[@]}" "${zipf[@]}" --platform "$work/good.xml" > /dev/null || fail "a sound platform XML was refused"
expect_refused 2 "--threads must be at least 1" "$augur" single "${mf[@]}" --threads 0
expect_refused 2 "--checkpoint-every: must be at least 1" "$augur" "${sim[@]}" "${zipf[@]}" \
  --checkpoint-dir "$work/ck" --checkpoint-every 0
expect_refused 2 "--checkpoint-every 5 is more than --epochs 2" "$augur" "${sim[@]}" "${zipf[@]}" \
  --epochs 2 --checkpoint-dir "$work/ck" --checkpoint-every 5
expect_refused 2 "--checkpoint-dir $work/good.xml is a file" "$augur" "${sim[@]}" "${zipf[@]}" \
  --checkpoint-dir "$work/good.xml"
expect_refused 2 "--threads: must be at least 1" "$augur" compare --backend sim "${mf[@]}" --threads 0 \
  --out "$work/cmp"
expect_refused 2 "--out $work is a directory" "$augur" calibrate --workload mf --data "$work/mf" --out "$work"
expect_refused 2 "--out: cannot write /proc/none/c.json.tmp" "$augur" calibrate --workload zipf --out /proc/none/c.json
expect_refused 2 "--blocks 100 is more than --batches 10" "$augur" bench-net --blocks 100 --batches 10
expect_refused 2 "SLURM_PROCID=1 and OMPI_COMM_WORLD_RANK=0 disagree" \
  env SLURM_PROCID=1 OMPI_COMM_WORLD_RANK=0 SLURM_NTASKS=2 "$augur" run "${zipf[@]}" --coordinator 127.0.0.1:1
expect_refused 2 "the rank comes from SLURM_PROCID but the size from OMPI_COMM_WORLD_SIZE" \
  env SLURM_PROCID=1 OMPI_COMM_WORLD_SIZE=2 "$augur" run "${zipf[@]}" --coordinator 127.0.0.1:1
mkdir "$work/empty-ck" && : > "$work/empty-ck/LATEST"
expect_refused 2 "LATEST is empty" "$augur" "${sim[@]}" "${zipf[@]}" --resume "$work/empty-ck"
ok "units, bounds, repeated flags, trace and costs files"

# --- data that cannot give a result -----------------------------------------------------
mkdir "$work/mf-notest"
cp "$work/mf"/* "$work/mf-notest/"
: > "$work/mf-notest/test.tsv"
expect_refused 2 "test" "$augur" single --workload mf --data "$work/mf-notest" --epochs 1
expect_refused 2 "no \(center, context\) pair" "$augur" single --workload wv --data "$work/tiny" --epochs 1
expect_refused 2 "no held-out sentence" "$augur" single --workload wv --data "$work/tiny" --epochs 1 --subsample 0
"$augur" single --workload wv --data "$work/tiny" --epochs 1 --subsample 0 --no-eval > /dev/null ||
  fail "wv with --no-eval on a corpus without held-out sentences failed"
ok "an empty test split or no training pair is an error"

# --- a kge run that explodes from its first batches -------------------------------------
rc=0
"$augur" single --workload kge --data "$work/kg" --epochs 2 --threads 1 --lr 1000 \
  --out "$work/boom" > "$work/boom.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$work/boom.log"; fail "kge at --lr 1000 exited $rc, expected 1"; }
grep -q "training diverged" "$work/boom.log" || { cat "$work/boom.log"; fail "no divergence message"; }
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["diverged"] is True and "quality" not in j' \
  "$work/boom/result.json" || fail "the exploded kge run is not recorded as diverged"
"$augur" single --workload kge --data "$work/kg" --epochs 2 --threads 1 --out "$work/calm" > /dev/null ||
  fail "kge at the default learning rate was stopped"
ok "a kge run that explodes at once is diverged"

# A worker that diverges early in epoch 2 while another has yet to leave epoch 1's barrier:
# every worker stops after the same barrier (the late one left a barrier early, and the
# cluster waited for it forever).
rc=0
timeout 120 "$augur" loopback --nodes 4 --policy replicate-all --workers 4 --workload mf \
  --mf-rows 600 --mf-cols 200 --mf-nnz 8000 --epochs 2 --lr 1 --out "$work/late-stop" \
  > "$work/late-stop.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$work/late-stop.log"; fail "mf diverging in epoch 2 exited $rc, expected 1 (124: it hung)"; }
grep -q "training diverged in epoch 2" "$work/late-stop.log" || { cat "$work/late-stop.log"; fail "no divergence message"; }
ok "a divergence seen early in an epoch stops every worker after the same barrier"

# --- Ctrl-C ends a simulation with one line and exit 130 ---------------------------------
"$augur" sim --nodes 4 --workers 2 --no-progress --workload zipf --keys 100000 --batches 1000000 \
  --out "$work/interrupted" > /dev/null 2> "$work/sigint.err" &
pid=$!
# Interrupted once it computes (its handler is installed before the simulation starts).
for _ in $(seq 300); do
  [ "$(ps -o cputimes= -p "$pid" 2>/dev/null | tr -d ' ')" -ge 1 ] 2>/dev/null && break
  sleep 0.1
done
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 130 ] || { cat "$work/sigint.err"; fail "an interrupted sim exited $rc, expected 130"; }
grep -q "augur: interrupted (SIGINT)" "$work/sigint.err" || { cat "$work/sigint.err"; fail "no interruption line"; }
ok "Ctrl-C on augur sim: one line, exit 130"

# --- a binary rebuilt (replaced) while it runs: its later runs still start ---------------
cp "$augur" "$work/augur-copy"
"$work/augur-copy" compare --backend sim --workload mf --mf-rows 2000 --mf-cols 400 \
  --mf-nnz 30000 --epochs 2 --workers 2 --policies classic,adaptive --nodes 1,2 --no-plots \
  --out "$work/replaced" > "$work/replaced.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  [ -s "$work/replaced.log" ] && break  # it started: its first line is out
  sleep 0.05
done
rm "$work/augur-copy"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/replaced.log"; fail "compare failed once its binary was deleted ($rc)"; }
ok "compare's runs start from the running binary, not its (deleted) path"

# A directory another run holds (this shell takes the lock as augur does:
# flock on DIR/.augur-lock, holding its pid) is refused; once it is released
# the same directory is reused, and a run's --out and --checkpoint-dir may be
# one directory. Two runs sharing one were undetected and overwrote each other.
mkdir "$work/busy"
echo $$ > "$work/busy/.augur-lock"
exec 9>> "$work/busy/.augur-lock"
flock 9
expect_refused 2 "^augur: error: --out: $work/busy is in use by another augur run \(pid $$\)$" \
  "$augur" loopback --nodes 2 --workers 1 "${zipf[@]}" --out "$work/busy"
expect_refused 2 "--checkpoint-dir: $work/busy is in use by another augur run \(pid $$\)" \
  "$augur" "${sim[@]}" "${zipf[@]}" --checkpoint-dir "$work/busy"
expect_refused 2 "--out: $work/busy is in use by another augur run \(pid $$\)" \
  "$augur" single "${mf[@]}" --out "$work/busy"
expect_refused 2 "--out: $work/busy is in use by another augur run \(pid $$\)" \
  "$augur" compare --backend loopback --policies classic --nodes 2 "${mf[@]}" --out "$work/busy"
exec 9>&-
"$augur" loopback --nodes 2 --workers 1 "${zipf[@]}" --out "$work/busy" --checkpoint-dir "$work/busy" \
  > /dev/null || fail "a released directory (as --out and --checkpoint-dir at once) was refused"
"$augur" loopback --nodes 2 --workers 1 "${zipf[@]}" --out "$work/busy" > /dev/null ||
  fail "the lock outlived the run that held it"
ok "a directory another run holds is refused, and reused once released"

# Each summary names its clock: a simulation's times are simulated (it said "model time",
# the loopback runtime's words).
"$augur" "${sim[@]}" "${zipf[@]}" --out "$work/clock-sim" > "$work/clock.log" 2>&1 || fail "a small sim failed"
grep -q "^  total .* s (simulated time), wall " "$work/clock.log" || { cat "$work/clock.log"; fail "sim's summary does not say simulated time"; }
"$augur" loopback --nodes 2 --workers 1 "${zipf[@]}" --out "$work/clock-lb" > "$work/clock.log" 2>&1 || fail "a small loopback run failed"
grep -q "^  total .* s (model time), wall " "$work/clock.log" || { cat "$work/clock.log"; fail "loopback's summary does not say model time"; }
ok "the run summary names its clock"

# The matrix mf generates is checked under its own flags' names, before any run (compare's
# baseline failed with "--nnz must be at most half of rows*cols", a flag it does not take).
expect_refused 2 "^augur: error: --mf-nnz 100 must be at most half of --mf-rows x --mf-cols \(4 x 4\)$" \
  "$augur" single --workload mf --mf-rows 4 --mf-cols 4 --mf-nnz 100 --epochs 1
expect_refused 2 "^augur: error: --mf-skew must be a finite number >= 0$" \
  "$augur" "${sim[@]}" --workload mf --mf-skew -1 --epochs 1
expect_refused 2 "the flags of run single \(\`augur single\`\) are refused, so nothing was run: --mf-nnz 100" \
  "$augur" compare --backend loopback --workload mf --mf-rows 4 --mf-cols 4 --mf-nnz 100 \
  --policies classic --nodes 2 --out "$work/cmp-nnz"
ok "the generated mf matrix's sizes are refused under --mf-* names, before any run"

# An output directory that cannot be created is refused before training, exit 2 (it was
# found where the result or the first checkpoint was written, after training, exit 1).
touch "$work/a-file"
expect_refused 2 "^augur: error: --out: $work/a-file/x: cannot create it: Not a directory$" \
  "$augur" single "${mf[@]}" --out "$work/a-file/x"
expect_refused 2 "^augur: error: --out: $work/a-file/x: cannot create it: Not a directory$" \
  "$augur" loopback --nodes 2 --workers 1 "${zipf[@]}" --out "$work/a-file/x"
expect_refused 2 "^augur: error: --checkpoint-dir: $work/a-file/ck: cannot create it: Not a directory$" \
  "$augur" "${sim[@]}" "${mf[@]}" --checkpoint-every 1 --checkpoint-dir "$work/a-file/ck" \
  --out "$work/ck-out"
expect_refused 2 "^augur: error: --out: $work/a-file/x: cannot create it: Not a directory$" \
  "$augur" launch --local 2 -- "${zipf[@]}" --workers 1 --out "$work/a-file/x"
ok "an --out or --checkpoint-dir that cannot be created is refused up front"

# calibrate refuses up front what its runs refused only after minutes of measuring.
expect_refused 2 "--measure-workers 5000 \(the calibration runs' --workers\): --workers must be in \[1, 1024\]" \
  "$augur" calibrate --workload zipf --measure-workers 5000 --out "$work/c.json"
expect_refused 2 "--checkpoint-dir /proc/augur-ck: cannot create it" \
  "$augur" calibrate --workload zipf --checkpoint-dir /proc/augur-ck --out "$work/c.json"
# SIGTERM: calibrate stops its run and removes its temporary directory (it stayed in /tmp).
ls -d /tmp/augur-calibrate-* 2> /dev/null | sort > "$work/tmp-before" || true
"$augur" calibrate --workload zipf --out "$work/c.json" > /dev/null 2> "$work/cal.err" &
cal=$!
for _ in $(seq 600); do  # until its directory exists (it is made after the handler is set)
  ls -d /tmp/augur-calibrate-* 2> /dev/null | sort > "$work/tmp-now" || true
  [ -n "$(comm -13 "$work/tmp-before" "$work/tmp-now")" ] && break
  sleep 0.1
done
mine=$(comm -13 "$work/tmp-before" "$work/tmp-now")
[ -n "$mine" ] || { kill "$cal"; fail "calibrate made no temporary directory"; }
kill -TERM "$cal"
rc=0
wait "$cal" || rc=$?
[ "$rc" -eq 143 ] || { tail -3 "$work/cal.err" >&2; fail "calibrate exited $rc on SIGTERM, expected 143"; }
grep -q "calibrate interrupted (SIGTERM); its temporary directory was removed" "$work/cal.err" ||
  { tail -3 "$work/cal.err" >&2; fail "no line saying calibrate was interrupted"; }
for d in $mine; do [ ! -e "$d" ] || fail "calibrate left $d behind on SIGTERM"; done
ok "calibrate: bad run flags refused up front, its temporary directory removed on SIGTERM"
