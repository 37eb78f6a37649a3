#!/usr/bin/env bash
# A model larger than this machine's memory is refused before anything is
# allocated: one line on stderr naming the size flags, the estimate and the
# machine's memory, exit 2; from the flags (mf's generated matrix, zipf's
# keys) for every training command, and from the data (an mf directory whose
# meta.json declares 2^30 x 2^30) after loading it. The sizes are hundreds of
# terabytes, beyond any machine this runs on. The commands run under
# `ulimit -v`, so a check that is missing fails with "out of memory" rather
# than exhausting the machine. And a std::bad_alloc that still happens, on any
# thread, is one line and exit 1. Usage: model_memory_cli_test.sh AUGUR
augur=$1
source "$(dirname "$0")/cli_lib.sh"

refused() {  # refused PATTERN ARGS...: augur ARGS exits 2, one line matching PATTERN
  local pattern=$1
  shift
  (
    ulimit -v 8000000
    expect_refused 2 "$pattern" "$augur" "$@"
  ) || exit 1
}
big_mf=(--workload mf --dim 16384 --mf-rows 1000000000 --mf-cols 1000000000)
estimate="at least [0-9.]+ [TPE]B of memory \(2,000,000,000 rows, 32,768,000,000,000 floats of 4 bytes, and 6 MB of generated ratings; --dim 16384, --mf-rows 1000000000, --mf-cols 1000000000, --mf-nnz 500000\), more than this machine's [0-9.]+ [kMGT]?B: make the model smaller"

# --- sized by the flags -------------------------------------------------------------
refused "^augur: error: the model needs $estimate\$" single "${big_mf[@]}"
refused "the model \(all 4 nodes in this process\) needs $estimate" \
  loopback --nodes 4 --workers 1 "${big_mf[@]}"
refused "the model \(all 2 nodes in this process\) needs $estimate" \
  sim --nodes 2 --workers 1 --no-progress "${big_mf[@]}"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
chmod 600 "$work/secret"
refused "one node's share \(1/4\) of the model needs at least [0-9.]+ [TPE]B of memory" \
  run --rank 1 --nodes 4 --secret-file "$work/secret" "${big_mf[@]}"
refused "the 2 local ranks' shares of the model need $estimate" launch --local 2 -- "${big_mf[@]}"
refused "needs at least [0-9.]+ [PE]B of memory \(1,000,000,000,000,000 rows, .*--keys 1000000000000000, --dim 16\)" \
  loopback --nodes 2 --workload zipf --keys 1000000000000000
refused "the 2 local ranks' shares of the model need $estimate" calibrate --workload mf --dim 16384 --mf-rows 1000000000 \
  --mf-cols 1000000000 --out "$work/costs.json"
# compare: before any run starts (its baseline's --check-flags).
refused "the flags of run single \(\`augur single\`\) are refused, so nothing was run: the model needs $estimate" \
  compare --backend loopback --policies classic --nodes 2 --workers 1 "${big_mf[@]}" --out "$work/cmp"
[ ! -e "$work/cmp/runs" ] || fail "compare started a run"
ok "a model the flags make too large is refused by every training command"

# --- sized by the data --------------------------------------------------------------
# An mf directory declaring 2^30 rows and columns (meta.json) around two ratings.
mkdir -p "$work/wide"
printf '{"format": "augur-mf-1", "rows": 1073741824, "cols": 1073741824}\n' > "$work/wide/meta.json"
printf '0\t0\t1.0\n' > "$work/wide/train.tsv"
printf '1\t1\t2.0\n' > "$work/wide/test.tsv"
wide="at least [0-9.]+ [TPE]B of memory \(2,147,483,648 rows, 35,184,372,088,832 floats of 4 bytes; --dim 16384 on the rows of $work/wide\), more than this machine's"
refused "^augur: the model needs $wide" single --workload mf --data "$work/wide" --dim 16384
refused "the model \(all 2 nodes in this process\) needs $wide" \
  loopback --nodes 2 --workers 1 --workload mf --data "$work/wide" --dim 16384
refused "the model \(all 2 nodes in this process\) needs $wide" \
  sim --nodes 2 --workers 1 --no-progress --workload mf --data "$work/wide" --dim 16384
ok "a model the data makes too large is refused after loading it, before allocating it"

# A model that fits the machine but not the address space `ulimit -v` leaves (2 GB of rows
# against 1.5 GB): std::bad_alloc on a worker thread (its evaluation pulls every row) is one
# line and exit 1, not an abort (it was "terminate called after throwing ...", exit 134).
(
  ulimit -v 1500000
  ulimit -c 0
  expect_refused 1 "^augur: out of memory \(a smaller run" "$augur" loopback --nodes 1 --workers 1 \
    --workload mf --mf-rows 1000000 --mf-cols 1000000 --mf-nnz 1000 --dim 256 --epochs 1
) || exit 1
ok "out of memory on a worker thread is one line, exit 1"

# A model that fits runs as before.
"$augur" single --workload mf --mf-rows 60 --mf-cols 20 --mf-nnz 400 --out "$work/fits" > /dev/null ||
  fail "a small model was refused"
ok "a small model runs"
